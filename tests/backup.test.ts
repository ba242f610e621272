import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { type DB, migrateToLatest, now, openDatabase } from "#db/connect.server";
import {
  BackupError,
  createBackup,
  DATABASE_NAME,
  MANIFEST,
  type Manifest,
  restoreBackup,
  verifyBackup,
} from "../server/backup";

/**
 * Backup and restore on real SQLite files and real folders (the CLI under load is in
 * tests/reliability/backup.spec.ts): a backup is refused when it is damaged, a restore brings
 * the data back, keeps what it replaced, and refuses while the database is in use.
 */

const root = fs.mkdtempSync(path.join(os.tmpdir(), "shop-backup-test-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

interface Place {
  dir: string;
  databaseFile: string;
  uploadsDir: string;
  backups: string;
}

function newPlace(name: string): Place {
  const dir = path.join(root, `${name}-${crypto.randomUUID().slice(0, 8)}`);
  fs.mkdirSync(dir, { recursive: true });
  return {
    dir,
    databaseFile: path.join(dir, "data", "shop.db"),
    uploadsDir: path.join(dir, "uploads"),
    backups: path.join(dir, "data", "backups"),
  };
}

async function shopWithOrders(place: Place, orders: number): Promise<DB> {
  const db = openDatabase(`file:${place.databaseFile}`);
  await migrateToLatest(db);
  for (let i = 0; i < orders; i++) await addOrder(db, place);
  return db;
}

/** An order and its receipt, written in the shop's order: the file first, then the row. */
async function addOrder(db: DB, place: Place, options: { receipt?: boolean } = {}): Promise<string> {
  const id = crypto.randomUUID();
  const receiptPath = `receipts/user-1/${id}.jpg`;
  if (options.receipt !== false) {
    const file = path.join(place.uploadsDir, "private", receiptPath);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(2000));
  }
  const timestamp = now();
  await db
    .insertInto("orders")
    .values({
      id,
      order_number: `ORD-${Date.now()}-${id.slice(0, 6).toUpperCase()}`,
      user_id: null,
      status: "pending_payment",
      currency: "HKD",
      locale: "en",
      subtotal_cents: 1000,
      shipping_cents: 0,
      total_cents: 1000,
      first_name: "Chan",
      last_name: "Tai Man",
      email: "chan@example.com",
      address: "1 Nathan Road",
      city: "Hong Kong",
      country: "Hong Kong",
      receipt_path: receiptPath,
      receipt_uploaded_at: timestamp,
      created_at: timestamp,
      updated_at: timestamp,
    })
    .execute();
  return id;
}

function orderCount(databaseFile: string): number {
  const db = new SQLite(databaseFile, { readonly: true });
  try {
    return db.prepare("SELECT count(*) FROM orders").pluck().get() as number;
  } finally {
    db.close();
  }
}

function problemsOf(error: unknown): string {
  expect(error).toBeInstanceOf(BackupError);
  return (error as BackupError).problems.join("\n");
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return problemsOf(error);
  }
  throw new Error("expected a refusal");
}

describe("backup", () => {
  it("snapshots an open database and the uploads, with a manifest that verifies", async () => {
    const place = newPlace("online");
    const db = await shopWithOrders(place, 3);
    fs.mkdirSync(path.join(place.uploadsDir, "public", "products"), { recursive: true });
    fs.writeFileSync(path.join(place.uploadsDir, "public", "products", "a.webp"), "image");
    fs.writeFileSync(path.join(place.uploadsDir, "public", "products", "b.webp.123.tmp"), "half");
    try {
      const { dir, manifest } = await createBackup({ ...place, parentDir: place.backups });
      expect(manifest.database.integrity).toBe("ok");
      expect(manifest.database.rowCounts.orders).toBe(3);
      expect(manifest.receipts.orders).toBe(3);
      expect(manifest.shop.schema).toMatch(/^\d{4}-/);
      const paths = manifest.uploads.files.map((file) => file.path);
      expect(paths).toContain("public/products/a.webp");
      expect(paths.filter((p) => p.startsWith("private/receipts/"))).toHaveLength(3);
      expect(paths.some((p) => p.endsWith(".tmp"))).toBe(false);
      const image = manifest.uploads.files.find((file) => file.path === "public/products/a.webp");
      expect(image?.sha256).toBe(crypto.createHash("sha256").update("image").digest("hex"));
      await expect(verifyBackup(dir)).resolves.toMatchObject({ createdAt: manifest.createdAt });
      expect(fs.readdirSync(place.backups)).toEqual([path.basename(dir)]);
    } finally {
      await db.destroy();
    }
  });

  it("is refused, and leaves nothing behind, when an order's receipt is missing", async () => {
    const place = newPlace("no-receipt");
    const db = await shopWithOrders(place, 2);
    await addOrder(db, place, { receipt: false });
    try {
      const problems = await refusal(createBackup({ ...place, parentDir: place.backups }));
      expect(problems).toMatch(/1 orders have no receipt file in the backup/);
      expect(fs.readdirSync(place.backups)).toEqual([]);
    } finally {
      await db.destroy();
    }
  });

  it("refuses to write into the uploads folder", async () => {
    const place = newPlace("inside");
    const db = await shopWithOrders(place, 1);
    try {
      const problems = await refusal(
        createBackup({ ...place, parentDir: path.join(place.uploadsDir, "private", "backups") }),
      );
      expect(problems).toMatch(/inside the uploads folder/);
    } finally {
      await db.destroy();
    }
  });
});

