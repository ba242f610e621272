import { data, Form, Link, useLocation, useSubmit } from "react-router";
import { ProductGrid } from "~/components/product-card";
import { BrandFilter } from "~/components/store/brand-filter";
import { publicPageMeta } from "~/components/store/public-page-meta";
import { Breadcrumb } from "~/components/ui/breadcrumb";
import { ButtonLink } from "~/components/ui/button";
import { Pagination } from "~/components/ui/pagination";
import { services } from "~/context";
import { isDocumentRequest, putDocumentOnly, useDocumentOnly } from "~/lib/document-only";
import { useTranslation } from "~/lib/i18n";
import { localized } from "~/lib/localize";
import { formatMoneyShort } from "~/lib/money";
import { getCurrency } from "~/middleware/currency";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { brandFilterOf, NO_BRAND_FILTER } from "~/models/brands.server";
import { type CardView, cardViews } from "~/models/products/cards.server";
import {
  countProducts,
  findActiveCategory,
  isSort,
  listProducts,
  normalizeSlug,
  PRICE_BANDS,
  parsePriceBand,
  priceBandRange,
  type Sort,
  titleFromSlug,
} from "~/models/products/catalog.server";
import { getShop, shopName, titleWithShop } from "~/models/settings/shop.server";
import type { Route } from "./+types/category";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db } = services(context);
  const url = new URL(request.url);
  const language = getLanguage(context);
  const t = getInstance(context).t;
  const special = normalizeSlug(params.slug);
  const currency = getCurrency(context);
  const price = parsePriceBand(url.searchParams.get("price"));
  const newArrivals = special === "new-arrivals";
  // What is on sale now (docs/decisions/053): a listing of its own, like new arrivals.
  const onSale = special === "sale";
  const sortParam = url.searchParams.get("sort");
  const sort: Sort = isSort(sortParam) ? sortParam : newArrivals ? "newest" : "featured";
  const page = Number(url.searchParams.get("page") ?? 1);

  const category = special === "all" || newArrivals || onSale ? undefined : await findActiveCategory(db, params.slug);
  const known = special === "all" || newArrivals || onSale || category !== undefined;
  const brandFilter = known
    ? await brandFilterOf(
        db,
        url.searchParams.get("brand"),
        { categoryId: category?.id ?? null, newArrivals, onSale, currency },
        language,
      )
    : NO_BRAND_FILTER;
  const listing = known
    ? await listProducts(db, {
        categoryId: category?.id ?? null,
        brandId: brandFilter.brandId,
        newArrivals,
        onSale,
        price,
        sort,
        page,
        currency,
      })
    : { products: [], total: 0, page: 1, pages: 1 };

  let empty: "unknown" | "shopEmpty" | "noMatch" | "categoryEmpty" | null = null;
  if (!known) empty = "unknown";
  else if (listing.total === 0) {
    if ((await countProducts(db)) === 0) empty = "shopEmpty";
    else if (price || brandFilter.active) empty = "noMatch";
    else empty = "categoryEmpty";
  }

  // English titles come from the address ("night-vision" is "Night Vision"); Chinese ones from
  // the category's name, or the page's own name for all products and new arrivals.
  const titleZh =
    category?.name_zh ??
    (special === "all"
      ? t("catalog.allProducts")
      : newArrivals
        ? t("catalog.newArrivals")
        : onSale
          ? t("catalog.sale")
          : titleFromSlug(params.slug));
  const title = localized({ title_en: titleFromSlug(params.slug), title_zh: titleZh }, "title", language);
  const cards = cardViews(listing.products, language);
  const inDocument = isDocumentRequest(request);
  if (inDocument) putDocumentOnly(context, LISTING_CARDS, cards);
  return data(
    {
      title,
      metaTitle: await titleWithShop(context, title),
      // The price filter's bands in the shopper's currency ("Under £40", "£40 – £80", …).
      priceOptions: PRICE_BANDS.map((band) => {
        const { min, max } = priceBandRange(band, currency);
        const amount = (cents: number) => formatMoneyShort(cents, currency);
        const label =
          max === null
            ? t("catalog.priceOver", { amount: amount(min) })
            : min === 0
              ? t("catalog.priceUnder", { amount: amount(max) })
              : t("catalog.priceBetween", { min: amount(min), max: amount(max) });
        return { value: band, label };
      }),
      description: t("catalog.metaDescription", { title, shop: shopName(await getShop(context), language) }),
      price,
      sort,
      brandFilter,
      empty,
      ...listing,
      // A document has the cards once, in its HTML; a client navigation gets them as data (decision 068).
      products: inDocument ? null : cards,
    },
    { status: known ? 200 : 404 },
  );
}

