import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { backupCommand, restoreCommand } from "../server/backup";

/**
 * `npm run backup` and `npm run restore` handle one SQLite file and one disk folder. On
 * PostgreSQL or with a bucket they refuse, before touching anything, with one line that points
 * at docs/scaling.md (which explains pg_dump / pg_restore and bucket versioning).
 */

const root = fs.mkdtempSync(path.join(os.tmpdir(), "shop-backup-refusal-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(root, "data-"));
  vi.stubEnv("DATA_DIR", dataDir);
  vi.stubEnv("SESSION_SECRET", "test-secret-0123456789abcdef0123456789");
  vi.stubEnv("UPLOADS_DIR", path.join(dataDir, "uploads"));
});
afterEach(() => vi.unstubAllEnvs());

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected a refusal");
}

describe("backup and restore refuse what they cannot copy", () => {
  it("on PostgreSQL: one line naming pg_dump and docs/scaling.md, for backup and for restore, nothing written", async () => {
    vi.stubEnv("DATABASE_URL", "postgres://shop:secret@127.0.0.1:1/shop");
    vi.stubEnv("STORAGE_URL", "");
    const backup = await refusal(backupCommand([]));
    const restore = await refusal(restoreCommand([path.join(root, "no-such-backup")]));
    for (const [message, command] of [
      [backup, "npm run backup"],
      [restore, "npm run restore"],
    ]) {
      expect(message).toMatch(/^DATABASE_URL points at PostgreSQL: /);
      expect(message).toContain(command);
      expect(message).toContain("pg_dump");
      expect(message).toContain("docs/scaling.md");
      expect(message).not.toContain("\n");
      expect(message).not.toContain("secret"); // the URL's password is not repeated
    }
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it("with STORAGE_URL=s3://…: one line naming the bucket and docs/scaling.md, for backup and for restore", async () => {
    vi.stubEnv("DATABASE_URL", `file:${path.join(dataDir, "shop.db")}`);
    vi.stubEnv("STORAGE_URL", "s3://shop-files?endpoint=http%3A%2F%2F127.0.0.1%3A1&forcePathStyle=true");
    const backup = await refusal(backupCommand([]));
    const restore = await refusal(restoreCommand([path.join(root, "no-such-backup")]));
    for (const message of [backup, restore]) {
      expect(message).toMatch(/^STORAGE_URL points at the bucket shop-files: /);
      expect(message).toContain("docs/scaling.md");
      expect(message).not.toContain("\n");
    }
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});
