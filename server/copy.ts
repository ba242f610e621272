import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { type Kysely, sql } from "kysely";
import { isPostgresUrl, migrateToLatest, openDatabase, sqliteFile } from "#db/connect.server";
import { migrations } from "#db/migrations";
import { parseCommandLine, UsageError } from "~/lib/cli-args";
import { loadConfig, parseStorageUrl, type StorageConfig } from "~/lib/config.server";
import type { Storage, StorageArea } from "~/lib/storage.server";
import { createStorage } from "./uploads";

/**
 * `npm run db:copy` and `npm run storage:copy`: moving a shop from one SQLite file and one uploads
 * folder to PostgreSQL and an S3-compatible bucket, with the shop stopped (docs/scaling.md).
 * Both verify what they wrote and exit non-zero when anything differs.
 */

/** A copy that cannot start or did not verify: one line, nothing changed on the target database. */
export class CopyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CopyError";
  }
}

// biome-ignore lint/suspicious/noExplicitAny: tables are discovered at run time
type AnyDb = Kysely<any>;

/* ------------------------------------------------------------------------------------------
 * Database
 * ------------------------------------------------------------------------------------------ */

/**
 * Not copied: Kysely's own bookkeeping (the target's migrations fill it), SQLite's internal
 * tables, and the FTS5 search table with its shadow tables (PostgreSQL searches through pg_trgm
 * indexes the migrations build on the products table; they fill themselves as rows go in).
 */
function isCopiedTable(name: string): boolean {
  // page_cache_version, visitor_version: each database keeps its own counter (the migration makes its one row).
  return !/^(kysely_migration|sqlite_|product_search|page_cache_version$|visitor_version$)/.test(name);
}

export interface TableCount {
  table: string;
  source: number;
  target: number;
}

export interface DatabaseCopyOptions {
  /** DATABASE_URL of the SQLite shop (file:… or a path). */
  from: string;
  /** postgres://… of an empty database (migrated here first). */
  to: string;
  /** Rows a batch at most; fewer for wide tables (PostgreSQL takes 65,535 parameters a statement). */
  batchSize?: number;
  log?: (line: string) => void;
}

interface SourceTable {
  name: string;
  columns: string[];
  references: string[];
}

/**
 * Copies every table of a SQLite shop into an empty PostgreSQL database, keeping ids: migrates
 * the target, refuses when it has rows, copies in foreign-key order in batches inside one
 * transaction, moves each identity sequence past the copied ids, and compares row counts table by
 * table before committing (a difference rolls everything back). The source is read in one read
 * transaction, so it is one consistent snapshot.
 */
