import type { TFunction } from "i18next";
import { Link, useFetcher, useLocation } from "react-router";
import { CartMessage } from "~/components/cart-message";
import { FetcherField } from "~/components/ui/fetcher-field";
import { DEFAULT_COLOR } from "~/lib/colors";
import { imageSrcSet } from "~/lib/image-sizes";
import { formatMoney } from "~/lib/money";
import type { CardView } from "~/models/products/cards.server";
import type { Flash } from "~/request/flash.server";

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

/**
 * Add to Cart from a card: `color` (the first in-stock colour), quantity 1 (the cart's rule for a
 * form without one); the button carries the cart's `intent`. A plain POST form, so it works without JavaScript; disabled when nothing is
 * in stock (`color` null).
 */
function AddToCartButton({
  id,
  color,
  name,
  redirectTo,
  t,
}: {
  id: number;
  color: string | null;
  name: string;
  redirectTo: string;
  t: TFunction;
}) {
  const fetcher = useFetcher<{ flash?: Flash | null }>();
  const label = color === null ? t("product.outOfStock") : t("home.addToCart");
  return (
    <fetcher.Form method="post" action="/cart">
      {/* With JavaScript the cart answers with data (no reload); without, with a redirect back here. */}
      <FetcherField />
      <input type="hidden" name="productId" value={id} />
      <input type="hidden" name="color" value={color ?? DEFAULT_COLOR} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button
        type="submit"
        name="intent"
        value="add"
        className="card-add"
        disabled={color === null || fetcher.state !== "idle"}
        aria-label={`${label}: ${name}`}
      >
        {label}
      </button>
      <CartMessage flash={fetcher.state === "idle" ? fetcher.data?.flash : null} />
    </fetcher.Form>
  );
}

/** The card image's `sizes`, by the grid's column count (one column on phones, two from `sm`). */
const IMAGE_SIZES = {
  3: "(min-width:1024px) 400px,(min-width:640px) 50vw,100vw",
  4: "(min-width:1024px) 300px,(min-width:640px) 50vw,100vw",
} as const;

/*
 * A card is rendered dozens of times a page: its look lives in a few shared classes (`.card…` in
 * app.css) rather than long class lists, and only the first card's title link asks React Router
 * to discover the product route (`/product/:id` is one route: once known, every card's link is).
 */
export function ProductCard({
  product,
  t,
  redirectTo,
  sizes = IMAGE_SIZES[3],
  eager = false,
  discover = true,
}: {
  product: CardView;
  t: TFunction;
  /** Where a plain (no JavaScript) Add to Cart comes back to: this page. */
  redirectTo: string;
  sizes?: string;
  eager?: boolean;
  /** Whether the title link asks React Router to discover the product route (one card is enough). */
  discover?: boolean;
}) {
  const { id, name, image } = product;
  const href = `/product/${id}`;
  const srcSet = image ? imageSrcSet(image) : null;
  return (
    <article className="card">
      <Link to={href} className="card-img" tabIndex={-1} aria-hidden="true" discover="none">
        {image ? (
          <img
            src={image}
            srcSet={srcSet ?? undefined}
            sizes={srcSet ? sizes : undefined}
            alt=""
            width={800}
            height={800}
            loading={eager ? "eager" : "lazy"}
            fetchPriority={eager ? "high" : undefined}
            decoding="async"
          />
        ) : (
          <div>{t("home.noImage")}</div>
        )}
        {product.was_cents !== null ? (
          <span data-sale-badge>{t("home.saleBadge")}</span>
        ) : product.featured ? (
          <span>{t("home.featuredBadge")}</span>
        ) : null}
      </Link>
      <div className="card-body">
        {product.category ? <p className="card-cat">{product.category}</p> : null}
        <h3>
          <Link to={href} discover={discover ? "render" : "none"}>
            {name}
          </Link>
        </h3>
        <p className="card-desc">{product.description}</p>
        {product.colors.length > 0 ? (
          <ul className="chips" aria-label={t("product.color")}>
            {product.colors.map((c, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: two colours may share a translated name
              <li key={index} className={c.out ? "out" : undefined}>
                {c.name}
              </li>
            ))}
            {product.more > 0 ? <li className="more">{t("catalog.moreColors", { count: product.more })}</li> : null}
          </ul>
        ) : null}
        <div className="card-foot">
          <p data-price>
            {formatMoney(product.price_cents, product.currency)}
            {product.was_cents !== null ? (
              <>
                {" "}
                <s className="text-sm font-normal text-stone-500" data-was-price>
                  <span className="sr-only">{t("product.wasPrice", { amount: "" })}</span>
                  {formatMoney(product.was_cents, product.currency)}
                </s>
              </>
            ) : null}
          </p>
          {product.cartColor === null ? <p>{t("home.outOfStock")}</p> : null}
        </div>
        <div className="card-actions">
          <Link to={href} aria-label={`${t("home.details")}: ${name}`} discover="none">
            {t("home.details")}
          </Link>
          <AddToCartButton id={id} color={product.cartColor} name={name} redirectTo={redirectTo} t={t} />
        </div>
      </div>
    </article>
  );
}

const GRID_COLUMNS = { 3: "lg:grid-cols-3", 4: "lg:grid-cols-4" } as const;

/** Product cards in a grid: one column on phones, two from `sm`, then `columns`; the first `eager` cards load at once. */
export function ProductGrid({
  products,
  t,
  columns = 3,
  eager = 0,
  className = "",
}: {
  products: CardView[];
  t: TFunction;
  columns?: keyof typeof GRID_COLUMNS;
  eager?: number;
  className?: string;
}) {
  const location = useLocation();
  const redirectTo = `${location.pathname}${location.search}`;
  return (
    <div className={`grid gap-6 sm:grid-cols-2 ${GRID_COLUMNS[columns]} ${className}`}>
      {products.map((product, index) => (
        <ProductCard
          key={product.id}
          product={product}
          t={t}
          redirectTo={redirectTo}
          sizes={IMAGE_SIZES[columns]}
          eager={index < eager}
          discover={index === 0}
        />
      ))}
    </div>
  );
}
