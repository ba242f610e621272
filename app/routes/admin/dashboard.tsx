import { Form, Link } from "react-router";
import { z } from "zod";
import { AnalyticsPanel } from "~/components/admin/dashboard-analytics";
import { FailedMessagesWarning } from "~/components/admin/messages";
import { UnpaidSummary } from "~/components/admin/unpaid-summary";
import { ErrorList, Field, inputClass, StatusButton } from "~/components/ui/field";
import { services } from "~/context";
import { formAction, succeed } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { getAnalytics, getBusinessMetrics, getDailySeries, listRecentOrders } from "~/models/analytics.server";
import { receiptQueueSummary, unpaidByAge } from "~/models/orders/desk.server";
import { countFailedMessages } from "~/models/outbox/admin-list.server";
import { listFeaturedProducts } from "~/models/products/cards.server";
import { grantAdminByEmail, listAdmins } from "~/models/user.server";
import { ownerOnly, requireAdmin } from "~/request/auth.server";
import { emailField } from "~/schemas/auth";
import type { Route } from "./+types/dashboard";

const grantSchema = z.object({ intent: z.literal("grant"), email: emailField });

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const owner = admin.role === "owner";
  const { db } = services(context);
  const at = new Date();
  const [admins, analytics, daily, metrics, recent, queue, unpaid, failedMessages, featured] = await Promise.all([
    // The admins list and the grant form are the owner's.
    owner ? listAdmins(db) : Promise.resolve([]),
    getAnalytics(db),
    getDailySeries(db, 30),
    getBusinessMetrics(db),
    listRecentOrders(db, 5),
    receiptQueueSummary(db, at),
    unpaidByAge(db, at),
    // Messages that failed for good: the dashboard warns until they are sent again.
    countFailedMessages(db),
    // Nothing featured: the home page shows shoppers a neutral note; the admins are told here what to do.
    listFeaturedProducts(db, "HKD", 1),
  ]);
  const t = getInstance(context).t;
  return {
    analytics,
    daily,
    metrics,
    recent,
    queue,
    unpaid,
    failedMessages,
    noFeatured: featured.length === 0,
    at: at.toISOString(),
    language: getLanguage(context),
    email: admin.email,
    admins,
    owner,
    title: `${t("admin.dashboard")} | ${t("admin.title")}`,
  };
}

/** Grant the owner's admin right to an existing account. The owner only (staff: /admin/staff). */
export const action = formAction(
  { schema: grantSchema, authorize: ownerOnly },
  async ({ context, form, value, auth }) => {
    const { user, granted } = await grantAdminByEmail(services(context).db, auth, value.email);
    return succeed(context, form, {
      redirectTo: "/admin",
      flash: {
        type: "success",
        key: granted ? "adminHome.granted" : "adminHome.alreadyAdmin",
        params: { email: user.email },
      },
    });
  },
);

export default function Dashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const emailErrors = actionData?.result?.error?.email;
  return (
    <div className="max-w-6xl">
      {/* An e-mail is one long word: it may break anywhere rather than push the page sideways. */}
      <h1 className="text-2xl font-bold [overflow-wrap:anywhere]">{t("admin.welcome", { email: loaderData.email })}</h1>
      <p className="mt-1 text-stone-600">{t("admin.welcomeText")}</p>
      <FailedMessagesWarning count={loaderData.failedMessages} className="mt-6" />
      {loaderData.noFeatured ? (
        <div
          className="mt-6 rounded-md border border-dashed border-amber-400 bg-amber-50 p-4 text-stone-800"
          data-testid="featured-empty-admin"
        >
          <p>{t("home.noFeaturedAdmin")}</p>
          <p className="mt-2">
            <Link to="/admin/products" className="font-semibold text-brand-700 underline">
              {t("home.noFeaturedAdminLink")}
            </Link>
          </p>
          <p className="mt-2 text-sm text-stone-600">{t("home.noFeaturedAdminNote")}</p>
        </div>
      ) : null}
      <UnpaidSummary
        queue={loaderData.queue}
        unpaid={loaderData.unpaid}
        at={loaderData.at}
        language={loaderData.language}
        className="mt-6"
      />
      <AnalyticsPanel data={loaderData} />
      {loaderData.owner ? (
        <section className="mt-8 rounded-lg bg-white p-6 shadow-sm">
          <h2 className="text-lg font-semibold">{t("adminHome.adminsTitle")}</h2>
          <p className="mt-1 text-sm">
            <Link to="/admin/staff" className="font-medium text-brand-700 underline hover:no-underline">
              {t("adminStaff.manageLink")}
            </Link>
          </p>
          <ul className="mt-3 list-disc pl-6 text-sm [overflow-wrap:anywhere]">
            {loaderData.admins.map((row) => (
              <li key={row.id}>{row.email}</li>
            ))}
          </ul>
          <Form method="post" className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
            <input type="hidden" name="intent" value="grant" />
            <div className="flex-1">
              <Field label={t("adminHome.grantLabel")} htmlFor="grant-email" hint={t("adminHome.grantHint")}>
                <input
                  id="grant-email"
                  name="email"
                  type="email"
                  required
                  defaultValue={actionData?.result?.initialValue?.email?.toString()}
                  className={inputClass}
                />
              </Field>
              <ErrorList errors={emailErrors} />
            </div>
            <StatusButton>{t("adminHome.grantSubmit")}</StatusButton>
          </Form>
        </section>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Admin");
