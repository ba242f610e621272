import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { runLoad } from "../../scripts/soak.mjs";
import { apiOrders } from "../e2e/fixtures";
import {
  newShopFiles,
  openDatabase,
  ROOT,
  removeFiles,
  runs,
  type Shop,
  type ShopFiles,
  shopEnv,
  startShop,
} from "./shop";

/**
 * `npm run backup` while shoppers keep placing orders with receipts, then `npm run restore` into
 * new, empty files: the restored shop is intact, has the row counts of the manifest, and a
 * customer whose order was confirmed before the backup started signs in and finds the order and
 * its receipt. A damaged backup (a flipped byte, a deleted receipt) is refused and changes
 * nothing; a restore while the shop runs is refused.
 */

const run = promisify(execFile);

interface Manifest {
  createdAt: string;
  database: { rowCounts: Record<string, number> };
  uploads: { files: { path: string }[] };
}

interface Confirmed {
  email: string;
  password: string;
  orderNumber: string;
  confirmedAt: number;
}

/** The shop's CLI on `files` (the real command, as `npm run backup` runs it). */
async function cli(files: ShopFiles, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["bin/shop.mjs", ...args], {
      cwd: ROOT,
      env: shopEnv(files),
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === "number" ? failed.code : 1,
      stdout: failed.stdout ?? "",
      stderr: failed.stderr ?? "",
    };
  }
}

function sha256(file: string): string {
  return crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

function rowCounts(files: ShopFiles): Record<string, number> {
  const db = openDatabase(files);
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .pluck()
      .all() as string[];
    return Object.fromEntries(
      tables.map((t) => [t, db.prepare(`SELECT count(*) FROM "${t}"`).pluck().get() as number]),
    );
  } finally {
    db.close();
  }
}

function integrity(files: ShopFiles): string {
  const db = openDatabase(files);
  try {
    return (db.prepare("PRAGMA integrity_check").pluck().all() as string[]).join("; ");
  } finally {
    db.close();
  }
}

let source: ShopFiles;
let restored: ShopFiles;
const shops: Shop[] = [];
let backupDir = "";
let manifest: Manifest;
let before: Confirmed[] = [];

// Made here, not at the top: Playwright loads this file in more than one process.
test.beforeAll(() => {
  source = newShopFiles("backup-source");
  restored = newShopFiles("backup-restored");
});

test.afterAll(async () => {
  for (const shop of shops) await shop.stop();
  if (source) removeFiles(source);
  if (restored) removeFiles(restored);
});

