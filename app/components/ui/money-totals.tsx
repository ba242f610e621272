import { useTranslation } from "~/lib/i18n";

/** What an order or a cart comes to. */
export interface MoneyTotalsValue {
  subtotalCents: number;
  shippingCents: number;
  totalCents: number;
}

/** An order row's amounts as totals. */
export function orderTotals(order: {
  subtotal_cents: number;
  shipping_cents: number;
  total_cents: number;
}): MoneyTotalsValue {
  return { subtotalCents: order.subtotal_cents, shippingCents: order.shipping_cents, totalCents: order.total_cents };
}

/**
 * Subtotal, shipping ("Free" at zero) and the order total, bold, as a definition list: the
 * cart, checkout, payment and order pages, and the admin's order.
 */
export function MoneyTotals({
  money,
  totals,
  className = "",
  totalClassName = "",
  testIds = { total: "order-total" },
}: {
  money: (cents: number) => string;
  totals: MoneyTotalsValue;
  className?: string;
  /** More classes for the total's row (a rule above it, some space). */
  totalClassName?: string;
  /** The amounts' test ids; the total's is "order-total" unless given. */
  testIds?: { subtotal?: string; shipping?: string; total?: string };
}) {
  const { t } = useTranslation();
  return (
    <dl className={className}>
      <div className="flex justify-between">
        <dt>{t("cart.subtotal")}</dt>
        <dd data-testid={testIds.subtotal}>{money(totals.subtotalCents)}</dd>
      </div>
      <div className="flex justify-between">
        <dt>{t("cart.shipping")}</dt>
        <dd data-testid={testIds.shipping}>
          {totals.shippingCents === 0 ? t("cart.free") : money(totals.shippingCents)}
        </dd>
      </div>
      <div className={`flex justify-between text-base font-bold ${totalClassName}`}>
        <dt>{t("cart.orderTotal")}</dt>
        <dd data-testid={testIds.total}>{money(totals.totalCents)}</dd>
      </div>
    </dl>
  );
}
