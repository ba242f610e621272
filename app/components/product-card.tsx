import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { localized } from "~/lib/localize";
import { formatMoney } from "~/lib/money";
import type { Language } from "~/locales";
import type { ProductCard as ProductCardData } from "~/models/product.server";

export function ProductImage({ src, alt, className = "" }: { src: string | null; alt: string; className?: string }) {
  const { t } = useTranslation();
  if (!src) {
    return (
      <div className={`flex items-center justify-center bg-stone-200 text-sm text-stone-500 ${className}`}>
        {t("home.noImage")}
      </div>
    );
  }
  return <img src={src} alt={alt} loading="lazy" decoding="async" className={`object-cover ${className}`} />;
}

export function ProductCard({ product, language }: { product: ProductCardData; language: Language }) {
  const { t } = useTranslation();
  const name = localized(product, "name", language);
  return (
    <article className="flex flex-col overflow-hidden rounded-lg border border-stone-200 bg-white shadow-sm">
      <Link to={`/product/${product.id}`} className="relative block aspect-[4/3]" tabIndex={-1} aria-hidden="true">
        <ProductImage src={product.image_url} alt="" className="h-full w-full" />
        {product.is_featured ? (
          <span className="absolute left-2 top-2 rounded bg-brand-600 px-2 py-0.5 text-xs font-semibold text-white">
            {t("home.featuredBadge")}
          </span>
        ) : null}
      </Link>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h3 className="font-semibold leading-snug">
          <Link to={`/product/${product.id}`} className="hover:underline">
            {name}
          </Link>
        </h3>
        <p className="line-clamp-2 text-sm text-stone-600">{localized(product, "description", language)}</p>
        <div className="mt-auto flex items-center justify-between pt-2">
          <p className="text-lg font-bold text-brand-700">{formatMoney(product.price_cents, product.currency)}</p>
          {product.total_stock === 0 ? (
            <p className="text-sm font-medium text-red-700">{t("home.outOfStock")}</p>
          ) : null}
        </div>
        <Link
          to={`/product/${product.id}`}
          className="rounded-md border border-stone-300 px-3 py-2 text-center text-sm font-medium hover:bg-stone-100"
          aria-label={`${t("home.details")}: ${name}`}
        >
          {t("home.details")}
        </Link>
      </div>
    </article>
  );
}
