import type { Language } from "~/locales";
import { HTML_LANG } from "~/locales/languages";
import type { ProductCard } from "~/models/products/cards.server";
import type { ProductDetail } from "~/models/products/catalog.server";
import { type ShopDetails, shopName } from "~/models/settings/shop.server";
import { DEFAULT_COLOR } from "./colors";
import { imagesForColour } from "./colour-images";
import { colorName, localized } from "./localize";

/**
 * The pages' structured data for search engines (schema.org JSON-LD), in the page's language
 * (issue 25): names, descriptions and the category in that language, the shop's name and
 * address in it, and the page's language (`inLanguage`) on the page that carries the data.
 *
 * Both languages live at the same path; the language comes from the `lng` cookie, else
 * Accept-Language, and `?lng=` chooses it in a link (app/root.tsx, the hreflang alternates). So
 * a Chinese page's URLs are its `?lng=zh` address, the one that shows the Chinese text to
 * anyone; an English page keeps the plain address (x-default: English for a crawler). The home
 * page's prices quote HKD, the shop's own currency; a product page's offers are in the shopper's
 * currency, the one the page shows (the page cache keys pages by currency).
 */

/** The address of `path` in `language`: `?lng=zh` for Chinese, the plain one for English. */
export function pageUrlIn(siteUrl: string, path: string, language: Language): string {
  return language === "zh" ? `${siteUrl}${path}?lng=zh` : `${siteUrl}${path}`;
}

/** The shop as a schema.org Store, in `language`; one `@id` for every page and language. */
export function storeJsonLd(shop: ShopDetails, siteUrl: string, language: Language, paymentAccepted: string) {
  const address = shop.address[language] || shop.address.en;
  return {
    "@type": "Store",
    "@id": `${siteUrl}/#store`,
    name: shopName(shop, language),
    url: pageUrlIn(siteUrl, "/", language),
    email: shop.supportEmail,
    ...(address ? { address } : {}),
    currenciesAccepted: "HKD, GBP, EUR, USD",
    paymentAccepted,
  };
}

/** The seller of every offer: the shop, by name and the id of its Store entity. */
export function sellerJsonLd(shop: ShopDetails, siteUrl: string, language: Language) {
  return { "@type": "Organization", "@id": `${siteUrl}/#store`, name: shopName(shop, language) };
}

function offer(priceCents: number, totalStock: number) {
  return {
    "@type": "Offer",
    priceCurrency: "HKD",
    price: (priceCents / 100).toFixed(2),
    availability: totalStock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
  };
}

/**
 * The home page: the shop, its featured products (priced in HKD), and the page itself, which
 * says its language and what it is about.
 */
export function homeJsonLd(options: {
  shop: ShopDetails;
  siteUrl: string;
  language: Language;
  title: string;
  paymentAccepted: string;
  /** The featured products, priced in HKD. */
  featured: ProductCard[];
}) {
  const { shop, siteUrl, language, featured } = options;
  const itemList = {
    "@type": "ItemList",
    itemListElement: featured.map((product, index) => ({
      "@type": "ListItem",
      position: index + 1,
      item: {
        "@type": "Product",
        name: localized(product, "name", language),
        description: localized(product, "description", language),
        url: pageUrlIn(siteUrl, `/product/${product.id}`, language),
        ...(product.image_url ? { image: `${siteUrl}${product.image_url}` } : {}),
        offers: { ...offer(product.price_cents, product.total_stock), seller: sellerJsonLd(shop, siteUrl, language) },
      },
    })),
  };
  const url = pageUrlIn(siteUrl, "/", language);
  const page = {
    "@type": "WebPage",
    "@id": `${url}#page`,
    url,
    name: options.title,
    inLanguage: HTML_LANG[language],
    about: { "@id": `${siteUrl}/#store` },
  };
  return {
    "@context": "https://schema.org",
    "@graph": [storeJsonLd(shop, siteUrl, language, options.paymentAccepted), itemList, page],
  };
}

/** A variant as the feeds and the product page's structured data name it (migration 0026). */
export interface NamedVariant {
  color: string;
  color_zh: string | null;
  option_value: string;
  option_value_zh: string | null;
}

/**
 * A variant's id in the shopping feeds (g:id) and its sku in the product page's structured data:
 * one function, so both always agree (docs/decisions/056): the variant's own SKU (migration 0026,
 * unique across the shop, never empty).
 */
export function variantFeedId(variant: { sku: string }): string {
  return variant.sku;
}

/** The variant's colour in `language`; null for the default colour (a product without colours). */
export function variantColour(variant: NamedVariant, language: Language): string | null {
  return variant.color === DEFAULT_COLOR ? null : colorName(variant, language);
}

