import { AccountNeeded } from "~/components/account-needed";
import { ButtonLink } from "~/components/ui/button";
import { useTranslation } from "~/lib/i18n";
import { formatMoney } from "~/lib/money";
import type { Cart } from "~/models/cart.server";

/** The cart page's summary: subtotal, shipping, total, and the way on to checkout when the cart allows it. */
export function CartSummaryPanel({ cart, signedIn }: { cart: Cart; signedIn: boolean }) {
  const { t } = useTranslation();
  const money = (cents: number) => formatMoney(cents, cart.currency);
  return (
    <aside className="h-fit rounded-lg border border-stone-200 bg-white p-5" aria-labelledby="summary-heading">
      <h2 id="summary-heading" className="text-lg font-semibold">
        {t("cart.summary")}
      </h2>
      <dl className="mt-4 space-y-2 text-sm">
        <div className="flex justify-between">
          <dt>{t("cart.subtotal")}</dt>
          <dd data-testid="subtotal">{money(cart.subtotalCents)}</dd>
        </div>
        <div className="flex justify-between">
          <dt>{t("cart.shipping")}</dt>
          <dd data-testid="shipping">{cart.shippingCents === 0 ? t("cart.free") : money(cart.shippingCents)}</dd>
        </div>
        <div className="flex justify-between border-t border-stone-200 pt-2 text-base font-bold">
          <dt>{t("cart.orderTotal")}</dt>
          <dd data-testid="total">{money(cart.totalCents)}</dd>
        </div>
      </dl>
      {cart.shippingRule.freeAboveCents !== null ? (
        <p className="mt-2 text-xs text-stone-500">
          {t("cart.freeShippingNote", { amount: money(cart.shippingRule.freeAboveCents) })}
        </p>
      ) : null}
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
    </aside>
  );
}
