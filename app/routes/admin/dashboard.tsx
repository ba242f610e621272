import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect } from "react";
import { data, Form, Link, useRevalidator } from "react-router";
import { z } from "zod";
import { DailyChart } from "~/components/admin/daily-chart";
import { OrderStatusBadge } from "~/components/admin/order-status-badge";
import { ErrorList, Field, inputClass, StatusButton } from "~/components/ui/field";
import { services } from "~/context";
import { requireAdmin } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { useTranslation } from "~/lib/i18n";
import { formatMoney } from "~/lib/money";
import { readForm } from "~/lib/read-form";
import { getInstance } from "~/middleware/i18next";
import { getAnalytics, getBusinessMetrics, getDailySeries, listRecentOrders } from "~/models/analytics.server";
import { findUserByEmail, grantAdmin } from "~/models/user.server";
import { emailField } from "~/schemas/auth";
import type { Route } from "./+types/dashboard";

const grantSchema = z.object({ intent: z.literal("grant"), email: emailField });

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const { db } = services(context);
  const admins = await db
    .selectFrom("admin_users")
    .leftJoin("users", "users.id", "admin_users.user_id")
    .select(["admin_users.id", "admin_users.email", "users.email as user_email", "admin_users.created_at"])
    .orderBy("admin_users.created_at")
    .execute();
  const [analytics, daily, metrics, recent] = await Promise.all([
    getAnalytics(db),
    getDailySeries(db, 30),
    getBusinessMetrics(db),
    listRecentOrders(db, 5),
  ]);
  const t = getInstance(context).t;
  return {
    analytics,
    daily,
    metrics,
    recent,
    email: admin.email,
    admins: admins.map((row) => ({ id: row.id, email: row.user_email ?? row.email ?? "" })),
    title: `${t("admin.dashboard")} | ${t("admin.title")}`,
  };
}

/** Grant the admin right to an existing account (e.g. a member of staff). Admins only. */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = requireAdmin(context, request);
  const { db } = services(context);
  const submission = parseWithZod(await readForm(request), { schema: grantSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const user = await findUserByEmail(db, submission.value.email);
  if (!user) return data(submission.reply({ fieldErrors: { email: ["adminHome.noSuchAccount"] } }), { status: 400 });
  const granted = await grantAdmin(db, user);
  await db
    .insertInto("audit_log")
    .values({
      actor_user_id: admin.id,
      action: "admin.grant",
      entity_type: "user",
      entity_id: user.id,
      details: JSON.stringify({ email: user.email, granted }),
      created_at: new Date().toISOString(),
    })
    .execute();
  setFlash(context, {
    type: "success",
    key: granted ? "adminHome.granted" : "adminHome.alreadyAdmin",
    params: { email: user.email },
  });
  return data(submission.reply({ resetForm: true }));
}

export default function Dashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const emailErrors = actionData?.status === "error" ? actionData.error?.email : undefined;
  return (
    <div className="max-w-6xl">
      <h1 className="text-2xl font-bold">{t("admin.welcome", { email: loaderData.email })}</h1>
      <p className="mt-1 text-stone-600">{t("admin.welcomeText")}</p>
      <AnalyticsPanel data={loaderData} />
      <section className="mt-8 rounded-lg bg-white p-6 shadow-sm">
        <h2 className="text-lg font-semibold">{t("adminHome.adminsTitle")}</h2>
        <ul className="mt-3 list-disc pl-6 text-sm">
          {loaderData.admins.map((row) => (
            <li key={row.id}>{row.email}</li>
          ))}
        </ul>
        <Form method="post" className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
          <input type="hidden" name="intent" value="grant" />
          <div className="flex-1">
            <Field label={t("adminHome.grantLabel")} htmlFor="grant-email" hint={t("adminHome.grantHint")}>
              <input id="grant-email" name="email" type="email" required className={inputClass} />
            </Field>
            <ErrorList errors={emailErrors} />
          </div>
          <StatusButton>{t("adminHome.grantSubmit")}</StatusButton>
        </Form>
      </section>
    </div>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.title ?? "Admin" }, { name: "robots", content: "noindex" }];
}

type DashboardData = Route.ComponentProps["loaderData"];

function Stat({ label, value, hint }: { label: string; value: string | number; hint?: string }) {
  return (
    <div className="rounded-lg bg-white p-4 shadow-sm">
      <p className="text-sm text-stone-500">{label}</p>
      <p className="mt-1 text-2xl font-bold">{value}</p>
      {hint ? <p className="text-xs text-stone-400">{hint}</p> : null}
    </div>
  );
}

