import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import {
  type Compilable,
  CompiledQuery,
  createQueryId,
  type DatabaseConnection,
  DeleteQueryNode,
  type Driver,
  InsertQueryNode,
  Kysely,
  PostgresDialect,
  type QueryResult,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
  type Transaction,
  UpdateQueryNode,
} from "kysely";
import { Migrator } from "kysely/migration";
import pg from "pg";
import { logger } from "~/lib/log.server";
import { migrations } from "./migrations";
import type { Database } from "./schema";

export type DB = Kysely<Database>;

/** True when DATABASE_URL names a PostgreSQL server rather than a SQLite file. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/**
 * Opens the database named by DATABASE_URL: a SQLite file (the default; WAL, synchronous=FULL
 * so a confirmed order survives a power cut, foreign keys, busy timeout) or a PostgreSQL server
 * through a connection pool (docs/decisions/029-postgresql.md). Connection set-up is the only
 * dialect code here; the SQL that differs lives in db/dialect.ts and db/search.ts.
 */
export function openDatabase(url: string): DB {
  if (isPostgresUrl(url)) return openPostgres(url);
  const file = sqliteFile(url);
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  // A 32 MB page cache (the default is 2 MB): listings and the dashboard read the same index
  // pages over and over, which otherwise go back to the file system on every request. 8 MB saved
  // memory but cost an uncached listing a fifth more CPU (decision 072).
  sqlite.pragma("cache_size = -32000");
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: reusingStatements(sqlite) }, sqlite),
  });
  sqliteHandles.set(db, sqlite);
  return db;
}

/** The better-sqlite3 handle behind each SQLite database this module opened (for `preparedRead`). */
const sqliteHandles = new WeakMap<DB, SQLite.Database>();

/** The better-sqlite3 handle behind `db` when it is a SQLite database opened here (not a transaction). */
export function sqliteHandle(db: DB): SQLite.Database | null {
  return sqliteHandles.get(db) ?? null;
}

/**
 * A read on the hot path of every page (the catalogue version, the visitor's session and cart):
 * built with Kysely once per database, its SQL and parameters kept, and run with new parameters.
 * Building and compiling a query and passing it through Kysely's driver cost several times the
 * statement itself on SQLite (docs/decisions/074). On SQLite, when the one connection is free —
 * no transaction open on it, no statement iterating — the prepared statement runs at once;
 * otherwise (inside a transaction, PostgreSQL, a database with plugins such as the tests'
 * statement counter) the compiled query goes through `db.executeQuery` as any other query, and
 * waits its turn. `build` receives placeholder values for its parameters: use each exactly as a
 * value, never in an expression.
 */
export function preparedRead<P extends string[], R>(
  build: (db: DB, ...params: P) => Compilable<R>,
): (db: DB, ...params: P) => R[] | Promise<R[]> {
  const compiled = new WeakMap<DB, { query: CompiledQuery<R>; slots: number[]; statement: SQLite.Statement | null }>();
  return (db, ...params) => {
    let entry = compiled.get(db);
    if (!entry) {
      const placeholders = params.map((_, i) => `\u0000param${i}\u0000`) as P;
      const query = build(db, ...placeholders).compile();
      const slots = placeholders.map((placeholder) => query.parameters.indexOf(placeholder));
      if (
        slots.some((slot) => slot < 0) ||
        query.parameters.filter((value) => placeholders.includes(value as string)).length !== slots.length
      )
        throw new Error("preparedRead: each parameter must be used exactly once, as a value");
      const sqlite = sqliteHandles.get(db);
      entry = { query, slots, statement: sqlite ? sqlite.prepare(query.sql) : null };
      compiled.set(db, entry);
    }
    const parameters = [...entry.query.parameters];
    entry.slots.forEach((slot, i) => {
      parameters[slot] = params[i];
    });
    const sqlite = entry.statement ? sqliteHandles.get(db) : undefined;
    if (entry.statement && sqlite && !sqlite.inTransaction && !entry.statement.busy) {
      try {
        return entry.statement.all(parameters) as R[];
      } catch (error) {
        // The connection is busy with an open iteration (a streamed export): wait as any query does.
        if (!(error instanceof TypeError)) throw error;
      }
    }
    // A query id of its own, as every query built afresh has (plugins keep per-query state by it).
    return db.executeQuery<R>({ ...entry.query, parameters, queryId: createQueryId() }).then((result) => result.rows);
  };
}

/** Prepared statements kept per SQL text: the shop's queries are a few hundred distinct texts. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The database as Kysely's SQLite driver sees it, with `prepare` answered from a cache: the
 * driver prepares every query afresh, and compiling the SQL was a tenth of a catalogue page's
 * database time. A statement is bound anew on each run (`all`/`run` take the parameters), so
 * sharing one is safe, except while an `iterate` over it is still open (`busy`): then a fresh one
 * is prepared for that call. The least recently used statement goes when the cache is full;
 * SQLite re-prepares a cached statement by itself after a schema change (a migration).
 */
