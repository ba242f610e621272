import { type Kysely, sql } from "kysely";
import { onPostgres } from "./portable";

// Frozen in time: never import application code here.
// A second option axis (issue 28 item 1, docs/decisions/054). A product has colours as before
// and, optionally, a second option with a name in both languages ("Size" / "尺寸") and ordered
// values. Each combination is a row of product_variants with its own stock and SKU:
// - products.option_name / option_name_zh: the axis' name (null: no second axis);
// - product_variants.option_value: the value's English text ('' when the product has none; with
//   color, the key cart lines and order lines refer to), option_value_zh (null shows the English
//   one), option_order (the value's place on its axis; sort_order stays the colour's place);
// - product_variants.sku: unique, never empty: a trigger gives a row inserted without one
//   "P{product}-{id}" (so no code path — form, CSV, demo data, a hand-written fix — can leave it
//   out), and every existing variant gets that too;
// - cart_lines.option_value: the value the shopper chose ('' when none);
// - order_lines: option_name(_zh), option_value(_zh) and sku, copied when the order is placed.
// The unique keys (product, colour) and (cart, product, colour) become (…, option_value): SQLite
// cannot drop a table constraint, so both tables are rebuilt there (nothing references them) and
// their page-cache triggers (migration 0011) are made again.

const VARIANTS_SQLITE = `CREATE TABLE "product_variants_0026" (
  "id" integer primary key autoincrement,
  "product_id" integer not null references "products" ("id") on delete cascade,
  "color" text not null,
  "stock" integer default 0 not null check (stock >= 0),
  "sort_order" integer default 0 not null,
  "color_zh" text,
  "option_value" text default '' not null,
  "option_value_zh" text,
  "option_order" integer default 0 not null,
  "sku" text,
  constraint "product_variants_product_color_option" unique ("product_id", "color", "option_value")
)`;

const CART_LINES_SQLITE = `CREATE TABLE "cart_lines_0026" (
  "id" integer primary key autoincrement,
  "cart_id" text not null references "carts" ("id") on delete cascade,
  "product_id" integer not null references "products" ("id") on delete cascade,
  "color" text default 'Default' not null,
  "quantity" integer not null check (quantity > 0),
  "created_at" text not null,
  "option_value" text default '' not null,
  constraint "cart_lines_cart_product_color_option" unique ("cart_id", "product_id", "color", "option_value")
)`;

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
type AnyDb = Kysely<any>;

async function sqliteUp(db: AnyDb): Promise<void> {
  await sql.raw(VARIANTS_SQLITE).execute(db);
  await sql
    .raw(
      `INSERT INTO "product_variants_0026" (id, product_id, color, stock, sort_order, color_zh, sku)
       SELECT id, product_id, color, stock, sort_order, color_zh, 'P' || product_id || '-' || id FROM "product_variants"`,
    )
    .execute(db);
  await sql.raw(`DROP TABLE "product_variants"`).execute(db);
  await sql.raw(`ALTER TABLE "product_variants_0026" RENAME TO "product_variants"`).execute(db);
  for (const event of ["INSERT", "UPDATE", "DELETE"]) {
    await sql
      .raw(
        `CREATE TRIGGER "product_variants_page_cache_${event.toLowerCase()}" AFTER ${event} ON "product_variants" ` +
          "BEGIN UPDATE page_cache_version SET version = version + 1 WHERE id = 1; END",
      )
      .execute(db);
  }

  await sql.raw(CART_LINES_SQLITE).execute(db);
  await sql
    .raw(
      `INSERT INTO "cart_lines_0026" (id, cart_id, product_id, color, quantity, created_at)
       SELECT id, cart_id, product_id, color, quantity, created_at FROM "cart_lines"`,
    )
    .execute(db);
  await sql.raw(`DROP TABLE "cart_lines"`).execute(db);
  await sql.raw(`ALTER TABLE "cart_lines_0026" RENAME TO "cart_lines"`).execute(db);
  await db.schema.createIndex("cart_lines_cart").on("cart_lines").column("cart_id").execute();
  // The column stays nullable here (SQLite fills it after the row exists); the trigger leaves no null.
  for (const [name, event] of [
    ["product_variants_default_sku", "INSERT"],
    ["product_variants_default_sku_update", "UPDATE OF sku"],
  ]) {
    await sql
      .raw(
        `CREATE TRIGGER "${name}" AFTER ${event} ON "product_variants"
         WHEN NEW.sku IS NULL OR NEW.sku = ''
         BEGIN UPDATE product_variants SET sku = 'P' || NEW.product_id || '-' || NEW.id WHERE id = NEW.id; END`,
      )
      .execute(db);
  }
}

