import type { ReactNode } from "react";
import { AccountNeeded } from "~/components/account-needed";
import { ButtonLink } from "~/components/ui/button";
import { HeadedPanel } from "~/components/ui/headed-panel";
import { MoneyTotals } from "~/components/ui/money-totals";
import { useTranslation } from "~/lib/i18n";
import { formatMoney } from "~/lib/money";
import type { Cart } from "~/models/cart.server";

/** The cart page's summary: subtotal, shipping, total, and the way on to checkout when the cart allows it. */
export function CartSummaryPanel({
  cart,
  signedIn,
  children,
}: {
  cart: Cart;
  signedIn: boolean;
  /** Shown under the totals: the discount code field. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const money = (cents: number) => formatMoney(cents, cart.currency);
  return (
    <HeadedPanel as="aside" headingId="summary-heading" title={t("cart.summary")} className="h-fit">
      <MoneyTotals
        money={money}
        totals={cart}
        className="mt-4 space-y-2 text-sm"
        totalClassName="border-t border-stone-200 pt-2"
        testIds={{ subtotal: "subtotal", shipping: "shipping", total: "total" }}
      />
      {cart.shippingRule.freeAboveCents !== null ? (
        <p className="mt-2 text-xs text-stone-500">
          {t("cart.freeShippingNote", { amount: money(cart.shippingRule.freeAboveCents) })}
        </p>
      ) : null}
      {children}
      {cart.unavailable ? (
        <p className="mt-4 text-sm text-red-700">{t("cart.removeUnavailable")}</p>
      ) : cart.overStock ? (
        <p className="mt-4 text-sm text-amber-800">{t("cart.fixQuantities")}</p>
      ) : (
        <ButtonLink to="/checkout" size="lg" className="mt-4 w-full">
          {t("cart.checkout")}
        </ButtonLink>
      )}
      {signedIn ? null : <AccountNeeded className="mt-4" />}
    </HeadedPanel>
  );
}
