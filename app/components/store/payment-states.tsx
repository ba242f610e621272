import { useEffect } from "react";
import { useNavigate } from "react-router";
import { useTranslation } from "~/lib/i18n";

/** The order is in (JavaScript): what happens next, then on to the success page after 3 s. */
export function Submitted({ orderNumber, unpaid = false }: { orderNumber: string; unpaid?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate(`/payment-success?order=${encodeURIComponent(orderNumber)}`), 3000);
    return () => clearTimeout(timer);
  }, [navigate, orderNumber]);
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-3 px-4 py-20 text-center" role="status">
      <p className="text-5xl">✓</p>
      <h1 className="text-2xl font-bold">{t(unpaid ? "payment.placedUnpaid" : "payment.paymentSubmitted")}</h1>
      {unpaid ? null : <p className="text-stone-700">{t("payment.paymentSubmittedDetail")}</p>}
      <p className="font-semibold">{t("success.orderNumber", { number: orderNumber })}</p>
      <p className="text-sm text-stone-500">{t("payment.redirecting")}</p>
    </div>
  );
}
