import { useEffect } from "react";
import { useNavigate } from "react-router";
import { ButtonLink } from "~/components/ui/button";
import { MessagePanel } from "~/components/ui/message-panel";
import { useTranslation } from "~/lib/i18n";

/** What each page on the way to an order says when there is nothing to order, and the way on. */
const NOTHING_TO_ORDER = {
  cart: { title: "cart.emptyTitle", text: "cart.emptyText", to: "/category/all", action: "cart.startShopping" },
  checkout: { title: "checkout.emptyTitle", text: "checkout.emptyText", to: "/", action: "checkout.backHome" },
  // No checkout to pay for: nothing in the cart, or no details yet.
  payment: { title: "payment.noOrderTitle", text: "payment.noOrderText", to: "/cart", action: "payment.returnToCart" },
} as const;

/** The cart, checkout or payment page with nothing to order: it says so and offers the one way on. */
export function NothingToOrder({ page }: { page: keyof typeof NOTHING_TO_ORDER }) {
  const { t } = useTranslation();
  const texts = NOTHING_TO_ORDER[page];
  return (
    <MessagePanel
      title={t(texts.title)}
      text={t(texts.text)}
      action={
        <ButtonLink to={texts.to} size={page === "payment" ? "lg" : "md"}>
          {t(texts.action)}
        </ButtonLink>
      }
    />
  );
}

/** The order is in (JavaScript): what happens next, then on to the success page after 3 s. */
export function Submitted({ orderNumber }: { orderNumber: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate(`/payment-success?order=${encodeURIComponent(orderNumber)}`), 3000);
    return () => clearTimeout(timer);
  }, [navigate, orderNumber]);
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-3 px-4 py-20 text-center" role="status">
      <p className="text-5xl">✓</p>
      <h1 className="text-2xl font-bold">{t("payment.paymentSubmitted")}</h1>
      <p className="text-stone-700">{t("payment.paymentSubmittedDetail")}</p>
      <p className="font-semibold">{t("success.orderNumber", { number: orderNumber })}</p>
      <p className="text-sm text-stone-500">{t("payment.redirecting")}</p>
    </div>
  );
}
