import SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { reusingStatements } from "#db/connect.server";

/** The SQLite statement cache behind Kysely (db/connect.server.ts). */
describe("reusingStatements", () => {
  function open(size?: number) {
    const sqlite = new SQLite(":memory:");
    sqlite.exec("create table t (n integer); insert into t values (1), (2), (3)");
    return { sqlite, database: reusingStatements(sqlite, size) };
  }

  it("gives the same prepared statement for the same SQL, bound anew on each run", () => {
    const { database } = open();
    const first = database.prepare("select n from t where n >= ? order by n");
    expect(database.prepare("select n from t where n >= ? order by n")).toBe(first);
    expect(first.all([2])).toEqual([{ n: 2 }, { n: 3 }]);
    expect(first.all([3])).toEqual([{ n: 3 }]);
  });

  it("prepares a fresh statement while the cached one is still being iterated", () => {
    const { database } = open();
    const sql = "select n from t order by n";
    const outer = database.prepare(sql);
    const seen: number[] = [];
    for (const row of outer.iterate([]) as Iterable<{ n: number }>) {
      const inner = database.prepare(sql);
      expect(inner).not.toBe(outer);
      seen.push(row.n, (inner.all([]) as { n: number }[]).length);
    }
    expect(seen).toEqual([1, 3, 2, 3, 3, 3]);
    expect(database.prepare(sql)).toBe(outer);
  });

  it("keeps at most `size` statements, letting the least recently used go", () => {
    const { database } = open(2);
    const a = database.prepare("select 1");
    const b = database.prepare("select 2");
    expect(database.prepare("select 1")).toBe(a);
    database.prepare("select 3"); // evicts "select 2", used longest ago
    expect(database.prepare("select 1")).toBe(a);
    expect(database.prepare("select 2")).not.toBe(b);
  });

  it("re-prepares by itself after the schema changes", () => {
    const { sqlite, database } = open();
    const count = database.prepare("select count(*) as c from t");
    expect(count.all([])).toEqual([{ c: 3 }]);
    sqlite.exec("drop table t; create table t (n integer, m text); insert into t values (9, 'x')");
    expect(database.prepare("select count(*) as c from t").all([])).toEqual([{ c: 1 }]);
    database.close();
    expect(sqlite.open).toBe(false);
  });
});
