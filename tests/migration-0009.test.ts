import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Migrator } from "kysely/migration";
import { afterAll, describe, expect, it } from "vitest";
import { migrateToLatest, now, openDatabase } from "#db/connect.server";
import { migrations } from "#db/migrations";

/**
 * Migration 0009 on a shop an earlier release seeded: the demo is marked as demo (so the owner
 * can remove it and the payment page can refuse its bank account), prices that equal the old
 * fixed conversion become derived, and the demo colours get their Chinese names.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-m0009-"));
const db = openDatabase(`file:${path.join(dir, "old.db")}`);
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("migration 0009 on an existing shop", () => {
  it("marks the demo, derived prices and Chinese colour names; leaves the owner's own rows alone", async () => {
    const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "0009"));
    const migrator = new Migrator({ db, provider: { getMigrations: async () => before } });
    const { error } = await migrator.migrateToLatest();
    expect(error).toBeUndefined();

    const at = now();
    // biome-ignore lint/suspicious/noExplicitAny: the tables as they were before 0009
    const old = db as any;
    await old
      .insertInto("bank_accounts")
      .values([
        {
          bank_name: "HSBC Hong Kong",
          account_holder: "Harbour Tactical Limited",
          account_number: "848-302915-838",
          is_primary: 1,
          created_at: at,
          updated_at: at,
        },
        {
          bank_name: "Hang Seng",
          account_holder: "Owner Ltd",
          account_number: "111",
          is_primary: 0,
          created_at: at,
          updated_at: at,
        },
      ])
      .execute();
    const { id: rifles } = await old
      .insertInto("categories")
      .values({ slug: "rifles", name_en: "Rifles", name_zh: "長槍", created_at: at, updated_at: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    await old
      .insertInto("categories")
      .values({ slug: "owners-own", name_en: "Mine", name_zh: "我的", created_at: at, updated_at: at })
      .execute();
    const product = (name: string, hkd: number, gbp: number, eur: number, usd: number) => ({
      category_id: rifles,
      name_en: name,
      name_zh: name,
      description_en: "",
      description_zh: "",
      price_hkd_cents: hkd,
      price_gbp_cents: gbp,
      price_eur_cents: eur,
      price_usd_cents: usd,
      created_at: at,
      updated_at: at,
    });
    await old
      .insertInto("products")
      .values([
        // A seeded product: its own typed prices.
        product("M4 CQB Carbine AEG", 1_880_00, 187_99, 220_99, 240_99),
        // The owner's product saved with GBP and USD left empty (converted at 0.1 / 0.128), EUR typed.
        product("Owner's rifle", 888_00, 88_80, 99_00, 113_66),
      ])
      .execute();
    const [m4, owners] = await old.selectFrom("products").select("id").orderBy("id").execute();
    await old
      .insertInto("product_variants")
      .values([
        { product_id: m4.id, color: "Black", stock: 1 },
        { product_id: owners.id, color: "Purple", stock: 1 },
      ])
      .execute();

    await migrateToLatest(db);

    const flags = await db
      .selectFrom("products")
      .select(["name_en", "is_demo", "price_gbp_derived", "price_eur_derived", "price_usd_derived"])
      .orderBy("id")
      .execute();
    expect(flags).toEqual([
      { name_en: "M4 CQB Carbine AEG", is_demo: 1, price_gbp_derived: 0, price_eur_derived: 0, price_usd_derived: 0 },
      { name_en: "Owner's rifle", is_demo: 0, price_gbp_derived: 1, price_eur_derived: 0, price_usd_derived: 1 },
    ]);
    expect(await db.selectFrom("bank_accounts").select(["account_number", "is_demo"]).orderBy("id").execute()).toEqual([
      { account_number: "848-302915-838", is_demo: 1 },
      { account_number: "111", is_demo: 0 },
    ]);
    expect(await db.selectFrom("categories").select(["slug", "is_demo"]).orderBy("id").execute()).toEqual([
      { slug: "rifles", is_demo: 1 },
      { slug: "owners-own", is_demo: 0 },
    ]);
    expect(await db.selectFrom("product_variants").select(["color", "color_zh"]).orderBy("id").execute()).toEqual([
      { color: "Black", color_zh: "黑色" },
      { color: "Purple", color_zh: null },
    ]);
  });
});
