import type { Transaction } from "kysely";
import { type DB, now } from "#db/connect.server";
import { isForeignKeyViolation, isUniqueViolation } from "#db/errors";
import type { BrandRow, Database } from "#db/schema";
import { UserError } from "~/lib/problem";
import { slugify } from "~/schemas/category";
import { auditAction } from "./audit.server";
import { type ListingQuery, listingBrands } from "./products/catalog.server";

type Executor = DB | Transaction<Database>;

// Brands (issue 28, docs/decisions/052): a managed list the owner and staff keep like products.
// A brand products still use is not deleted: the operator moves its products first.

export interface BrandInput {
  name: string;
  /** Shown in Chinese instead of `name`; empty or absent: the same name in both languages. */
  name_zh?: string | null;
  /** Made from the name when absent. */
  slug?: string | null;
  sort_order?: number;
}

export interface AdminBrand extends BrandRow {
  productCount: number;
}

/** Every brand in the operator's order with how many products use it: the admin list. */
export async function listBrands(db: DB): Promise<AdminBrand[]> {
  const rows = await db
    .selectFrom("brands")
    .leftJoin("products", "products.brand_id", "brands.id")
    .selectAll("brands")
    .select((eb) => eb.fn.count<number | string>("products.id").as("product_count"))
    .groupBy([
      "brands.id",
      "brands.name",
      "brands.name_zh",
      "brands.slug",
      "brands.sort_order",
      "brands.is_demo",
      "brands.created_at",
      "brands.updated_at",
    ])
    .orderBy("brands.sort_order")
    .orderBy("brands.name")
    .execute();
  return rows.map(({ product_count, ...brand }) => ({ ...brand, productCount: Number(product_count) }));
}

/** The brand a listing's ?brand= names, or null when no brand has that slug. */
export async function findBrandBySlug(db: DB, slug: string): Promise<BrandRow | null> {
  return (await db.selectFrom("brands").selectAll().where("slug", "=", slug).executeTakeFirst()) ?? null;
}

/** A product's brand must exist (the form offers only existing ones; a stale page may not): 400 on "brand_id". */
export async function requireBrand(db: Executor, brandId: number | null | undefined): Promise<void> {
  if (brandId === null || brandId === undefined) return;
  const brand = await db.selectFrom("brands").select("id").where("id", "=", brandId).executeTakeFirst();
  if (!brand) throw new UserError("adminProductForm.errors.brandInvalid", { field: "brand_id" });
}

/** The brand's name in a language: its Chinese name in Chinese when it has one. */
export function brandName(brand: Pick<BrandRow, "name" | "name_zh">, language: string): string {
  return language.startsWith("zh") && brand.name_zh ? brand.name_zh : brand.name;
}

const nameTakenError = () => new UserError("adminBrands.errors.slugTaken", { field: "slug" });
const notFoundError = () => new UserError("adminBrands.errors.notFound", { status: 404 });

function brandValues(input: BrandInput, slug: string) {
  return {
    name: input.name.trim(),
    name_zh: input.name_zh?.trim() || null,
    slug,
    sort_order: input.sort_order ?? 0,
  };
}

async function slugTaken(db: DB, slug: string, exceptId?: number): Promise<boolean> {
  let query = db.selectFrom("brands").select("id").where("slug", "=", slug);
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

async function refusingTakenSlug<T>(save: Promise<T>): Promise<T> {
  try {
    return await save;
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTakenError();
    throw error;
  }
}

/** Adds a brand; a slug (or a name making the slug) another brand has is refused next to the slug field. */
export async function createBrand(
  db: DB,
  input: BrandInput,
  options: { actorUserId: string | null },
): Promise<BrandRow> {
  const slug = input.slug?.trim() || slugify(input.name) || "brand";
  if (await slugTaken(db, slug)) throw nameTakenError();
  const timestamp = now();
  return refusingTakenSlug(
    db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto("brands")
        .values({ ...brandValues(input, slug), created_at: timestamp, updated_at: timestamp })
        .returningAll()
        .executeTakeFirstOrThrow();
      await auditAction(trx, options.actorUserId, "brand.created", row.id, { after: row });
      return row;
    }),
  );
}

/** Renames a brand; its slug stays unless a new one is given, so links to its listing keep working. */
export async function updateBrand(
  db: DB,
  id: number,
  input: BrandInput,
  options: { actorUserId: string | null },
): Promise<BrandRow> {
  const before = await db.selectFrom("brands").selectAll().where("id", "=", id).executeTakeFirst();
  if (!before) throw notFoundError();
  const slug = input.slug?.trim() || before.slug;
  if (slug !== before.slug && (await slugTaken(db, slug, id))) throw nameTakenError();
  return refusingTakenSlug(
    db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable("brands")
        .set({ ...brandValues(input, slug), updated_at: now() })
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await auditAction(trx, options.actorUserId, "brand.updated", id, { before, after: row });
      return row;
    }),
  );
}

async function countProducts(db: DB, id: number): Promise<number> {
  const row = await db
    .selectFrom("products")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("brand_id", "=", id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deletes a brand no product uses; one in use is refused with how many products still name it. */
export async function deleteBrand(db: DB, id: number, options: { actorUserId: string | null }): Promise<BrandRow> {
  const before = await db.selectFrom("brands").selectAll().where("id", "=", id).executeTakeFirst();
  if (!before) throw notFoundError();
  const inUse = (count: number) =>
    new UserError("adminBrands.errors.inUse", { status: 409, params: { count, name: before.name } });
  const count = await countProducts(db, id);
  if (count > 0) throw inUse(count);
  try {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom("brands").where("id", "=", id).executeTakeFirstOrThrow();
      await auditAction(trx, options.actorUserId, "brand.deleted", id, { before });
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) throw inUse(await countProducts(db, id));
    throw error;
  }
  return before;
}

/** A listing's brand filter: the brand its ?brand= names and the brands it can be narrowed to. */
export interface BrandFilterView {
  /** The listing's brand, or null for every brand (no ?brand=, or one no brand has). */
  brandId: number | null;
  active: { slug: string; name: string } | null;
  brands: { slug: string; name: string; count: number }[];
}

export const NO_BRAND_FILTER: BrandFilterView = { brandId: null, active: null, brands: [] };

/**
 * The brand filter of a listing (category, all products, new arrivals, sale, search) in a
 * language: a `?brand=` slug no brand has (a deleted brand's old link) filters nothing.
 */
export async function brandFilterOf(
  db: DB,
  slug: string | null,
  listing: Omit<ListingQuery, "sort" | "page" | "brandId" | "price">,
  language: string,
): Promise<BrandFilterView> {
  const [brand, brands] = await Promise.all([slug ? findBrandBySlug(db, slug) : null, listingBrands(db, listing)]);
  return {
    brandId: brand?.id ?? null,
    active: brand ? { slug: brand.slug, name: brandName(brand, language) } : null,
    brands: brands.map((row) => ({ slug: row.slug, name: brandName(row, language), count: row.count })),
  };
}
