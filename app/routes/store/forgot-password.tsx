import { getZodConstraint } from "@conform-to/zod/v4";
import { Form, Link, redirect } from "react-router";
import { FieldFor, FormErrors, inputClass, inputProps, StatusButton } from "~/components/ui/field";
import { useServerForm } from "~/components/ui/use-server-form";
import { requestInfoContext, services } from "~/context";
import { formAction, UserError } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { logger } from "~/lib/log.server";
import { privatePageMeta } from "~/lib/meta";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { sendPasswordResetEmail } from "~/models/account-token.server";
import { titleWithShop } from "~/models/settings/shop.server";
import { findUserByEmail } from "~/models/user.server";
import { setFlash } from "~/request/flash.server";
import { passwordResetsPerAddress } from "~/request/rate-limit.server";
import { forgotPasswordSchema } from "~/schemas/auth";
import type { Route } from "./+types/forgot-password";

export async function loader({ context }: Route.LoaderArgs) {
  const t = getInstance(context).t;
  return {
    // Validation runs on the server only (the action); the browser gets the schema's HTML
    // constraints, not Zod (docs/decisions/015).
    constraint: getZodConstraint(forgotPasswordSchema),
    title: await titleWithShop(context, t("forgot.title")),
  };
}

/** The same answer whether or not the address has an account. */
export const action = formAction<Route.ActionArgs, typeof forgotPasswordSchema, void, Response>(
  { schema: forgotPasswordSchema },
  async ({ context, value }) => {
    const { db, config } = services(context);
    const ip = context.get(requestInfoContext).ip ?? "unknown";
    const wait = await passwordResetsPerAddress.hit(db, ip);
    if (wait > 0) {
      throw new UserError("flash.tooManyAttempts", {
        detailKey: "flash.tooManyAttemptsDetail",
        params: { minutes: Math.ceil(wait / 60) },
        status: 429,
      });
    }
    const user = await findUserByEmail(db, value.email);
    if (user && user.status !== "blocked") {
      try {
        await sendPasswordResetEmail(db, config, user, user.locale === "zh" ? "zh" : getLanguage(context));
      } catch (error) {
        logger.error({ err: error, reqId: context.get(requestInfoContext).trace?.id }, "password reset e-mail failed");
      }
    }
    setFlash(context, { type: "info", key: "flash.resetSent", detailKey: "flash.resetSentDetail" });
    return redirect("/login");
  },
);

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [form, fields] = useServerForm<typeof forgotPasswordSchema>(actionData?.result, loaderData.constraint);
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-3xl font-bold">{t("forgot.title")}</h1>
      <p className="mt-2 text-stone-600">{t("forgot.intro")}</p>
      <Form
        method="post"
        {...form.props}
        className="mt-8 flex flex-col gap-4 rounded-lg border border-stone-200 bg-white p-6 shadow-sm"
      >
        <FormErrors errors={form.errors} params={actionData?.problem?.params} />
        <FieldFor field={fields.email} label={t("auth.email")}>
          <input {...inputProps(fields.email, "email")} autoComplete="email" className={inputClass} />
        </FieldFor>
        <StatusButton pendingText={t("auth.pending")}>{t("forgot.submit")}</StatusButton>
      </Form>
      <p className="mt-6 text-center text-sm">
        <Link to="/login" className="text-brand-700 hover:underline">
          {t("forgot.backToLogin")}
        </Link>
      </p>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Forgot password");
