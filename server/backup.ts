import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import SQLite from "better-sqlite3";
import { sqliteFile } from "#db/connect.server";
import { migrations } from "#db/migrations";
import { parseCommandLine, UsageError } from "~/lib/cli-args";
import { type Config, loadConfig } from "~/lib/config.server";

/**
 * `npm run backup` and `npm run restore` (docs/backups.md, docs/decisions/016-backup-and-restore.md).
 *
 * A backup is a folder: `shop.db` (an online snapshot taken with VACUUM INTO while the shop keeps
 * taking orders), `uploads/` (public images and private receipts, copied after the snapshot, so
 * every receipt an order in the snapshot points at is already on disk) and `manifest.json` (time,
 * versions, row counts, every file with its size and SHA-256). Both commands verify a backup the
 * same way before trusting it; restore writes under temporary names, renames into place and keeps
 * what it replaced in a `pre-restore-<time>` folder that is itself a backup.
 */

export const MANIFEST = "manifest.json";
export const DATABASE_NAME = "shop.db";
export const UPLOADS_NAME = "uploads";
const FORMAT = 1;

export interface FileEntry {
  /** Relative to the uploads folder, with forward slashes ("private/receipts/u/x.jpg"). */
  path: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: number;
  kind: "backup" | "pre-restore";
  /** When the database snapshot was taken: everything committed before it is in the backup. */
  createdAt: string;
  finishedAt: string;
  shop: { name: string; version: string | null; schema: string | null };
  source: { database: string; uploads: string };
  database: {
    file: string;
    bytes: number;
    sha256: string;
    integrity: string;
    rowCounts: Record<string, number>;
  };
  uploads: { folder: string; files: FileEntry[] };
  receipts: { orders: number };
}

