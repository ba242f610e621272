import { AdminSection } from "~/components/admin/admin-section";
import { ButtonLink } from "~/components/ui/button";
import type { ContentPageSlug } from "~/content/pages";
import { useTranslation } from "~/lib/i18n";

export interface ShopSummary {
  name: string;
  supportEmail: string;
  senderEmail: string;
  /** Where the shop's alerts go (the support e-mail while none is set). */
  alertEmails: string[];
  /** Each currency's charge; `fromHkd`: it follows the HKD one at the exchange rate. */
  delivery: { currency: string; fee: string; free: string | null; fromHkd: boolean }[];
}

export interface PageSummary {
  slug: ContentPageSlug;
  editedText: string | null;
}

/** Settings → Shop details: what the shop says about itself, with the way to change it. */
export function ShopSection({ shop, pages }: { shop: ShopSummary; pages: PageSummary[] }) {
  const { t } = useTranslation();
  return (
    <AdminSection id="shop" look="part" heading={t("adminShop.summary.heading")} intro={t("adminShop.summary.intro")}>
      <div className="mt-4 grid gap-6 rounded-lg bg-white p-6 shadow-sm md:grid-cols-2">
        <div className="min-w-0">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-stone-600">{t("adminShop.summary.name")}</dt>
            <dd className="break-words font-medium" data-testid="shop-name">
              {shop.name}
            </dd>
            <dt className="text-stone-600">{t("adminShop.summary.supportEmail")}</dt>
            <dd className="break-words">{shop.supportEmail}</dd>
            <dt className="text-stone-600">{t("adminShop.summary.senderEmail")}</dt>
            <dd className="break-words">{shop.senderEmail}</dd>
            <dt className="text-stone-600">{t("adminShop.summary.alerts")}</dt>
            <dd className="break-words" data-testid="alert-emails">
              {shop.alertEmails.join(", ")}
            </dd>
            <dt className="text-stone-600">{t("adminShop.summary.delivery")}</dt>
            <dd>
              <ul>
                {shop.delivery.map((row) => {
                  const rule = row.free
                    ? t("adminShop.summary.deliveryRule", { fee: row.fee, free: row.free })
                    : t("adminShop.summary.deliveryNeverFree", { fee: row.fee });
                  return (
                    <li key={row.currency}>{row.fromHkd ? t("adminShop.summary.deliveryFromHkd", { rule }) : rule}</li>
                  );
                })}
              </ul>
            </dd>
          </dl>
          <ButtonLink to="/admin/settings/shop" className="mt-4">
            {t("adminShop.summary.edit")}
          </ButtonLink>
        </div>
        <div className="min-w-0">
          <h3 id="pages-heading" className="font-semibold">
            {t("adminShop.pages.heading")}
          </h3>
          <p className="text-sm text-stone-600">{t("adminShop.pages.intro")}</p>
          <ul className="mt-2 divide-y divide-stone-200 text-sm">
            {pages.map((page) => {
              const name = t(`footer.${page.slug}`);
              return (
                <li key={page.slug} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <span>
                    <span className="font-medium">{name}</span>{" "}
                    <span className="text-stone-600">
                      {page.editedText
                        ? t("adminShop.pages.edited", { date: page.editedText })
                        : t("adminShop.pages.default")}
                    </span>
                  </span>
                  <ButtonLink
                    to={`/admin/settings/pages/${page.slug}`}
                    aria-label={t("adminShop.pages.editNamed", { page: name })}
                    variant="secondary"
                    size="sm"
                    className="font-normal"
                  >
                    {t("adminShop.pages.edit")}
                  </ButtonLink>
                </li>
              );
            })}
          </ul>
        </div>
      </div>
    </AdminSection>
  );
}