/** Analytics, the 30-day chart, business metrics and recent orders; with JavaScript they refresh every 30 s. */
function AnalyticsPanel({ data: d }: { data: DashboardData }) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") void revalidator.revalidate();
    }, 30_000);
    return () => clearInterval(timer);
  }, [revalidator]);
  const { analytics, daily, metrics, recent } = d;
  return (
    <>
      <section className="mt-8" aria-labelledby="analytics-heading">
        <h2 id="analytics-heading" className="text-lg font-semibold">
          {t("dashboard.analytics")}
        </h2>
        <div className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="analytics">
          <Stat label={t("dashboard.totalViews")} value={analytics.totalViews} hint={t("dashboard.totalViewsHint")} />
          <Stat
            label={t("dashboard.uniqueVisitors")}
            value={analytics.uniqueVisitors}
            hint={t("dashboard.uniqueVisitorsHint")}
          />
          <Stat label={t("dashboard.viewsToday")} value={analytics.viewsToday} />
          <Stat label={t("dashboard.visitorsToday")} value={analytics.visitorsToday} />
        </div>
        <div className="mt-4 grid gap-4 lg:grid-cols-[2fr_1fr]">
          <div className="rounded-lg bg-white p-4 shadow-sm">
            <h3 className="mb-2 font-semibold">{t("dashboard.chartTitle")}</h3>
            <DailyChart points={daily} />
          </div>
          <div className="rounded-lg bg-white p-4 shadow-sm">
            <h3 className="mb-2 font-semibold">{t("dashboard.popularPages")}</h3>
            {analytics.popularPages.length === 0 ? (
              <p className="text-sm text-stone-500">{t("dashboard.noViews")}</p>
            ) : (
              <ol className="space-y-1 text-sm" data-testid="popular-pages">
                {analytics.popularPages.map((page) => (
                  <li key={page.path} className="flex justify-between gap-2">
                    <span className="truncate font-mono">{page.path}</span>
                    <span className="text-stone-600">{t("dashboard.views", { count: page.views })}</span>
                  </li>
                ))}
              </ol>
            )}
          </div>
        </div>
      </section>
      <section className="mt-8" aria-labelledby="business-heading">
        <h2 id="business-heading" className="text-lg font-semibold">
          {t("dashboard.business")}
        </h2>
        <div className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-5" data-testid="business">
          <Stat label={t("dashboard.totalProducts")} value={metrics.totalProducts} />
          <Stat label={t("dashboard.totalOrders")} value={metrics.totalOrders} />
          <Stat label={t("dashboard.uniqueCustomers")} value={metrics.uniqueCustomers} />
          <div className="rounded-lg bg-white p-4 shadow-sm">
            <p className="text-sm text-stone-500">{t("dashboard.revenue")}</p>
            {metrics.revenue.length === 0 ? (
              <p className="mt-1 text-sm text-stone-500">{t("dashboard.noRevenue")}</p>
            ) : (
              <ul className="mt-1 font-bold">
                {metrics.revenue.map((row) => (
                  <li key={row.currency}>{formatMoney(row.cents, row.currency)}</li>
                ))}
              </ul>
            )}
          </div>
          <Stat label={t("dashboard.inventoryValue")} value={formatMoney(metrics.inventoryValueHkdCents, "HKD")} />
        </div>
      </section>
      <section className="mt-8 rounded-lg bg-white p-4 shadow-sm" aria-labelledby="recent-heading">
        <h2 id="recent-heading" className="text-lg font-semibold">
          {t("dashboard.recentOrders")}
        </h2>
        {recent.length === 0 ? (
          <p className="mt-2 text-sm text-stone-500">{t("dashboard.noRecentOrders")}</p>
        ) : (
          <div className="mt-2 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="text-stone-500">
                <tr>
                  <th className="py-1 pr-4">{t("dashboard.order")}</th>
                  <th className="py-1 pr-4">{t("dashboard.customer")}</th>
                  <th className="py-1 pr-4">{t("dashboard.status")}</th>
                  <th className="py-1 text-right">{t("dashboard.amount")}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-100">
                {recent.map((order) => (
                  <tr key={order.id}>
                    <td className="py-1.5 pr-4 font-mono">
                      <Link to={`/admin/orders/${order.id}`} className="text-brand-700 hover:underline">
                        {order.shortId}
                      </Link>
                    </td>
                    <td className="py-1.5 pr-4 font-mono">{order.customer || t("dashboard.unknown")}</td>
                    <td className="py-1.5 pr-4">
                      <OrderStatusBadge status={order.status} />
                    </td>
                    <td className="py-1.5 text-right font-semibold">{formatMoney(order.totalCents, order.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