const SORT_OPTIONS = [
  ["featured", "catalog.sortFeatured"],
  ["newest", "catalog.sortNewest"],
  ["price-low-high", "catalog.sortPriceLowHigh"],
  ["price-high-low", "catalog.sortPriceHighLow"],
] as const;

/** The key a document's cards are kept under for its render (app/lib/document-only.ts). */
const LISTING_CARDS = "listing-cards";

export default function Category({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const location = useLocation();
  const { title, price, priceOptions, sort, brandFilter, empty, products, total, page, pages } = loaderData;
  const documentCards = useDocumentOnly<CardView[]>(LISTING_CARDS);
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <Breadcrumb items={[{ label: title }]} />
      <div className="lst-h">
        <div>
          <h1 className="text-3xl font-bold">{title}</h1>
          <p className="mt-1 text-stone-600" data-testid="product-count">
            {t("catalog.showing", { count: total })}
          </p>
          {location.pathname !== "/category/sale" ? (
            <Link to="/category/sale" className="lst-sale">
              {`${t("catalog.sale")} →`}
            </Link>
          ) : null}
        </div>
        {/* Filters and sort are a GET form: plain links to shareable URLs, no JavaScript needed. */}
        <Form method="get" className="filters" aria-label={t("catalog.filters")}>
          {brandFilter.active ? <input type="hidden" name="brand" value={brandFilter.active.slug} /> : null}
          <label>
            <span>{t("catalog.priceLabel")}</span>
            <select
              name="price"
              defaultValue={price ?? ""}
              key={`p-${price}`}
              onChange={(e) => submit(e.currentTarget.form)}
            >
              <option value="">{t("catalog.priceAll")}</option>
              {priceOptions.map(({ value, label }) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span>{t("catalog.sortLabel")}</span>
            <select name="sort" defaultValue={sort} key={`s-${sort}`} onChange={(e) => submit(e.currentTarget.form)}>
              {SORT_OPTIONS.map(([value, key]) => (
                <option key={value} value={value}>
                  {t(key)}
                </option>
              ))}
            </select>
          </label>
          {/* Looks like a small secondary Button (`.filters > button` in app.css). */}
          <button type="submit">{t("catalog.apply")}</button>
        </Form>
      </div>
      <BrandFilter brands={brandFilter.brands} active={brandFilter.active} />

      {empty ? (
        <div className="mt-10 rounded-lg border border-dashed border-stone-300 p-10 text-center">
          <p className="text-lg font-semibold">
            {empty === "shopEmpty"
              ? t("catalog.noProductsYet")
              : empty === "noMatch"
                ? t("catalog.noMatch")
                : t("catalog.noProducts")}
          </p>
          {empty === "unknown" ? <p className="mt-2 text-stone-600">{t("catalog.noProductsText")}</p> : null}
          {empty === "noMatch" ? (
            <ButtonLink to={location.pathname} className="mt-4">
              {t("catalog.resetFilters")}
            </ButtonLink>
          ) : null}
        </div>
      ) : (
        <>
          <h2 className="sr-only">{t("catalog.productsHeading")}</h2>
          <ProductGrid
            products={products ?? documentCards ?? null}
            t={t}
            eager={3}
            className="mt-8"
            inDocument={products === null}
          />
        </>
      )}
      <Pagination page={page} pages={pages} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData: page }) =>
  page ? publicPageMeta(page.metaTitle, page.description) : [];
