import type { RawBuilder, SelectQueryBuilder } from "kysely";
import type { DB } from "#db/connect.server";
import type { CategoryRow, Currency, Database } from "#db/schema";
import { brandIdsMatching, matchProductSearch } from "#db/search";
import { publicUrl } from "~/lib/storage.server";
import type { StoreVariant } from "~/lib/variants";
import { catalogueMemo } from "../catalogue-memo.server";
import { listActiveCategories } from "../categories.server";
import { searchTerms } from "../settings/search-synonyms.server";
import {
  CARD_COLUMNS,
  type CardRow,
  type PricedProduct,
  type ProductCard,
  pricedProduct,
  shownToShoppers,
  toCards,
} from "./cards.server";
import { listedPrice, nextSaleEnd, onSaleAt, regularPrice, saleEnded, saleNotEnded } from "./sale-prices.server";

/**
 * The catalogue rules: listing (category, price band, sort, page), search and the product
 * page. Every listing is two queries (count, page) plus two for all cards' images and
 * colours, never one per card.
 */

export const PAGE_SIZE = 24;

/** The price filter's four bands, the same for every shopper, with limits in their currency. */
export const PRICE_BANDS = ["budget", "mid", "high", "top"] as const;
export type PriceBand = (typeof PRICE_BANDS)[number];

/**
 * Where the bands meet, in cents of each currency: the spec's HK$400 / 800 / 1,600, and round
 * amounts of about the same worth in the other currencies. A band filters the price in the
 * shopper's currency (the one the cards show).
 */
export const PRICE_BAND_LIMITS: Record<Currency, readonly [number, number, number]> = {
  HKD: [400_00, 800_00, 1_600_00],
  GBP: [40_00, 80_00, 160_00],
  EUR: [50_00, 100_00, 200_00],
  USD: [50_00, 100_00, 200_00],
};

/** The band names of earlier releases (HKD amounts in the URL), still understood in old links. */
const LEGACY_BANDS: Record<string, PriceBand> = {
  "under-400": "budget",
  "400-800": "mid",
  "800-1600": "high",
  "over-1600": "top",
};

/** A band from a query string value (current or legacy name); null for anything else. */
export function parsePriceBand(value: string | null | undefined): PriceBand | null {
  if (!value) return null;
  if ((PRICE_BANDS as readonly string[]).includes(value)) return value as PriceBand;
  return Object.hasOwn(LEGACY_BANDS, value) ? (LEGACY_BANDS[value] as PriceBand) : null;
}

/** A band's limits in `currency`: min included, max excluded (null: no upper limit). */
export function priceBandRange(band: PriceBand, currency: Currency): { min: number; max: number | null } {
  const [low, middle, high] = PRICE_BAND_LIMITS[currency];
  switch (band) {
    case "budget":
      return { min: 0, max: low };
    case "mid":
      return { min: low, max: middle };
    case "high":
      return { min: middle, max: high };
    default:
      return { min: high, max: null };
  }
}

export const SORTS = ["featured", "newest", "price-low-high", "price-high-low"] as const;
export type Sort = (typeof SORTS)[number];

/** 'new-arrivals' lists what arrived in this many days, newest first. */
export const NEW_ARRIVAL_DAYS = 90;

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
  const rows = await listActiveCategories(db);
  return rows.find((row) => normalizeSlug(row.slug) === wanted || normalizeSlug(row.name_en) === wanted);
}

export interface ListingQuery {
  /** A category id, or every product. */
  categoryId: number | null;
  /** A brand id (the listing's ?brand=, docs/decisions/052), or every brand. */
  brandId?: number | null;
  newArrivals?: boolean;
  /** Only products on sale now (the Sale listing, docs/decisions/053). */
  onSale?: boolean;
  search?: string;
  price?: PriceBand | null;
  sort: Sort;
  page: number;
  currency: Currency;
  pageSize?: number;
  /** The moment prices are read for (a test's clock); now by default. */
  at?: Date;
}

export interface Listing {
  products: ProductCard[];
  total: number;
  page: number;
  pages: number;
  /** The other words a search looked for: its term's synonyms (none without a search). */
  synonyms?: string[];
}

