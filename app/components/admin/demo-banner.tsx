import { Link } from "react-router";
import { useTranslation } from "~/lib/i18n";

/**
 * Shown on every admin page while the primary bank account (the one shoppers are told to pay
 * into) is the seeded demo account, with the two ways out: the bank accounts in Settings, and
 * "Remove demo data".
 */
export function DemoAccountBanner({ demoMode, owner = true }: { demoMode: boolean; owner?: boolean }) {
  const { t } = useTranslation();
  return (
    <div
      data-testid="demo-banner"
      className="mb-4 rounded-md border border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-950"
    >
      <p className="font-semibold">{t("adminDemoData.banner")}</p>
      <p className="mt-1">{t(demoMode ? "adminDemoData.bannerDemoMode" : "adminDemoData.bannerLive")}</p>
      {/* Both ways out are the owner's screens: staff see the warning only. */}
      {owner ? (
        <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
          <Link to="/admin/settings#banking-heading" className="font-medium underline hover:no-underline">
            {t("adminDemoData.bankAccounts")}
          </Link>
          <Link to="/admin/demo-data" className="font-medium underline hover:no-underline">
            {t("adminDemoData.remove")}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
