import { sql } from "kysely";
import type { DB } from "#db/connect.server";
import type { Currency } from "#db/schema";
import { type Priced, priceIn } from "~/lib/money";
import { publicUrl } from "~/lib/storage.server";

/** What every shopper view of a product shows: both names and descriptions, its price in one currency. */
export interface PricedProduct {
  id: number;
  name_en: string;
  name_zh: string;
  description_en: string;
  description_zh: string;
  price_cents: number;
  currency: Currency;
  is_featured: boolean;
}

/** The `PricedProduct` fields of a product row, priced in `currency`. */
export function pricedProduct(
  row: Pick<PricedProduct, "id" | "name_en" | "name_zh" | "description_en" | "description_zh"> &
    Priced & { is_featured: number },
  currency: Currency,
): PricedProduct {
  return {
    id: row.id,
    name_en: row.name_en,
    name_zh: row.name_zh,
    description_en: row.description_en,
    description_zh: row.description_zh,
    price_cents: priceIn(row, currency),
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
  "price_cents" | "currency" | "image_url" | "total_stock" | "colors" | "is_featured"
> & {
  price_hkd_cents: number;
  price_gbp_cents: number;
  price_eur_cents: number;
  price_usd_cents: number;
  is_featured: number;
};

/** Adds the first image and the colour variants to product rows, with two queries in all. */
export async function toCards(db: DB, rows: CardRow[], currency: Currency): Promise<ProductCard[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [variants, images] = await Promise.all([
    db
      .selectFrom("product_variants")
      .select(["product_id", "color", "color_zh", "stock"])
      .where("product_id", "in", ids)
      .orderBy("sort_order")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("product_images")
      .select(["product_id", "path"])
      .where("product_id", "in", ids)
      .where("sort_order", "=", 0)
      .execute(),
  ]);
  return rows.map((row) => {
    const colors = variants
      .filter((v) => v.product_id === row.id)
      .map(({ color, color_zh, stock }) => ({ color, color_zh, stock }));
    return {
      ...pricedProduct(row, currency),
      category_slug: row.category_slug,
      category_name_en: row.category_name_en,
      category_name_zh: row.category_name_zh,
      image_url: publicUrl(images.find((image) => image.product_id === row.id)?.path),
      total_stock: colors.reduce((sum, v) => sum + v.stock, 0),
      colors,
    };
  });
}
