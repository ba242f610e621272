import { getZodConstraint } from "@conform-to/zod/v4";
import { data, Form, redirect } from "react-router";
import { NewPasswordFields } from "~/components/store/new-password-fields";
import { StoreNotice } from "~/components/store/store-notice";
import { StatusButton } from "~/components/ui/field";
import { useServerForm } from "~/components/ui/use-server-form";
import { services } from "~/context";
import { formAction, UserError } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import { consumeAccountToken, peekAccountToken } from "~/models/account-token.server";
import { titleWithShop } from "~/models/settings/shop.server";
import { setPassword } from "~/models/user.server";
import { setFlash } from "~/request/flash.server";
import { resetPasswordSchema } from "~/schemas/auth";
import type { Route } from "./+types/reset-password";

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const valid = token.length > 10 && (await peekAccountToken(services(context).db, token, "reset")) !== null;
  const t = getInstance(context).t;
  return data(
    {
      token,
      valid,
      // Validation runs on the server only (the action); the browser gets the schema's HTML
      // constraints, not Zod (docs/decisions/015).
      constraint: getZodConstraint(resetPasswordSchema),
      title: await titleWithShop(context, t("reset.title")),
    },
    { status: valid ? 200 : 400 },
  );
}

/** Uses the link once, sets the password and ends every session of the account. */
export const action = formAction<Route.ActionArgs, typeof resetPasswordSchema, void, Response>(
  { schema: resetPasswordSchema, hideFields: ["password", "confirm"] },
  async ({ context, value }) => {
    const { db } = services(context);
    const userId = await consumeAccountToken(db, value.token, "reset");
    // A used or expired link: the page says so and offers a new one.
    if (!userId) throw new UserError("reset.invalidTitle", { detailKey: "reset.invalidText" });
    await setPassword(db, userId, value.password);
    setFlash(context, { type: "success", key: "flash.passwordReset", detailKey: "flash.passwordResetDetail" });
    return redirect("/login");
  },
);

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [form, fields] = useServerForm<typeof resetPasswordSchema>(actionData?.result, loaderData.constraint);
  if (!loaderData.valid || actionData?.problem) return <StoreNotice notice="resetLink" />;
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-3xl font-bold">{t("reset.title")}</h1>
      <Form
        method="post"
        {...form.props}
        className="mt-8 flex flex-col gap-4 rounded-lg border border-stone-200 bg-white p-6 shadow-sm"
      >
        <input type="hidden" name="token" value={loaderData.token} />
        <NewPasswordFields password={fields.password} confirm={fields.confirm} />
        <StatusButton pendingText={t("auth.pending")}>{t("reset.submit")}</StatusButton>
      </Form>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Reset password");
