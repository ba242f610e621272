import { type DB, now } from "#db/connect.server";
import { isForeignKeyViolation, isUniqueViolation } from "#db/errors";
import { pickColumns } from "#db/query";
import type { CategoryRow } from "#db/schema";
import { deletePublicImage, dropReplacedImage, keptImage, savingImage } from "~/lib/images.server";
import { UserError } from "~/lib/problem";
import { publicUrl, type Storage } from "~/lib/storage.server";
import { type CategoryInput, slugify } from "~/schemas/category";
import { auditAction } from "./audit.server";
import { catalogueMemo } from "./catalogue-memo.server";
import { setCategoryZones } from "./orders/restrictions.server";

const activeCategories = catalogueMemo<readonly CategoryRow[]>({ maxEntries: 1 });

/**
 * Active categories in the operator's order: the navigation, footer and home tiles, read by
 * every page. Kept while the catalogue does not change (catalogue-memo.server.ts): one
 * primary-key read instead of every category's row. Shared: never change the list.
 */
export async function listActiveCategories(db: DB): Promise<readonly CategoryRow[]> {
  return activeCategories(db, "", async () =>
    Object.freeze(
      await db
        .selectFrom("categories")
        .selectAll()
        .where("is_active", "=", 1)
        .orderBy("sort_order")
        .orderBy("id")
        .execute(),
    ),
  );
}

/** A category as the Category Manager lists it. */
export interface AdminCategory {
  id: number;
  slug: string;
  name_en: string;
  name_zh: string;
  description_en: string | null;
  description_zh: string | null;
  image_path: string | null;
  image_url: string | null;
  is_active: boolean;
  adult_only: boolean;
  sort_order: number;
  product_count: number;
}

function toAdminCategory(row: CategoryRow, productCount: number): AdminCategory {
  return {
    id: row.id,
    slug: row.slug,
    name_en: row.name_en,
    name_zh: row.name_zh,
    description_en: row.description_en,
    description_zh: row.description_zh,
    image_path: row.image_path,
    image_url: publicUrl(row.image_path),
    is_active: row.is_active === 1,
    adult_only: row.adult_only === 1,
    sort_order: row.sort_order,
    product_count: productCount,
  };
}

/** Every category, active or not, in the operator's order, with how many products use each. */
export async function listAllCategories(db: DB): Promise<AdminCategory[]> {
  const rows = await db
    .selectFrom("categories")
    .selectAll("categories")
    .select((eb) =>
      eb
        .selectFrom("products")
        .select(eb.fn.countAll<number>().as("n"))
        .whereRef("products.category_id", "=", "categories.id")
        .as("product_count"),
    )
    .orderBy("categories.sort_order")
    .orderBy("categories.id")
    .execute();
  return rows.map(({ product_count, ...row }) => toAdminCategory(row, Number(product_count ?? 0)));
}

export async function findAdminCategory(db: DB, id: number): Promise<AdminCategory | null> {
  const row = await db.selectFrom("categories").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  const count = await countProducts(db, id);
  return toAdminCategory(row, count);
}

async function countProducts(db: DB, categoryId: number): Promise<number> {
  const result = await db
    .selectFrom("products")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("category_id", "=", categoryId)
    .executeTakeFirstOrThrow();
  return Number(result.n);
}

const slugTakenError = () => new UserError("adminCategories.errors.slugTaken", { field: "slug" });
const notFoundError = () => new UserError("adminCategories.errors.notFound");

