import { sql } from "kysely";
import type { DB } from "#db/connect.server";
import type { Currency } from "#db/schema";
import { DEFAULT_COLOR } from "~/lib/colors";
import { defaultColour, imagesForColour } from "~/lib/colour-images";
import { colorName, localized } from "~/lib/localize";
import { priceNow, type SalePriced } from "~/lib/money";
import { publicUrl } from "~/lib/storage.server";
import { coloursOf } from "~/lib/variants";
import type { Language } from "~/locales";

/** What every shopper view of a product shows: both names and descriptions, its price in one currency. */
export interface PricedProduct {
  id: number;
  name_en: string;
  name_zh: string;
  description_en: string;
  description_zh: string;
  /** The price paid now: the sale price while a sale lasts (docs/decisions/053). */
  price_cents: number;
  /** The regular price: above `price_cents` exactly while the product is on sale. */
  regular_price_cents: number;
  /** When the sale on now ends (ISO-8601 UTC); null when none is on or it has no end. */
  sale_ends_at: string | null;
  currency: Currency;
  is_featured: boolean;
}

/** The `PricedProduct` fields of a product row, priced in `currency`. */
export function pricedProduct(
  row: Pick<PricedProduct, "id" | "name_en" | "name_zh" | "description_en" | "description_zh"> &
    SalePriced & { is_featured: number },
  currency: Currency,
  at: Date = new Date(),
): PricedProduct {
  const price = priceNow(row, currency, at);
  return {
    id: row.id,
    name_en: row.name_en,
    name_zh: row.name_zh,
    description_en: row.description_en,
    description_zh: row.description_zh,
    price_cents: price.cents,
    regular_price_cents: price.regularCents,
    sale_ends_at: price.saleEndsAt,
    currency,
    is_featured: row.is_featured === 1,
  };
}

/** What a product card shows, in the shopper's language-neutral form (both names kept). */
export interface ProductCard extends PricedProduct {
  category_slug: string | null;
  category_name_en: string | null;
  category_name_zh: string | null;
  image_url: string | null;
  total_stock: number;
  /** `color` is the variant's key (English name); `color_zh` its Chinese name, if any. */
  colors: { color: string; color_zh: string | null; stock: number }[];
}

/** The columns a product card needs (products joined with categories). */
export const CARD_COLUMNS = [
  "products.id",
  "products.name_en",
  "products.name_zh",
  "products.description_en",
  "products.description_zh",
  "products.price_hkd_cents",
  "products.price_gbp_cents",
  "products.price_eur_cents",
  "products.price_usd_cents",
  "products.sale_price_hkd_cents",
  "products.sale_price_gbp_cents",
  "products.sale_price_eur_cents",
  "products.sale_price_usd_cents",
  "products.sale_ends_at",
  "products.is_featured",
  "categories.slug as category_slug",
  "categories.name_en as category_name_en",
  "categories.name_zh as category_name_zh",
] as const;

/**
 * Inactive means hidden from shoppers everywhere: a product whose category is inactive is left
 * out of every listing, the home page, search, the product page, the sitemap and structured
 * data, and cannot be bought. A product without a category is shown. A filter on `products`
 * that no listing index needs: the inactive categories are a handful, read once a query.
 */
export const shownToShoppers = sql<boolean>`(products.category_id is null or products.category_id not in (select id from categories where is_active = 0))`;

/** Up to `limit` featured products, newest first, priced in `currency`. */
export async function listFeaturedProducts(db: DB, currency: Currency, limit = 3): Promise<ProductCard[]> {
  const rows = await db
    .selectFrom("products")
    .leftJoin("categories", "categories.id", "products.category_id")
    .select(CARD_COLUMNS)
    .where("products.is_featured", "=", 1)
    .where(shownToShoppers)
    .orderBy("products.created_at", "desc")
    .orderBy("products.id", "desc")
    .limit(limit)
    .execute();
  return toCards(db, rows, currency);
}

export type CardRow = Omit<
  ProductCard,
  | "price_cents"
  | "regular_price_cents"
  | "sale_ends_at"
  | "currency"
  | "image_url"
  | "total_stock"
  | "colors"
  | "is_featured"
> &
  SalePriced & {
    is_featured: number;
  };

/** Rows by their `product_id`, each product's in their order. */
function groupByProduct<T extends { product_id: number }>(rows: T[]): Map<number, T[]> {
  const byProduct = new Map<number, T[]>();
  for (const row of rows) {
    const list = byProduct.get(row.product_id);
    if (list) list.push(row);
    else byProduct.set(row.product_id, [row]);
  }
  return byProduct;
}

/**
 * Adds the image and the colour variants to product rows, with two queries in all. The image is
 * the one the product page opens with (docs/decisions/035): the first of the first in-stock
 * colour's images, else the first for every colour, else the product's first. The images query
 * reads every image of the page's products (five at most each) through the
 * (product_id, sort_order) unique index.
 */
