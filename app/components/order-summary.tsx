import type { ReactNode } from "react";
import type { Currency } from "#db/schema";
import { HeadedPanel } from "~/components/ui/headed-panel";
import { MoneyTotals, type MoneyTotalsValue } from "~/components/ui/money-totals";
import { useTranslation } from "~/lib/i18n";
import { localized, variantName } from "~/lib/localize";
import { formatMoney } from "~/lib/money";
import type { Language } from "~/locales";
import type { Cart } from "~/models/cart.server";

/** A line of a cart or an order, with its names in both languages. */
export interface SummaryLine {
  key: string | number;
  name_en: string;
  name_zh: string;
  /** The colour's English name (DEFAULT_COLOR for a product without colour options). */
  color: string;
  color_zh: string | null;
  /** The second option's value, when the product has one (docs/decisions/054). */
  option_value?: string | null;
  option_value_zh?: string | null;
  quantity: number;
  lineTotalCents: number;
  /** False for a cart line that can no longer be bought (shown, not counted). */
  available?: boolean;
}

/** Lines in the reader's language, subtotal, shipping ('Free' at zero) and total: checkout, payment and order pages. */
export function OrderSummary({
  lines,
  language,
  currency,
  totals,
  children,
}: {
  lines: SummaryLine[];
  language: Language;
  currency: Currency;
  totals: MoneyTotalsValue;
  /** Shown under the totals: the discount code field. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const money = (cents: number) => formatMoney(cents, currency);
  return (
    <HeadedPanel as="aside" headingId="order-summary-heading" title={t("cart.summary")} className="h-fit">
      <ul className="mt-3 divide-y divide-stone-100 text-sm">
        {lines.map((line) => (
          <li key={line.key} className="flex justify-between gap-3 py-2">
            <span>
              {localized(line, "name", language)}
              {variantName(line, language) ? (
                <span className="text-stone-500"> · {variantName(line, language)}</span>
              ) : null}
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
      <MoneyTotals
        money={money}
        totals={totals}
        className="mt-3 space-y-1 border-t border-stone-200 pt-3 text-sm"
        totalClassName="pt-1"
      />
      {children}
    </HeadedPanel>
  );
}

/** The summary of a cart, in the reader's language (checkout and payment). */
export function CartSummary({ cart, language, children }: { cart: Cart; language: Language; children?: ReactNode }) {
  const lines = cart.lines.map((line) => ({ ...line, key: line.id }));
  return (
    <OrderSummary lines={lines} language={language} currency={cart.currency} totals={cart}>
      {children}
    </OrderSummary>
  );
}
