import { Link, useLocation } from "react-router";
import { useTranslation } from "~/lib/i18n";

/** A brand a listing can be narrowed to, in the shopper's language (docs/decisions/052). */
export interface BrandLink {
  slug: string;
  name: string;
  count: number;
}

/** This listing's address with `?brand=` set to `slug` (null: left out), the other parameters kept, back to page 1. */
function useBrandHref(): (slug: string | null) => string {
  const location = useLocation();
  return (slug) => {
    const params = new URLSearchParams(location.search);
    params.delete("page");
    if (slug === null) params.delete("brand");
    else params.set("brand", slug);
    const query = params.toString();
    return `${location.pathname}${query ? `?${query}` : ""}`;
  };
}

/**
 * The listing's brand links: plain links (no JavaScript needed) that keep the sort, price band
 * and search; only the brands with products in this listing. The chosen one is marked and can
 * be cleared.
 */
export function BrandFilter({
  brands,
  active,
}: {
  brands: BrandLink[];
  active: { slug: string; name: string } | null;
}) {
  const { t } = useTranslation();
  const href = useBrandHref();
  if (brands.length === 0 && !active) return null;
  return (
    <nav aria-label={t("brands.filterLabel")} className="brands" data-testid="brand-filter">
      <div>
        <span>{t("brands.filterHeading")}</span>
        {/* A chip's look is `.chip` in app.css, the chosen one (aria-current) filled; these links stay on this route (known: nothing to discover). */}
        <Link to={href(null)} className="chip" aria-current={active ? undefined : "true"} discover="none">
          {t("brands.allBrands")}
        </Link>
        {brands.map((brand) => {
          const current = active?.slug === brand.slug;
          return (
            <Link
              key={brand.slug}
              to={href(brand.slug)}
              className="chip"
              aria-current={current ? "true" : undefined}
              discover="none"
            >
              {t("brands.brandCount", { name: brand.name, count: brand.count })}
            </Link>
          );
        })}
      </div>
      {active ? (
        <p className="mt-2 flex flex-wrap items-center gap-2 text-sm text-stone-700" data-testid="active-brand">
          <span>{t("brands.active", { name: active.name })}</span>
          <Link
            to={href(null)}
            className="font-semibold text-brand-700 underline hover:no-underline"
            aria-label={t("brands.clearNamed", { name: active.name })}
          >
            {t("brands.clear")}
          </Link>
        </p>
      ) : null}
    </nav>
  );
}

/** The product page's brand: a link to every product of that brand (the brand-filtered listing). */
export function ProductBrandLink({ brand }: { brand: { slug: string; name: string } | null }) {
  const { t } = useTranslation();
  if (!brand) return null;
  return (
    <p className="mb-1 text-sm font-semibold uppercase tracking-wide" data-testid="product-brand">
      <span className="sr-only">{t("brands.productBrand")}: </span>
      <Link
        to={`/category/all?brand=${encodeURIComponent(brand.slug)}`}
        className="text-brand-700 hover:underline"
        title={t("brands.moreFrom", { name: brand.name })}
      >
        {brand.name}
      </Link>
    </p>
  );
}