test("a backup taken while shoppers buy restores into new files, intact and complete", async ({ playwright }) => {
  test.setTimeout(runs(120_000, 300_000));
  const shop = await startShop({ files: source });
  shops.push(shop);

  const confirmed: Confirmed[] = [];
  let backupStarted = 0;
  let backupFinished = 0;
  const stopLoad = new AbortController();
  const load = runLoad({
    baseURL: shop.baseURL,
    databaseFile: source.databaseFile,
    pid: shop.child.pid,
    shoppers: runs(6, 20),
    durationMs: 90_000,
    sampleEveryMs: 60_000,
    onOrder: (order: Confirmed) => confirmed.push(order),
    signal: stopLoad.signal,
  });

  // In the middle of the load: once some orders are confirmed, while more are being placed.
  try {
    await expect.poll(() => confirmed.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(runs(3, 10));
    backupStarted = Date.now();
    before = confirmed.filter((order) => order.confirmedAt < backupStarted);
    const backup = await cli(source, ["backup", "--to", path.join(source.dir, "backups")]);
    backupFinished = Date.now();
    expect(backup.code, `npm run backup:\n${backup.stdout}\n${backup.stderr}`).toBe(0);
    backupDir = /Backup written to (.+)$/m.exec(backup.stdout)?.[1]?.trim() ?? "";
    expect(fs.existsSync(path.join(backupDir, "manifest.json"))).toBe(true);
    manifest = JSON.parse(fs.readFileSync(path.join(backupDir, "manifest.json"), "utf8")) as Manifest;
    console.info(backup.stdout.trim());
  } finally {
    // A little more buying after the backup: orders the restored shop need not have.
    setTimeout(() => stopLoad.abort(), runs(1_000, 5_000));
  }
  const { stats } = await load;
  expect(stats.serverErrors, shop.stderr().slice(-3000)).toEqual([]);
  expect(stats.failures).toEqual([]);
  const during = confirmed.filter((o) => o.confirmedAt >= backupStarted && o.confirmedAt <= backupFinished);
  console.info(
    `${before.length} orders confirmed before the backup, ${during.length} while it ran, ${confirmed.length} in all`,
  );
  await shop.stop();

  const restore = await cli(restored, ["restore", backupDir]);
  expect(restore.code, `npm run restore:\n${restore.stdout}\n${restore.stderr}`).toBe(0);
  expect(integrity(restored)).toBe("ok");
  expect(rowCounts(restored)).toEqual(manifest.database.rowCounts);
  // Every order confirmed to a shopper before the backup started is in it (a plain file copy
  // of a WAL database misses the commits still in the WAL).
  const db = openDatabase(restored);
  try {
    const numbers = new Set(db.prepare("SELECT order_number FROM orders").pluck().all() as string[]);
    expect(before.filter((order) => !numbers.has(order.orderNumber)).map((o) => o.orderNumber)).toEqual([]);
  } finally {
    db.close();
  }
  expect(fs.existsSync(`${restored.databaseFile}-wal`)).toBe(false);

  const again = await startShop({ files: restored });
  shops.push(again);
  const customer = before[Math.floor(Math.random() * before.length)] as Confirmed;
  const request = await playwright.request.newContext({ baseURL: again.baseURL });
  try {
    const signIn = await request.post("/login", {
      form: { intent: "login", email: customer.email, password: customer.password, redirectTo: "/" },
      maxRedirects: 0,
    });
    expect(signIn.status(), `sign-in of ${customer.email} on the restored shop`).toBe(302);
    const order = (await apiOrders(request)).find((o) => o.number === customer.orderNumber);
    expect(order, `${customer.orderNumber} in the customer's orders`).toBeTruthy();
    const receipt = await request.get(`/account/orders/${order?.id}/receipt`);
    expect(receipt.status()).toBe(200);
    expect(receipt.headers()["content-type"]).toMatch(/^image\//);
    expect((await receipt.body()).length).toBeGreaterThan(100);
  } finally {
    await request.dispose();
  }
  expect(again.stderr()).not.toMatch(/SQLITE_CORRUPT|malformed/);
});

test("a damaged backup is refused and changes nothing; so is a restore while the shop runs", async () => {
  test.setTimeout(120_000);
  test.skip(!backupDir, "needs the backup of the first test");
  const running = shops.at(-1);
  expect(running?.child.exitCode, "the restored shop is still running").toBeNull();

  const busy = await cli(restored, ["restore", backupDir]);
  expect(busy.code).not.toBe(0);
  expect(busy.stderr).toMatch(/is open in another process \(is the shop running\?\)/);
  await running?.stop();

  const databaseBefore = sha256(restored.databaseFile);
  const listing = () => fs.readdirSync(restored.dir, { recursive: true }).map(String).sort();
  const filesBefore = listing();

  const flipped = path.join(source.dir, "damaged-db");
  fs.cpSync(backupDir, flipped, { recursive: true });
  const db = path.join(flipped, "shop.db");
  const bytes = fs.readFileSync(db);
  const at = Math.floor(bytes.length / 2);
  bytes[at] = (bytes[at] ?? 0) ^ 0xff;
  fs.writeFileSync(db, bytes);
  const refusedDb = await cli(restored, ["restore", flipped]);
  expect(refusedDb.code).not.toBe(0);
  expect(refusedDb.stderr).toMatch(/damaged or incomplete; nothing was changed/);
  expect(refusedDb.stderr).toMatch(/shop\.db: its SHA-256 is not the one in the manifest/);

  const noReceipt = path.join(source.dir, "damaged-receipt");
  fs.cpSync(backupDir, noReceipt, { recursive: true });
  // A receipt an order in the backup points at: the backup may also hold the file of a payment
  // that was still being placed (stored before its order commits), which no order names yet.
  const backupDb = new Database(path.join(backupDir, "shop.db"), { readonly: true, fileMustExist: true });
  const receiptPath = (() => {
    try {
      return backupDb.prepare("SELECT receipt_path FROM orders WHERE receipt_path IS NOT NULL LIMIT 1").pluck().get();
    } finally {
      backupDb.close();
    }
  })() as string | undefined;
  const receipt = manifest.uploads.files.find((file) => file.path === `private/${receiptPath}`);
  expect(receipt, `the file of ${receiptPath} in the manifest`).toBeTruthy();
  fs.rmSync(path.join(noReceipt, "uploads", receipt?.path ?? ""));
  const refusedReceipt = await cli(restored, ["restore", noReceipt]);
  expect(refusedReceipt.code).not.toBe(0);
  expect(refusedReceipt.stderr).toMatch(/missing/);
  expect(refusedReceipt.stderr).toMatch(/orders have no receipt file in the backup/);

  expect(sha256(restored.databaseFile)).toBe(databaseBefore);
  expect(listing()).toEqual(filesBefore);
});
