import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeEach, onTestFinished } from "vitest";
import { type DB, migrateToLatest, openDatabase } from "#db/connect.server";
import { requestInfoContext, type Services, servicesContext } from "~/context";
import { type Config, loadConfig } from "~/lib/config.server";
import { MemoryMailer } from "~/lib/mail.server";
import { MemoryStorage } from "~/lib/storage.server";

let template: Promise<string> | undefined;

/**
 * One migrated SQLite file per worker process, made on first use; every test database is a
 * copy of it (a file copy instead of running every migration again). Removed when the worker exits.
 */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-template-"));
    process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, "template.db");
    const db = openDatabase(`file:${file}`);
    await migrateToLatest(db);
    // Closing the last connection checkpoints the WAL: the one file holds the whole database.
    await db.destroy();
    return file;
  })();
  return template;
}

/** A copy of the migrated template in a new folder; `close` closes it and removes the folder. */
async function openTestDb(): Promise<{ db: DB; dir: string; close: () => Promise<void> }> {
  const source = await migratedTemplate();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-"));
  fs.copyFileSync(source, path.join(dir, "test.db"));
  const db = openDatabase(`file:${path.join(dir, "test.db")}`);
  const close = async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { db, dir, close };
}

/**
 * A real, freshly migrated SQLite file for one test file (no database mocks). The folder is
 * removed when the file's tests end.
 */
export async function createTestDb(): Promise<{ db: DB; dir: string }> {
  const { db, dir, close } = await openTestDb();
  afterAll(close);
  return { db, dir };
}

/**
 * A new database for the current test, closed and removed when the test finishes: call it in a
 * `beforeEach` (or see `useFreshDb`) so tests share no rows and lean on no counters.
 */
export async function freshTestDb(): Promise<{ db: DB; dir: string }> {
  const { db, dir, close } = await openTestDb();
  onTestFinished(close);
  return { db, dir };
}

/** Gives every test of the file (or describe block) a new database: read `fresh.db` inside the tests. */
export function useFreshDb(): { readonly db: DB; readonly dir: string } {
  const current: { db?: DB; dir?: string } = {};
  beforeEach(async () => {
    Object.assign(current, await freshTestDb());
  });
  return {
    get db() {
      if (!current.db) throw new Error("useFreshDb: the database exists only inside a test");
      return current.db;
    },
    get dir() {
      if (!current.dir) throw new Error("useFreshDb: the database exists only inside a test");
      return current.dir;
    },
  };
}

export interface TestServices extends Services {
  storage: MemoryStorage;
  mailer: MemoryMailer;
}

function servicesOn(db: DB, dir: string, overrides: Partial<Config>): TestServices {
  const config: Config = {
    ...loadConfig({
      DATA_DIR: dir,
      UPLOADS_DIR: path.join(dir, "uploads"),
      SESSION_SECRET: "test-secret-0123456789abcdef0123456789",
    }),
    ...overrides,
  };
  return { db, config, storage: new MemoryStorage(), mailer: new MemoryMailer(), adminSetup: { token: null } };
}

/** Test services on a database for the whole test file. */
export async function createTestServices(overrides: Partial<Config> = {}): Promise<TestServices> {
  const { db, dir } = await createTestDb();
  return servicesOn(db, dir, overrides);
}

/** Test services on a new database for the current test (call in a `beforeEach` or a test). */
export async function freshTestServices(overrides: Partial<Config> = {}): Promise<TestServices> {
  const { db, dir } = await freshTestDb();
  return servicesOn(db, dir, overrides);
}

/** The request context a loader or action gets, built from test services. */
export function createTestContext(svc: Services, info: { ip?: string; proxyCountry?: string } = {}) {
  const context = new RouterContextProvider();
  context.set(servicesContext, svc);
  context.set(requestInfoContext, { nonce: "test", ip: info.ip ?? null, proxyCountry: info.proxyCountry ?? null });
  return context;
}
