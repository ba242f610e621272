import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { RouterContextProvider } from "react-router";
import { afterAll, inject, onTestFinished } from "vitest";
import { type DB, migrateToLatest, openDatabase } from "#db/connect.server";
import { requestInfoContext, type Services, servicesContext } from "~/context";
import { type Config, loadConfig } from "~/lib/config.server";
import { MemoryMailer } from "~/lib/mail.server";
import { MemoryStorage } from "~/lib/storage.server";
import { runStatement } from "./postgres";

let template: Promise<string> | undefined;

/** The migrations and the code that runs them: a change to either makes a new template. */
function migrationsHash(): string {
  const root = path.resolve(import.meta.dirname, "../../db");
  const hash = crypto.createHash("sha256");
  const files = ["connect.server.ts", ...fs.readdirSync(path.join(root, "migrations")).map((f) => `migrations/${f}`)];
  for (const file of files.sort()) hash.update(file).update(fs.readFileSync(path.join(root, file)));
  return hash.digest("hex").slice(0, 16);
}

/**
 * One migrated SQLite file for the current migrations, made by the first worker that needs it
 * (written aside, then renamed into place, so a worker never sees half a file) and kept in the
 * temp folder for later runs; every test database is a copy of it instead of migrating again.
 */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const file = path.join(os.tmpdir(), `shop-test-template-${migrationsHash()}.db`);
    if (fs.existsSync(file)) return file;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-template-"));
    try {
      const db = openDatabase(`file:${path.join(dir, "template.db")}`);
      await migrateToLatest(db);
      // Closing the last connection checkpoints the WAL: the one file holds the whole database.
      await db.destroy();
      fs.renameSync(path.join(dir, "template.db"), file);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    return file;
  })();
  return template;
}

/**
 * Which database the tests of this run use: SQLite files by default; PostgreSQL in the
 * `postgres` project of vitest.config.ts, whose global set-up (tests/setup/postgres-global.ts)
 * starts a throwaway cluster with a migrated template database.
 */
const onPostgres = process.env.SHOP_TEST_DATABASE === "postgres";

/** A new PostgreSQL database copied from the migrated template; `drop` removes it. */
async function createPostgresDb(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject("postgresAdminUrl");
  const name = `shop_test_${crypto.randomBytes(6).toString("hex")}`;
  const admin = (statement: string) => runStatement(adminUrl, statement);
  await admin(`CREATE DATABASE ${name} TEMPLATE shop_template STRATEGY file_copy`);
  return {
    url: adminUrl.replace(/\/postgres$/, `/${name}`),
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/**
 * A copy of the migrated template (a SQLite file in a new folder, or a PostgreSQL database from
 * the template) with a folder for files; `close` closes it and removes both.
 */
async function openTestDb(): Promise<{ db: DB; dir: string; url: string; close: () => Promise<void> }> {
  if (onPostgres) {
    const { url, drop } = await createPostgresDb();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-"));
    const db = openDatabase(url);
    return {
      db,
      dir,
      url,
      close: async () => {
        await db.destroy();
        await drop();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const source = await migratedTemplate();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-"));
  fs.copyFileSync(source, path.join(dir, "test.db"));
  const url = `file:${path.join(dir, "test.db")}`;
  const db = openDatabase(url);
  const close = async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { db, dir, url, close };
}

/**
 * A real, freshly migrated database (SQLite, or PostgreSQL in the `postgres` project) for one
 * test file (no database mocks), with a folder for files; both removed when the file's tests end.
 */
export async function createTestDb(): Promise<{ db: DB; dir: string; url: string }> {
  const { close, ...opened } = await openTestDb();
  afterAll(close);
  return opened;
}

/**
 * A new database for the current test, closed and removed when the test finishes. In a file whose
 * tests should share no rows: `let db: DB; beforeEach(async () => { ({ db } = await freshTestDb()); });`
 */
export async function freshTestDb(): Promise<{ db: DB; dir: string; url: string }> {
  const { close, ...opened } = await openTestDb();
  onTestFinished(close);
  return opened;
}

export interface TestServices extends Services {
  storage: MemoryStorage;
  mailer: MemoryMailer;
}

function servicesOn({ db, dir, url }: { db: DB; dir: string; url: string }, overrides: Partial<Config>): TestServices {
  const config: Config = {
    ...loadConfig({
      DATABASE_URL: url,
      DATA_DIR: dir,
      UPLOADS_DIR: path.join(dir, "uploads"),
      SESSION_SECRET: "test-secret-0123456789abcdef0123456789",
    }),
    ...overrides,
  };
  return { db, config, storage: new MemoryStorage(), mailer: new MemoryMailer() };
}

/** Test services on a database for the whole test file. */
export async function createTestServices(overrides: Partial<Config> = {}): Promise<TestServices> {
  return servicesOn(await createTestDb(), overrides);
}

/** Test services on a new database for the current test (call in a `beforeEach` or a test). */
export async function freshTestServices(overrides: Partial<Config> = {}): Promise<TestServices> {
  return servicesOn(await freshTestDb(), overrides);
}

/** The request context a loader or action gets, built from test services. */
export function createTestContext(svc: Services, info: { ip?: string; proxyCountry?: string } = {}) {
  const context = new RouterContextProvider();
  context.set(servicesContext, svc);
  context.set(requestInfoContext, { nonce: "test", ip: info.ip ?? null, proxyCountry: info.proxyCountry ?? null });
  return context;
}