describe("verification of a backup", () => {
  async function freshBackup(): Promise<{ dir: string; manifest: Manifest }> {
    const place = newPlace("damage");
    const db = await shopWithOrders(place, 2);
    try {
      return await createBackup({ ...place, parentDir: place.backups });
    } finally {
      await db.destroy();
    }
  }

  it("finds a flipped byte in the database", async () => {
    const { dir } = await freshBackup();
    const file = path.join(dir, DATABASE_NAME);
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 100] = (bytes[bytes.length - 100] ?? 0) ^ 0xff;
    fs.writeFileSync(file, bytes);
    expect(await refusal(verifyBackup(dir))).toMatch(/shop\.db: its SHA-256 is not the one in the manifest/);
  });

  it("finds a damaged database even when the manifest's checksum was rewritten to match", async () => {
    const { dir, manifest } = await freshBackup();
    const file = path.join(dir, DATABASE_NAME);
    const db = new SQLite(file, { readonly: true });
    const number = db.prepare("SELECT order_number FROM orders LIMIT 1").pluck().get() as string;
    db.close();
    // One copy of an order number changed: the table and its unique index now disagree, which
    // only integrity_check sees (counts and queries still work).
    const bytes = fs.readFileSync(file);
    const at = bytes.lastIndexOf(Buffer.from(number));
    expect(at).toBeGreaterThan(0);
    bytes[at + number.length - 1] = number.endsWith("Z") ? 0x59 : 0x5a;
    fs.writeFileSync(file, bytes);
    manifest.database.sha256 = crypto.createHash("sha256").update(bytes).digest("hex");
    fs.writeFileSync(path.join(dir, MANIFEST), JSON.stringify(manifest));
    expect(await refusal(verifyBackup(dir))).toMatch(/PRAGMA integrity_check reports .*index/);
  });

  it("finds a deleted receipt and a changed image", async () => {
    const { dir, manifest } = await freshBackup();
    const receipt = manifest.uploads.files.find((file) => file.path.startsWith("private/"));
    fs.rmSync(path.join(dir, "uploads", receipt?.path ?? ""));
    const problems = await refusal(verifyBackup(dir));
    expect(problems).toMatch(new RegExp(`uploads/${receipt?.path}: missing`));
    expect(problems).toMatch(/1 orders have no receipt file in the backup/);
  });

  it("finds row counts that differ from the manifest", async () => {
    const { dir, manifest } = await freshBackup();
    manifest.database.rowCounts.orders = 5;
    fs.writeFileSync(path.join(dir, MANIFEST), JSON.stringify(manifest));
    expect(await refusal(verifyBackup(dir))).toMatch(/table orders has 2 rows, the manifest says 5/);
  });

  it("refuses a manifest that names a path outside the backup", async () => {
    const { dir, manifest } = await freshBackup();
    manifest.uploads.files.push({ path: "../../../etc/passwd", bytes: 1, sha256: "0" });
    fs.writeFileSync(path.join(dir, MANIFEST), JSON.stringify(manifest));
    expect(await refusal(verifyBackup(dir))).toMatch(/unsafe path/);
  });
});

