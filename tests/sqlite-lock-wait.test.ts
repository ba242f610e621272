import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../db/connect.server";

/**
 * Several processes on one SQLite file (npm start forks one per core): a transaction that finds
 * another connection writing waits for the lock on a timer, not inside SQLite's busy handler,
 * so the rest of its process keeps serving meanwhile.
 */
describe("SQLite transactions waiting for another writer", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("wait without blocking the event loop, then commit once the other writer is done", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-lock-"));
    dirs.push(dir);
    const file = path.join(dir, "shop.db");
    const db = openDatabase(`file:${file}`);
    try {
      await sql`create table t (n integer)`.execute(db);
      const other = new SQLite(file);
      other.exec("begin immediate");
      other.prepare("insert into t values (1)").run();
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 5);
      const started = Date.now();
      const waiting = db.transaction().execute(async (trx) => {
        await sql`insert into t values (2)`.execute(trx);
      });
      await new Promise((resolve) => setTimeout(resolve, 150));
      const ticksWhileLocked = ticks;
      other.exec("commit");
      other.close();
      await waiting;
      clearInterval(ticker);
      expect(ticksWhileLocked).toBeGreaterThan(10);
      expect(Date.now() - started).toBeLessThan(1000);
      const rows = await sql<{ n: number }>`select n from t order by n`.execute(db);
      expect(rows.rows.map((row) => row.n)).toEqual([1, 2]);
    } finally {
      await db.destroy();
    }
  });

  it("a single write outside a transaction waits the same way (issue 31)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-lock-"));
    dirs.push(dir);
    const file = path.join(dir, "shop.db");
    const db = openDatabase(`file:${file}`);
    try {
      await sql`create table t (n integer)`.execute(db);
      await db.schema.createTable("u").addColumn("n", "integer").execute();
      const other = new SQLite(file);
      other.exec("begin immediate");
      other.prepare("insert into t values (1)").run();
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 5);
      const started = Date.now();
      // A session saved, a page view counted: one statement, its own transaction.
      const waiting = db
        .insertInto("u" as never)
        .values({ n: 2 } as never)
        .execute();
      await new Promise((resolve) => setTimeout(resolve, 150));
      const ticksWhileLocked = ticks;
      other.exec("commit");
      other.close();
      await waiting;
      clearInterval(ticker);
      expect(ticksWhileLocked).toBeGreaterThan(10);
      expect(Date.now() - started).toBeLessThan(1000);
      const count = await sql<{ n: number }>`select count(*) as n from u`.execute(db);
      expect(Number(count.rows[0]?.n)).toBe(1);
      // The busy timeout is the connection's again for everything else.
      const timeout = await sql<Record<string, number>>`pragma busy_timeout`.execute(db);
      expect(Object.values(timeout.rows[0] ?? {})).toEqual([5000]);
    } finally {
      await db.destroy();
    }
  });
});
