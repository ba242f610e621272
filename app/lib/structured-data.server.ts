import type { Language } from "~/locales";
import { HTML_LANG } from "~/locales/languages";
import type { ProductCard } from "~/models/products/cards.server";
import type { ProductDetail } from "~/models/products/catalog.server";
import { type ShopDetails, shopName } from "~/models/settings/shop.server";
import { localized } from "./localize";

/**
 * The pages' structured data for search engines (schema.org JSON-LD), in the page's language
 * (issue 25): names, descriptions and the category in that language, the shop's name and
 * address in it, and the page's language (`inLanguage`) on the page that carries the data.
 *
 * Both languages live at the same path; the language comes from the `lng` cookie, else
 * Accept-Language, and `?lng=` chooses it in a link (app/root.tsx, the hreflang alternates). So
 * a Chinese page's URLs are its `?lng=zh` address, the one that shows the Chinese text to
 * anyone; an English page keeps the plain address (x-default: English for a crawler). Prices
 * always quote HKD, the shop's own currency.
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

/** A product page: the product in the page's language, with its HKD offer and the page it is the subject of. */
export function productJsonLd(product: ProductDetail, siteUrl: string, language: Language) {
  const url = pageUrlIn(siteUrl, `/product/${product.id}`, language);
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: localized(product, "name", language),
    description: localized(product, "description", language),
    sku: `HT-${product.id}`,
    image: product.images.map((src) => `${siteUrl}${src}`),
    ...(product.category ? { category: localized(product.category, "name", language) } : {}),
    ...(product.brand
      ? { brand: { "@type": "Brand", name: (language === "zh" && product.brand.name_zh) || product.brand.name } }
      : {}),
    // The price paid now: the sale price while on sale, valid until the sale's end (decision 053).
    offers: {
      ...offer(product.hkd_now.cents, product.total_stock),
      ...(product.hkd_now.saleEndsAt ? { priceValidUntil: product.hkd_now.saleEndsAt } : {}),
      url,
    },
    mainEntityOfPage: { "@type": "ItemPage", "@id": url, url, inLanguage: HTML_LANG[language] },
  };
}
