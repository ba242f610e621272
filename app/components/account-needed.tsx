import { Link } from "react-router";
import { useTranslation } from "~/lib/i18n";

const BACK_TO_CHECKOUT = encodeURIComponent("/checkout");

/**
 * Tells a signed-out shopper, before they fill in checkout, that placing an order needs an
 * account; both links bring them back to checkout (their cart comes along).
 */
export function AccountNeeded({ className = "" }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <section
      aria-labelledby="account-needed-heading"
      className={`rounded-md border border-sky-300 bg-sky-50 px-4 py-3 text-sm text-sky-950 ${className}`}
      data-testid="account-needed"
    >
      <h2 id="account-needed-heading" className="font-semibold">
        {t("checkout.accountNeeded")}
      </h2>
      <p className="mt-1">{t("checkout.accountNeededText")}</p>
      <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
        <Link to={`/login?redirectTo=${BACK_TO_CHECKOUT}`} className="font-semibold text-sky-900 underline">
          {t("checkout.signIn")}
        </Link>
        <Link to={`/login?mode=signup&redirectTo=${BACK_TO_CHECKOUT}`} className="font-semibold text-sky-900 underline">
          {t("checkout.signUp")}
        </Link>
      </p>
    </section>
  );
}