export async function toCards(
  db: DB,
  rows: CardRow[],
  currency: Currency,
  at: Date = new Date(),
): Promise<ProductCard[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [variants, images] = await Promise.all([
    db
      .selectFrom("product_variants")
      .select(["product_id", "color", "color_zh", "stock"])
      .where("product_id", "in", ids)
      .orderBy("sort_order")
      .orderBy("option_order")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("product_images")
      .select(["product_id", "path", "color"])
      .where("product_id", "in", ids)
      .orderBy("product_id")
      .orderBy("sort_order")
      .execute(),
  ]);
  const imagesOf = groupByProduct(images);
  const variantsOf = groupByProduct(variants);
  return rows.map((row) => {
    // A colour's stock over all its sizes (docs/decisions/054).
    const colors = coloursOf(variantsOf.get(row.id) ?? []);
    const shown = imagesForColour(imagesOf.get(row.id) ?? [], defaultColour(colors)?.color ?? null);
    return {
      ...pricedProduct(row, currency, at),
      category_slug: row.category_slug,
      category_name_en: row.category_name_en,
      category_name_zh: row.category_name_zh,
      image_url: publicUrl(shown[0]?.path),
      total_stock: colors.reduce((sum, v) => sum + v.stock, 0),
      colors,
    };
  });
}

/**
 * What a card renders, already in the shopper's language: the only product fields a listing
 * page's loader sends (they travel twice, as HTML and again as the loader data the page hydrates
 * from). The other language comes with the page that switches to it (a POST and a reload).
 */
export interface CardView {
  id: number;
  name: string;
  /** Clipped: the card shows two lines of it. */
  description: string;
  price_cents: number;
  /** The regular price, struck through, while the product is on sale; else null. */
  was_cents: number | null;
  currency: Currency;
  featured: boolean;
  category: string | null;
  image: string | null;
  /** Up to three named colours, in the shopper's language; `out` when sold out. */
  colors: { name: string; out?: true }[];
  /** How many named colours there are beyond those three. */
  more: number;
  /** The colour Add to Cart puts in the cart (the first in stock); null when the product is sold out. */
  cartColor: string | null;
}

/**
 * A card shows at most two lines of the description: more is never seen. Two lines of a card
 * (its text at most 368 CSS pixels wide in the three-column grid, 326 on a 390-pixel phone)
 * hold about 110 Latin letters; a Chinese character is about two letters wide, so Chinese and
 * mixed text is measured in letter widths too. A one-column phone wider than 430 pixels ends the
 * text with its ellipsis a little earlier than it could (docs/decisions/068).
 */
export const CARD_DESCRIPTION_WIDTH = 112;

/** How wide a character (its code point) reads, in Latin letters: CJK and full-width forms are two. */
function charWidth(code: number): number {
  return (code >= 0x2e80 && code <= 0x9fff) || (code >= 0xf900 && code <= 0xfaff) || (code >= 0xff00 && code <= 0xffef)
    ? 2
    : 1;
}

/**
 * `text` cut to `max` letter widths at a word end when there is one (an ellipsis says so);
 * shorter text as it is. Reads no further into the text than the cut (a description may be
 * thousands of characters long, and a listing clips two dozen on every render).
 */
export function clipText(text: string, max: number): string {
  let width = 0;
  let end = 0;
  while (end < text.length) {
    const code = text.codePointAt(end) as number;
    const wide = charWidth(code);
    if (width + wide > max) break;
    width += wide;
    end += code > 0xffff ? 2 : 1;
  }
  if (end >= text.length) return text;
  const cut = text.slice(0, end);
  const space = cut.lastIndexOf(" ");
  return `${(space > cut.length * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The `CardView` of a card for a reader of `language`. */
export function cardView(card: ProductCard, language: Language): CardView {
  const named = card.colors.filter((c) => c.color !== DEFAULT_COLOR);
  const cartColor = card.total_stock > 0 ? (card.colors.find((c) => c.stock > 0)?.color ?? DEFAULT_COLOR) : null;
  return {
    id: card.id,
    name: localized(card, "name", language),
    description: clipText(localized(card, "description", language), CARD_DESCRIPTION_WIDTH),
    price_cents: card.price_cents,
    was_cents: card.regular_price_cents > card.price_cents ? card.regular_price_cents : null,
    currency: card.currency,
    featured: card.is_featured,
    category: card.category_name_en ? localized(card, "category_name", language) : null,
    image: card.image_url,
    colors: named
      .slice(0, 3)
      .map((c) => (c.stock > 0 ? { name: colorName(c, language) } : { name: colorName(c, language), out: true })),
    more: Math.max(0, named.length - 3),
    cartColor,
  };
}

/** The `CardView`s of `cards` for a reader of `language`. */
export function cardViews(cards: ProductCard[], language: Language): CardView[] {
  return cards.map((card) => cardView(card, language));
}
