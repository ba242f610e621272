import { data, Form, Link, redirect } from "react-router";
import { StatusButton } from "~/components/ui/field";
import { services } from "~/context";
import { setFlash } from "~/lib/flash.server";
import { useTranslation } from "~/lib/i18n";
import { readForm } from "~/lib/read-form";
import { consumeAccountToken, peekAccountToken } from "~/models/account-token.server";
import { markEmailVerified } from "~/models/user.server";
import type { Route } from "./+types/verify-email";

/**
 * The link in the sign-up e-mail (when EMAIL_VERIFICATION is on). Opening it changes nothing
 * (mail scanners prefetch links); the shopper confirms with a button, a POST.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const valid = token.length > 10 && (await peekAccountToken(services(context).db, token, "verify")) !== null;
  return data({ token, valid }, { status: valid ? 200 : 400 });
}

export async function action({ request, context }: Route.ActionArgs) {
  const token = String((await readForm(request)).get("token") ?? "");
  const { db } = services(context);
  const userId = token.length > 10 ? await consumeAccountToken(db, token, "verify") : null;
  if (!userId) return data({ valid: false }, { status: 400 });
  await markEmailVerified(db, userId);
  setFlash(context, { type: "success", key: "flash.emailVerified", detailKey: "flash.emailVerifiedDetail" });
  return redirect("/login");
}

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  if (!loaderData.valid || actionData?.valid === false) {
    return (
      <div className="mx-auto max-w-md px-4 py-12">
        <h1 className="text-2xl font-bold">{t("verify.invalidTitle")}</h1>
        <p className="mt-2 text-stone-600">{t("verify.invalidText")}</p>
        <Link to="/login?mode=signup" className="mt-6 inline-block font-semibold text-brand-700 hover:underline">
          {t("auth.toSignup")}
        </Link>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-2xl font-bold">{t("email.verifyHeading")}</h1>
      <Form method="post" className="mt-6">
        <input type="hidden" name="token" value={loaderData.token} />
        <StatusButton pendingText={t("auth.pending")}>{t("email.verifyAction")}</StatusButton>
      </Form>
    </div>
  );
}
