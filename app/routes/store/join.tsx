import { getZodConstraint } from "@conform-to/zod/v4";
import { data, Form, Link, redirect } from "react-router";
import { NewPasswordFields } from "~/components/store/new-password-fields";
import { StatusButton } from "~/components/ui/field";
import { MessagePanel } from "~/components/ui/message-panel";
import { useServerForm } from "~/components/ui/use-server-form";
import { services } from "~/context";
import { formAction } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { getShop, shopName } from "~/models/settings/shop.server";
import { acceptStaffInvitation, findInvitation } from "~/models/staff-invitations.server";
import { setFlash } from "~/request/flash.server";
import { resetPasswordSchema } from "~/schemas/auth";
import type { Route } from "./+types/join";

/*
 * /join?token=…: the page a staff invitation links to (docs/decisions/042). It reads as an
 * invitation to the shop, and sets the new member of staff's first password; they then sign in
 * to the admin. A used, expired or withdrawn link says so (400) and offers "Forgot password".
 */

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, config } = services(context);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const invitee = await findInvitation(db, config.shopOwnerEmail, token);
  const shop = shopName(await getShop(context), getLanguage(context));
  return data(
    {
      token,
      email: invitee?.email ?? null,
      shop,
      // Validation runs on the server only (the action); the browser gets the schema's HTML
      // constraints (docs/decisions/015).
      constraint: getZodConstraint(resetPasswordSchema),
      title: getInstance(context).t("join.metaTitle", { shop }),
    },
    { status: invitee ? 200 : 400 },
  );
}

/** Uses the link once and sets the password; the invitee then signs in on /admin/login. */
export const action = formAction<Route.ActionArgs, typeof resetPasswordSchema, void, Response>(
  { schema: resetPasswordSchema, hideFields: ["password", "confirm"] },
  async ({ context, value }) => {
    const { db, config } = services(context);
    const { email } = await acceptStaffInvitation(db, config.shopOwnerEmail, value.token, value.password);
    const shop = shopName(await getShop(context), getLanguage(context));
    setFlash(context, {
      type: "success",
      key: "flash.joined",
      detailKey: "flash.joinedDetail",
      params: { shop, email },
    });
    return redirect("/admin/login");
  },
);

export default function Join({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [form, fields] = useServerForm<typeof resetPasswordSchema>(actionData?.result, loaderData.constraint);
  if (!loaderData.email || actionData?.problem) {
    return (
      <MessagePanel
        layout="page"
        title={t("join.invalidTitle")}
        text={t("join.invalidText")}
        action={
          <Link to="/forgot-password" className="mt-6 inline-block font-semibold text-brand-700 hover:underline">
            {t("join.forgot")}
          </Link>
        }
      />
    );
  }
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-3xl font-bold">{t("join.title", { shop: loaderData.shop })}</h1>
      <p className="mt-2 text-stone-600">{t("join.intro", { shop: loaderData.shop, email: loaderData.email })}</p>
      <Form
        method="post"
        {...form.props}
        className="mt-8 flex flex-col gap-4 rounded-lg border border-stone-200 bg-white p-6 shadow-sm"
      >
        <input type="hidden" name="token" value={loaderData.token} />
        <NewPasswordFields password={fields.password} confirm={fields.confirm} />
        <StatusButton pendingText={t("auth.pending")}>{t("join.submit")}</StatusButton>
      </Form>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Join");
