import SQLite from "better-sqlite3";
import { type CompiledQuery, Kysely, SqliteDialect } from "kysely";
import type { DB } from "#db/connect.server";
import type { Database } from "#db/schema";

/** One line of `EXPLAIN QUERY PLAN`: `parent` is the id of the line it sits under (0 at the top). */
export interface PlanLine {
  id: number;
  parent: number;
  detail: string;
}

export interface ExplainedQuery {
  sql: string;
  plan: PlanLine[];
}

/**
 * The SQL a model function sends, without touching the model: a second Kysely on its own
 * better-sqlite3 connection to the same file, with Kysely's `log` hook recording every compiled
 * statement. The model runs against `db` (it behaves exactly as on the app's database: same
 * file, same dialect); `explainAll` then asks SQLite how it runs each statement, with its
 * parameters, on a plain connection.
 */
export function captureQueries(file: string) {
  const sqlite = new SQLite(file);
  sqlite.pragma("foreign_keys = ON");
  const captured: CompiledQuery[] = [];
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: (event) => {
      if (event.level === "query") captured.push(event.query);
    },
  }) as DB;

  /** Runs `fn` on the logging database and explains every distinct statement it sent. */
  async function explainAll(fn: (db: DB) => Promise<unknown>): Promise<ExplainedQuery[]> {
    captured.length = 0;
    await fn(db);
    const seen = new Set<string>();
    const explained: ExplainedQuery[] = [];
    for (const query of captured) {
      const key = `${query.sql}\u0000${JSON.stringify(query.parameters)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const plan = sqlite
        .prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
        .all(...(query.parameters as unknown[])) as PlanLine[];
      explained.push({ sql: query.sql, plan });
    }
    return explained;
  }

  return { db, sqlite, explainAll, close: () => db.destroy() };
}

/** The plan as an indented tree, for failure messages. */
export function formatPlan(plan: PlanLine[]): string {
  const depth = new Map<number, number>([[0, 0]]);
  return plan
    .map((line) => {
      const level = (depth.get(line.parent) ?? 0) + 1;
      depth.set(line.id, level);
      return `${"  ".repeat(level)}${line.detail}`;
    })
    .join("\n");
}
