import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type DB, migrateToLatest, openDatabase } from "#db/connect.server";
import { seedDemo } from "#db/seed/index.server";
import { loadConfig } from "~/lib/config.server";
import { MemoryMailer } from "~/lib/mail.server";
import { MemoryStorage } from "~/lib/storage.server";
import { listOrdersForUser } from "~/models/orders/shopper.server";
import { listProducts } from "~/models/products/catalog.server";
import { searchProducts } from "~/models/products/search.server";
import { authenticate } from "~/request/auth.server";
import { copyDatabase, dbCopyCommand } from "../server/copy";
import { createCustomer, createProduct, placeTestOrder } from "./factories";
import { createTestContext } from "./setup/db";
import { runStatement } from "./setup/postgres";

/**
 * `npm run db:copy`: the demo shop plus a customer and their order, made on a SQLite file, copied
 * into an empty database of the throwaway PostgreSQL cluster (vitest project `postgres`), serves
 * the same catalogue, search, order and sign-in there; a filled target is refused untouched.
 */

const onPostgres = process.env.SHOP_TEST_DATABASE === "postgres";
const PASSWORD = "an old password 123";

describe.runIf(onPostgres)("db:copy from SQLite to PostgreSQL", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-db-copy-"));
  const sqliteUrl = `file:${path.join(dir, "shop.db")}`;
  const created: string[] = [];
  let adminUrl = "";
  const role = `shop_owner_${crypto.randomBytes(4).toString("hex")}`;
  let target = "";
  let pgDb: DB;
  let customer: { id: string; email: string };
  let orderId = "";
  let before: {
    listing: number[];
    total: number;
    english: number[];
    chinese: number[];
    lastProductId: number;
    productRows: number;
    orders: string[];
  };

  const admin = (statement: string) => runStatement(adminUrl, statement);

  /**
   * A new, EMPTY database (not the migrated template), owned by an ordinary role that the copy
   * connects as, as a shop's database user would: db:copy migrates it itself (pg_trgm included).
   */
  async function emptyDatabase(): Promise<string> {
    const name = `shop_copy_${crypto.randomBytes(5).toString("hex")}`;
    await admin(`CREATE DATABASE ${name} OWNER ${role}`);
    created.push(name);
    const url = new URL(adminUrl);
    url.username = role;
    url.pathname = `/${name}`;
    return url.toString();
  }

  async function catalogue(db: DB) {
    const listing = await listProducts(db, {
      categoryId: null,
      sort: "featured",
      page: 1,
      currency: "HKD",
      pageSize: 1000,
    });
    return {
      listing: listing.products.map((p) => p.id),
      total: listing.total,
      english: (await searchProducts(db, "carbine", "HKD")).map((hit) => hit.id),
      chinese: (await searchProducts(db, "手槍", "HKD")).map((hit) => hit.id),
    };
  }

  beforeAll(async () => {
    adminUrl = inject("postgresAdminUrl");
    await admin(`CREATE ROLE ${role} LOGIN`); // not a superuser
    const sqlite = openDatabase(sqliteUrl);
    await migrateToLatest(sqlite);
    await seedDemo(sqlite, new MemoryStorage());
    const user = await createCustomer(sqlite, { email: "old.customer@example.com", password: PASSWORD });
    customer = { id: user.id, email: user.email };
    const { order } = await placeTestOrder(sqlite, { user });
    orderId = order.id;
    // The newest product deleted: SQLite's AUTOINCREMENT never hands its id out again.
    const deleted = await createProduct(sqlite, { variants: [["Black", 1]] });
    await sqlite.deleteFrom("products").where("id", "=", deleted.id).execute();
    before = {
      ...(await catalogue(sqlite)),
      lastProductId: deleted.id,
      productRows: (await sqlite.selectFrom("products").select("id").execute()).length,
      orders: (await listOrdersForUser(sqlite, customer.id)).map((o) => o.order_number),
    };
    await sqlite.destroy();

    // Through the command line entry, as `npm run db:copy -- --from … --to …` runs it.
    target = await emptyDatabase();
    const lines: string[] = [];
    const info = console.info;
    console.info = (line: string) => lines.push(line);
    try {
      await dbCopyCommand(["--from", sqliteUrl, "--to", target]);
    } finally {
      console.info = info;
    }
    expect(lines.at(-1)).toMatch(/^verified: \d+ rows in \d+ tables, ids kept, sequences moved past them/);
    expect(lines.some((line) => /^\s+products\s+(\d+) → \1$/.test(line))).toBe(true);
    pgDb = openDatabase(target);
  }, 120_000);

  afterAll(async () => {
    await pgDb?.destroy();
    for (const name of created) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin(`DROP ROLE IF EXISTS ${role}`);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("serves the same catalogue: product count, listing order, English and Chinese search", async () => {
    const after = await catalogue(pgDb);
    expect(before.total).toBeGreaterThan(20);
    expect(after.total).toBe(before.total);
    expect(after.listing).toEqual(before.listing);
    expect(before.english.length).toBeGreaterThan(0);
    expect(before.chinese.length).toBeGreaterThan(0);
    expect(after.english).toEqual(before.english);
    expect(after.chinese).toEqual(before.chinese);
  });

  it("shows the old order to its customer and signs them in with the old password", async () => {
    const orders = await listOrdersForUser(pgDb, customer.id);
    expect(orders.map((o) => o.order_number)).toEqual(before.orders);
    expect(orders.map((o) => o.id)).toEqual([orderId]);

    const config = loadConfig({
      DATABASE_URL: target,
      DATA_DIR: dir,
      SESSION_SECRET: "test-secret-0123456789abcdef0123456789",
    });
    const context = createTestContext({ db: pgDb, config, storage: new MemoryStorage(), mailer: new MemoryMailer() });
    const user = await authenticate(context, { email: customer.email, password: PASSWORD });
    expect(user.id).toBe(customer.id);
    await expect(authenticate(context, { email: customer.email, password: "not the password" })).rejects.toThrow();
  });

  it("numbers new rows after every id the old shop handed out (the identity sequences were moved)", async () => {
    const product = await createProduct(pgDb, { variants: [["Black", 3]] });
    expect(before.listing).not.toContain(before.lastProductId);
    expect(product.id).toBe(before.lastProductId + 1);
  });

  it("refuses a target that has rows, in one line, and leaves it unchanged", async () => {
    const count = async () =>
      Number(
        (
          await pgDb
            .selectFrom("products")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const products = await count();
    const orders = (await listOrdersForUser(pgDb, customer.id)).length;
    await expect(copyDatabase({ from: sqliteUrl, to: target })).rejects.toThrow(
      /^The target database is not empty \(rows in [a-z_, ]*products[a-z_, ]*\): db:copy only fills an empty database\.$/,
    );
    expect(await count()).toBe(products);
    expect((await listOrdersForUser(pgDb, customer.id)).length).toBe(orders);
  });

  it("copies the same rows in small batches, every table's count checked", async () => {
    const lines: string[] = [];
    const counts = await copyDatabase({
      from: sqliteUrl,
      to: await emptyDatabase(),
      batchSize: 7,
      log: (l) => lines.push(l),
    });
    expect(lines).toEqual([expect.stringMatching(/^target: applied \d+ migrations$/)]);
    const products = counts.find((c) => c.table === "products");
    expect(products?.source).toBe(before.productRows);
    expect(counts.every((c) => c.source === c.target)).toBe(true);
    expect(counts.map((c) => c.table)).not.toContain("product_search");
    // Parents before children.
    const order = counts.map((c) => c.table);
    expect(order.indexOf("categories")).toBeLessThan(order.indexOf("products"));
    expect(order.indexOf("orders")).toBeLessThan(order.indexOf("order_lines"));
    expect(order.indexOf("users")).toBeLessThan(order.indexOf("orders"));
  });

  it("comes back whole through pg_dump / pg_restore, as docs/scaling.md tells (search indexes included)", async () => {
    const dump = path.join(dir, "shop.dump");
    execFileSync("pg_dump", ["--format=custom", "--no-owner", `--file=${dump}`, target], { stdio: "pipe" });
    const restored = await emptyDatabase();
    execFileSync(
      "pg_restore",
      ["--no-owner", "--exit-on-error", "--single-transaction", `--dbname=${restored}`, dump],
      { stdio: "pipe" },
    );
    const db = openDatabase(restored);
    try {
      // The same shop as the dumped one (which has the products the tests above added).
      const dumped = await catalogue(pgDb);
      expect(await catalogue(db)).toEqual(dumped);
      expect(dumped.english).toEqual(before.english);
      expect(dumped.chinese).toEqual(before.chinese);
      expect((await listOrdersForUser(db, customer.id)).map((o) => o.id)).toEqual([orderId]);
      // The identity sequences come back too: the next product follows the last one made.
      const { max } = await db
        .selectFrom("products")
        .select((eb) => eb.fn.max("id").as("max"))
        .executeTakeFirstOrThrow();
      expect((await createProduct(db, { variants: [["Black", 1]] })).id).toBe(Number(max) + 1);
    } finally {
      await db.destroy();
    }
  });

  it("refuses a source that is not SQLite and a target that is not PostgreSQL", async () => {
    await expect(copyDatabase({ from: target, to: target })).rejects.toThrow(/^The source database is PostgreSQL/);
    await expect(copyDatabase({ from: sqliteUrl, to: `file:${path.join(dir, "other.db")}` })).rejects.toThrow(
      /^--to must be a PostgreSQL database/,
    );
  });

  it("refuses a source that is behind on migrations, naming the command that brings it up", async () => {
    const old = path.join(dir, "old.db");
    fs.copyFileSync(path.join(dir, "shop.db"), old);
    const file = new SQLite(old);
    const last = file.prepare("select max(name) as name from kysely_migration").get() as { name: string };
    file.prepare("delete from kysely_migration where name = ?").run(last.name);
    file.close();
    await expect(copyDatabase({ from: `file:${old}`, to: target })).rejects.toThrow(
      new RegExp(`^The source database is not migrated \\(${last.name}\\): run npm run db:migrate on it first\\.$`),
    );
  });

  it("refuses, copying nothing, when a table is on the source only", async () => {
    const odd = path.join(dir, "odd.db");
    fs.copyFileSync(path.join(dir, "shop.db"), odd);
    const file = new SQLite(odd);
    file.exec("create table gift_cards (id integer primary key, code text)");
    file.close();
    const empty = await emptyDatabase();
    await expect(copyDatabase({ from: `file:${odd}`, to: empty })).rejects.toThrow(
      /^The two schemas differ: table gift_cards is missing on the target\.$/,
    );
    const check = openDatabase(empty);
    try {
      const row = await check.selectFrom("products").select("id").limit(1).executeTakeFirst();
      expect(row).toBeUndefined();
    } finally {
      await check.destroy();
    }
  });
});
