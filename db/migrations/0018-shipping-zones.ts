import { type Kysely, sql } from "kysely";
import { onPostgres, serialKey } from "./portable";

// Frozen in time: never import application code here.
// Shipping zones (issue 27, docs/decisions/047):
// - shipping_zones: a zone the shop ships to: its names in both languages, its place in the list,
//   and whether it is the "rest of world" zone (covers every country no other zone names; at most
//   one, kept so by the model).
// - shipping_zone_countries: the ISO 3166-1 alpha-2 codes a zone covers. The code is the primary
//   key: a country is in one zone at most.
// - shipping_zone_rates: per zone and currency, the flat fee and the free-above threshold (null:
//   never free).
// - shipping_zone_bands: optional weight bands per zone and currency: up to max_grams → fee_cents.
// - products.weight_grams: a product's weight (0: not weighed).
// - orders.country_code / shipping_zone_id / shipping_zone_name: the destination as a code and the
//   zone it was charged for (null on orders placed before; their `country` text stays as typed).
// The shop starts with one zone, "Everywhere" / "全球", covering every country, with the delivery
// rule the shop had in its details (site_settings shop_details, decision 041) in every currency,
// so an existing shop's checkout is unchanged.

const CURRENCIES = ["HKD", "GBP", "EUR", "USD"] as const;
const DERIVED = ["GBP", "EUR", "USD"] as const;
const DEFAULT_RULE = { feeCents: 10_00, freeAboveCents: 100_00 as number | null };
const DEFAULT_RATES: Record<string, number> = { GBP: 100_000, EUR: 118_000, USD: 128_000 };

