import { Link, useLocation } from "react-router";
import { ProductImage } from "~/components/product-card";
import { DEFAULT_COLOR } from "~/lib/colors";
import { useTranslation } from "~/lib/i18n";
import { colorName } from "~/lib/localize";
import { useParamHref } from "~/lib/param-href";
import type { Language } from "~/locales";

/** The product's images: one large, thumbnails below; plain links, so it works without JavaScript. */
export function Gallery({ images, name, current }: { images: string[]; name: string; current: number }) {
  const { t } = useTranslation();
  const href = useParamHref("image", 0);
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
            <StepLink to={href(previous)} label={t("product.previousImage")} side="left-2" arrow="‹" />
            <StepLink to={href(next)} label={t("product.nextImage")} side="right-2" arrow="›" />
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

/** The previous / next image arrow on the large image. */
function StepLink({ to, label, side, arrow }: { to: string; label: string; side: string; arrow: string }) {
  return (
    <Link
      to={to}
      preventScrollReset
      replace
      aria-label={label}
      className={`absolute ${side} top-1/2 -translate-y-1/2 rounded-full bg-white/90 px-3 py-2 text-lg shadow hover:bg-white`}
    >
      {arrow}
    </Link>
  );
}

/** This page for `color` (`?colour=`, the English name), from its first image; other parameters kept. */
export function colourHref(location: { pathname: string; search: string }, color: string): string {
  const params = new URLSearchParams(location.search);
  params.delete("image");
  params.set("colour", color);
  return `${location.pathname}?${params.toString()}`;
}

/** This page with another value of the second option chosen (`?option=`; docs/decisions/054). */
export function optionHref(location: { pathname: string; search: string }, value: string): string {
  const params = new URLSearchParams(location.search);
  params.set("option", value);
  return `${location.pathname}?${params.toString()}`;
}

/**
 * The colours as links to this page for each (docs/decisions/035): the server renders that
 * colour's gallery and chooses it in the Add to Cart form, so it works without JavaScript; with
 * it, the link changes the address only and the page switches the gallery in place. A sold-out
 * colour stays, marked, to show its photos.
 */
export function ColourLinks({
  variants,
  chosen,
  language,
}: {
  variants: { color: string; color_zh: string | null; stock: number }[];
  chosen: string;
  language: Language;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const named = variants.filter((variant) => variant.color !== DEFAULT_COLOR);
  if (named.length < 2) return null;
  return (
    <nav aria-labelledby="colour-images-label">
      <p id="colour-images-label" className="mb-2 text-sm font-medium">
        {t("product.colourImages")}
      </p>
      <ul className="flex flex-wrap gap-2">
        {named.map((variant) => {
          const current = variant.color === chosen;
          return (
            <li key={variant.color}>
              <Link
                to={colourHref(location, variant.color)}
                replace
                preventScrollReset
                aria-current={current ? "true" : undefined}
                data-colour={variant.color}
                className={`inline-flex min-h-11 items-center rounded-md border px-3 py-1.5 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 ${current ? "border-brand-600 bg-brand-50 font-semibold" : "border-stone-300 hover:border-brand-500"} ${variant.stock === 0 ? "border-dashed text-stone-600" : ""}`}
              >
                {colorName(variant, language)}
                {variant.stock === 0 ? ` · ${t("product.soldOut")}` : ""}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
