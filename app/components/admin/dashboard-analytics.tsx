import { useEffect } from "react";
import { Link, useRevalidator } from "react-router";
import { AdminSection } from "~/components/admin/admin-section";
import { DailyChart } from "~/components/admin/daily-chart";
import { StatCard } from "~/components/admin/stat-card";
import { OrderStatusBadge } from "~/components/order-status-badge";
import { formatDate } from "~/lib/dates";
import { useTranslation } from "~/lib/i18n";
import { formatMoney } from "~/lib/money";
import { formatPersonName } from "~/lib/person-name";
import type { Language } from "~/locales";
import type { Analytics, BusinessMetrics, CurrencyTotal, DailyPoint, RecentOrder } from "~/models/analytics.server";

interface DashboardData {
  analytics: Analytics;
  daily: DailyPoint[];
  metrics: BusinessMetrics;
  recent: RecentOrder[];
  language: Language;
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
export function AnalyticsPanel({ data: d }: { data: DashboardData }) {
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
      <AdminSection id="analytics" look="bare" className="mt-8" heading={t("dashboard.analytics")}>
        <div className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="analytics">
          <StatCard
            label={t("dashboard.totalViews")}
            value={analytics.totalViews}
            hint={t("dashboard.totalViewsHint")}
          />
          <StatCard
            label={t("dashboard.uniqueVisitors")}
            value={analytics.uniqueVisitors}
            hint={t("dashboard.uniqueVisitorsHint")}
          />
          <StatCard label={t("dashboard.viewsToday")} value={analytics.viewsToday} />
          <StatCard label={t("dashboard.visitorsToday")} value={analytics.visitorsToday} />
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
      </AdminSection>
      <AdminSection id="business" look="bare" className="mt-8" heading={t("dashboard.business")}>
        <div className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="business">
          <StatCard label={t("dashboard.totalProducts")} value={metrics.totalProducts} />
          <StatCard label={t("dashboard.totalOrders")} value={metrics.totalOrders} />
          <StatCard label={t("dashboard.uniqueCustomers")} value={metrics.uniqueCustomers} />
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
          <StatCard label={t("dashboard.inventoryValue")} value={formatMoney(metrics.inventoryValueHkdCents, "HKD")} />
        </div>
      </AdminSection>
      <AdminSection id="recent" className="mt-8" heading={t("dashboard.recentOrders")}>
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
      </AdminSection>
    </>
  );
}
