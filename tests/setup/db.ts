import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { RouterContextProvider } from "react-router";
import { afterAll } from "vitest";
import { type DB, migrateToLatest, openDatabase } from "#db/connect.server";
import { requestInfoContext, type Services, servicesContext } from "~/context";
import { type Config, loadConfig } from "~/lib/config.server";
import { MemoryMailer } from "~/lib/mail.server";
import { MemoryStorage } from "~/lib/storage.server";

/**
 * A real, freshly migrated SQLite file for one test file (no database mocks). The folder is
 * removed when the file's tests end.
 */
export async function createTestDb(): Promise<{ db: DB; dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-"));
  const db = openDatabase(`file:${path.join(dir, "test.db")}`);
  await migrateToLatest(db);
  afterAll(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { db, dir };
}

export interface TestServices extends Services {
  storage: MemoryStorage;
  mailer: MemoryMailer;
}

export async function createTestServices(overrides: Partial<Config> = {}): Promise<TestServices> {
  const { db, dir } = await createTestDb();
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

/** The request context a loader or action gets, built from test services. */
export function createTestContext(svc: Services, info: { ip?: string; proxyCountry?: string } = {}) {
  const context = new RouterContextProvider();
  context.set(servicesContext, svc);
  context.set(requestInfoContext, { nonce: "test", ip: info.ip ?? null, proxyCountry: info.proxyCountry ?? null });
  return context;
}
