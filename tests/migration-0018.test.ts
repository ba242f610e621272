import { Migrator } from "kysely/migration";
import { describe, expect, it } from "vitest";
import { now } from "#db/connect.server";
import { migrations } from "#db/migrations";
import { listZones, shippingQuote } from "~/models/shipping/zones.server";
import { freshTestDb } from "./setup/db";

/*
 * Migration 0018 on an existing shop (SQLite, and PostgreSQL in the `postgres` project): the
 * delivery rule the owner set in Settings → Shop details (decision 041) becomes the default
 * Everywhere zone's rates in every currency, so the shop's checkout charges what it charged.
 */

describe("migration 0018 on an existing shop", () => {
  it("moves the shop's own delivery rule per currency into the Everywhere zone", async () => {
    const { db } = await freshTestDb();
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const down = await migrator.migrateTo("0017-outbox-admin-indexes");
    expect(down.error).toBeUndefined();

    // HKD: HK$25, free above HK$300; GBP the owner's own £3, never free; EUR follows HKD at a
    // rate of 0.12; USD saved before the follow flag existed with the old default (so it follows).
    const details = {
      name: { en: "Old Shop", zh: "舊店" },
      shipping: {
        HKD: { feeCents: 25_00, freeAboveCents: 300_00 },
        GBP: { feeCents: 3_00, freeAboveCents: null },
        EUR: { feeCents: 9_99, freeAboveCents: 99_00 },
        USD: { feeCents: 10_00, freeAboveCents: 100_00 },
      },
      shippingFromHkd: { GBP: false, EUR: true },
      exchangeRates: { GBP: 100_000, EUR: 120_000, USD: 128_000 },
    };
    // biome-ignore lint/suspicious/noExplicitAny: the tables as they were before 0018
    const old = db as any;
    await old.deleteFrom("site_settings").where("key", "=", "shop_details").execute();
    await old
      .insertInto("site_settings")
      .values({ key: "shop_details", value: JSON.stringify(details), updated_at: now() })
      .execute();

    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();

    const zones = await listZones(db);
    expect(zones).toEqual([expect.objectContaining({ nameEn: "Everywhere", nameZh: "全球", restOfWorld: true })]);
    const rates = await db
      .selectFrom("shipping_zone_rates")
      .select(["currency", "fee_cents", "free_above_cents"])
      .orderBy("currency")
      .execute();
    expect(rates).toEqual([
      { currency: "EUR", fee_cents: 3_00, free_above_cents: 36_00 },
      { currency: "GBP", fee_cents: 3_00, free_above_cents: null },
      { currency: "HKD", fee_cents: 25_00, free_above_cents: 300_00 },
      { currency: "USD", fee_cents: 3_20, free_above_cents: 38_40 },
    ]);
    // Checkout is unchanged: Macau, Taiwan and Hong Kong all pay the old rule; nothing weighs.
    const quote = await shippingQuote(db, {
      countryCode: "MO",
      currency: "HKD",
      subtotalCents: 299_00,
      weightGrams: 0,
    });
    expect(quote).toMatchObject({ shipped: true, shippingCents: 25_00 });
    const weight = await db.selectFrom("products").select("weight_grams").execute();
    expect(weight.every((row) => row.weight_grams === 0)).toBe(true);
  });

  it("a shop that never set a rule gets the spec's rule", async () => {
    const { db } = await freshTestDb();
    const rates = await db
      .selectFrom("shipping_zone_rates")
      .select(["currency", "fee_cents", "free_above_cents"])
      .orderBy("currency")
      .execute();
    expect(rates).toEqual([
      { currency: "EUR", fee_cents: 1_18, free_above_cents: 11_80 },
      { currency: "GBP", fee_cents: 1_00, free_above_cents: 10_00 },
      { currency: "HKD", fee_cents: 10_00, free_above_cents: 100_00 },
      { currency: "USD", fee_cents: 1_28, free_above_cents: 12_80 },
    ]);
  });
});
