import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { RouterContextProvider } from "react-router";
import { afterAll, onTestFinished } from "vitest";
import { type DB, migrateToLatest, openDatabase } from "#db/connect.server";
import { requestInfoContext, type Services, servicesContext } from "~/context";
import { type Config, loadConfig } from "~/lib/config.server";
import { MemoryMailer } from "~/lib/mail.server";
import { MemoryStorage } from "~/lib/storage.server";

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
 * A new database for the current test, closed and removed when the test finishes. In a file whose
 * tests should share no rows: `let db: DB; beforeEach(async () => { ({ db } = await freshTestDb()); });`
 */
export async function freshTestDb(): Promise<{ db: DB; dir: string }> {
  const { db, dir, close } = await openTestDb();
  onTestFinished(close);
  return { db, dir };
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
  return { db, config, storage: new MemoryStorage(), mailer: new MemoryMailer() };
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
