import { getZodConstraint } from "@conform-to/zod/v4";
import { Form, Link, redirect } from "react-router";
import { NewPasswordFields } from "~/components/store/new-password-fields";
import { PasswordField, StatusButton } from "~/components/ui/field";
import { useServerForm } from "~/components/ui/use-server-form";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { formAction } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { titleWithShop } from "~/models/settings/shop.server";
import { changePassword, findUserById } from "~/models/user.server";
import { type CurrentUser, requireUser, signedInOnly } from "~/request/auth.server";
import { setFlash } from "~/request/flash.server";
import { getSession, hashToken, rotateSession } from "~/request/session.server";
import { changePasswordSchema } from "~/schemas/auth";
import type { Route } from "./+types/account";

export async function loader({ request, context }: Route.LoaderArgs) {
  const current = requireUser(context, request);
  const user = await findUserById(services(context).db, current.id);
  if (!user) throw redirect("/login");
  const t = getInstance(context).t;
  return {
    email: user.email,
    memberSince: user.created_at,
    language: getLanguage(context),
    // Validation runs on the server only (the action); the browser gets the schema's HTML
    // constraints, not Zod (docs/decisions/015).
    constraint: getZodConstraint(changePasswordSchema),
    title: await titleWithShop(context, t("account.title")),
  };
}

/** Changes the password (the current one first) and ends every other session of the account. */
export const action = formAction<Route.ActionArgs, typeof changePasswordSchema, CurrentUser, Response>(
  {
    schema: changePasswordSchema,
    authorize: signedInOnly,
    hideFields: ["current", "password", "confirm"],
  },
  async ({ context, value, auth }) => {
    const { db } = services(context);
    const session = getSession(context);
    await changePassword(db, auth.id, value, session.token ? hashToken(session.token) : undefined);
    rotateSession(session);
    setFlash(context, { type: "success", key: "flash.passwordChanged", detailKey: "flash.passwordChangedDetail" });
    return redirect("/account");
  },
);

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [form, fields] = useServerForm<typeof changePasswordSchema>(actionData?.result, loaderData.constraint);
  const since = formatDate(loaderData.memberSince, loaderData.language, "longDate");
  return (
    <div className="mx-auto grid max-w-4xl gap-8 px-4 py-12 md:grid-cols-2">
      <section>
        <h1 className="text-3xl font-bold">{t("account.title")}</h1>
        <dl className="mt-6 space-y-3">
          <div>
            <dt className="text-sm text-stone-500">{t("account.email")}</dt>
            <dd className="font-medium break-all">{loaderData.email}</dd>
          </div>
          <div>
            <dt className="text-sm text-stone-500">{t("account.memberSince")}</dt>
            <dd>{since}</dd>
          </div>
        </dl>
        <div className="mt-6 rounded-lg border border-stone-200 bg-white p-4">
          <h2 className="font-semibold">
            <Link to="/account/orders" className="text-brand-700 hover:underline">
              {t("account.orders")}
            </Link>
          </h2>
          <p className="text-sm text-stone-600">{t("account.ordersText")}</p>
        </div>
      </section>
      <section className="rounded-lg border border-stone-200 bg-white p-6 shadow-sm">
        <h2 className="text-xl font-semibold">{t("account.changePassword")}</h2>
        <p className="mb-4 text-sm text-stone-600">{t("account.otherSessionsNote")}</p>
        <Form method="post" {...form.props} className="flex flex-col gap-4">
          <PasswordField field={fields.current} label={t("account.currentPassword")} autoComplete="current-password" />
          <NewPasswordFields password={fields.password} confirm={fields.confirm} />
          <StatusButton pendingText={t("auth.pending")}>{t("account.savePassword")}</StatusButton>
        </Form>
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Account");