export async function copyDatabase(options: DatabaseCopyOptions): Promise<TableCount[]> {
  const log = options.log ?? (() => {});
  if (isPostgresUrl(options.from))
    throw new CopyError("The source database is PostgreSQL: db:copy copies a SQLite shop.");
  if (!isPostgresUrl(options.to))
    throw new CopyError("--to must be a PostgreSQL database (postgres://user:pass@host:port/db).");
  const file = sqliteFile(options.from);
  if (file === ":memory:" || !fs.existsSync(file)) {
    throw new CopyError(`The source database ${file} does not exist.`);
  }
  const source = new SQLite(path.resolve(file), { readonly: true, fileMustExist: true });
  const target = openDatabase(options.to) as AnyDb;
  try {
    const applied = (source.prepare("select name from kysely_migration order by name").all() as { name: string }[]).map(
      (row) => row.name,
    );
    const pending = Object.keys(migrations).filter((name) => !applied.includes(name));
    if (pending.length > 0) {
      throw new CopyError(
        `The source database is not migrated (${pending.join(", ")}): run npm run db:migrate on it first.`,
      );
    }
    const newMigrations = await migrateToLatest(target as never);
    if (newMigrations.length > 0) log(`target: applied ${newMigrations.length} migrations`);

    source.exec("begin"); // one snapshot for the whole copy
    const tables = sourceTables(source);
    await assertSameTables(target, tables);
    // The rows a migration writes itself (the default shipping zone, migration 0018) are not the
    // target's data: they are replaced by the source's.
    const filled = await tablesWithRows(
      target,
      tables.filter((table) => !SEEDED_BY_MIGRATIONS.includes(table.name)),
    );
    if (filled.length > 0) {
      throw new CopyError(
        `The target database is not empty (rows in ${filled.join(", ")}): db:copy only fills an empty database.`,
      );
    }

    const counts: TableCount[] = [];
    await target.transaction().execute(async (trx) => {
      for (const name of SEEDED_BY_MIGRATIONS) {
        if (tables.some((table) => table.name === name)) await trx.deleteFrom(name).execute();
      }
      for (const table of inForeignKeyOrder(tables)) {
        const expected = (source.prepare(`select count(*) as n from ${quote(table.name)}`).get() as { n: number }).n;
        const size = Math.max(1, Math.min(options.batchSize ?? 1000, Math.floor(30_000 / table.columns.length)));
        const select = source.prepare(`select ${table.columns.map(quote).join(", ")} from ${quote(table.name)}`);
        let batch: Record<string, unknown>[] = [];
        for (const row of select.iterate() as Iterable<Record<string, unknown>>) {
          batch.push(row);
          if (batch.length >= size) {
            await trx.insertInto(table.name).values(batch).execute();
            batch = [];
          }
        }
        if (batch.length > 0) await trx.insertInto(table.name).values(batch).execute();
        const { n } = await trx
          .selectFrom(table.name)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow();
        counts.push({ table: table.name, source: expected, target: Number(n) });
      }
      // Past the copied ids, and past every id SQLite ever handed out (AUTOINCREMENT never gives
      // a deleted row's id again: an old order line must not come to name a new product).
      const handedOut = sqliteSequences(source);
      for (const table of await identityTables(trx)) {
        const used = handedOut.get(table) ?? 0;
        await sql`select setval(pg_get_serial_sequence(${table}, 'id'), greatest(coalesce(max(id), 0), ${used}) + 1, false) from ${sql.table(table)}`.execute(
          trx,
        );
      }
      const wrong = counts.filter((count) => count.source !== count.target);
      if (wrong.length > 0) {
        throw new CopyError(
          `Row counts differ, nothing was copied: ${wrong.map((c) => `${c.table} ${c.source} → ${c.target}`).join(", ")}.`,
        );
      }
    });
    return counts;
  } finally {
    if (source.inTransaction) source.exec("rollback");
    source.close();
    await target.destroy();
  }
}

function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function sourceTables(source: SQLite.Database): SourceTable[] {
  const names = (
    source.prepare("select name from sqlite_master where type = 'table' order by name").all() as { name: string }[]
  )
    .map((row) => row.name)
    .filter(isCopiedTable);
  return names.map((name) => ({
    name,
    columns: (source.pragma(`table_info(${quote(name)})`) as { name: string }[]).map((column) => column.name),
    references: (source.pragma(`foreign_key_list(${quote(name)})`) as { table: string }[])
      .map((key) => key.table)
      .filter((other) => other !== name),
  }));
}

/** The highest id SQLite's AUTOINCREMENT handed out, per table. */
function sqliteSequences(source: SQLite.Database): Map<string, number> {
  const exists = source.prepare("select 1 from sqlite_master where type = 'table' and name = 'sqlite_sequence'").get();
  if (!exists) return new Map();
  const rows = source.prepare("select name, seq from sqlite_sequence").all() as { name: string; seq: number }[];
  return new Map(rows.map((row) => [row.name, Number(row.seq)]));
}

