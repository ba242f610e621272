import { type ExpressionBuilder, sql } from "kysely";
import type { DB } from "#db/connect.server";
import type { CategoryRow, Currency, Database } from "#db/schema";
import { priceIn } from "~/lib/money";
import { publicUrl } from "~/lib/storage.server";
import { CARD_COLUMNS, type CardRow, type ProductCard, toCards } from "./product.server";

/**
 * The catalogue rules: listing (category, price band, sort, page), search and the product
 * page. Every listing is two queries (count, page) plus two for all cards' images and
 * colours, never one per card.
 */

export const PAGE_SIZE = 24;

/** The spec's price filters, on the HKD price. */
export const PRICE_BANDS = {
  "under-400": { min: 0, max: 40_000 },
  "400-800": { min: 40_000, max: 80_000 },
  "800-1600": { min: 80_000, max: 160_000 },
  "over-1600": { min: 160_000, max: null },
} as const;
export type PriceBand = keyof typeof PRICE_BANDS;

export const SORTS = ["featured", "newest", "price-low-high", "price-high-low"] as const;
export type Sort = (typeof SORTS)[number];

/** 'new-arrivals' lists what arrived in this many days, newest first. */
export const NEW_ARRIVAL_DAYS = 90;

export function isPriceBand(value: unknown): value is PriceBand {
  return typeof value === "string" && Object.hasOwn(PRICE_BANDS, value);
}

export function isSort(value: unknown): value is Sort {
  return typeof value === "string" && (SORTS as readonly string[]).includes(value);
}

/** Slug matching ignores case and treats spaces, ampersands and hyphens alike. */
export function normalizeSlug(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[\s&-]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * The spec's listing title: 'All Products' without a category; otherwise the path's words
 * (split on spaces, hyphens and ampersands) capitalised and joined with ' & '.
 */
export function titleFromSlug(slug: string | undefined | null): string {
  const words = (slug ?? "").split(/[\s&-]+/).filter(Boolean);
  if (words.length === 0 || normalizeSlug(slug ?? "") === "all") return "All Products";
  // The special listing keeps the name its buttons use ("New Arrivals", not "New & Arrivals").
  if (normalizeSlug(slug ?? "") === "new-arrivals") return "New Arrivals";
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()).join(" & ");
}

/** An active category whose slug (or English name) matches, ignoring case and separators. */
export async function findActiveCategory(db: DB, slug: string): Promise<CategoryRow | undefined> {
  const wanted = normalizeSlug(slug);
  if (!wanted) return undefined;
  const rows = await db.selectFrom("categories").selectAll().where("is_active", "=", 1).execute();
  return rows.find((row) => normalizeSlug(row.slug) === wanted || normalizeSlug(row.name_en) === wanted);
}

export interface ListingQuery {
  /** A category id, or every product. */
  categoryId: number | null;
  newArrivals?: boolean;
  search?: string;
  price?: PriceBand | null;
  sort: Sort;
  page: number;
  currency: Currency;
  pageSize?: number;
}

export interface Listing {
  products: ProductCard[];
  total: number;
  page: number;
  pages: number;
}

const PRICE_COLUMN = {
  HKD: "products.price_hkd_cents",
  GBP: "products.price_gbp_cents",
  EUR: "products.price_eur_cents",
  USD: "products.price_usd_cents",
} as const;

/** Escapes LIKE wildcards so a search for "50%" means fifty percent. */
function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Control characters (NUL ends an FTS5 query string early: a 500) count as spaces. */
export function normalizeSearch(term: string | null | undefined): string {
  return (term ?? "")
    .replace(/\p{Cc}/gu, " ")
    .trim()
    .replace(/\s+/g, " ")
    .slice(0, 100);
}

/**
 * Products matching `term` in the English name, the Chinese name or the category: the
 * trigram full-text index for 3+ characters; a plain partial match for 2 (common in Chinese:
 * 手槍, 背心); nothing below 2.
 */
function matchSearch(term: string) {
  return (eb: ExpressionBuilder<Database & { products: Database["products"] }, "products">) => {
    if ([...term].length >= 3) {
      const phrase = `"${term.replace(/"/g, '""')}"`;
      return eb(
        "products.id",
        "in",
        eb
          .selectFrom("product_search")
          .select("product_search.rowid")
          .where(sql<boolean>`product_search MATCH ${phrase}`),
      );
    }
    const pattern = likePattern(term);
    return eb.or([
      sql<boolean>`products.name_en LIKE ${pattern} ESCAPE '\\'`,
      sql<boolean>`products.name_zh LIKE ${pattern} ESCAPE '\\'`,
      eb(
        "products.category_id",
        "in",
        eb
          .selectFrom("categories")
          .select("categories.id")
          .where((c) =>
            c.or([
              sql<boolean>`categories.slug LIKE ${pattern} ESCAPE '\\'`,
              sql<boolean>`categories.name_en LIKE ${pattern} ESCAPE '\\'`,
              sql<boolean>`categories.name_zh LIKE ${pattern} ESCAPE '\\'`,
            ]),
          ),
      ),
    ]);
  };
}