/** A backup that cannot be trusted, or a step that could not be done safely: every reason found. */
export class BackupError extends Error {
  constructor(
    readonly problems: string[],
    heading = "The backup failed",
  ) {
    super(`${heading}:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
  }
}

/* ------------------------------------------------------------------------------------------
 * Backup
 * ------------------------------------------------------------------------------------------ */

export interface BackupOptions {
  databaseFile: string;
  uploadsDir: string;
  /** The folder that receives the new `backup-<time>` folder. */
  parentDir: string;
  now?: Date;
  log?: (line: string) => void;
}

/** Snapshot, copy, verify; returns the finished folder. A failed attempt leaves nothing behind. */
export async function createBackup(options: BackupOptions): Promise<{ dir: string; manifest: Manifest }> {
  const log = options.log ?? (() => {});
  const databaseFile = path.resolve(options.databaseFile);
  const uploadsDir = path.resolve(options.uploadsDir);
  const parentDir = path.resolve(options.parentDir);
  if (isInside(parentDir, uploadsDir)) {
    throw new BackupError([`${parentDir} is inside the uploads folder ${uploadsDir}; choose another folder.`]);
  }
  if (!fs.existsSync(databaseFile)) throw new BackupError([`there is no database at ${databaseFile}`]);

  const started = options.now ?? new Date();
  const name = `backup-${stamp(started)}`;
  const dir = path.join(parentDir, name);
  const partial = path.join(parentDir, `.${name}.partial`);
  if (fs.existsSync(dir)) throw new BackupError([`${dir} exists already`]);
  await fsp.mkdir(partial, { recursive: true });
  try {
    const snapshot = path.join(partial, DATABASE_NAME);
    // One statement, one read transaction: the copy is the database as of one commit, while the
    // shop's writers carry on (WAL). A read-only connection cannot change the live database.
    const source = new SQLite(databaseFile, { readonly: true, fileMustExist: true, timeout: 10_000 });
    try {
      source.prepare("VACUUM INTO ?").run(snapshot);
    } finally {
      source.close();
    }
    await fsyncFile(snapshot);
    log(`database snapshot taken (${formatBytes(fs.statSync(snapshot).size)})`);

    // After the snapshot: a receipt is written before its order row, so every order in the
    // snapshot finds its receipt here. Files written meanwhile are copied too (harmless).
    const files = await copyTree(uploadsDir, path.join(partial, UPLOADS_NAME));
    log(`uploads copied (${files.length} files, ${formatBytes(files.reduce((sum, f) => sum + f.bytes, 0))})`);

    const manifest = await describe(partial, {
      kind: "backup",
      createdAt: started.toISOString(),
      source: { database: databaseFile, uploads: uploadsDir },
      files,
    });
    const problems = databaseProblems(manifest, path.join(partial, DATABASE_NAME), files);
    if (problems.length > 0) throw new BackupError(problems, "The backup failed its own check and was discarded");
    await writeManifest(partial, manifest);
    await fsp.rename(partial, dir);
    await fsyncDir(parentDir);
    return { dir, manifest };
  } catch (error) {
    await fsp.rm(partial, { recursive: true, force: true });
    throw error;
  }
}

/* ------------------------------------------------------------------------------------------
 * Verification: the same for a new backup, before a restore, and in tests
 * ------------------------------------------------------------------------------------------ */

/** Reads and checks a backup folder; throws a BackupError listing every problem found. */
export async function verifyBackup(dir: string): Promise<Manifest> {
  const problems: string[] = [];
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await fsp.readFile(path.join(dir, MANIFEST), "utf8")) as Manifest;
  } catch (error) {
    throw new BackupError([`${path.join(dir, MANIFEST)} is missing or unreadable (${message(error)})`], refusal(dir));
  }
  if (manifest.format !== FORMAT || !manifest.database || !Array.isArray(manifest.uploads?.files)) {
    throw new BackupError([`${MANIFEST} is not a manifest this version understands`], refusal(dir));
  }
  const databaseFile = path.join(dir, manifest.database.file);
  if (manifest.database.file !== DATABASE_NAME || !fs.existsSync(databaseFile)) {
    throw new BackupError([`the database file ${manifest.database.file} is missing`], refusal(dir));
  }
  const hash = await sha256File(databaseFile);
  if (hash !== manifest.database.sha256) {
    problems.push(`${DATABASE_NAME}: its SHA-256 is not the one in the manifest (the file was changed or damaged)`);
  }

  const files: FileEntry[] = [];
  const uploadsDir = path.join(dir, manifest.uploads.folder);
  for (const entry of manifest.uploads.files) {
    if (!isSafeRelative(entry.path)) {
      problems.push(`the manifest names an unsafe path ${JSON.stringify(entry.path)}`);
      continue;
    }
    const file = path.join(uploadsDir, entry.path);
    try {
      const data = await fsp.readFile(file);
      const actual = sha256(data);
      if (data.length !== entry.bytes || actual !== entry.sha256) {
        problems.push(`uploads/${entry.path}: size or SHA-256 differs from the manifest (damaged)`);
      } else files.push(entry);
    } catch {
      problems.push(`uploads/${entry.path}: missing`);
    }
  }
  if (hash === manifest.database.sha256) problems.push(...databaseProblems(manifest, databaseFile, files));
  const newer = (manifest.shop?.schema && !(manifest.shop.schema in migrations)) || false;
  if (newer) problems.push(`the backup's schema ${manifest.shop.schema} is newer than this version of the shop`);
  if (problems.length > 0) throw new BackupError(problems, refusal(dir));
  return manifest;
}

function refusal(dir: string): string {
  return `The backup ${dir} is damaged or incomplete; nothing was changed`;
}

/**
 * The database checks: integrity_check says ok, no foreign key is broken, the row counts are the
 * manifest's, and every order's receipt is among `files`.
 */
function databaseProblems(manifest: Manifest, databaseFile: string, files: FileEntry[]): string[] {
  const problems: string[] = [];
  let db: SQLite.Database;
  try {
    db = new SQLite(databaseFile, { readonly: true, fileMustExist: true });
  } catch (error) {
    return [`${DATABASE_NAME} cannot be opened: ${message(error)}`];
  }
  try {
    const integrity = integrityOf(db);
    if (integrity !== "ok") {
      problems.push(`${DATABASE_NAME}: PRAGMA integrity_check reports ${integrity}`);
      return problems;
    }
    const broken = db.prepare("PRAGMA foreign_key_check").all();
    if (broken.length > 0) problems.push(`${DATABASE_NAME}: ${broken.length} rows point at rows that do not exist`);
    const counts = rowCounts(db);
    for (const [table, count] of Object.entries(manifest.database.rowCounts)) {
      if (counts[table] !== count) {
        problems.push(`${DATABASE_NAME}: table ${table} has ${counts[table] ?? "no"} rows, the manifest says ${count}`);
      }
    }
    for (const table of Object.keys(counts)) {
      if (!(table in manifest.database.rowCounts))
        problems.push(`${DATABASE_NAME}: table ${table} is not in the manifest`);
    }
    const present = new Set(files.map((file) => file.path));
    const orders = db.prepare("SELECT order_number, receipt_path FROM orders WHERE receipt_path IS NOT NULL").all() as {
      order_number: string;
      receipt_path: string;
    }[];
    const missing = orders.filter((order) => !present.has(`private/${order.receipt_path}`));
    if (missing.length > 0) {
      const some = missing.slice(0, 5).map((order) => `${order.order_number} (${order.receipt_path})`);
      problems.push(
        `${missing.length} orders have no receipt file in the backup: ${some.join(", ")}${missing.length > 5 ? ", …" : ""}`,
      );
    }
  } catch (error) {
    problems.push(`${DATABASE_NAME} cannot be read: ${message(error)}`);
  } finally {
    db.close();
  }
  return problems;
}

function integrityOf(db: SQLite.Database): string {
  const rows = db.prepare("PRAGMA integrity_check").pluck().all() as string[];
  return rows.length === 1 && rows[0] === "ok" ? "ok" : rows.slice(0, 5).join("; ");
}

function rowCounts(db: SQLite.Database): Record<string, number> {
  const tables = db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    counts[table] = db
      .prepare(`SELECT count(*) FROM "${table.replaceAll('"', '""')}"`)
      .pluck()
      .get() as number;
  }
  return counts;
}

/** The manifest of a folder holding shop.db and the given upload files. */
async function describe(
  dir: string,
  input: { kind: Manifest["kind"]; createdAt: string; source: Manifest["source"]; files: FileEntry[] },
): Promise<Manifest> {
  const databaseFile = path.join(dir, DATABASE_NAME);
  const db = new SQLite(databaseFile, { readonly: true, fileMustExist: true });
  let integrity: string | undefined;
  let counts: Record<string, number> = {};
  let schema: string | null = null;
  let receipts = 0;
  try {
    integrity = integrityOf(db);
    counts = rowCounts(db);
    schema = db.prepare("SELECT max(name) FROM kysely_migration").pluck().get() as string | null;
    receipts = db.prepare("SELECT count(*) FROM orders WHERE receipt_path IS NOT NULL").pluck().get() as number;
  } catch (error) {
    integrity ??= `unreadable: ${message(error)}`;
  } finally {
    db.close();
  }
  integrity ??= "unreadable";
  const pkg = readPackage();
  return {
    format: FORMAT,
    kind: input.kind,
    createdAt: input.createdAt,
    finishedAt: new Date().toISOString(),
    shop: { name: pkg.name, version: pkg.version, schema },
    source: input.source,
    database: {
      file: DATABASE_NAME,
      bytes: fs.statSync(databaseFile).size,
      sha256: await sha256File(databaseFile),
      integrity,
      rowCounts: counts,
    },
    uploads: { folder: UPLOADS_NAME, files: input.files },
    receipts: { orders: receipts },
  };
}

function readPackage(): { name: string; version: string | null } {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(process.cwd(), "package.json"), "utf8")) as {
      name?: string;
      version?: string;
    };
    return { name: pkg.name ?? "airsoft-shop", version: pkg.version ?? null };
  } catch {
    return { name: "airsoft-shop", version: null };
  }
}

