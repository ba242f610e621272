import { useTranslation } from "~/lib/i18n";

/** What an order or a cart comes to. */
export interface MoneyTotalsValue {
  subtotalCents: number;
  shippingCents: number;
  totalCents: number;
  /** The discount code's line (docs/decisions/048): shown between the subtotal and shipping. */
  discount?: { code: string; cents: number } | null;
}

/** An order row's amounts as totals. */
export function orderTotals(order: {
  subtotal_cents: number;
  shipping_cents: number;
  total_cents: number;
  discount_code?: string | null;
  discount_cents?: number;
}): MoneyTotalsValue {
  // An order's subtotal_cents is after its discount (db/schema.ts): the page shows the lines' sum.
  return {
    subtotalCents: order.subtotal_cents + (order.discount_code ? (order.discount_cents ?? 0) : 0),
    shippingCents: order.shipping_cents,
    totalCents: order.total_cents,
    discount: order.discount_code ? { code: order.discount_code, cents: order.discount_cents ?? 0 } : null,
  };
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
      {totals.discount ? (
        <div className="flex justify-between text-green-700 dark:text-green-400">
          <dt>{t("discounts.line", { code: totals.discount.code })}</dt>
          <dd data-testid="discount-amount">{money(-totals.discount.cents)}</dd>
        </div>
      ) : null}
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
