import { useState } from "react";
import { data, Link, useFetcher, useLocation } from "react-router";
import { CartMessage } from "~/components/cart-message";
import { ProductCard, ProductImage } from "~/components/product-card";
import { Breadcrumb } from "~/components/ui/breadcrumb";
import { services } from "~/context";
import type { Flash } from "~/lib/flash.server";
import { useTranslation } from "~/lib/i18n";
import { colorName, localized } from "~/lib/localize";
import { formatMoney } from "~/lib/money";
import { useNonce } from "~/lib/nonce";
import { useHydrated } from "~/lib/use-hydrated";
import { getCurrency } from "~/middleware/currency";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { findProduct, listRelatedProducts } from "~/models/products/catalog.server";
import { titleWithShop } from "~/models/shop.server";
import type { Route } from "./+types/product";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db, config } = services(context);
  const t = getInstance(context).t;
  const language = getLanguage(context);
  const id = /^\d{1,12}$/.test(params.id) ? Number(params.id) : Number.NaN;
  const product = await findProduct(db, id, getCurrency(context));
  if (!product) {
    return data(
      { found: false as const, title: await titleWithShop(context, t("product.notFoundTitle")) },
      { status: 404 },
    );
  }
  const related = await listRelatedProducts(db, product, getCurrency(context), 4);
  const url = new URL(request.url);
  const image = Math.min(
    Math.max(0, Number(url.searchParams.get("image") ?? 0) || 0),
    Math.max(0, product.images.length - 1),
  );
  const name = localized(product, "name", language);
  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "Product",
    name: product.name_en,
    description: product.description_en,
    sku: `HT-${product.id}`,
    image: product.images.map((src) => `${config.publicUrl}${src}`),
    ...(product.category ? { category: product.category.name_en } : {}),
    offers: {
      "@type": "Offer",
      url: `${config.publicUrl}/product/${product.id}`,
      priceCurrency: "HKD",
      price: (product.price_hkd_cents / 100).toFixed(2),
      availability: product.total_stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
    },
  };
  return {
    found: true as const,
    product,
    related,
    image,
    language,
    jsonLd,
    title: await titleWithShop(context, name),
    description: localized(product, "description", language).slice(0, 160),
  };
}

