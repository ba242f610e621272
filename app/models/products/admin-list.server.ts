import { type DB, now } from "#db/connect.server";
import { containsText } from "#db/dialect";
import type { Currency } from "#db/schema";
import type { ListSort, ProductSortKey } from "~/lib/list-sort";
import { UserError } from "~/lib/problem";
import { safeRedirect } from "~/lib/redirect";
import { removeFilesQuietly, type Storage } from "~/lib/storage.server";
import type { Language } from "~/locales";
import { auditAction } from "../audit.server";
import { CARD_COLUMNS, type CardRow, type ProductCard, toCards } from "./cards.server";
import { normalizeSearch } from "./catalog.server";
import { findProductForEdit } from "./editor.server";
import { countWaitingByProduct } from "./stock-alerts.server";

/**
 * The admin product list: search on the name in the admin's language, a category filter,
 * newest first or sorted by name or price (list-sort.ts; each an index walk), 20 a page. Count, page, categories, and one query each for all rows' images
 * and colours: a fixed number of queries, never one per row. Plus the two writes the list
 * offers (category change and delete), each recorded in the audit log.
 */

export const ADMIN_PAGE_SIZE = 20;

export interface AdminProductQuery {
  search?: string | null;
  categoryId?: number | null;
  page?: number;
  pageSize?: number;
  currency: Currency;
  language: Language;
  /** A column's order (name in `language`, price in `currency`); newest first without one. */
  sort?: ListSort<ProductSortKey>;
}

export type AdminProductRow = ProductCard & {
  category_id: number | null;
  /** Its category is inactive: shoppers cannot see or buy it (the list marks it). */
  hidden_from_shoppers: boolean;
  /** Shoppers waiting for a back-in-stock e-mail (active alerts; docs/decisions/055): a demand signal. */
  waiting: number;
};

export interface AdminCategoryOption {
  id: number;
  name_en: string;
  name_zh: string;
  is_active: boolean;
}

export interface AdminProductListing {
  products: AdminProductRow[];
  total: number;
  page: number;
  pages: number;
  pageSize: number;
  /** Every category, by sort order (the filter offers the active ones). */
  categories: AdminCategoryOption[];
}

export const ADMIN_LIST_PATH = "/admin/products";

/**
 * Where a list action sends the admin back to: a same-origin /admin/products URL with only the
 * list's own parameters (q, category, page, sort, dir); anything else falls back to the plain list.
 */
export function adminListPath(value: FormDataEntryValue | string | null | undefined): string {
  const path = safeRedirect(value, ADMIN_LIST_PATH);
  const url = new URL(path, "http://local.invalid");
  if (url.pathname !== ADMIN_LIST_PATH) return ADMIN_LIST_PATH;
  const kept = new URLSearchParams();
  for (const name of ["q", "category", "page", "sort", "dir"]) {
    const param = url.searchParams.get(name);
    if (param) kept.set(name, param.slice(0, 200));
  }
  const query = kept.toString();
  return query ? `${ADMIN_LIST_PATH}?${query}` : ADMIN_LIST_PATH;
}

export async function listCategoryOptions(db: DB): Promise<AdminCategoryOption[]> {
  const rows = await db
    .selectFrom("categories")
    .select(["id", "name_en", "name_zh", "is_active"])
    .orderBy("sort_order")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({ ...row, is_active: row.is_active === 1 }));
}

export async function listAdminProducts(db: DB, query: AdminProductQuery): Promise<AdminProductListing> {
  const pageSize = query.pageSize ?? ADMIN_PAGE_SIZE;
  const search = normalizeSearch(query.search);

  let base = db.selectFrom("products");
  if (query.categoryId != null) base = base.where("products.category_id", "=", query.categoryId);
  if (search) {
    base = base.where(containsText(db, query.language === "zh" ? "products.name_zh" : "products.name_en", search));
  }

  const [{ total }, categories] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow(),
    listCategoryOptions(db),
  ]);
  const pages = Math.max(1, Math.ceil(Number(total) / pageSize));
  const page = Math.min(Math.max(1, Math.trunc(query.page ?? 1) || 1), pages);

  const rows = await base
    .leftJoin("categories", "categories.id", "products.category_id")
    .select(CARD_COLUMNS)
    .select("products.category_id")
    .$call((rows) => {
      const { key, dir } = query.sort ?? { key: null, dir: "desc" };
      if (key === null) return rows.orderBy("products.created_at", "desc").orderBy("products.id", "desc");
      const column =
        key === "name"
          ? query.language === "zh"
            ? "products.name_zh"
            : "products.name_en"
          : (`products.price_${query.currency.toLowerCase() as Lowercase<Currency>}_cents` as const);
      return rows.orderBy(column, dir).orderBy("products.id", dir);
    })
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  const cards = await toCards(db, rows as CardRow[], query.currency);
  const inactive = new Set(categories.filter((c) => !c.is_active).map((c) => c.id));
  const waiting = await countWaitingByProduct(
    db,
    cards.map((card) => card.id),
  );
  const products = cards.map((card, i) => {
    const categoryId = rows[i]?.category_id ?? null;
    return {
      ...card,
      category_id: categoryId,
      hidden_from_shoppers: categoryId !== null && inactive.has(categoryId),
      waiting: waiting.get(card.id) ?? 0,
    };
  });
  return { products, total: Number(total), page, pages, pageSize, categories };
}

