import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect } from "react";
import { data, Form, Link, useRevalidator } from "react-router";
import { z } from "zod";
import { DailyChart } from "~/components/admin/daily-chart";
import { OrderStatusBadge } from "~/components/admin/order-status-badge";
import { ErrorList, Field, inputClass, StatusButton } from "~/components/ui/field";
import { services } from "~/context";
import { requireAdmin } from "~/lib/auth.server";
import { formatDate } from "~/lib/dates";
import { setFlash } from "~/lib/flash.server";
import { useTranslation } from "~/lib/i18n";
import { formatMoney } from "~/lib/money";
import { formatPersonName } from "~/lib/person-name";
import { readForm } from "~/lib/read-form";
import { getInstance, getLanguage } from "~/middleware/i18next";
import {
  type CurrencyTotal,
  getAnalytics,
  getBusinessMetrics,
  getDailySeries,
  listRecentOrders,
} from "~/models/analytics.server";
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
    language: getLanguage(context),
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

// Captions in stone-600: at least 4.5:1 on white (stone-400 was 2.58:1).
function Stat({ label, value, hint }: { label: string; value: string | number; hint?: string }) {
  return (
    <div className="rounded-lg bg-white p-4 shadow-sm">
      <p className="text-sm text-stone-600">{label}</p>
      <p className="mt-1 text-2xl font-bold">{value}</p>
      {hint ? <p className="text-xs text-stone-600">{hint}</p> : null}
    </div>
  );
}

/** Amounts per currency, each with its number of orders; never one sum across currencies. */
function MoneyStat({
  label,
  hint,
  totals,
  empty,
  testId,
}: {
  label: string;
  hint: string;
  totals: CurrencyTotal[];
  empty: string;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="rounded-lg bg-white p-4 shadow-sm" data-testid={testId}>
      <p className="text-sm text-stone-600">{label}</p>
      {totals.length === 0 ? (
        <p className="mt-1 text-sm text-stone-600">{empty}</p>
      ) : (
        <ul className="mt-1 space-y-0.5">
          {totals.map((total) => (
            <li key={total.currency} data-currency={total.currency} className="flex flex-wrap items-baseline gap-x-2">
              <span className="text-xl font-bold tabular-nums">{formatMoney(total.cents, total.currency)}</span>
              <span className="text-xs text-stone-600">{t("dashboard.orderCount", { count: total.count })}</span>
            </li>
          ))}
        </ul>
      )}
      <p className="mt-1 text-xs text-stone-600">{hint}</p>
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
  const { analytics, daily, metrics, recent, language } = d;
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
        <div className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="business">
          <Stat label={t("dashboard.totalProducts")} value={metrics.totalProducts} />
          <Stat label={t("dashboard.totalOrders")} value={metrics.totalOrders} />
          <Stat label={t("dashboard.uniqueCustomers")} value={metrics.uniqueCustomers} />
          <MoneyStat
            testId="revenue"
            label={t("dashboard.revenue")}
            hint={t("dashboard.revenueHint")}
            totals={metrics.revenue}
            empty={t("dashboard.noRevenue")}
          />
          <MoneyStat
            testId="pending"
            label={t("dashboard.pending")}
            hint={t("dashboard.pendingHint")}
            totals={metrics.pending}
            empty={t("dashboard.noPending")}
          />
          <Stat label={t("dashboard.inventoryValue")} value={formatMoney(metrics.inventoryValueHkdCents, "HKD")} />
        </div>
      </section>
      <section className="mt-8 rounded-lg bg-white p-4 shadow-sm" aria-labelledby="recent-heading">
        <h2 id="recent-heading" className="text-lg font-semibold">
          {t("dashboard.recentOrders")}
        </h2>
        {recent.length === 0 ? (
          <p className="mt-2 text-sm text-stone-600">{t("dashboard.noRecentOrders")}</p>
        ) : (
          // A list, not a table: each order is one block that wraps on a phone, and the whole
          // block is the order's link target (the ORD number is the link's text).
          <ul className="mt-2 divide-y divide-stone-100" data-testid="recent-orders">
            {recent.map((order) => (
              <li
                key={order.id}
                className="relative flex flex-wrap items-center gap-x-4 gap-y-1 py-2 text-sm hover:bg-stone-50"
                data-testid="recent-order"
              >
                <div className="min-w-0 flex-1 basis-64">
                  <Link
                    to={`/admin/orders/${order.id}`}
                    className="font-mono text-brand-700 after:absolute after:inset-0 hover:underline"
                  >
                    {order.orderNumber}
                  </Link>
                  <p className="truncate font-medium" data-testid="recent-customer">
                    {formatPersonName(order.firstName, order.lastName) || t("dashboard.unknown")}
                  </p>
                </div>
                <OrderStatusBadge status={order.status} />
                <p className="ml-auto text-right">
                  <span className="block font-semibold tabular-nums">
                    {formatMoney(order.totalCents, order.currency)}
                  </span>
                  <time dateTime={order.createdAt} className="block text-xs text-stone-600">
                    {formatDate(order.createdAt, language, "dateTime")}
                  </time>
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