describe("restore", () => {
  it("replaces the data, keeps the replaced data as a backup that undoes it", async () => {
    const source = newPlace("source");
    const sourceDb = await shopWithOrders(source, 4);
    const { dir } = await createBackup({ ...source, parentDir: source.backups });
    await sourceDb.destroy();

    const target = newPlace("target");
    const targetDb = await shopWithOrders(target, 1);
    await targetDb.destroy();
    const oldOrders = fs.readdirSync(path.join(target.uploadsDir, "private", "receipts", "user-1"));

    const { preRestore } = await restoreBackup({
      backupDir: dir,
      databaseFile: target.databaseFile,
      uploadsDir: target.uploadsDir,
      preRestoreParent: target.backups,
    });
    expect(orderCount(target.databaseFile)).toBe(4);
    expect(fs.readdirSync(path.join(target.uploadsDir, "private", "receipts", "user-1"))).toHaveLength(4);
    expect(preRestore).toMatch(/pre-restore-/);
    expect(fs.readdirSync(target.dir).filter((name) => name.includes("restore"))).toEqual([]);
    expect(fs.readdirSync(path.dirname(target.databaseFile)).filter((name) => name.endsWith(".tmp"))).toEqual([]);

    const kept = await verifyBackup(preRestore ?? "");
    expect(kept.kind).toBe("pre-restore");
    expect(kept.database.rowCounts.orders).toBe(1);
    await restoreBackup({
      backupDir: preRestore ?? "",
      databaseFile: target.databaseFile,
      uploadsDir: target.uploadsDir,
      preRestoreParent: target.backups,
    });
    expect(orderCount(target.databaseFile)).toBe(1);
    expect(fs.readdirSync(path.join(target.uploadsDir, "private", "receipts", "user-1"))).toEqual(oldOrders);
  });

  it("moves aside a -wal left without its database, which would be replayed into the restored file", async () => {
    const source = newPlace("source-wal");
    const sourceDb = await shopWithOrders(source, 3);
    const { dir } = await createBackup({ ...source, parentDir: source.backups });
    await sourceDb.destroy();

    // Another database's WAL full of committed, never checkpointed pages: a valid WAL, not ours.
    const writer = new SQLite(path.join(newPlace("other-wal").dir, "other.db"));
    writer.pragma("journal_mode = WAL");
    writer.pragma("wal_autocheckpoint = 0");
    writer.exec("CREATE TABLE junk (x)");
    const insert = writer.prepare("INSERT INTO junk VALUES (randomblob(3000))");
    for (let i = 0; i < 200; i++) insert.run();
    const target = newPlace("stale-wal");
    fs.mkdirSync(path.dirname(target.databaseFile), { recursive: true });
    fs.copyFileSync(`${writer.name}-wal`, `${target.databaseFile}-wal`);
    writer.close();

    const { preRestore } = await restoreBackup({
      backupDir: dir,
      databaseFile: target.databaseFile,
      uploadsDir: target.uploadsDir,
      preRestoreParent: target.backups,
    });
    const restored = new SQLite(target.databaseFile, { readonly: true });
    try {
      expect(restored.prepare("PRAGMA integrity_check").pluck().get()).toBe("ok");
      expect(restored.prepare("SELECT count(*) FROM orders").pluck().get()).toBe(3);
    } finally {
      restored.close();
    }
    expect(fs.existsSync(path.join(preRestore ?? "", "shop.db-wal"))).toBe(true);
  });

  it("restores into a place that has nothing yet", async () => {
    const source = newPlace("source-empty");
    const sourceDb = await shopWithOrders(source, 2);
    const { dir } = await createBackup({ ...source, parentDir: source.backups });
    await sourceDb.destroy();
    const target = newPlace("empty");
    const { preRestore } = await restoreBackup({
      backupDir: dir,
      databaseFile: target.databaseFile,
      uploadsDir: target.uploadsDir,
      preRestoreParent: target.backups,
    });
    expect(preRestore).toBeNull();
    expect(orderCount(target.databaseFile)).toBe(2);
  });

  it("refuses while the database is open in another process, and changes nothing", async () => {
    const source = newPlace("source-busy");
    const sourceDb = await shopWithOrders(source, 2);
    const { dir } = await createBackup({ ...source, parentDir: source.backups });
    await sourceDb.destroy();

    const target = newPlace("busy");
    const running = await shopWithOrders(target, 1);
    try {
      await running.selectFrom("orders").select("id").execute();
      const before = fs.readFileSync(target.databaseFile);
      const problems = await refusal(
        restoreBackup({
          backupDir: dir,
          databaseFile: target.databaseFile,
          uploadsDir: target.uploadsDir,
          preRestoreParent: target.backups,
        }),
      );
      expect(problems).toMatch(/is open in another process \(is the shop running\?\)/);
      expect(fs.readFileSync(target.databaseFile).equals(before)).toBe(true);
      expect(fs.existsSync(target.backups)).toBe(false);
      expect((await running.selectFrom("orders").select("id").execute()).length).toBe(1);
    } finally {
      await running.destroy();
    }
  });

  it("refuses a damaged backup and changes nothing", async () => {
    const source = newPlace("source-damaged");
    const sourceDb = await shopWithOrders(source, 2);
    const { dir, manifest } = await createBackup({ ...source, parentDir: source.backups });
    await sourceDb.destroy();
    const receipt = manifest.uploads.files.find((file) => file.path.startsWith("private/"));
    fs.appendFileSync(path.join(dir, "uploads", receipt?.path ?? ""), "x");

    const target = newPlace("untouched");
    const targetDb = await shopWithOrders(target, 1);
    await targetDb.destroy();
    const before = fs.readFileSync(target.databaseFile);
    const problems = await refusal(
      restoreBackup({
        backupDir: dir,
        databaseFile: target.databaseFile,
        uploadsDir: target.uploadsDir,
        preRestoreParent: target.backups,
      }),
    );
    expect(problems).toMatch(/size or SHA-256 differs from the manifest/);
    expect(fs.readFileSync(target.databaseFile).equals(before)).toBe(true);
    expect(fs.existsSync(target.backups)).toBe(false);
    expect(fs.readdirSync(target.dir).sort()).toEqual(["data", "uploads"]);
  });
});