/** Control characters (NUL ends an FTS5 query string early: a 500) count as spaces. */
export function normalizeSearch(term: string | null | undefined): string {
  return (term ?? "")
    .replace(/\p{Cc}/gu, " ")
    .trim()
    .replace(/\s+/g, " ")
    .slice(0, 100);
}

/** The products a listing shows, before its price band, sort and page; the search's terms. */
async function listingBase(db: DB, query: Omit<ListingQuery, "sort" | "page">, search: string, at: Date) {
  let base = db.selectFrom("products").where(shownToShoppers);
  if (query.categoryId !== null) base = base.where("products.category_id", "=", query.categoryId);
  if (query.brandId != null) base = base.where("products.brand_id", "=", query.brandId);
  if (query.newArrivals) {
    const since = new Date(Date.now() - NEW_ARRIVAL_DAYS * 24 * 60 * 60 * 1000).toISOString();
    base = base.where("products.created_at", ">=", since);
  }
  if (query.onSale) base = base.where(onSaleAt(at));
  // The term and its synonyms (Settings → Search synonyms): a product matching any of them.
  const terms = search ? await searchTerms(db, search) : [];
  if (terms.length > 0) base = base.where(matchProductSearch(db, terms, await brandIdsMatching(db, terms)));
  return { base, terms };
}

/** A brand a listing can be narrowed to, with how many of its products the listing has. */
export interface ListingBrand {
  id: number;
  name: string;
  name_zh: string | null;
  slug: string;
  count: number;
}

/**
 * The brands that have products in a listing (its category, new arrivals, sale or search, any
 * price band), in the operator's order: the listing's brand links (docs/decisions/052).
 */
export async function listingBrands(
  db: DB,
  query: Omit<ListingQuery, "sort" | "page" | "brandId" | "price">,
): Promise<readonly ListingBrand[]> {
  const search = normalizeSearch(query.search);
  if (query.search !== undefined && [...search].length < 2) return [];
  // A test's clock reads afresh; a listing's counts are otherwise kept per catalogue version.
  if (query.at) return countListingBrands(db, query, search, query.at);
  const key = JSON.stringify([query.newArrivals ? "new" : query.onSale ? "sale" : "", query.categoryId, search]);
  return listingBrandsMemo(db, key, async () => Object.freeze(await countListingBrands(db, query, search, new Date())));
}

/**
 * The brand counts of listings, kept while the catalogue does not change (catalogue-memo.server.ts):
 * a GROUP BY over the listing's products on every listing page otherwise. The sale listing's
 * until its next sale ends; new arrivals' for a minute (a product ages out of the 90 days with no
 * write).
 */
const listingBrandsMemo = catalogueMemo<readonly ListingBrand[]>({
  maxEntries: 500,
  expiresAt: async (db, key, now) => {
    if (key.startsWith('["new"')) return now + NEW_ARRIVALS_BRANDS_MS;
    if (!key.startsWith('["sale"')) return Number.POSITIVE_INFINITY;
    const saleEnd = await nextSaleEnd(db, new Date(now));
    return saleEnd === null ? Number.POSITIVE_INFINITY : Date.parse(saleEnd);
  },
});
const NEW_ARRIVALS_BRANDS_MS = 60_000;

async function countListingBrands(
  db: DB,
  query: Omit<ListingQuery, "sort" | "page" | "brandId" | "price">,
  search: string,
  at: Date,
): Promise<ListingBrand[]> {
  const { base } = await listingBase(db, { ...query, brandId: null }, search, at);
  const rows = await base
    .innerJoin("brands", "brands.id", "products.brand_id")
    .select(["brands.id", "brands.name", "brands.name_zh", "brands.slug", "brands.sort_order"])
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .groupBy(["brands.id", "brands.name", "brands.name_zh", "brands.slug", "brands.sort_order"])
    .orderBy("brands.sort_order")
    .orderBy("brands.name")
    .execute();
  return rows.map(({ sort_order: _order, count, ...brand }) => ({ ...brand, count: Number(count) }));
}

/**
 * A page of a listing. Sorting by price and the price bands use the price the shopper pays now
 * (docs/decisions/053): the listed price (`listedPrice`: the sale price when below the regular
 * one), which migration 0024 indexes, for every product whose sale has not ended, and the regular
 * price for the few whose sale has ended and is not cleared yet (the scheduler clears them within
 * a minute); those are read apart, through the sale-end index, and merged in.
 */
