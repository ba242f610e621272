import { Form } from "react-router";
import { ProductCard } from "~/components/product-card";
import { Button } from "~/components/ui/button";
import { Pagination } from "~/components/ui/pagination";
import { services } from "~/context";
import { useTranslation } from "~/lib/i18n";
import { getCurrency } from "~/middleware/currency";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { listProducts, normalizeSearch } from "~/models/products/catalog.server";
import { titleWithShop } from "~/models/settings/shop.server";
import type { Route } from "./+types/search";

/** GET /search?q=: the full results page; works without JavaScript. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const q = normalizeSearch(url.searchParams.get("q"));
  const t = getInstance(context).t;
  const tooShort = [...q].length < 2;
  const listing = tooShort
    ? { products: [], total: 0, page: 1, pages: 1 }
    : await listProducts(services(context).db, {
        categoryId: null,
        search: q,
        sort: "featured",
        page: Number(url.searchParams.get("page") ?? 1),
        currency: getCurrency(context),
      });
  return {
    q,
    tooShort,
    language: getLanguage(context),
    title: await titleWithShop(context, q ? t("search.resultsFor", { q }) : t("search.title")),
    ...listing,
  };
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { q, tooShort, language, products, total, page, pages } = loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <h1 className="text-3xl font-bold">{q ? t("search.resultsFor", { q }) : t("search.heading")}</h1>
      <Form method="get" role="search" className="mt-4 flex max-w-xl">
        <label htmlFor="search-page" className="sr-only">
          {t("nav.searchLabel")}
        </label>
        <input
          id="search-page"
          type="search"
          name="q"
          defaultValue={q}
          key={q}
          maxLength={100}
          placeholder={t("nav.searchPlaceholder")}
          className="w-full rounded-l-md border border-stone-300 px-3 py-2"
        />
        <Button className="rounded-l-none">{t("nav.search")}</Button>
      </Form>
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
          <div className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {products.map((product) => (
              <ProductCard key={product.id} product={product} language={language} t={t} />
            ))}
          </div>
          <Pagination page={page} pages={pages} />
        </>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "Search" },
  { name: "robots", content: "noindex" },
];