function Gallery({ images, name, current }: { images: string[]; name: string; current: number }) {
  const { t } = useTranslation();
  const location = useLocation();
  const href = (index: number) => {
    const params = new URLSearchParams(location.search);
    if (index === 0) params.delete("image");
    else params.set("image", String(index));
    const query = params.toString();
    return `${location.pathname}${query ? `?${query}` : ""}`;
  };
  if (images.length === 0) return <ProductImage src={null} alt="" t={t} className="aspect-square w-full rounded-lg" />;
  const count = images.length;
  const previous = (current - 1 + count) % count;
  const next = (current + 1) % count;
  const visibleThumbs = 4;
  return (
    <section aria-label={t("product.gallery")}>
      <div className="relative overflow-hidden rounded-lg border border-stone-200 bg-white">
        <ProductImage src={images[current] ?? null} alt={name} t={t} className="aspect-square w-full" eager />
        {count > 1 ? (
          <>
            {/* Plain links: the gallery works without JavaScript, and wraps around. */}
            <Link
              to={href(previous)}
              preventScrollReset
              replace
              aria-label={t("product.previousImage")}
              className="absolute left-2 top-1/2 -translate-y-1/2 rounded-full bg-white/90 px-3 py-2 text-lg shadow hover:bg-white"
            >
              ‹
            </Link>
            <Link
              to={href(next)}
              preventScrollReset
              replace
              aria-label={t("product.nextImage")}
              className="absolute right-2 top-1/2 -translate-y-1/2 rounded-full bg-white/90 px-3 py-2 text-lg shadow hover:bg-white"
            >
              ›
            </Link>
            <p
              className="absolute bottom-2 right-2 rounded bg-black/60 px-2 py-0.5 text-xs text-white"
              data-testid="image-counter"
            >
              {t("product.imageCounter", { current: current + 1, total: count })}
            </p>
          </>
        ) : null}
      </div>
      {count > 1 ? (
        <ul className="mt-3 grid grid-cols-4 gap-2">
          {images.slice(0, visibleThumbs).map((src, index) => (
            <li key={src} className="relative">
              <Link
                to={href(index)}
                preventScrollReset
                replace
                aria-label={
                  index === visibleThumbs - 1 && count > visibleThumbs
                    ? // The accessible name contains the visible "+N" text (WCAG 2.5.3).
                      `${t("product.showImage", { n: index + 1 })}, ${t("product.moreImages", { count: count - visibleThumbs })}`
                    : t("product.showImage", { n: index + 1 })
                }
                aria-current={index === current ? "true" : undefined}
                className={`block overflow-hidden rounded-md border-2 ${index === current ? "border-brand-600" : "border-transparent"}`}
              >
                <ProductImage src={src} alt="" t={t} className="aspect-square w-full" width={200} height={200} />
                {index === visibleThumbs - 1 && count > visibleThumbs ? (
                  <span className="absolute inset-0 flex items-center justify-center bg-black/50 text-lg font-semibold text-white">
                    {t("product.moreImages", { count: count - visibleThumbs })}
                  </span>
                ) : null}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function ProductNotFound() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <h1 className="text-2xl font-semibold">{t("product.notFoundTitle")}</h1>
      <p className="text-stone-600">{t("product.notFoundText")}</p>
      <Link to="/" className="rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700">
        {t("product.backHome")}
      </Link>
    </div>
  );
}

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  if (!loaderData.found) return <ProductNotFound />;
  return <ProductView data={loaderData} />;
}

type Found = Extract<Route.ComponentProps["loaderData"], { found: true }>;

function ProductView({ data: { product, related, image, language, jsonLd } }: { data: Found }) {
  const { t } = useTranslation();
  const nonce = useNonce();
  const location = useLocation();
  const name = localized(product, "name", language);
  // First in-stock colour preselected, otherwise the first colour.
  const initial = product.variants.find((v) => v.stock > 0) ?? product.variants[0];
  const [color, setColor] = useState(initial?.color ?? "Default");
  const [quantity, setQuantity] = useState(1);
  const fetcher = useFetcher<{ ok: boolean; flash: Flash | null }>();
  const hydrated = useHydrated();
  const chosen = product.variants.find((v) => v.color === color) ?? initial;
  const stock = chosen?.stock ?? 0;
  const maxStock = Math.max(0, ...product.variants.map((v) => v.stock));
  const categoryName = product.category
    ? language === "zh"
      ? product.category.name_zh
      : product.category.name_en
    : null;
  const showColors = !(product.variants.length === 1 && product.variants[0]?.color === "Default");

  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <script
        type="application/ld+json"
        nonce={nonce}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON with "<" escaped cannot break out of the tag
        dangerouslySetInnerHTML={{ __html: JSON.stringify(jsonLd).replace(/</g, "\\u003c") }}
      />
      <Breadcrumb
        items={[
          ...(product.category && categoryName && product.category.is_active
            ? [{ label: categoryName, to: `/category/${product.category.slug}` }]
            : []),
          { label: name },
        ]}
      />
      <div className="mt-6 grid gap-10 lg:grid-cols-2">
        <Gallery images={product.images} name={name} current={image} />
        <div className="flex flex-col gap-5">
          <div>
            {product.is_featured ? (
              <span className="mb-2 inline-block rounded bg-brand-600 px-2 py-0.5 text-xs font-semibold text-white">
                {t("product.featured")}
              </span>
            ) : null}
            <h1 className="text-3xl font-bold">{name}</h1>
            <p className="mt-2 text-2xl font-bold text-brand-700" data-price>
              {formatMoney(product.price_cents, product.currency)}
            </p>
          </div>
          <p className="leading-relaxed text-stone-700">{localized(product, "description", language)}</p>

          <fetcher.Form
            method="post"
            action="/cart"
            className="flex flex-col gap-4 rounded-lg border border-stone-200 bg-white p-5"
          >
            {/* With JavaScript the cart answers with data (no reload); without, with a redirect back here. */}
            {hydrated ? <input type="hidden" name="_fetcher" value="1" /> : null}
            <input type="hidden" name="intent" value="add" />
            <input type="hidden" name="productId" value={product.id} />
            <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
            {showColors ? (
              <fieldset>
                <legend className="mb-2 text-sm font-medium">{t("product.color")}</legend>
                <div className="flex flex-wrap gap-2">
                  {product.variants.map((variant) => (
                    <label
                      key={variant.color}
                      className={`rounded-md border px-3 py-1.5 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 ${variant.stock === 0 ? "cursor-not-allowed border-dashed border-stone-300 bg-stone-100 text-stone-600" : "cursor-pointer"}`}
                    >
                      {/* A sold-out colour cannot be chosen, with or without JavaScript (the cart refuses it too). */}
                      <input
                        type="radio"
                        name="color"
                        value={variant.color}
                        disabled={variant.stock === 0}
                        defaultChecked={variant.color === initial?.color}
                        onChange={() => {
                          setColor(variant.color);
                          setQuantity(1);
                        }}
                        className="sr-only"
                      />
                      {colorName(variant, language)}
                      {variant.stock === 0 ? ` · ${t("product.soldOut")}` : ""}
                    </label>
                  ))}
                </div>
              </fieldset>
            ) : (
              <input type="hidden" name="color" value={initial?.color ?? "Default"} />
            )}
            <div>
              <label htmlFor="quantity" className="mb-2 block text-sm font-medium">
                {t("product.quantity")}
              </label>
              <div className="flex items-center gap-2">
                <button
                  type="button"
                  aria-label={t("product.decrease")}
                  disabled={quantity <= 1}
                  onClick={() => setQuantity((q) => Math.max(1, q - 1))}
                  className="h-10 w-10 rounded-md border border-stone-300 text-lg disabled:opacity-40"
                >
                  −
                </button>
                <input
                  id="quantity"
                  name="quantity"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  // Without JavaScript the colour can change without a reload: the server checks the chosen colour's stock.
                  max={Math.max(1, stock || maxStock)}
                  value={quantity}
                  onChange={(e) => setQuantity(Math.max(1, Math.min(stock || 1, Number(e.target.value) || 1)))}
                  className="h-10 w-20 rounded-md border border-stone-300 text-center"
                />
                <button
                  type="button"
                  aria-label={t("product.increase")}
                  disabled={quantity >= stock}
                  onClick={() => setQuantity((q) => Math.min(stock, q + 1))}
                  className="h-10 w-10 rounded-md border border-stone-300 text-lg disabled:opacity-40"
                >
                  +
                </button>
              </div>
            </div>
            <div className="flex gap-2">
              <button
                type="submit"
                disabled={stock === 0 || fetcher.state !== "idle"}
                className="flex-1 rounded-md bg-brand-600 px-4 py-3 font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-stone-300 disabled:text-stone-600"
              >
                {stock === 0 ? t("product.outOfStock") : t("product.addToCart")}
              </button>
              <button
                type="button"
                className="rounded-md border border-stone-300 px-4 py-3"
                aria-label={t("product.wishlist")}
                title={t("product.wishlist")}
              >
                ♡
              </button>
            </div>
            <CartMessage flash={fetcher.state === "idle" ? fetcher.data?.flash : null} />
          </fetcher.Form>

          <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-stone-500">{t("product.stock")}</dt>
            <dd data-testid="stock">{stock > 0 ? t("product.inStock", { count: stock }) : t("product.soldOut")}</dd>
            {categoryName ? (
              <>
                <dt className="text-stone-500">{t("product.category")}</dt>
                <dd>
                  {product.category?.is_active ? (
                    <Link to={`/category/${product.category.slug}`} className="text-brand-700 hover:underline">
                      {categoryName}
                    </Link>
                  ) : (
                    categoryName
                  )}
                </dd>
              </>
            ) : null}
          </dl>
        </div>
      </div>

      {related.length > 0 ? (
        <section className="mt-16" aria-labelledby="related-heading">
          <h2 id="related-heading" className="mb-6 text-2xl font-bold">
            {t("product.related")}
          </h2>
          <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {related.map((item) => (
              <ProductCard key={item.id} product={item} language={language} t={t} />
            ))}
          </div>
        </section>
      ) : null}
    </div>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  if (!loaderData.found) return [{ title: loaderData.title }, { name: "robots", content: "noindex" }];
  return [
    { title: loaderData.title },
    { name: "description", content: loaderData.description },
    { property: "og:title", content: loaderData.title },
    { property: "og:type", content: "product" },
  ];
}