/** The variant's second option value in `language`; null when the product has no second option. */
export function variantOption(variant: NamedVariant, language: Language): string | null {
  if (!variant.option_value) return null;
  return language === "zh" && variant.option_value_zh ? variant.option_value_zh : variant.option_value;
}

/** The product's name with the variant's colour and option value: "Plate Carrier - Black / L". */
export function variantTitle(name: string, variant: NamedVariant, language: Language): string {
  const label = [variantColour(variant, language), variantOption(variant, language)].filter(Boolean).join(" / ");
  return label ? `${name} - ${label}` : name;
}

/**
 * The product page with the variant chosen, in `language`: the page's own parameters, `?colour=`
 * (not for the default colour) and `?option=` (the second option's value, when the product has one).
 */
export function variantPageUrl(
  siteUrl: string,
  productId: number,
  variant: Pick<NamedVariant, "color" | "option_value">,
  language: Language,
): string {
  const url = new URL(pageUrlIn(siteUrl, `/product/${productId}`, language));
  if (variant.color !== DEFAULT_COLOR) url.searchParams.set("colour", variant.color);
  if (variant.option_value) url.searchParams.set("option", variant.option_value);
  return url.toString();
}

/**
 * A product page (docs/decisions/056): a schema.org ProductGroup in the page's language, one
 * Product per variant (`hasVariant`) with its sku, colour, image and offer in the shopper's
 * currency: the price paid now (the sale price while on sale, valid until the sale's end,
 * decision 053, with the regular price as the strikethrough price) and the variant's
 * availability. GTIN/MPN when the product has them; the page it is the subject of.
 */
export function productJsonLd(product: ProductDetail, siteUrl: string, language: Language) {
  const url = pageUrlIn(siteUrl, `/product/${product.id}`, language);
  const name = localized(product, "name", language);
  const images = product.images.map((src, index) => ({ src, color: product.imageColors[index] ?? null }));
  const coloured = product.variants.some((variant) => variant.color !== DEFAULT_COLOR);
  const sized = product.variants.some((variant) => variant.option_value !== "");
  const price = (cents: number) => (cents / 100).toFixed(2);
  const onSale = product.price_cents < product.regular_price_cents;
  // The brand (decision 052) in the page's language, on the group and each variant.
  const brand = product.brand
    ? { brand: { "@type": "Brand", name: (language === "zh" && product.brand.name_zh) || product.brand.name } }
    : {};
  const identifiers = {
    ...brand,
    ...(product.gtin ? { gtin: product.gtin } : {}),
    ...(product.mpn ? { mpn: product.mpn } : {}),
  };
  return {
    "@context": "https://schema.org",
    "@type": "ProductGroup",
    "@id": `${url}#product`,
    name,
    description: localized(product, "description", language),
    url,
    productGroupID: String(product.id),
    ...brand,
    ...(coloured || sized
      ? {
          variesBy: [...(coloured ? ["https://schema.org/color"] : []), ...(sized ? ["https://schema.org/size"] : [])],
        }
      : {}),
    image: product.images.map((src) => `${siteUrl}${src}`),
    ...(product.category ? { category: localized(product.category, "name", language) } : {}),
    hasVariant: product.variants.map((variant) => {
      const colour = variantColour(variant, language);
      const size = variantOption(variant, language);
      const shown = imagesForColour(images, colour === null ? null : variant.color);
      return {
        "@type": "Product",
        sku: variantFeedId(variant),
        name: variantTitle(name, variant, language),
        ...(colour ? { color: colour } : {}),
        ...(size ? { size } : {}),
        ...(shown[0] ? { image: `${siteUrl}${shown[0].src}` } : {}),
        ...identifiers,
        offers: {
          "@type": "Offer",
          url: variantPageUrl(siteUrl, product.id, variant, language),
          priceCurrency: product.currency,
          price: price(product.price_cents),
          ...(product.sale_ends_at ? { priceValidUntil: product.sale_ends_at } : {}),
          ...(onSale
            ? {
                priceSpecification: {
                  "@type": "UnitPriceSpecification",
                  priceType: "https://schema.org/StrikethroughPrice",
                  price: price(product.regular_price_cents),
                  priceCurrency: product.currency,
                },
              }
            : {}),
          availability: variant.stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
          itemCondition: "https://schema.org/NewCondition",
        },
      };
    }),
    mainEntityOfPage: { "@type": "ItemPage", "@id": url, url, inLanguage: HTML_LANG[language] },
  };
}