async function postgresUp(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable("product_variants")
    .addColumn("option_value", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema.alterTable("product_variants").addColumn("option_value_zh", "text").execute();
  await db.schema
    .alterTable("product_variants")
    .addColumn("option_order", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("product_variants").addColumn("sku", "text").execute();
  await sql`UPDATE product_variants SET sku = 'P' || product_id || '-' || id`.execute(db);
  await sql`ALTER TABLE product_variants ALTER COLUMN sku SET NOT NULL`.execute(db);
  // Identity values are assigned before BEFORE ROW triggers run: NEW.id is known here.
  await sql`CREATE FUNCTION product_variants_default_sku() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.sku IS NULL OR NEW.sku = '' THEN
        NEW.sku := 'P' || NEW.product_id || '-' || NEW.id;
      END IF;
      RETURN NEW;
    END $$`.execute(db);
  await sql`CREATE TRIGGER product_variants_default_sku BEFORE INSERT OR UPDATE OF sku ON product_variants
    FOR EACH ROW EXECUTE FUNCTION product_variants_default_sku()`.execute(db);
  await db.schema.alterTable("product_variants").dropConstraint("product_variants_product_color").execute();
  await db.schema
    .alterTable("product_variants")
    .addUniqueConstraint("product_variants_product_color_option", ["product_id", "color", "option_value"])
    .execute();

  await db.schema
    .alterTable("cart_lines")
    .addColumn("option_value", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema.alterTable("cart_lines").dropConstraint("cart_lines_cart_product_color").execute();
  await db.schema
    .alterTable("cart_lines")
    .addUniqueConstraint("cart_lines_cart_product_color_option", ["cart_id", "product_id", "color", "option_value"])
    .execute();
}

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("products").addColumn("option_name", "text").execute();
  await db.schema.alterTable("products").addColumn("option_name_zh", "text").execute();
  if (onPostgres(db)) await postgresUp(db);
  else await sqliteUp(db);
  // A SKU is unique across the shop (feeds and invoices name a variant by it), compared as typed.
  await db.schema.createIndex("product_variants_sku").on("product_variants").column("sku").unique().execute();
  for (const column of ["option_name", "option_name_zh", "option_value", "option_value_zh", "sku"]) {
    await db.schema.alterTable("order_lines").addColumn(column, "text").execute();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ["option_name", "option_name_zh", "option_value", "option_value_zh", "sku"]) {
    await db.schema.alterTable("order_lines").dropColumn(column).execute();
  }
  await db.schema.dropIndex("product_variants_sku").ifExists().execute();
  // Only colour-only variants fit the old keys: the rows of a second axis go.
  await db.deleteFrom("product_variants").where("option_value", "<>", "").execute();
  await db.deleteFrom("cart_lines").where("option_value", "<>", "").execute();
  if (onPostgres(db)) {
    await db.schema.alterTable("cart_lines").dropConstraint("cart_lines_cart_product_color_option").execute();
    await db.schema
      .alterTable("cart_lines")
      .addUniqueConstraint("cart_lines_cart_product_color", ["cart_id", "product_id", "color"])
      .execute();
    await db.schema.alterTable("product_variants").dropConstraint("product_variants_product_color_option").execute();
    await db.schema
      .alterTable("product_variants")
      .addUniqueConstraint("product_variants_product_color", ["product_id", "color"])
      .execute();
    await sql`DROP TRIGGER IF EXISTS product_variants_default_sku ON product_variants`.execute(db);
    await sql`DROP FUNCTION IF EXISTS product_variants_default_sku()`.execute(db);
    for (const column of ["option_value", "option_value_zh", "option_order", "sku"]) {
      await db.schema.alterTable("product_variants").dropColumn(column).execute();
    }
    await db.schema.alterTable("cart_lines").dropColumn("option_value").execute();
  } else {
    await sql.raw(`DROP TRIGGER IF EXISTS "product_variants_default_sku"`).execute(db);
    await sql.raw(`DROP TRIGGER IF EXISTS "product_variants_default_sku_update"`).execute(db);
  }
  // On SQLite the wider keys and columns stay (they accept every old row); a rebuild back is not worth it.
  await db.schema.alterTable("products").dropColumn("option_name").execute();
  await db.schema.alterTable("products").dropColumn("option_name_zh").execute();
}