export function reusingStatements(database: SQLite.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close() {
      statements.clear();
      database.close();
    },
    prepare(sql: string) {
      const cached = statements.get(sql);
      if (cached) {
        if (cached.busy) return database.prepare(sql);
        // Most recently used last: Map keeps insertion order, so the first key is the oldest.
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = database.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > size) {
        const oldest = statements.keys().next().value;
        if (oldest !== undefined) statements.delete(oldest);
      }
      return statement;
    },
  };
}

/**
 * A transaction whose commit may be lost to a power cut, never half-applied: page views
 * (decision 074). The commit does not wait for the disk: on SQLite, synchronous=NORMAL for this
 * transaction only (set before BEGIN, FULL again before the connection is handed on — SQLite
 * refuses to change it inside a transaction); WAL keeps the file consistent, and the next FULL
 * commit (an order) or checkpoint writes these pages too. On PostgreSQL, `synchronous_commit`
 * off for the transaction. Every other transaction keeps FULL: an acknowledged order survives.
 */
export async function relaxedTransaction<T>(db: DB, run: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  const sqlite = sqliteHandles.get(db);
  if (!sqlite) {
    return db.transaction().execute(async (trx) => {
      if (databasePool(db)) await sql`set local synchronous_commit = off`.execute(trx);
      return run(trx);
    });
  }
  // The connection is held from before BEGIN to after the setting is restored: no other
  // transaction of this process can commit in between with the relaxed setting.
  return db.connection().execute(async (connection) => {
    sqlite.pragma("synchronous = NORMAL");
    try {
      return await connection.transaction().execute(run);
    } finally {
      sqlite.pragma("synchronous = FULL");
    }
  });
}

/** Type parsers for the pool: see openPostgres. */
const postgresTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    // bigint (count(*), sum of integers) and numeric (sum of bigints) come back as strings by
    // default, so no precision is lost past 2^53. Every such value here is a count or integer
    // cents far below that, and SQLite gives numbers: parse them as numbers.
    if (oid === PG_INT8 || oid === PG_NUMERIC) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;
const PG_INT8 = 20;
const PG_NUMERIC = 1700;

/** How long a request waits for a free connection (or a new one) before it is answered 503. */
export const POSTGRES_CONNECT_TIMEOUT_MS = 5_000;
/** The server stops a statement after this long (a lock wait, a busy server): a 503, not a hang. */
export const POSTGRES_STATEMENT_TIMEOUT_MS = 15_000;
/** The client gives up on an answer after this long (a server gone silent, a cut network). */
export const POSTGRES_QUERY_TIMEOUT_MS = 20_000;

/**
 * A pool of `DATABASE_POOL_SIZE` connections (default 10) per process. Transactions run at READ
 * COMMITTED, PostgreSQL's default; each guarantee that needs more (a conditional update, a row
 * lock, a unique index) says so where it is taken.
 *
 * An outage (a restart, a failover, a cut network) must neither take the process down nor hold
 * requests for ever (docs/decisions/065): every client gets an `'error'` listener for its whole
 * life — pg-pool listens only while a client is idle, and a client whose server went away while
 * it was checked out (between a transaction's statements) emits `'error'` with nobody listening,
 * which killed the worker — and a broken client is discarded when released (pg-pool checks
 * `_queryable`), so the next query opens a fresh connection: the pool recovers by itself once the
 * server is back. Waiting for a connection, a statement and an answer each have a time limit.
 */
function openPostgres(url: string): DB {
  const pool = new pg.Pool({
    connectionString: url,
    max: Number(process.env.DATABASE_POOL_SIZE) || 10,
    types: postgresTypes,
    connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
    statement_timeout: POSTGRES_STATEMENT_TIMEOUT_MS,
    query_timeout: POSTGRES_QUERY_TIMEOUT_MS,
    // A dead peer behind a silent network is noticed by TCP rather than by the next query.
    keepAlive: true,
  });
  pool.on("connect", (client) => {
    client.on("error", (error) => logConnectionLost(error, "in use"));
  });
  // An idle connection the server drops: the pool discards it and the next query opens a fresh one.
  pool.on("error", (error) => logConnectionLost(error, "idle"));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return db;
}

const pools = new WeakMap<DB, pg.Pool>();

/** The PostgreSQL pool behind `db` (its metrics: connections in use, queries waiting); null on SQLite. */
export function databasePool(db: DB): pg.Pool | null {
  return pools.get(db) ?? null;
}

