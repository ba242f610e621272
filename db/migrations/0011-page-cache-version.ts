import { type Kysely, sql } from "kysely";
import { onPostgres } from "./portable";

// Frozen in time: never import application code here.
// The rendered-page cache (server/page-cache.ts, docs/decisions/032) keeps anonymous catalogue
// pages in each process's memory, filed under the catalogue's version: this one-row table. A
// trigger on every table those pages show adds one to it in the same transaction as the change,
// so the new version becomes visible exactly when the change does, to every process, and no code
// path that writes the catalogue (admin forms, an order taking the last unit, a CSV import, a
// hand-written SQL fix) can forget to invalidate the cache.

/** Every table whose rows a cached page shows (products and their colours, stock and images, categories, blog, settings). */
const CATALOGUE_TABLES = [
  "products",
  "product_variants",
  "product_images",
  "categories",
  "blog_posts",
  "site_settings",
];

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("page_cache_version")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("version", "integer", (c) => c.notNull())
    .execute();
  await db.insertInto("page_cache_version").values({ id: 1, version: 1 }).execute();

  if (onPostgres(db)) {
    // One statement-level trigger per table: a bulk update counts once.
    await sql`CREATE FUNCTION bump_page_cache_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE page_cache_version SET version = version + 1 WHERE id = 1;
        RETURN NULL;
      END $$`.execute(db);
    for (const table of CATALOGUE_TABLES) {
      await sql`CREATE TRIGGER ${sql.id(`${table}_page_cache`)}
        AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
        FOR EACH STATEMENT EXECUTE FUNCTION bump_page_cache_version()`.execute(db);
    }
    return;
  }
  // SQLite has row triggers only, one per event.
  for (const table of CATALOGUE_TABLES) {
    for (const event of ["INSERT", "UPDATE", "DELETE"]) {
      await sql
        .raw(
          `CREATE TRIGGER "${table}_page_cache_${event.toLowerCase()}" AFTER ${event} ON "${table}" ` +
            "BEGIN UPDATE page_cache_version SET version = version + 1 WHERE id = 1; END",
        )
        .execute(db);
    }
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (onPostgres(db)) {
    for (const table of CATALOGUE_TABLES) {
      await sql`DROP TRIGGER IF EXISTS ${sql.id(`${table}_page_cache`)} ON ${sql.table(table)}`.execute(db);
    }
    await sql`DROP FUNCTION IF EXISTS bump_page_cache_version()`.execute(db);
  } else {
    for (const table of CATALOGUE_TABLES) {
      for (const event of ["insert", "update", "delete"]) {
        await sql.raw(`DROP TRIGGER IF EXISTS "${table}_page_cache_${event}"`).execute(db);
      }
    }
  }
  await db.schema.dropTable("page_cache_version").ifExists().execute();
}
