import { type Kysely, sql } from "kysely";
import { onPostgres } from "./portable";

// Frozen in time: never import application code here.
// Product search (db/search.ts): on SQLite an FTS5 table with the trigram tokenizer
// (case-insensitive substring matching for 3+ characters, in English and Chinese), kept in sync
// by triggers on products and categories; on PostgreSQL pg_trgm GIN indexes on the same names,
// which serve ILIKE '%term%' directly. Also the indexes the listing's sorts need.

/** The columns search reads through a trigram index on PostgreSQL. */
const TRIGRAM_COLUMNS = [
  ["products", "name_en"],
  ["products", "name_zh"],
  ["categories", "slug"],
  ["categories", "name_en"],
  ["categories", "name_zh"],
] as const;

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  if (onPostgres(db)) {
    // pg_trgm is a trusted extension (PostgreSQL 13+): the database's owner may create it.
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    for (const [table, column] of TRIGRAM_COLUMNS) {
      await sql`CREATE INDEX ${sql.id(`${table}_${column}_trgm`)} ON ${sql.table(table)} USING gin (${sql.ref(column)} gin_trgm_ops)`.execute(
        db,
      );
    }
  } else {
    await sqliteSearchTable(db);
  }
  await sortIndexes(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
async function sqliteSearchTable(db: Kysely<any>): Promise<void> {
  await sql`CREATE VIRTUAL TABLE product_search USING fts5(name_en, name_zh, category, tokenize = 'trigram')`.execute(
    db,
  );

  const categoryText = (alias: string) =>
    `coalesce((SELECT c.slug || ' ' || c.name_en || ' ' || c.name_zh FROM categories c WHERE c.id = ${alias}.category_id), '')`;

  await sql
    .raw(`CREATE TRIGGER products_search_insert AFTER INSERT ON products BEGIN
      INSERT INTO product_search(rowid, name_en, name_zh, category) VALUES (new.id, new.name_en, new.name_zh, ${categoryText("new")});
    END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER products_search_update AFTER UPDATE OF name_en, name_zh, category_id ON products BEGIN
      DELETE FROM product_search WHERE rowid = old.id;
      INSERT INTO product_search(rowid, name_en, name_zh, category) VALUES (new.id, new.name_en, new.name_zh, ${categoryText("new")});
    END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER products_search_delete AFTER DELETE ON products BEGIN
      DELETE FROM product_search WHERE rowid = old.id;
    END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER categories_search_update AFTER UPDATE OF slug, name_en, name_zh ON categories BEGIN
      UPDATE product_search SET category = new.slug || ' ' || new.name_en || ' ' || new.name_zh
      WHERE rowid IN (SELECT id FROM products WHERE category_id = new.id);
    END`)
    .execute(db);
  // Products that exist already (a database seeded before this migration).
  await sql
    .raw(`INSERT INTO product_search(rowid, name_en, name_zh, category)
      SELECT p.id, p.name_en, p.name_zh, ${categoryText("p")} FROM products p`)
    .execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
async function sortIndexes(db: Kysely<any>): Promise<void> {
  for (const column of ["price_gbp_cents", "price_eur_cents", "price_usd_cents"]) {
    await db.schema
      .createIndex(`products_category_${column}`)
      .on("products")
      .columns(["category_id", column])
      .execute();
  }
  await db.schema
    .createIndex("products_category_featured_created")
    .on("products")
    .columns(["category_id", "is_featured", "created_at"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (onPostgres(db)) {
    for (const [table, column] of TRIGRAM_COLUMNS) {
      await db.schema.dropIndex(`${table}_${column}_trgm`).ifExists().execute();
    }
  }
  for (const trigger of onPostgres(db)
    ? []
    : ["products_search_insert", "products_search_update", "products_search_delete", "categories_search_update"]) {
    await sql.raw(`DROP TRIGGER IF EXISTS ${trigger}`).execute(db);
  }
  if (!onPostgres(db)) await sql`DROP TABLE IF EXISTS product_search`.execute(db);
  for (const index of [
    "products_category_price_gbp_cents",
    "products_category_price_eur_cents",
    "products_category_price_usd_cents",
    "products_category_featured_created",
  ]) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
}
