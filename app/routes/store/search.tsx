import { ProductGrid } from "~/components/product-card";
import { BrandFilter } from "~/components/store/brand-filter";
import { Pagination } from "~/components/ui/pagination";
import { SearchForm } from "~/components/ui/search-form";
import { services } from "~/context";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { HTML_LANG } from "~/locales/languages";
import { getCurrency } from "~/middleware/currency";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { brandFilterOf, NO_BRAND_FILTER } from "~/models/brands.server";
import { cardViews } from "~/models/products/cards.server";
import { listProducts, normalizeSearch } from "~/models/products/catalog.server";
import { titleWithShop } from "~/models/settings/shop.server";
import type { Route } from "./+types/search";

/** GET /search?q=: the full results page; works without JavaScript. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const q = normalizeSearch(url.searchParams.get("q"));
  const t = getInstance(context).t;
  const tooShort = [...q].length < 2;
  const language = getLanguage(context);
  const currency = getCurrency(context);
  const db = services(context).db;
  const brandFilter = tooShort
    ? NO_BRAND_FILTER
    : await brandFilterOf(db, url.searchParams.get("brand"), { categoryId: null, search: q, currency }, language);
  const listing = tooShort
    ? { products: [], total: 0, page: 1, pages: 1, synonyms: [] }
    : await listProducts(db, {
        categoryId: null,
        brandId: brandFilter.brandId,
        search: q,
        sort: "featured",
        page: Number(url.searchParams.get("page") ?? 1),
        currency,
      });
  return {
    q,
    tooShort,
    brandFilter,
    title: await titleWithShop(context, q ? t("search.resultsFor", { q }) : t("search.title")),
    ...listing,
    products: cardViews(listing.products, language),
    // The synonyms it also looked for, quoted and listed as the language does ("a", "b" and "c").
    synonyms: listing.synonyms?.length
      ? new Intl.ListFormat(HTML_LANG[language], { type: "conjunction" }).format(
          listing.synonyms.map((term) => (language === "zh" ? `「${term}」` : `“${term}”`)),
        )
      : null,
  };
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { q, tooShort, brandFilter, products, total, page, pages, synonyms } = loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <h1 className="text-3xl font-bold">{q ? t("search.resultsFor", { q }) : t("search.heading")}</h1>
      <SearchForm
        id="search-page"
        q={q}
        label={t("nav.searchLabel")}
        placeholder={t("nav.searchPlaceholder")}
        submitLabel={t("nav.search")}
        className="mt-4 max-w-xl"
      />
      {synonyms && !tooShort ? (
        <p className="mt-4 text-stone-600" data-testid="search-synonyms">
          {t("search.synonyms", { terms: synonyms })}
        </p>
      ) : null}
      {tooShort ? null : <BrandFilter brands={brandFilter.brands} active={brandFilter.active} />}
      {tooShort ? (
        <p className="mt-6 text-stone-600">{q ? t("search.tooShort") : t("search.hint")}</p>
      ) : total === 0 ? (
        <p className="mt-6 text-lg font-semibold">{t("search.noResults")}</p>
      ) : (
        <>
          <p className="mt-4 text-stone-600" data-testid="product-count">
            {t("catalog.showing", { count: total })}
          </p>
          <h2 className="sr-only">{t("catalog.productsHeading")}</h2>
          <ProductGrid products={products} t={t} className="mt-6" />
          <Pagination page={page} pages={pages} />
        </>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Search");
