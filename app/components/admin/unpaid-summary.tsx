import { Link } from "react-router";
import { useTranslation } from "~/lib/i18n";
import type { Language } from "~/locales";
import type { ReceiptQueueSummary, UnpaidByAge } from "~/models/orders/desk.server";

/**
 * How long ago `from` was at `at`, in the reader's language ("5 hours ago", "5 小時前"): minutes
 * under an hour, hours under two days, then days. `at` comes from the loader, so the server's
 * HTML and the browser's render agree.
 */
export function formatAge(from: string, at: string, language: Language): string {
  const minutes = Math.max(0, Math.floor((Date.parse(at) - Date.parse(from)) / 60_000));
  const format = new Intl.RelativeTimeFormat(language === "zh" ? "zh-Hant-HK" : "en", { numeric: "always" });
  if (minutes < 60) return format.format(-minutes, "minute");
  if (minutes < 48 * 60) return format.format(-Math.floor(minutes / 60), "hour");
  return format.format(-Math.floor(minutes / 1440), "day");
}

const TILE = "flex min-w-0 flex-col rounded-lg border bg-white px-3 py-2 shadow-sm hover:bg-stone-50";

/**
 * What needs the admin at a glance: receipts waiting for review (with the oldest one's age) and
 * unpaid orders by age, each a link to the orders list filtered to them. Dashboard and orders
 * screen alike.
 */
export function UnpaidSummary({
  queue,
  unpaid,
  at,
  language,
  className = "",
}: {
  queue: ReceiptQueueSummary;
  unpaid: UnpaidByAge;
  at: string;
  language: Language;
  className?: string;
}) {
  const { t } = useTranslation();
  const buckets = [
    { key: "under24h", count: unpaid.under24h, to: "/admin/orders?status=pending_payment", alert: false },
    { key: "from24hTo48h", count: unpaid.from24hTo48h, to: "/admin/orders?status=pending_payment", alert: false },
    { key: "overdue", count: unpaid.overdue, to: "/admin/orders?status=overdue", alert: unpaid.overdue > 0 },
  ] as const;
  return (
    <section aria-labelledby="unpaid-summary-heading" className={className} data-testid="unpaid-summary">
      <h2 id="unpaid-summary-heading" className="sr-only">
        {t("adminOrders.queue.heading")}
      </h2>
      <div className="grid gap-2 sm:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))]">
        <Link
          to="/admin/orders?status=review"
          className={`${TILE} ${queue.waiting > 0 ? "border-amber-300 bg-amber-50" : "border-stone-200"}`}
          data-testid="receipt-queue"
        >
          <span className="font-semibold text-stone-900">
            {t("adminOrders.queue.receipts", { count: queue.waiting })}
          </span>
          {queue.oldestUploadedAt ? (
            <span className="text-sm text-stone-700">
              {t("adminOrders.queue.oldest", { age: formatAge(queue.oldestUploadedAt, at, language) })}
            </span>
          ) : null}
        </Link>
        <div className="grid grid-cols-3 gap-2 sm:contents">
          {buckets.map((bucket) => (
            <Link
              key={bucket.key}
              to={bucket.to}
              className={`${TILE} ${bucket.alert ? "border-red-300 bg-red-50" : "border-stone-200"}`}
              data-testid={`unpaid-${bucket.key}`}
            >
              <span className="text-xs text-stone-600">
                <span className="sr-only">{t("adminOrders.queue.unpaid")}: </span>
                {t(`adminOrders.queue.${bucket.key}`)}
              </span>
              <span className={`text-xl font-bold tabular-nums ${bucket.alert ? "text-red-800" : "text-stone-900"}`}>
                {bucket.count}
              </span>
            </Link>
          ))}
        </div>
      </div>
      <p className="mt-1 text-xs text-stone-600">{t("adminOrders.queue.ageNote")}</p>
    </section>
  );
}
