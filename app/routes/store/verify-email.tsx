import { data, Form, redirect } from "react-router";
import { StoreNotice } from "~/components/store/store-notice";
import { StatusButton } from "~/components/ui/field";
import { services } from "~/context";
import { formAction, UserError } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { consumeAccountToken, peekAccountToken } from "~/models/account-token.server";
import { markEmailVerified } from "~/models/user.server";
import { setFlash } from "~/request/flash.server";
import { verifyEmailSchema } from "~/schemas/auth";
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

/** Uses the link once; a used, expired or garbled one answers 400 and the page says the link is invalid. */
export const action = formAction<Route.ActionArgs, typeof verifyEmailSchema, void, Response>(
  { schema: verifyEmailSchema },
  async ({ context, value }) => {
    const { db } = services(context);
    const userId = await consumeAccountToken(db, value.token, "verify");
    if (!userId) throw new UserError("verify.invalidTitle");
    await markEmailVerified(db, userId);
    setFlash(context, { type: "success", key: "flash.emailVerified", detailKey: "flash.emailVerifiedDetail" });
    return redirect("/login");
  },
);

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  // Any answer that is not a redirect is a refusal: the link cannot be used.
  if (!loaderData.valid || actionData) return <StoreNotice notice="verifyLink" />;
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
