import { type DB, now } from "../connect.server";
import { SEED_PRODUCTS } from "./catalogue";

/**
 * Adds `count` synthetic products (variants of the demo ones, three colours each, reusing the
 * demo images) for benchmarks: a catalogue the size of a real shop's without rendering images.
 */
export async function seedBulkProducts(db: DB, count: number): Promise<number> {
  const categories = await db.selectFrom("categories").select(["id", "slug"]).execute();
  const images = await db.selectFrom("product_images").select(["path"]).where("sort_order", "=", 0).execute();
  const bySlug = new Map(categories.map((c) => [c.slug, c.id]));
  const colors = ["Black", "Tan", "Olive Drab"];
  const batch = 500;
  let inserted = 0;
  while (inserted < count) {
    const size = Math.min(batch, count - inserted);
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < size; i++) {
        const n = inserted + i;
        const source = SEED_PRODUCTS[n % SEED_PRODUCTS.length];
        if (!source) continue;
        const created = now(new Date(Date.now() - (n % 365) * 86_400_000 - n * 1000));
        const { id } = await trx
          .insertInto("products")
          .values({
            category_id: bySlug.get(source.category) ?? null,
            name_en: `${source.name_en} #${n + 1}`,
            name_zh: `${source.name_zh} #${n + 1}`,
            description_en: source.description_en,
            description_zh: source.description_zh,
            price_hkd_cents: source.price_hkd_cents + (n % 97) * 100,
            price_gbp_cents: source.price_gbp_cents + (n % 97) * 10,
            price_eur_cents: source.price_eur_cents + (n % 97) * 12,
            price_usd_cents: source.price_usd_cents + (n % 97) * 13,
            is_featured: n % 50 === 0 ? 1 : 0,
            created_at: created,
            updated_at: created,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        await trx
          .insertInto("product_variants")
          .values(
            colors.map((color, index) => ({ product_id: id, color, stock: (n + index * 7) % 40, sort_order: index })),
          )
          .execute();
        const image = images[n % Math.max(1, images.length)];
        if (image)
          await trx.insertInto("product_images").values({ product_id: id, path: image.path, sort_order: 0 }).execute();
      }
    });
    inserted += size;
  }
  return inserted;
}
