import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { Migrator } from "kysely/migration";
import { afterEach, describe, expect, inject, it } from "vitest";
import { type DB, migrateToLatest, openDatabase } from "#db/connect.server";
import { migrations } from "#db/migrations/index";
import { loadCart } from "~/models/cart.server";
import { findProduct } from "~/models/products/catalog.server";
import { runStatement } from "./setup/postgres";

/**
 * Migration 0026 (docs/decisions/054) on a shop that has products, colours and carts already:
 * every existing variant becomes a colour-only one with a SKU made for it, cart lines keep their
 * colour, and what shoppers see does not change. A database migrated up to 0024 only, filled the
 * way the shop wrote it then, migrated to the latest, on both databases.
 */

const onPostgres = process.env.SHOP_TEST_DATABASE === "postgres";
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function emptyDatabase(): Promise<DB> {
  if (onPostgres) {
    const adminUrl = inject("postgresAdminUrl");
    const name = `shop_migration_${crypto.randomBytes(6).toString("hex")}`;
    await runStatement(adminUrl, `CREATE DATABASE ${name}`);
    const db = openDatabase(adminUrl.replace(/\/postgres$/, `/${name}`));
    cleanups.push(async () => {
      await db.destroy();
      await runStatement(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });
    return db;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-migration-"));
  const db = openDatabase(`file:${path.join(dir, "shop.db")}`);
  cleanups.push(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return db;
}

describe("migration 0026 on an existing shop", () => {
  it("makes colour-only variants with SKUs, keeps stock, cart lines and what the product page shows", async () => {
    const db = await emptyDatabase();
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const { error } = await migrator.migrateTo("0024-sale-prices");
    expect(error).toBeUndefined();

    // The shop as it was: a product with two colours, one without, a cart holding a colour.
    const at = new Date().toISOString();
    // biome-ignore lint/suspicious/noExplicitAny: the schema before 0026 is not the current type
    const old = db as unknown as import("kysely").Kysely<any>;
    const product = (pid: string) => ({
      name_en: `Vest ${pid}`,
      name_zh: "背心",
      description_en: "",
      description_zh: "",
      price_hkd_cents: 500_00,
      price_gbp_cents: 50_00,
      price_eur_cents: 55_00,
      price_usd_cents: 64_00,
      created_at: at,
      updated_at: at,
    });
    const { id: vest } = await old
      .insertInto("products")
      .values(product("a"))
      .returning("id")
      .executeTakeFirstOrThrow();
    const { id: bipod } = await old
      .insertInto("products")
      .values(product("b"))
      .returning("id")
      .executeTakeFirstOrThrow();
    await old
      .insertInto("product_variants")
      .values([
        { product_id: vest, color: "Black", color_zh: "黑色", stock: 3, sort_order: 0 },
        { product_id: vest, color: "Tan", color_zh: null, stock: 0, sort_order: 1 },
        { product_id: bipod, color: "Default", stock: 7, sort_order: 0 },
      ])
      .execute();
    await old.insertInto("carts").values({ id: "cart-1", created_at: at, updated_at: at }).execute();
    await old
      .insertInto("cart_lines")
      .values({ cart_id: "cart-1", product_id: vest, color: "Black", quantity: 2, created_at: at })
      .execute();

    expect(await migrateToLatest(db)).toContain("0026-variant-options");

    const variants = await db
      .selectFrom("product_variants")
      .select(["id", "product_id", "color", "option_value", "stock", "sku"])
      .orderBy("id")
      .execute();
    expect(variants.map((v) => [v.product_id, v.color, v.option_value, v.stock, v.sku])).toEqual([
      [vest, "Black", "", 3, `P${vest}-${variants[0]?.id}`],
      [vest, "Tan", "", 0, `P${vest}-${variants[1]?.id}`],
      [bipod, "Default", "", 7, `P${bipod}-${variants[2]?.id}`],
    ]);
    const page = await findProduct(db, vest, "HKD");
    expect(page?.option).toBeNull();
    expect(page?.variants.map((v) => [v.color, v.color_zh, v.stock])).toEqual([
      ["Black", "黑色", 3],
      ["Tan", null, 0],
    ]);
    const cart = await loadCart(db, "cart-1", "HKD", { feeCents: 0, freeAboveCents: null });
    expect(cart.lines.map((line) => [line.color, line.option_value, line.quantity, line.stock])).toEqual([
      ["Black", "", 2, 3],
    ]);
    // The page cache still hears of every change to variants (its triggers were made again).
    const version = async () =>
      Number((await sql<{ v: number }>`select version as v from page_cache_version`.execute(db)).rows[0]?.v);
    const before = await version();
    await db.updateTable("product_variants").set({ stock: 4 }).where("product_id", "=", vest).execute();
    expect(await version()).toBeGreaterThan(before);
  });
});