export async function listProducts(db: DB, query: ListingQuery): Promise<Listing> {
  const pageSize = query.pageSize ?? PAGE_SIZE;
  const at = query.at ?? new Date();
  const search = normalizeSearch(query.search);
  if (query.search !== undefined && [...search].length < 2) return { products: [], total: 0, page: 1, pages: 1 };

  const { base, terms } = await listingBase(db, query, search, at);

  // The price paid now, in the shopper's currency (the one the cards show): the listed price for
  // the products whose sale has not ended (each currency's listed price has a (category_id, price)
  // index too), the regular one for those whose sale has.
  const band = query.price ? priceBandRange(query.price, query.currency) : null;
  const byPrice = query.sort === "price-low-high" || query.sort === "price-high-low";
  const split = band !== null || byPrice;
  const inBand = (q: typeof base, price: RawBuilder<number>) => {
    if (!band) return q;
    const from = q.where(price, ">=", band.min);
    return band.max === null ? from : from.where(price, "<", band.max);
  };
  const current = split ? inBand(base.where(saleNotEnded(at)), listedPrice(query.currency)) : base;
  const ended = split && !query.onSale ? inBand(base.where(saleEnded(at)), regularPrice(query.currency)) : null;

  const count = (q: typeof base) => q.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow();
  const total = Number((await count(current)).total) + (ended ? Number((await count(ended)).total) : 0);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, Math.trunc(query.page) || 1), pages);
  const offset = (page - 1) * pageSize;

  const sorted = <Q extends SelectQueryBuilder<Database, "products", object>>(q: Q, price: RawBuilder<number>) => {
    let rows = q;
    switch (query.sort) {
      case "featured":
        rows = rows.orderBy("products.is_featured", "desc").orderBy("products.created_at", "desc") as Q;
        break;
      case "newest":
        rows = rows.orderBy("products.created_at", "desc") as Q;
        break;
      case "price-low-high":
        rows = rows.orderBy(price, "asc") as Q;
        break;
      case "price-high-low":
        rows = rows.orderBy(price, "desc") as Q;
        break;
    }
    // Ties go by id in the direction of the price sort, so one price index (its rowid order)
    // serves both price sorts, walked forwards or backwards.
    return rows.orderBy("products.id", query.sort === "price-low-high" ? "asc" : "desc") as Q;
  };
  const sortKeys = (q: typeof base, price: RawBuilder<number>) =>
    sorted(q, price)
      .select(["products.id", "products.is_featured", "products.created_at", price.as("price")])
      .limit(offset + pageSize)
      .execute();

  const endedKeys = ended ? await sortKeys(ended, regularPrice(query.currency)) : [];
  let found: CardRow[];
  if (endedKeys.length === 0) {
    // Nearly always: no sale has just ended, the page is one walk of an index to its LIMIT.
    found = (await sorted(
      current.leftJoin("categories", "categories.id", "products.category_id").select(CARD_COLUMNS),
      listedPrice(query.currency),
    )
      .limit(pageSize)
      .offset(offset)
      .execute()) as CardRow[];
  } else {
    const keys = [...(await sortKeys(current, listedPrice(query.currency))), ...endedKeys]
      .sort(compareKeys(query.sort))
      .slice(offset, offset + pageSize);
    const ids = keys.map((key) => key.id);
    const rows = (await db
      .selectFrom("products")
      .leftJoin("categories", "categories.id", "products.category_id")
      .select(CARD_COLUMNS)
      .where("products.id", "in", ids)
      .execute()) as CardRow[];
    found = ids.flatMap((id) => rows.filter((row) => row.id === id));
  }
  return {
    products: await toCards(db, found, query.currency, at),
    total,
    page,
    pages,
    synonyms: terms.slice(1),
  };
}

interface SortKey {
  id: number;
  is_featured: number;
  created_at: string;
  price: number;
}

