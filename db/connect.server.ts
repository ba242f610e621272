import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from "kysely";
import { Migrator } from "kysely/migration";
import { migrations } from "./migrations";
import type { Database } from "./schema";

export type DB = Kysely<Database>;

/**
 * Opens the database named by DATABASE_URL. All dialect-specific code lives here: SQLite now
 * (WAL, synchronous=FULL so a confirmed order survives a power cut, foreign keys, busy
 * timeout); PostgreSQL is the way to grow (see docs/decisions/003-database.md).
 */
export function openDatabase(url: string): DB {
  if (/^postgres(ql)?:\/\//.test(url)) {
    throw new Error(
      "DATABASE_URL points at PostgreSQL, which this release does not support yet. Use a SQLite file (file:./data/shop.db).",
    );
  }
  const file = sqliteFile(url);
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  // A 32 MB page cache (the default is 2 MB): listings and the dashboard read the same index
  // pages over and over, which otherwise go back to the file system on every request.
  sqlite.pragma("cache_size = -32000");
  return new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) });
}

/**
 * Kysely's SQLite driver opens a transaction with a plain (deferred) BEGIN: a transaction that
 * reads first and writes later then fails at once with SQLITE_BUSY when another process (two
 * servers on one file, a CLI command, a backup) wrote in between, since waiting cannot refresh
 * its stale snapshot. BEGIN IMMEDIATE takes the write lock up front and waits through the busy
 * timeout instead, so writers from several processes queue rather than fail.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #settings: SqliteDialectConfig;

  constructor(settings: SqliteDialectConfig) {
    super(settings);
    this.#settings = settings;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#settings);
  }
}

export function sqliteFile(url: string): string {
  if (url === ":memory:" || url === "file::memory:") return ":memory:";
  return url.startsWith("file:") ? url.slice("file:".length) : url;
}

/** Runs every pending migration; throws (and changes nothing further) when one fails. */
export async function migrateToLatest(db: DB): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** ISO-8601 UTC timestamp, the one format every table stores. */
export function now(date: Date = new Date()): string {
  return date.toISOString();
}