type Rule = { feeCents: number; freeAboveCents: number | null };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function cents(value: unknown): number | null {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

function fromHkd(hkdCents: number, ratePpm: number): number {
  return Number((BigInt(Math.trunc(hkdCents)) * BigInt(Math.trunc(ratePpm)) + 500_000n) / 1_000_000n);
}

/** The delivery rule per currency as the shop applied it when this migration ran (shop.server.ts of then). */
export function rulesOfShopDetails(json: string | null | undefined): Record<string, Rule> {
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = json ? JSON.parse(json) : {};
    if (isRecord(parsed)) stored = parsed;
  } catch {
    // A damaged value: the defaults, as the shop showed them.
  }
  const storedRates = isRecord(stored.exchangeRates) ? stored.exchangeRates : {};
  const rate = (currency: string) => {
    const value = storedRates[currency];
    return typeof value === "number" && Number.isSafeInteger(value) && value > 0
      ? value
      : (DEFAULT_RATES[currency] ?? 0);
  };
  const shipping = isRecord(stored.shipping) ? stored.shipping : {};
  const flags = isRecord(stored.shippingFromHkd) ? stored.shippingFromHkd : {};
  const ruleOf = (currency: string): Rule | null => {
    const rule = shipping[currency];
    if (!isRecord(rule)) return null;
    return {
      feeCents: cents(rule.feeCents) ?? DEFAULT_RULE.feeCents,
      freeAboveCents: rule.freeAboveCents === null ? null : (cents(rule.freeAboveCents) ?? DEFAULT_RULE.freeAboveCents),
    };
  };
  const hkd = ruleOf("HKD") ?? DEFAULT_RULE;
  const rules: Record<string, Rule> = { HKD: hkd };
  for (const currency of DERIVED) {
    const own = ruleOf(currency);
    const flag = flags[currency];
    const oldDefault = own?.feeCents === DEFAULT_RULE.feeCents && own.freeAboveCents === DEFAULT_RULE.freeAboveCents;
    const follows = typeof flag === "boolean" ? flag || !own : !own || oldDefault;
    rules[currency] =
      follows || !own
        ? {
            feeCents: fromHkd(hkd.feeCents, rate(currency)),
            freeAboveCents: hkd.freeAboveCents === null ? null : fromHkd(hkd.freeAboveCents, rate(currency)),
          }
        : own;
  }
  return rules;
}

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("shipping_zones")
    .addColumn("id", "integer", serialKey(db))
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("name_zh", "text", (c) => c.notNull())
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("rest_of_world", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("shipping_zone_countries")
    .addColumn("country_code", "text", (c) => c.primaryKey())
    .addColumn("zone_id", "integer", (c) => c.notNull().references("shipping_zones.id").onDelete("cascade"))
    .execute();
  await db.schema
    .createIndex("shipping_zone_countries_zone")
    .on("shipping_zone_countries")
    .columns(["zone_id", "country_code"])
    .execute();
  await db.schema
    .createTable("shipping_zone_rates")
    .addColumn("zone_id", "integer", (c) => c.notNull().references("shipping_zones.id").onDelete("cascade"))
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("fee_cents", "integer", (c) => c.notNull())
    .addColumn("free_above_cents", "integer")
    .addPrimaryKeyConstraint("shipping_zone_rates_pk", ["zone_id", "currency"])
    .execute();
  await db.schema
    .createTable("shipping_zone_bands")
    .addColumn("zone_id", "integer", (c) => c.notNull().references("shipping_zones.id").onDelete("cascade"))
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("max_grams", "integer", (c) => c.notNull())
    .addColumn("fee_cents", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("shipping_zone_bands_pk", ["zone_id", "currency", "max_grams"])
    .execute();

  await db.schema
    .alterTable("products")
    .addColumn("weight_grams", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("orders").addColumn("country_code", "text").execute();
  await db.schema.alterTable("orders").addColumn("shipping_zone_id", "integer").execute();
  await db.schema.alterTable("orders").addColumn("shipping_zone_name", "text").execute();

  const at = new Date().toISOString();
  const { id } = await db
    .insertInto("shipping_zones")
    .values({ name_en: "Everywhere", name_zh: "全球", sort_order: 0, rest_of_world: 1, created_at: at, updated_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  const stored = await db
    .selectFrom("site_settings")
    .select("value")
    .where("key", "=", "shop_details")
    .executeTakeFirst();
  const rules = rulesOfShopDetails(stored?.value);
  await db
    .insertInto("shipping_zone_rates")
    .values(
      CURRENCIES.map((currency) => {
        const rule = rules[currency] ?? DEFAULT_RULE;
        return { zone_id: id, currency, fee_cents: rule.feeCents, free_above_cents: rule.freeAboveCents };
      }),
    )
    .execute();

  // Content pages show the shipping fee ({{shipping_fee}}): a change to a zone renews cached pages
  // the way a change to the catalogue does (migration 0011's triggers).
  if (onPostgres(db)) {
    for (const table of ZONE_TABLES) {
      await sql`CREATE TRIGGER ${sql.id(`${table}_page_cache`)}
        AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
        FOR EACH STATEMENT EXECUTE FUNCTION bump_page_cache_version()`.execute(db);
    }
  } else {
    for (const table of ZONE_TABLES) {
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
}

const ZONE_TABLES = ["shipping_zones", "shipping_zone_countries", "shipping_zone_rates", "shipping_zone_bands"];

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ZONE_TABLES) {
    if (onPostgres(db)) {
      await sql`DROP TRIGGER IF EXISTS ${sql.id(`${table}_page_cache`)} ON ${sql.table(table)}`.execute(db);
    } else {
      for (const event of ["insert", "update", "delete"]) {
        await sql.raw(`DROP TRIGGER IF EXISTS "${table}_page_cache_${event}"`).execute(db);
      }
    }
  }
  await db.schema.alterTable("orders").dropColumn("shipping_zone_name").execute();
  await db.schema.alterTable("orders").dropColumn("shipping_zone_id").execute();
  await db.schema.alterTable("orders").dropColumn("country_code").execute();
  await db.schema.alterTable("products").dropColumn("weight_grams").execute();
  await db.schema.dropTable("shipping_zone_bands").ifExists().execute();
  await db.schema.dropTable("shipping_zone_rates").ifExists().execute();
  await db.schema.dropTable("shipping_zone_countries").ifExists().execute();
  await db.schema.dropTable("shipping_zones").ifExists().execute();
}