/** A table or a column on one side only means the two schemas differ: an error, never a skip. */
async function assertSameTables(target: AnyDb, tables: SourceTable[]): Promise<void> {
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select c.table_name, c.column_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'`.execute(target);
  const targetColumns = new Map<string, Set<string>>();
  for (const row of rows) {
    if (!isCopiedTable(row.table_name)) continue;
    const columns = targetColumns.get(row.table_name) ?? new Set<string>();
    columns.add(row.column_name);
    targetColumns.set(row.table_name, columns);
  }
  const problems: string[] = [];
  for (const table of tables) {
    const columns = targetColumns.get(table.name);
    if (!columns) {
      problems.push(`table ${table.name} is missing on the target`);
      continue;
    }
    const missing = table.columns.filter((column) => !columns.has(column));
    const extra = [...columns].filter((column) => !table.columns.includes(column));
    if (missing.length) problems.push(`${table.name}.${missing.join(", ")} missing on the target`);
    if (extra.length) problems.push(`${table.name}.${extra.join(", ")} missing on the source`);
  }
  for (const name of targetColumns.keys()) {
    if (!tables.some((table) => table.name === name)) problems.push(`table ${name} is missing on the source`);
  }
  if (problems.length > 0) throw new CopyError(`The two schemas differ: ${problems.join("; ")}.`);
}

/** Tables a migration fills on an empty database (children first, the order they are emptied in). */
const SEEDED_BY_MIGRATIONS: readonly string[] = [
  "shipping_zone_bands",
  "shipping_zone_rates",
  "shipping_zone_countries",
  "shipping_zones",
];

async function tablesWithRows(target: AnyDb, tables: SourceTable[]): Promise<string[]> {
  const filled: string[] = [];
  for (const table of tables) {
    const row = await target.selectFrom(table.name).select(sql<number>`1`.as("one")).limit(1).executeTakeFirst();
    if (row) filled.push(table.name);
  }
  return filled;
}