/** The listing's ORDER BY (`listProducts`) for rows merged in JavaScript. */
function compareKeys(sort: Sort): (a: SortKey, b: SortKey) => number {
  const byId = (a: SortKey, b: SortKey) => (sort === "price-low-high" ? a.id - b.id : b.id - a.id);
  const newest = (a: SortKey, b: SortKey) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0);
  switch (sort) {
    case "featured":
      return (a, b) => Number(b.is_featured) - Number(a.is_featured) || newest(a, b) || byId(a, b);
    case "newest":
      return (a, b) => newest(a, b) || byId(a, b);
    case "price-low-high":
      return (a, b) => Number(a.price) - Number(b.price) || byId(a, b);
    default:
      return (a, b) => Number(b.price) - Number(a.price) || byId(a, b);
  }
}

/** How many products shoppers can see (none: the shop is empty, as far as they can tell). */
export async function countProducts(db: DB): Promise<number> {
  const { n } = await db
    .selectFrom("products")
    .where(shownToShoppers)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(n);
}

export interface ProductDetail extends PricedProduct {
  price_hkd_cents: number;
  category: { id: number; slug: string; name_en: string; name_zh: string; is_active: boolean } | null;
  images: string[];
  /** Each image's colour (docs/decisions/035), null for every colour; in the order of `images`. */
  imageColors: (string | null)[];
  /**
   * Every variant in colour order, then value order: `color` (and `option_value`, '' without a
   * second option) is the key the cart and orders refer to; `_zh` are the Chinese names, if any.
   */
  variants: (StoreVariant & { id: number; sku: string })[];
  /** The second option's name in both languages (null: the product varies by colour only; docs/decisions/054). */
  option: { name_en: string; name_zh: string } | null;
  /** GTIN and MPN (docs/decisions/056); null: none. */
  gtin: string | null;
  mpn: string | null;
  total_stock: number;
  /** 18+: the product or its category is marked so (docs/decisions/049). */
  adult_only: boolean;
  /** Its brand (docs/decisions/052), null without one. */
  brand: { name: string; name_zh: string | null; slug: string } | null;
  updated_at: string;
}

/** A product as its page shows it; null when there is none or its category is inactive (hidden). */
export async function findProduct(
  db: DB,
  id: number,
  currency: Currency,
  at: Date = new Date(),
): Promise<ProductDetail | null> {
  if (!Number.isSafeInteger(id) || id < 1) return null;
  const row = await db
    .selectFrom("products")
    .leftJoin("categories", "categories.id", "products.category_id")
    .leftJoin("brands", "brands.id", "products.brand_id")
    .selectAll("products")
    .select([
      "brands.name as brand_name",
      "brands.name_zh as brand_name_zh",
      "brands.slug as brand_slug",
      "categories.slug as category_slug",
      "categories.name_en as category_name_en",
      "categories.name_zh as category_name_zh",
      "categories.is_active as category_is_active",
      "categories.adult_only as category_adult_only",
    ])
    .where("products.id", "=", id)
    .executeTakeFirst();
  if (!row || (row.category_id !== null && row.category_is_active === 0)) return null;
  const [images, variants] = await Promise.all([
    db
      .selectFrom("product_images")
      .select(["path", "color"])
      .where("product_id", "=", id)
      .orderBy("sort_order")
      .execute(),
    db
      .selectFrom("product_variants")
      .select(["id", "color", "color_zh", "option_value", "option_value_zh", "stock", "sku"])
      .where("product_id", "=", id)
      .orderBy("sort_order")
      .orderBy("option_order")
      .orderBy("id")
      .execute(),
  ]);
  const hasOption = variants.some((variant) => variant.option_value !== "");
  return {
    ...pricedProduct(row, currency, at),
    price_hkd_cents: row.price_hkd_cents,
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
    imageColors: images.map((image) => image.color),
    variants,
    // An option without a name (only a hand-written row can make one): the page says "Option".
    option: hasOption ? { name_en: row.option_name ?? "", name_zh: row.option_name_zh ?? "" } : null,
    gtin: row.gtin,
    mpn: row.mpn,
    total_stock: variants.reduce((sum, v) => sum + v.stock, 0),
    adult_only: row.adult_only === 1 || row.category_adult_only === 1,
    brand:
      row.brand_name !== null && row.brand_slug !== null
        ? { name: row.brand_name, name_zh: row.brand_name_zh, slug: row.brand_slug }
        : null,
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
