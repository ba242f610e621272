import type { TFunction } from "i18next";
import { Link, useFetcher, useLocation } from "react-router";
import { CartMessage } from "~/components/cart-message";
import { Button } from "~/components/ui/button";
import { FetcherField } from "~/components/ui/fetcher-field";
import { DEFAULT_COLOR } from "~/lib/colors";
import type { Flash } from "~/lib/flash.server";
import { colorName, localized } from "~/lib/localize";
import { formatMoney } from "~/lib/money";
import type { Language } from "~/locales";
import type { ProductCard as ProductCardData } from "~/models/products/cards.server";

/*
 * The parts of a card take `t` from their parent instead of calling useTranslation: on the
 * server every call copies the i18n instance, and a listing renders dozens of cards.
 */

export function ProductImage({
  src,
  alt,
  t,
  className = "",
  eager = false,
  width = 800,
  height = 800,
}: {
  src: string | null;
  alt: string;
  t: TFunction;
  className?: string;
  /** Above the fold: loaded at once, and first (it is likely the page's largest image). */
  eager?: boolean;
  width?: number;
  height?: number;
}) {
  if (!src) {
    return (
      <div className={`flex items-center justify-center bg-stone-200 text-sm text-stone-700 ${className}`}>
        {t("home.noImage")}
      </div>
    );
  }
  return (
    <img
      src={src}
      alt={alt}
      width={width}
      height={height}
      loading={eager ? "eager" : "lazy"}
      fetchPriority={eager ? "high" : undefined}
      decoding="async"
      className={`object-cover ${className}`}
    />
  );
}

/** Colour badges: at most three, then '+N more'. */
export function ColorBadges({
  colors,
  language,
  t,
}: {
  colors: { color: string; color_zh: string | null; stock: number }[];
  language: Language;
  t: TFunction;
}) {
  const named = colors.filter((c) => c.color !== DEFAULT_COLOR);
  if (named.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-1" aria-label={t("product.color")}>
      {named.slice(0, 3).map((c) => (
        <li
          key={c.color}
          className={`rounded-full border px-2 py-0.5 text-xs ${c.stock > 0 ? "border-stone-300 text-stone-700" : "border-stone-200 text-stone-500 line-through"}`}
        >
          {colorName(c, language)}
        </li>
      ))}
      {named.length > 3 ? (
        <li className="rounded-full bg-stone-100 px-2 py-0.5 text-xs text-stone-600">
          {t("catalog.moreColors", { count: named.length - 3 })}
        </li>
      ) : null}
    </ul>
  );
}

/**
 * Add to Cart from a card: the first in-stock colour, quantity 1. A plain POST form, so it
 * works without JavaScript; disabled when nothing is in stock.
 */
export function AddToCartButton({ product, name, t }: { product: ProductCardData; name: string; t: TFunction }) {
  const location = useLocation();
  const color = product.colors.find((c) => c.stock > 0)?.color ?? DEFAULT_COLOR;
  const soldOut = product.total_stock === 0;
  const fetcher = useFetcher<{ flash?: Flash | null }>();
  return (
    <fetcher.Form method="post" action="/cart" className="flex-1">
      {/* With JavaScript the cart answers with data (no reload); without, with a redirect back here. */}
      <FetcherField />
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="productId" value={product.id} />
      <input type="hidden" name="color" value={color} />
      <input type="hidden" name="quantity" value="1" />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <Button
        size="sm"
        disabled={soldOut || fetcher.state !== "idle"}
        aria-label={`${soldOut ? t("product.outOfStock") : t("home.addToCart")}: ${name}`}
        className="w-full disabled:bg-stone-300 disabled:text-stone-600"
      >
        {soldOut ? t("product.outOfStock") : t("home.addToCart")}
      </Button>
      <CartMessage flash={fetcher.state === "idle" ? fetcher.data?.flash : null} />
    </fetcher.Form>
  );
}

export function ProductCard({
  product,
  language,
  t,
  eager = false,
}: {
  product: ProductCardData;
  language: Language;
  t: TFunction;
  eager?: boolean;
}) {
  const name = localized(product, "name", language);
  return (
    <article className="flex flex-col overflow-hidden rounded-lg border border-stone-200 bg-white shadow-sm">
      <Link to={`/product/${product.id}`} className="relative block aspect-square" tabIndex={-1} aria-hidden="true">
        <ProductImage src={product.image_url} alt="" t={t} className="h-full w-full" eager={eager} />
        {product.is_featured ? (
          <span className="absolute left-2 top-2 rounded bg-brand-600 px-2 py-0.5 text-xs font-semibold text-white">
            {t("home.featuredBadge")}
          </span>
        ) : null}
      </Link>
      <div className="flex flex-1 flex-col gap-2 p-4">
        {product.category_name_en ? (
          <p className="text-xs uppercase tracking-wide text-stone-500">
            {localized(product, "category_name", language)}
          </p>
        ) : null}
        <h3 className="font-semibold leading-snug">
          <Link to={`/product/${product.id}`} className="hover:underline">
            {name}
          </Link>
        </h3>
        <p className="line-clamp-2 text-sm text-stone-600">{localized(product, "description", language)}</p>
        <ColorBadges colors={product.colors} language={language} t={t} />
        <div className="mt-auto flex items-center justify-between pt-2">
          <p className="text-lg font-bold text-brand-700" data-price>
            {formatMoney(product.price_cents, product.currency)}
          </p>
          {product.total_stock === 0 ? (
            <p className="text-sm font-medium text-red-700">{t("home.outOfStock")}</p>
          ) : null}
        </div>
        <div className="flex gap-2">
          <Link
            to={`/product/${product.id}`}
            className="flex-1 rounded-md border border-stone-300 px-3 py-2 text-center text-sm font-medium hover:bg-stone-100"
            aria-label={`${t("home.details")}: ${name}`}
          >
            {t("home.details")}
          </Link>
          <AddToCartButton product={product} name={name} t={t} />
        </div>
      </div>
    </article>
  );
}

const GRID_COLUMNS = { 3: "lg:grid-cols-3", 4: "lg:grid-cols-4" } as const;

/** Product cards in a grid: one column on phones, two from `sm`, then `columns`; the first `eager` cards load at once. */
export function ProductGrid({
  products,
  language,
  t,
  columns = 3,
  eager = 0,
  className = "",
}: {
  products: ProductCardData[];
  language: Language;
  t: TFunction;
  columns?: keyof typeof GRID_COLUMNS;
  eager?: number;
  className?: string;
}) {
  return (
    <div className={`grid gap-6 sm:grid-cols-2 ${GRID_COLUMNS[columns]} ${className}`}>
      {products.map((product, index) => (
        <ProductCard key={product.id} product={product} language={language} t={t} eager={index < eager} />
      ))}
    </div>
  );
}
