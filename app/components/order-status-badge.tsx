import { useTranslation } from "~/lib/i18n";
import type { ShownOrderStatus } from "~/models/orders/status";

/** The colours of each order status (`shownStatus`), wherever one is shown. */
export const ORDER_STATUS_TONES: Record<ShownOrderStatus, string> = {
  pending_payment: "bg-amber-100 text-amber-900",
  receipt_checking: "bg-violet-100 text-violet-900",
  receipt_rejected: "bg-red-100 text-red-800",
  paid: "bg-green-100 text-green-900",
  processing: "bg-sky-100 text-sky-900",
  shipped: "bg-indigo-100 text-indigo-900",
  delivered: "bg-emerald-100 text-emerald-900",
  cancelled: "bg-stone-200 text-stone-700",
};

/**
 * An order's status in the reader's language, in the one vocabulary of admin and shopper pages
 * alike (`shownStatus`, app/models/orders/status.ts).
 */
export function OrderStatusBadge({ status, className = "text-xs" }: { status: ShownOrderStatus; className?: string }) {
  const { t } = useTranslation();
  return (
    <span
      className={`inline-block whitespace-nowrap rounded px-2 py-0.5 font-medium ${ORDER_STATUS_TONES[status] ?? "bg-stone-100 text-stone-800"} ${className}`}
      data-testid="order-status"
    >
      {t(`orders.statuses.${status}`, { defaultValue: status })}
    </span>
  );
}