/** The colours the list shows: the first two in stock, how many more there are, or why none. */
export function colourSummary<C extends { color: string; stock: number }>(
  colors: C[],
): { kind: "none" } | { kind: "out" } | { kind: "some"; shown: C[]; more: number } {
  if (colors.length === 0) return { kind: "none" };
  const inStock = colors.filter((c) => c.stock > 0);
  if (inStock.length === 0) return { kind: "out" };
  return { kind: "some", shown: inStock.slice(0, 2), more: Math.max(0, inStock.length - 2) };
}

/** The spec's stock badge: over 10 green, 1 to 10 yellow, 0 red. */
export function stockLevel(stock: number): "high" | "low" | "none" {
  if (stock > 10) return "high";
  if (stock >= 1) return "low";
  return "none";
}

/** The product the delete step names (null when there is none with this id). */
export async function findProductName(db: DB, id: number) {
  return (
    (await db.selectFrom("products").select(["id", "name_en", "name_zh"]).where("id", "=", id).executeTakeFirst()) ??
    null
  );
}

export interface Actor {
  id: string;
}

/**
 * Moves a product to another existing category; audited with the old and new category. A
 * product or category that does not exist is a `UserError`.
 */
export async function updateProductCategory(
  db: DB,
  actor: Actor,
  productId: number,
  categoryId: number,
): Promise<{ changed: boolean }> {
  return db.transaction().execute(async (trx) => {
    const product = await trx
      .selectFrom("products")
      .select(["id", "category_id"])
      .where("id", "=", productId)
      .executeTakeFirst();
    if (!product) throw new UserError("adminProducts.notFound");
    const category = await trx.selectFrom("categories").select("id").where("id", "=", categoryId).executeTakeFirst();
    if (!category) throw new UserError("adminProducts.badCategory");
    if (product.category_id === categoryId) return { changed: false };
    await trx
      .updateTable("products")
      .set({ category_id: categoryId, updated_at: now() })
      .where("id", "=", productId)
      .execute();
    await auditAction(trx, actor.id, "product.category_changed", productId, {
      before: { category_id: product.category_id },
      after: { category_id: categoryId },
    });
    return { changed: true };
  });
}

/**
 * Deletes a product. Its variants, images and cart lines go with it (ON DELETE CASCADE);
 * order lines keep their snapshot (name, price, colour, image) and lose only the link
 * (product_id is set null). After the row is gone, its image files are removed from storage,
 * except files an order line still shows (`removedFiles`: the files it removed, or tried to: a
 * file left behind is only wasted space). A product that does not exist is a `UserError`.
 */
export async function deleteProduct(
  db: DB,
  storage: Storage,
  actor: Actor,
  productId: number,
): Promise<{ name_en: string; name_zh: string; removedFiles: string[] }> {
  const { before, paths } = await db.transaction().execute(async (trx) => {
    const found = await findProductForEdit(trx, productId);
    if (!found) throw new UserError("adminProducts.notFound");
    const { product, variants, images } = found;
    await trx.deleteFrom("products").where("id", "=", productId).execute();
    await auditAction(trx, actor.id, "product.deleted", productId, { before: { ...product, variants, images } });
    return { before: product, paths: images };
  });

  let removedFiles: string[] = [];
  if (paths.length > 0) {
    const kept = new Set(
      (
        await db.selectFrom("order_lines").select("image_path").distinct().where("image_path", "in", paths).execute()
      ).map((row) => row.image_path),
    );
    removedFiles = paths.filter((key) => !kept.has(key));
    await removeFilesQuietly(storage, "public", removedFiles);
  }
  return { name_en: before.name_en, name_zh: before.name_zh, removedFiles };
}