async function slugTaken(db: DB, slug: string, exceptId?: number): Promise<boolean> {
  let query = db.selectFrom("categories").select("id").where("slug", "=", slug);
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** The form fields a category stores as they are. */
const CATEGORY_FIELDS = ["name_en", "name_zh", "description_en", "description_zh", "sort_order"] as const;

function categoryValues(input: CategoryInput, slug: string, imagePath: string | null) {
  return {
    ...pickColumns(input, CATEGORY_FIELDS),
    slug,
    image_path: imagePath,
    is_active: input.is_active ? 1 : 0,
    adult_only: input.adult_only ? 1 : 0,
  };
}

/** A save that another category's slug beat to the unique index is refused like a taken slug. */
async function refusingTakenSlug<T>(save: Promise<T>): Promise<T> {
  try {
    return await save;
  } catch (error) {
    if (isUniqueViolation(error)) throw slugTakenError();
    throw error;
  }
}

/**
 * Creates a category. `imageKey` is an image already stored through the pipeline; it is
 * deleted again when the category cannot be saved.
 */
export async function createCategory(
  db: DB,
  storage: Storage,
  input: CategoryInput,
  options: { imageKey?: string | null; actorUserId: string | null },
): Promise<CategoryRow> {
  const imageKey = options.imageKey ?? null;
  const slug = input.slug ?? (slugify(input.name_en) || "category");
  if (await slugTaken(db, slug)) {
    await deletePublicImage(storage, imageKey);
    throw slugTakenError();
  }
  const timestamp = now();
  return refusingTakenSlug(
    savingImage(storage, imageKey, () =>
      db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto("categories")
          .values({
            ...categoryValues(input, slug, imageKey),
            created_at: timestamp,
            updated_at: timestamp,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await setCategoryZones(trx, row.id, (input.ship_zones ?? []).map(Number));
        await auditAction(trx, options.actorUserId, "category.created", row.id, { after: row });
        return row;
      }),
    ),
  );
}

/**
 * Updates a category. The slug stays as it is unless a new one is given (products point at the
 * id, so a rename keeps them attached). The image stays unless a new one is uploaded or
 * `removeImage` is set; the old file is deleted once the row no longer uses it. A slug another
 * category uses is refused next to the slug field.
 */
export async function updateCategory(
  db: DB,
  storage: Storage,
  id: number,
  input: CategoryInput,
  options: { imageKey?: string | null; removeImage?: boolean; actorUserId: string | null },
): Promise<CategoryRow> {
  const newImage = options.imageKey ?? null;
  const before = await db.selectFrom("categories").selectAll().where("id", "=", id).executeTakeFirst();
  if (!before) {
    await deletePublicImage(storage, newImage);
    throw notFoundError();
  }
  const slug = input.slug ?? before.slug;
  if (slug !== before.slug && (await slugTaken(db, slug, id))) {
    await deletePublicImage(storage, newImage);
    throw slugTakenError();
  }
  const imagePath = keptImage(before.image_path, newImage, options.removeImage);
  const category = await refusingTakenSlug(
    savingImage(storage, newImage, () =>
      db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable("categories")
          .set({ ...categoryValues(input, slug, imagePath), updated_at: now() })
          .where("id", "=", id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await setCategoryZones(trx, id, (input.ship_zones ?? []).map(Number));
        await auditAction(trx, options.actorUserId, "category.updated", id, { before, after: row });
        return row;
      }),
    ),
  );
  await dropReplacedImage(storage, before.image_path, imagePath);
  return category;
}

/** Deletes a category no product uses, and its image. */
export async function deleteCategory(
  db: DB,
  storage: Storage,
  id: number,
  options: { actorUserId: string | null },
): Promise<CategoryRow> {
  const before = await db.selectFrom("categories").selectAll().where("id", "=", id).executeTakeFirst();
  if (!before) throw notFoundError();
  // A category products still use stays: they would lose their place in the shop.
  const inUse = (count: number) =>
    new UserError("adminCategories.errors.inUse", { params: { count, name: before.name_en } });
  const count = await countProducts(db, id);
  if (count > 0) throw inUse(count);
  try {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom("categories").where("id", "=", id).executeTakeFirstOrThrow();
      await auditAction(trx, options.actorUserId, "category.deleted", id, { before });
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) throw inUse(await countProducts(db, id));
    throw error;
  }
  await deletePublicImage(storage, before.image_path);
  return before;
}
