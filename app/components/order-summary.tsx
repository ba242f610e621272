import type { Currency } from "#db/schema";
import { DEFAULT_COLOR } from "~/lib/colors";
import { useTranslation } from "~/lib/i18n";
import { colorName, localized } from "~/lib/localize";
import { formatMoney } from "~/lib/money";
import type { Language } from "~/locales";
import type { Cart } from "~/models/cart.server";

export interface SummaryLine {
  key: string | number;
  name: string;
  /** The colour in the reader's language; null for a product without colour options. */
  color: string | null;
  quantity: number;
  lineTotalCents: number;
  /** False for a cart line that can no longer be bought (shown, not counted). */
  available?: boolean;
}

/** Lines, subtotal, shipping ('Free' at zero) and total: checkout, payment and order pages. */
export function OrderSummary({
  lines,
  currency,
  subtotalCents,
  shippingCents,
  totalCents,
}: {
  lines: SummaryLine[];
  currency: Currency;
  subtotalCents: number;
  shippingCents: number;
  totalCents: number;
}) {
  const { t } = useTranslation();
  const money = (cents: number) => formatMoney(cents, currency);
  return (
    <aside className="h-fit rounded-lg border border-stone-200 bg-white p-5" aria-labelledby="order-summary-heading">
      <h2 id="order-summary-heading" className="text-lg font-semibold">
        {t("cart.summary")}
      </h2>
      <ul className="mt-3 divide-y divide-stone-100 text-sm">
        {lines.map((line) => (
          <li key={line.key} className="flex justify-between gap-3 py-2">
            <span>
              {line.name}
              {line.color !== null ? <span className="text-stone-500"> · {line.color}</span> : null}
              <span className="text-stone-500"> × {line.quantity}</span>
            </span>
            {line.available === false ? (
              <span className="font-medium text-red-700">{t("cart.unavailable")}</span>
            ) : (
              <span className="whitespace-nowrap">{money(line.lineTotalCents)}</span>
            )}
          </li>
        ))}
      </ul>
      <dl className="mt-3 space-y-1 border-t border-stone-200 pt-3 text-sm">
        <div className="flex justify-between">
          <dt>{t("cart.subtotal")}</dt>
          <dd>{money(subtotalCents)}</dd>
        </div>
        <div className="flex justify-between">
          <dt>{t("cart.shipping")}</dt>
          <dd>{shippingCents === 0 ? t("cart.free") : money(shippingCents)}</dd>
        </div>
        <div className="flex justify-between pt-1 text-base font-bold">
          <dt>{t("cart.orderTotal")}</dt>
          <dd data-testid="order-total">{money(totalCents)}</dd>
        </div>
      </dl>
    </aside>
  );
}

/** The summary of a cart, in the reader's language (checkout and payment). */
export function CartSummary({ cart, language }: { cart: Cart; language: Language }) {
  return (
    <OrderSummary
      lines={cart.lines.map((line) => ({
        key: line.id,
        name: localized(line, "name", language),
        color: line.color === DEFAULT_COLOR ? null : colorName(line, language),
        quantity: line.quantity,
        lineTotalCents: line.lineTotalCents,
        available: line.available,
      }))}
      currency={cart.currency}
      subtotalCents={cart.subtotalCents}
      shippingCents={cart.shippingCents}
      totalCents={cart.totalCents}
    />
  );
}
