import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { type DB, now, preparedRead, relaxedTransaction } from "#db/connect.server";
import { createTestDb } from "./setup/db";

/*
 * The hot path's reads and the page views' relaxed commit (db/connect.server.ts, decision 074), on
 * both databases: a prepared read runs at once only when the connection is free, never inside
 * another flow's open transaction (it would read uncommitted rows), and answers what a query
 * through Kysely answers.
 */

const onPostgres = process.env.SHOP_TEST_DATABASE === "postgres";
let db: DB;
beforeAll(async () => {
  ({ db } = await createTestDb());
});

const version = preparedRead((database: DB) =>
  database.selectFrom("page_cache_version").select("version").where("id", "=", 1),
);
const setting = preparedRead((database: DB, key: string) =>
  database.selectFrom("site_settings").select(["key", "value"]).where("key", "=", key),
);

async function currentVersion(): Promise<number> {
  const row = await db.selectFrom("page_cache_version").select("version").where("id", "=", 1).executeTakeFirstOrThrow();
  return Number(row.version);
}

describe("preparedRead", () => {
  it("answers what the same query through Kysely answers, with each call's own parameters", async () => {
    await db
      .insertInto("site_settings")
      .values([
        { key: "prepared-a", value: "one", updated_at: now() },
        { key: "prepared-b", value: "two", updated_at: now() },
      ])
      .execute();
    expect(await setting(db, "prepared-a")).toEqual([{ key: "prepared-a", value: "one" }]);
    expect(await setting(db, "prepared-b")).toEqual([{ key: "prepared-b", value: "two" }]);
    expect(await setting(db, "prepared-none")).toEqual([]);
    // A value that only looks like SQL is a value.
    expect(await setting(db, "x' or '1'='1")).toEqual([]);
    expect(Number((await version(db))[0]?.version)).toBe(await currentVersion());
  });

  it.skipIf(onPostgres)("on SQLite runs at once when the connection is free", async () => {
    const rows = version(db);
    expect(rows).not.toBeInstanceOf(Promise);
    expect(Number((rows as { version: number }[])[0]?.version)).toBe(await currentVersion());
  });

  it("waits for another flow's open transaction and reads what it committed, or not what it rolled back", async () => {
    const before = await currentVersion();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inside!: () => void;
    const opened = new Promise<void>((resolve) => {
      inside = resolve;
    });
    const committed = db.transaction().execute(async (trx) => {
      await trx
        .updateTable("page_cache_version")
        .set((eb) => ({ version: eb("version", "+", 1) }))
        .where("id", "=", 1)
        .execute();
      inside();
      await held;
    });
    await opened;
    const read = version(db);
    // On SQLite the one connection is in the transaction: running now would read its uncommitted row.
    if (!onPostgres) expect(read).toBeInstanceOf(Promise);
    release();
    await committed;
    const seen = Number((await read)[0]?.version);
    // PostgreSQL reads the last committed row at once (READ COMMITTED): the old one or, later, the new.
    expect(onPostgres ? [before, before + 1] : [before + 1]).toContain(seen);

    const rollback = db
      .transaction()
      .execute(async (trx) => {
        await trx
          .updateTable("page_cache_version")
          .set((eb) => ({ version: eb("version", "+", 100) }))
          .where("id", "=", 1)
          .execute();
        const during = version(db);
        throw Object.assign(new Error("rolled back"), { during });
      })
      .catch((error: { during: ReturnType<typeof version> }) => error.during);
    expect(Number((await await rollback)[0]?.version)).toBe(before + 1);
  });

  it("refuses a build that uses a parameter other than as one value", () => {
    const twice = preparedRead((database: DB, key: string) =>
      database.selectFrom("site_settings").select("value").where("key", "=", key).where("value", "=", key),
    );
    expect(() => twice(db, "a")).toThrow(/exactly once/);
  });
});

describe("relaxedTransaction", () => {
  it("commits everything or nothing, and every later transaction is durable again", async () => {
    const durability = async (on: DB = db) =>
      onPostgres
        ? (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(on)).rows[0]?.synchronous_commit
        : (await sql<{ synchronous: number }>`pragma synchronous`.execute(on)).rows[0]?.synchronous;
    const before = await durability();
    await relaxedTransaction(db, async (trx) => {
      await trx.insertInto("site_settings").values({ key: "relaxed-a", value: "1", updated_at: now() }).execute();
      // NORMAL (1) on SQLite, off on PostgreSQL: for this transaction only.
      expect(await durability(trx)).toBe(onPostgres ? "off" : 1);
    });
    await expect(
      relaxedTransaction(db, async (trx) => {
        await trx.insertInto("site_settings").values({ key: "relaxed-b", value: "1", updated_at: now() }).execute();
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    const keys = await db.selectFrom("site_settings").select("key").where("key", "like", "relaxed-%").execute();
    expect(keys.map((row) => row.key)).toEqual(["relaxed-a"]);
    expect(await durability()).toBe(before);
    if (!onPostgres) expect(before).toBe(2); // FULL: an acknowledged order survives a power cut
  });
});