export async function listProducts(db: DB, query: ListingQuery): Promise<Listing> {
  const pageSize = query.pageSize ?? PAGE_SIZE;
  const search = normalizeSearch(query.search);
  if (query.search !== undefined && [...search].length < 2) return { products: [], total: 0, page: 1, pages: 1 };

  let base = db.selectFrom("products");
  if (query.categoryId !== null) base = base.where("products.category_id", "=", query.categoryId);
  if (query.newArrivals) {
    const since = new Date(Date.now() - NEW_ARRIVAL_DAYS * 24 * 60 * 60 * 1000).toISOString();
    base = base.where("products.created_at", ">=", since);
  }
  if (query.price) {
    const band = PRICE_BANDS[query.price];
    base = base.where("products.price_hkd_cents", ">=", band.min);
    if (band.max !== null) base = base.where("products.price_hkd_cents", "<", band.max);
  }
  if (search) base = base.where(matchSearch(search));

  const { total } = await base.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow();
  const pages = Math.max(1, Math.ceil(Number(total) / pageSize));
  const page = Math.min(Math.max(1, Math.trunc(query.page) || 1), pages);

  const price = PRICE_COLUMN[query.currency];
  let rows = base.leftJoin("categories", "categories.id", "products.category_id").select(CARD_COLUMNS);
  switch (query.sort) {
    case "featured":
      rows = rows.orderBy("products.is_featured", "desc").orderBy("products.created_at", "desc");
      break;
    case "newest":
      rows = rows.orderBy("products.created_at", "desc");
      break;
    case "price-low-high":
      rows = rows.orderBy(price, "asc");
      break;
    case "price-high-low":
      rows = rows.orderBy(price, "desc");
      break;
  }
  // Ties go by id in the direction of the price sort, so one price index (its rowid order)
  // serves both price sorts, walked forwards or backwards.
  const found = await rows
    .orderBy("products.id", query.sort === "price-low-high" ? "asc" : "desc")
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { products: await toCards(db, found as CardRow[], query.currency), total: Number(total), page, pages };
}

export async function countProducts(db: DB): Promise<number> {
  const { n } = await db
    .selectFrom("products")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(n);
}

export interface ProductDetail {
  id: number;
  name_en: string;
  name_zh: string;
  description_en: string;
  description_zh: string;
  price_cents: number;
  price_hkd_cents: number;
  currency: Currency;
  is_featured: boolean;
  category: { id: number; slug: string; name_en: string; name_zh: string; is_active: boolean } | null;
  images: string[];
  variants: { color: string; stock: number }[];
  total_stock: number;
  updated_at: string;
}

export async function findProduct(db: DB, id: number, currency: Currency): Promise<ProductDetail | null> {
  if (!Number.isSafeInteger(id) || id < 1) return null;
  const row = await db
    .selectFrom("products")
    .leftJoin("categories", "categories.id", "products.category_id")
    .selectAll("products")
    .select([
      "categories.slug as category_slug",
      "categories.name_en as category_name_en",
      "categories.name_zh as category_name_zh",
      "categories.is_active as category_is_active",
    ])
    .where("products.id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  const [images, variants] = await Promise.all([
    db.selectFrom("product_images").select("path").where("product_id", "=", id).orderBy("sort_order").execute(),
    db
      .selectFrom("product_variants")
      .select(["color", "stock"])
      .where("product_id", "=", id)
      .orderBy("sort_order")
      .orderBy("id")
      .execute(),
  ]);
  return {
    id: row.id,
    name_en: row.name_en,
    name_zh: row.name_zh,
    description_en: row.description_en,
    description_zh: row.description_zh,
    price_cents: priceIn(row, currency),
    price_hkd_cents: row.price_hkd_cents,
    currency,
    is_featured: row.is_featured === 1,
    category:
      row.category_id !== null && row.category_slug
        ? {
            id: row.category_id,
            slug: row.category_slug,
            name_en: row.category_name_en ?? row.category_slug,
            name_zh: row.category_name_zh ?? row.category_slug,
            is_active: row.category_is_active === 1,
          }
        : null,
    images: images.map((image) => publicUrl(image.path) as string),
    variants,
    total_stock: variants.reduce((sum, v) => sum + v.stock, 0),
    updated_at: row.updated_at,
  };
}

/** Up to `limit` other products of the same category, newest first. */
export async function listRelatedProducts(
  db: DB,
  product: Pick<ProductDetail, "id" | "category">,
  currency: Currency,
  limit = 4,
): Promise<ProductCard[]> {
  if (!product.category) return [];
  const rows = await db
    .selectFrom("products")
    .leftJoin("categories", "categories.id", "products.category_id")
    .select(CARD_COLUMNS)
    .where("products.category_id", "=", product.category.id)
    .where("products.id", "!=", product.id)
    .orderBy("products.created_at", "desc")
    .orderBy("products.id", "desc")
    .limit(limit)
    .execute();
  return toCards(db, rows as CardRow[], currency);
}
