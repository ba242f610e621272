import { useTranslation } from "~/lib/i18n";
import { refundState } from "~/models/orders/refund-state";

/**
 * "Refunded" or "Partially refunded" next to an order's status (docs/decisions/057), on the
 * admin's order page and list and on the shopper's pages; nothing for an order with no refund.
 */
export function RefundBadge({
  order,
  className = "text-xs",
}: {
  order: { total_cents: number; refunded_cents: number };
  className?: string;
}) {
  const { t } = useTranslation();
  const state = refundState(order);
  if (state === "none") return null;
  return (
    <span
      className={`inline-block whitespace-nowrap rounded px-2 py-0.5 font-medium ${state === "full" ? "bg-rose-100 text-rose-900" : "bg-orange-100 text-orange-900"} ${className}`}
      data-testid="refund-state"
    >
      {t(state === "full" ? "refunds.refunded" : "refunds.partiallyRefunded")}
    </span>
  );
}