async function writeManifest(dir: string, manifest: Manifest): Promise<void> {
  const file = path.join(dir, MANIFEST);
  await fsp.writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`);
  await fsyncFile(file);
}

/* ------------------------------------------------------------------------------------------
 * Restore
 * ------------------------------------------------------------------------------------------ */

export interface RestoreOptions {
  backupDir: string;
  databaseFile: string;
  uploadsDir: string;
  /** Where the `pre-restore-<time>` folder goes. */
  preRestoreParent: string;
  now?: Date;
  log?: (line: string) => void;
}

/**
 * Verifies the backup, refuses while the database is open elsewhere (a running shop), then puts
 * the backup's database and uploads in place. Returns the folder holding what was replaced
 * (null when there was nothing to replace).
 */
export async function restoreBackup(
  options: RestoreOptions,
): Promise<{ preRestore: string | null; manifest: Manifest }> {
  const log = options.log ?? (() => {});
  const backupDir = path.resolve(options.backupDir);
  const databaseFile = path.resolve(options.databaseFile);
  const uploadsDir = path.resolve(options.uploadsDir);
  if (isInside(backupDir, uploadsDir)) {
    throw new BackupError(
      [`the backup ${backupDir} is inside the uploads folder it would replace`],
      refusal(backupDir),
    );
  }
  const manifest = await verifyBackup(backupDir);
  log(`backup verified: taken ${manifest.createdAt}, ${manifest.uploads.files.length} upload files`);
  const hadDatabase = fs.existsSync(databaseFile);
  if (hadDatabase) assertNotInUse(databaseFile);

  const time = stamp(options.now ?? new Date());
  const stagedDatabase = `${databaseFile}.restore-${time}.tmp`;
  const stagedUploads = `${uploadsDir}.restore-${time}.tmp`;
  await fsp.mkdir(path.dirname(databaseFile), { recursive: true });
  try {
    // Staged beside their final places (same file system), so the swap below is two renames.
    await copyVerified(path.join(backupDir, DATABASE_NAME), stagedDatabase, manifest.database.sha256);
    await fsp.mkdir(stagedUploads, { recursive: true });
    for (const entry of manifest.uploads.files) {
      await copyVerified(
        path.join(backupDir, manifest.uploads.folder, entry.path),
        path.join(stagedUploads, entry.path),
        entry.sha256,
      );
    }
  } catch (error) {
    await fsp.rm(stagedDatabase, { force: true });
    await fsp.rm(stagedUploads, { recursive: true, force: true });
    throw error;
  }

  let preRestore: string | null = null;
  const hadUploads = fs.existsSync(uploadsDir);
  const strays = ["-wal", "-shm", "-journal"].map((suffix) => `${databaseFile}${suffix}`).filter(fs.existsSync);
  if (hadDatabase || hadUploads || strays.length > 0) {
    preRestore = path.join(options.preRestoreParent, `pre-restore-${time}`);
    await fsp.mkdir(preRestore, { recursive: true });
    const walFolded = hadDatabase && foldWal(databaseFile);
    if (hadDatabase) await move(databaseFile, path.join(preRestore, DATABASE_NAME));
    for (const stray of strays) {
      if (!fs.existsSync(stray)) continue;
      // A -wal left beside the restored file would be replayed into it: never leave one there.
      if (walFolded) await fsp.rm(stray, { force: true });
      else await move(stray, path.join(preRestore, `${DATABASE_NAME}${stray.slice(databaseFile.length)}`));
    }
    if (hadUploads) await move(uploadsDir, path.join(preRestore, UPLOADS_NAME));
  }
  await fsp.rename(stagedDatabase, databaseFile);
  await fsp.rename(stagedUploads, uploadsDir);
  await fsyncDir(path.dirname(databaseFile));
  await fsyncDir(path.dirname(uploadsDir));
  log(`restored ${databaseFile} and ${uploadsDir}`);

  if (preRestore) {
    // The replaced data as a backup of its own, so `npm run restore -- <pre-restore>` undoes this.
    const files = fs.existsSync(path.join(preRestore, UPLOADS_NAME))
      ? await listTree(path.join(preRestore, UPLOADS_NAME))
      : [];
    if (fs.existsSync(path.join(preRestore, DATABASE_NAME))) {
      try {
        const kept = await describe(preRestore, {
          kind: "pre-restore",
          createdAt: new Date().toISOString(),
          source: { database: databaseFile, uploads: uploadsDir },
          files,
        });
        await writeManifest(preRestore, kept);
      } catch (error) {
        log(`the replaced data is in ${preRestore}, but it could not be described (${message(error)})`);
      }
    }
  }
  return { preRestore, manifest };
}

/**
 * Refuses when another connection has the database open. Every connection of a running shop
 * holds a shared lock on the file for its whole life (WAL mode), so an exclusive lock attempt
 * that does not wait fails while any shop (or other reader) is up.
 */
export function assertNotInUse(databaseFile: string): void {
  let db: SQLite.Database | undefined;
  try {
    db = new SQLite(databaseFile, { fileMustExist: true, timeout: 0 });
    db.pragma("locking_mode = EXCLUSIVE");
    db.exec("BEGIN EXCLUSIVE");
    db.exec("COMMIT");
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith("SQLITE_BUSY")) {
      throw new BackupError(
        [`${databaseFile} is open in another process (is the shop running?). Stop the shop first.`],
        "Restore refused; nothing was changed",
      );
    }
    // A damaged file is a reason to restore, not a reason to refuse.
  } finally {
    db?.close();
  }
}

/** Writes the old database's WAL into it, so the file alone holds all its data. */
function foldWal(databaseFile: string): boolean {
  let db: SQLite.Database | undefined;
  try {
    db = new SQLite(databaseFile, { fileMustExist: true, timeout: 0 });
    const [result] = db.pragma("wal_checkpoint(TRUNCATE)") as { busy: number }[];
    return result?.busy === 0;
  } catch {
    return false;
  } finally {
    try {
      db?.close();
    } catch {
      // closing a damaged database: its files are moved aside as they are
    }
  }
}

/* ------------------------------------------------------------------------------------------
 * The commands
 * ------------------------------------------------------------------------------------------ */

function assertSqlite(config: Config, what: string): string {
  // One line each: this command handles one SQLite file and one folder; PostgreSQL and a bucket
  // are backed up with their own tools, as docs/scaling.md explains.
  if (/^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    throw new Error(
      `DATABASE_URL points at PostgreSQL: ${what} handles only the SQLite file; back up and restore PostgreSQL with pg_dump / pg_restore as docs/scaling.md explains.`,
    );
  }
  if (config.storage.kind === "s3") {
    throw new Error(
      `STORAGE_URL points at the bucket ${config.storage.bucket}: ${what} handles only a disk folder; protect the bucket with versioning or a bucket copy as docs/scaling.md explains.`,
    );
  }
  const file = sqliteFile(config.databaseUrl);
  if (file === ":memory:") throw new Error("DATABASE_URL is an in-memory database: there is nothing to back up.");
  return path.resolve(file);
}

/** `npm run backup [-- --to <folder>]` */
export async function backupCommand(args: string[]): Promise<void> {
  const { values } = parseCommandLine(args, {
    usage: "npm run backup [-- --to <folder>]",
    options: { to: { type: "string" } },
  });
  const { to } = values;
  const config = loadConfig();
  const databaseFile = assertSqlite(config, "npm run backup");
  const parentDir = path.resolve(to || path.join(config.dataDir, "backups"));
  const { dir, manifest } = await createBackup({
    databaseFile,
    uploadsDir: config.uploadsDir,
    parentDir,
    log: (line) => console.info(line),
  });
  const rows = Object.values(manifest.database.rowCounts).reduce((sum, n) => sum + n, 0);
  console.info(
    `verified: integrity ok, ${rows} rows in ${Object.keys(manifest.database.rowCounts).length} tables, ${manifest.receipts.orders} receipts present`,
  );
  console.info(`Backup written to ${dir}`);
}

/** `npm run restore -- <backup folder>` */
export async function restoreCommand(args: string[]): Promise<void> {
  const usage = "npm run restore -- <backup folder>   (stop the shop first)";
  const { positionals } = parseCommandLine(args, { usage, options: {}, positionals: { min: 0, max: 1 } });
  const backupDir = positionals[0];
  if (!backupDir) throw new UsageError("The backup folder is missing", usage);
  const config = loadConfig();
  const databaseFile = assertSqlite(config, "npm run restore");
  const { preRestore, manifest } = await restoreBackup({
    backupDir,
    databaseFile,
    uploadsDir: config.uploadsDir,
    preRestoreParent: path.join(config.dataDir, "backups"),
    log: (line) => console.info(line),
  });
  console.info(`Restored the backup taken ${manifest.createdAt}.`);
  if (preRestore)
    console.info(`The data it replaced is in ${preRestore} (npm run restore -- ${preRestore} undoes this).`);
}

/* ------------------------------------------------------------------------------------------
 * Files
 * ------------------------------------------------------------------------------------------ */

/**
 * Copies every regular file under `from` to `to`, returning each with its size and SHA-256 (of
 * the bytes written). Half-written `.tmp` files are skipped; a file deleted while we walk is
 * simply not copied.
 */
async function copyTree(from: string, to: string): Promise<FileEntry[]> {
  const entries: FileEntry[] = [];
  await fsp.mkdir(to, { recursive: true });
  for (const relative of await walk(from)) {
    let data: Buffer;
    try {
      data = await fsp.readFile(path.join(from, relative));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw error;
    }
    await writeDurably(path.join(to, relative), data);
    entries.push({ path: relative.split(path.sep).join("/"), bytes: data.length, sha256: sha256(data) });
  }
  return entries;
}

async function listTree(root: string): Promise<FileEntry[]> {
  const entries: FileEntry[] = [];
  for (const relative of await walk(root)) {
    const data = await fsp.readFile(path.join(root, relative));
    entries.push({ path: relative.split(path.sep).join("/"), bytes: data.length, sha256: sha256(data) });
  }
  return entries;
}

async function walk(root: string, relative = ""): Promise<string[]> {
  let dirents: fs.Dirent[];
  try {
    dirents = await fsp.readdir(path.join(root, relative), { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const found: string[] = [];
  for (const dirent of dirents.sort((a, b) => a.name.localeCompare(b.name))) {
    const child = path.join(relative, dirent.name);
    if (dirent.isDirectory()) found.push(...(await walk(root, child)));
    else if (dirent.isFile() && !dirent.name.endsWith(".tmp")) found.push(child);
  }
  return found;
}

async function copyVerified(from: string, to: string, expected: string): Promise<void> {
  const data = await fsp.readFile(from);
  if (sha256(data) !== expected) throw new BackupError([`${from} changed while it was being restored`]);
  await writeDurably(to, data);
}

async function writeDurably(file: string, data: Buffer): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const handle = await fsp.open(file, "wx");
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Rename, or copy then delete when `to` is on another file system. */
async function move(from: string, to: string): Promise<void> {
  await fsp.mkdir(path.dirname(to), { recursive: true });
  try {
    await fsp.rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    await fsp.cp(from, to, { recursive: true, errorOnExist: true, force: false });
    await fsp.rm(from, { recursive: true, force: true });
  }
}

async function fsyncFile(file: string): Promise<void> {
  const handle = await fsp.open(file, "r+");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function fsyncDir(dir: string): Promise<void> {
  try {
    const handle = await fsp.open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // not every platform can fsync a folder; the renames are still atomic
  }
}

function sha256(data: Buffer): string {
  return crypto.createHash("sha256").update(data).digest("hex");
}

async function sha256File(file: string): Promise<string> {
  const hash = crypto.createHash("sha256");
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

function isSafeRelative(relative: string): boolean {
  return (
    typeof relative === "string" &&
    relative.length > 0 &&
    !path.isAbsolute(relative) &&
    !relative.includes("\\") &&
    relative.split("/").every((part) => part !== "" && part !== "." && part !== "..")
  );
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** 2026-10-01T12:00:00.123Z as 20261001-120000-123Z: sortable and safe in a file name. */
function stamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, "").replace("T", "-").replace(".", "-");
}

function formatBytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
