import { useTranslation } from "~/lib/i18n";

/** The colours of each order status, wherever one is shown. */
export const ORDER_STATUS_TONES: Record<string, string> = {
  pending_payment: "bg-amber-100 text-amber-900",
  paid: "bg-green-100 text-green-900",
  processing: "bg-sky-100 text-sky-900",
  shipped: "bg-indigo-100 text-indigo-900",
  delivered: "bg-emerald-100 text-emerald-900",
  cancelled: "bg-stone-200 text-stone-700",
};

/** An order's status in the reader's language; an unknown status is shown neutral. */
export function OrderStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <span
      className={`inline-block whitespace-nowrap rounded px-2 py-0.5 text-xs font-medium ${ORDER_STATUS_TONES[status] ?? "bg-stone-100 text-stone-800"}`}
      data-testid="order-status"
    >
      {t(`orders.statuses.${status}`, { defaultValue: status })}
    </span>
  );
}
