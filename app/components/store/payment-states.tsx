import { useEffect, useRef } from "react";
import { useNavigate } from "react-router";
import { useTranslation } from "~/lib/i18n";

/**
 * The order is in (JavaScript): what happens next, then on to the success page after 3 s. It
 * takes the place of the long payment page, whose Submit button the shopper had scrolled down
 * to: the window goes back to the top, where this message is (on a phone it would otherwise show
 * only the footer), and the focus, which was on the vanished button, moves to its heading.
 */
export function Submitted({ orderNumber, unpaid = false }: { orderNumber: string; unpaid?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0, behavior: "instant" });
    heading.current?.focus({ preventScroll: true });
    const timer = setTimeout(() => navigate(`/payment-success?order=${encodeURIComponent(orderNumber)}`), 3000);
    return () => clearTimeout(timer);
  }, [navigate, orderNumber]);
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-3 px-4 py-20 text-center" role="status">
      <p className="text-5xl">✓</p>
      <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold focus:outline-none">
        {t(unpaid ? "payment.placedUnpaid" : "payment.paymentSubmitted")}
      </h1>
      {unpaid ? null : <p className="text-stone-700">{t("payment.paymentSubmittedDetail")}</p>}
      <p className="font-semibold">{t("success.orderNumber", { number: orderNumber })}</p>
      <p className="text-sm text-stone-500">{t("payment.redirecting")}</p>
    </div>
  );
}