/** Parents before children, so each insert finds the rows its foreign keys point at. */
function inForeignKeyOrder(tables: SourceTable[]): SourceTable[] {
  const byName = new Map(tables.map((table) => [table.name, table]));
  const ordered: SourceTable[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (table: SourceTable) => {
    if (state.get(table.name) === "done") return;
    if (state.get(table.name) === "visiting") throw new CopyError(`Foreign keys form a cycle through ${table.name}.`);
    state.set(table.name, "visiting");
    for (const parent of table.references) {
      const found = byName.get(parent);
      if (found) visit(found);
    }
    state.set(table.name, "done");
    ordered.push(table);
  };
  for (const table of tables) visit(table);
  return ordered;
}

/** Tables whose `id` is an identity column (serialKey in db/migrations/portable.ts). */
async function identityTables(target: AnyDb): Promise<string[]> {
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.columns
    where table_schema = current_schema() and column_name = 'id' and is_identity = 'YES'
    order by table_name`.execute(target);
  return rows.map((row) => row.table_name);
}

/* ------------------------------------------------------------------------------------------
 * Files
 * ------------------------------------------------------------------------------------------ */

const AREAS: readonly StorageArea[] = ["public", "private"];

export interface StorageCopyResult {
  /** Objects copied and verified, per area. */
  copied: Record<StorageArea, number>;
  bytes: number;
}

/**
 * Copies every object of both areas from one storage to another through the Storage interface
 * (the target gives each area its own headers: long-lived cache for public images, no-store for
 * private receipts), then reads each one back and compares size, SHA-256 and content type. Keys
 * are kept. Running it again is safe: an object already there is written again with the same
 * bytes, so an interrupted copy is finished by running the command once more.
 */
export async function copyStorage(options: {
  from: Storage;
  to: Storage;
  log?: (line: string) => void;
}): Promise<StorageCopyResult> {
  const log = options.log ?? (() => {});
  const result: StorageCopyResult = { copied: { public: 0, private: 0 }, bytes: 0 };
  const problems: string[] = [];
  for (const area of AREAS) {
    const keys = await options.from.list(area);
    log(`${area}: ${keys.length} files`);
    for (const key of keys) {
      const file = await options.from.get(area, key);
      if (!file) {
        problems.push(`${area}/${key} disappeared while copying`);
        continue;
      }
      await options.to.put(area, key, file.data, file.contentType);
      const back = await options.to.get(area, key);
      if (!back) {
        problems.push(`${area}/${key} is missing on the target`);
      } else if (back.data.length !== file.data.length || sha256(back.data) !== sha256(file.data)) {
        problems.push(`${area}/${key} reads back with other bytes`);
      } else if (back.contentType !== file.contentType) {
        problems.push(`${area}/${key} reads back as ${back.contentType}, not ${file.contentType}`);
      } else {
        result.copied[area]++;
        result.bytes += file.data.length;
      }
    }
  }
  if (problems.length > 0) {
    throw new CopyError(`${problems.length} file(s) did not verify: ${problems.slice(0, 10).join("; ")}.`);
  }
  return result;
}

function sha256(data: Buffer): string {
  return crypto.createHash("sha256").update(data).digest("hex");
}

function describeStorage(storage: StorageConfig): string {
  return storage.kind === "file" ? `the folder ${storage.dir}` : `the bucket ${storage.bucket}`;
}

function sameStorage(a: StorageConfig, b: StorageConfig): boolean {
  if (a.kind === "file" && b.kind === "file") return a.dir === b.dir;
  if (a.kind === "s3" && b.kind === "s3") return a.bucket === b.bucket && a.endpoint === b.endpoint;
  return false;
}

/* ------------------------------------------------------------------------------------------
 * The commands
 * ------------------------------------------------------------------------------------------ */

const DB_COPY_USAGE = "npm run db:copy -- --to postgres://user:pass@host:port/db [--from file:./data/shop.db]";

/** `npm run db:copy -- --to postgres://… [--from <sqlite url>]` */
export async function dbCopyCommand(args: string[]): Promise<void> {
  const { values } = parseCommandLine(args, {
    usage: DB_COPY_USAGE,
    options: { to: { type: "string" }, from: { type: "string" } },
  });
  if (!values.to) throw new UsageError("--to is missing", DB_COPY_USAGE);
  const from = values.from || loadConfig().databaseUrl;
  const started = Date.now();
  const counts = await copyDatabase({ from, to: values.to, log: (line) => console.info(line) });
  const width = Math.max(...counts.map((count) => count.table.length));
  for (const count of counts) console.info(`  ${count.table.padEnd(width)}  ${count.source} → ${count.target}`);
  const rows = counts.reduce((sum, count) => sum + count.target, 0);
  console.info(
    `verified: ${rows} rows in ${counts.length} tables, ids kept, sequences moved past them (${Date.now() - started}ms)`,
  );
}

const STORAGE_COPY_USAGE =
  "npm run storage:copy -- --to 's3://BUCKET?endpoint=…&region=…&forcePathStyle=true' [--from file:./uploads]";

/** `npm run storage:copy -- --to s3://… [--from <storage url>]` */
export async function storageCopyCommand(args: string[]): Promise<void> {
  const { values } = parseCommandLine(args, {
    usage: STORAGE_COPY_USAGE,
    options: { to: { type: "string" }, from: { type: "string" } },
  });
  if (!values.to) throw new UsageError("--to is missing", STORAGE_COPY_USAGE);
  const to = parseStorageUrl(values.to, process.env);
  const from = values.from ? parseStorageUrl(values.from, process.env) : loadConfig().storage;
  if (sameStorage(from, to)) throw new CopyError(`--from and --to are both ${describeStorage(to)}.`);
  const source = createStorage({ storage: from });
  const target = createStorage({ storage: to });
  try {
    console.info(`copying ${describeStorage(from)} to ${describeStorage(to)}`);
    const result = await copyStorage({ from: source, to: target, log: (line) => console.info(line) });
    console.info(
      `verified: ${result.copied.public} public and ${result.copied.private} private files (${result.bytes} bytes), size and SHA-256 read back`,
    );
  } finally {
    for (const storage of [source, target]) if ("client" in storage) storage.client.destroy();
  }
}