/** One line per lost connection, not one per client of a pool that lost them all at once. */
let lastLossLogged = 0;
function logConnectionLost(error: Error, state: "idle" | "in use"): void {
  const at = Date.now();
  if (at - lastLossLogged < 1_000) return;
  lastLossLogged = at;
  const code = (error as { code?: string }).code;
  logger.warn({ code, err: error.message }, `database: ${state} connection lost`);
}

/**
 * Kysely's SQLite driver opens a transaction with a plain (deferred) BEGIN: a transaction that
 * reads first and writes later then fails at once with SQLITE_BUSY when another process (two
 * servers on one file, a CLI command, a backup) wrote in between, since waiting cannot refresh
 * its stale snapshot. BEGIN IMMEDIATE takes the write lock up front and waits through the busy
 * timeout instead, so writers from several processes queue rather than fail.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  readonly #sqlite: SQLite.Database | null;
  #connection: DatabaseConnection | null = null;

  /** `sqlite`: the better-sqlite3 handle behind `settings.database` (which may wrap it). */
  constructor(settings: SqliteDialectConfig, sqlite: SQLite.Database | null) {
    super(settings);
    this.#sqlite = sqlite ?? (settings.database instanceof SQLite ? settings.database : null);
  }

  /**
   * The lock is waited for off the event loop: SQLite's busy timeout sleeps inside the call, so a
   * process whose transaction waits for another process's write (several workers on one file)
   * would stop serving all its requests meanwhile. Here BEGIN IMMEDIATE is tried without the
   * timeout and retried on a timer (1 ms, then up to 8 ms apart) for as long as the timeout.
   */
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const sqlite = this.#sqlite;
    if (!sqlite || sqlite.inTransaction) {
      await connection.executeQuery(CompiledQuery.raw("begin immediate"));
      return;
    }
    const timeout = Number(sqlite.pragma("busy_timeout", { simple: true })) || 0;
    const deadline = Date.now() + timeout;
    for (let attempt = 0; ; attempt++) {
      sqlite.pragma("busy_timeout = 0");
      try {
        sqlite.exec("begin immediate");
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== "SQLITE_BUSY" || Date.now() >= deadline) throw error;
      } finally {
        sqlite.pragma(`busy_timeout = ${timeout}`);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(8, 1 + attempt)));
    }
  }
  /**
   * A write outside a transaction (a session saved, a page view counted: one statement, its own
   * transaction) waits for another process's write lock the same way, off the event loop: with
   * the busy timeout, SQLite sleeps inside the call (1, 2, 5 … 100 ms at a time), and every
   * request of the process waits with it (decision 069: two workers taking 50 payments at once
   * stalled each other so). Reads never wait for a writer under WAL; raw SQL (migrations, pragmas)
   * keeps the busy timeout.
   */
  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    const sqlite = this.#sqlite;
    if (!sqlite) return connection;
    this.#connection ??= {
      executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        const write =
          InsertQueryNode.is(query.query) || UpdateQueryNode.is(query.query) || DeleteQueryNode.is(query.query);
        if (!write || sqlite.inTransaction) return connection.executeQuery<R>(query);
        return writeWithoutBlocking(sqlite, () => connection.executeQuery<R>(query));
      },
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    };
    return this.#connection;
  }

  /**
   * SQLite ends a transaction by itself on some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM,
   * and SQLITE_BUSY in some cases): a ROLLBACK then fails with "no transaction is active", and
   * Kysely would throw that instead of the error that matters (a full disk answered 507).
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.#sqlite && !this.#sqlite.inTransaction) return;
    await super.rollbackTransaction(connection);
  }
}

/**
 * Runs one statement (its own transaction) without SQLite's busy timeout, retried on a timer
 * (1 ms, then up to 8 ms apart) while another process holds the write lock, for as long as the
 * busy timeout. `run` does its work synchronously (better-sqlite3 under an async signature): the
 * timeout is back before any other code runs.
 */
async function writeWithoutBlocking<T>(sqlite: SQLite.Database, run: () => Promise<T>): Promise<T> {
  const timeout = Number(sqlite.pragma("busy_timeout", { simple: true })) || 0;
  const deadline = Date.now() + timeout;
  for (let attempt = 0; ; attempt++) {
    let result: Promise<T>;
    sqlite.pragma("busy_timeout = 0");
    try {
      result = run();
    } finally {
      sqlite.pragma(`busy_timeout = ${timeout}`);
    }
    try {
      return await result;
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_BUSY" || Date.now() >= deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(8, 1 + attempt)));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #settings: SqliteDialectConfig;
  readonly #sqlite: SQLite.Database | null;

  constructor(settings: SqliteDialectConfig, sqlite: SQLite.Database | null = null) {
    super(settings);
    this.#settings = settings;
    this.#sqlite = sqlite;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#settings, this.#sqlite);
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
