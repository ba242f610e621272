import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import {
  assertSafeKey,
  DiskStorage,
  generateKey,
  MemoryStorage,
  publicUrl,
  type Storage,
  type StorageArea,
} from "~/lib/storage.server";

const sandbox = fs.mkdtempSync(path.join(os.tmpdir(), "shop-storage-"));
afterAll(() => fs.rmSync(sandbox, { recursive: true, force: true }));

/** Every file (not folder) under `dir`, relative to it. */
function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

const UNSAFE_KEYS = [
  "../escape.webp",
  "../../escape.webp",
  "products/../../escape.webp",
  "products/../escape.webp",
  "..",
  "../",
  "./products/x.webp",
  "/etc/escape.webp",
  "/tmp/escape.webp",
  path.join(sandbox, "escape.webp"),
  "products/x\0.webp",
  "x.webp\0.png",
  "products\\x.webp",
  "..\\escape.webp",
  "products\\..\\..\\escape.webp",
  "C:\\escape.webp",
  "escape.exe",
  "escape.html",
  "escape.svg",
  "escape.webp.sh",
  "escape",
  "",
  "products/",
  "products//x.webp",
  "Products/x.webp",
  "pro ducts/x.webp",
  "products/x y.webp",
  "products/x.WEBP",
  "products/%2e%2e/x.webp",
  "products/x.webp\n",
];

describe("DiskStorage", () => {
  let parent: string;
  let root: string;
  // Used through the Storage interface, as the app does.
  let storage: Storage & Pick<DiskStorage, "publicRoot">;

  beforeEach(() => {
    parent = fs.mkdtempSync(path.join(sandbox, "case-"));
    root = path.join(parent, "uploads");
    storage = new DiskStorage(root);
  });

  it("round-trips put, exists, get and delete", async () => {
    const key = "products/abc-123.webp";
    const data = Buffer.from("RIFF....WEBPVP8 fake bytes");
    expect(await storage.exists("public", key)).toBe(false);
    expect(await storage.get("public", key)).toBeNull();

    await storage.put("public", key, data, "image/webp");
    expect(await storage.exists("public", key)).toBe(true);
    const stored = await storage.get("public", key);
    expect(stored?.data.equals(data)).toBe(true);
    expect(stored?.contentType).toBe("image/webp");
    expect(fs.readFileSync(path.join(root, "public", "products", "abc-123.webp")).equals(data)).toBe(true);

    // Overwriting replaces the file; no temporary files are left behind.
    await storage.put("public", key, Buffer.from("second"), "image/webp");
    expect((await storage.get("public", key))?.data.toString()).toBe("second");
    expect(listFiles(root)).toEqual([path.join("public", "products", "abc-123.webp")]);

    await storage.delete("public", key);
    expect(await storage.exists("public", key)).toBe(false);
    expect(await storage.get("public", key)).toBeNull();
    expect(listFiles(root)).toEqual([]);
    // Deleting a missing file is fine.
    await expect(storage.delete("public", key)).resolves.toBeUndefined();
  });

  it("derives the content type from the extension", async () => {
    const cases: Array<[string, string]> = [
      ["a/x.webp", "image/webp"],
      ["a/x.png", "image/png"],
      ["a/x.jpg", "image/jpeg"],
      ["mail/x.eml", "message/rfc822"],
    ];
    for (const [key, type] of cases) {
      await storage.put("public", key, Buffer.from(key), "application/octet-stream");
      expect((await storage.get("public", key))?.contentType).toBe(type);
    }
  });

  it("keeps public and private areas in separate folders", async () => {
    const key = "receipts/r-1.webp";
    await storage.put("private", key, Buffer.from("private receipt"), "image/webp");
    expect(await storage.exists("private", key)).toBe(true);
    expect(await storage.exists("public", key)).toBe(false);
    expect(await storage.get("public", key)).toBeNull();
    expect(fs.existsSync(path.join(root, "private", "receipts", "r-1.webp"))).toBe(true);
    // The folder the web server serves holds nothing private.
    expect(storage.publicRoot).toBe(path.join(root, "public"));
    expect(listFiles(storage.publicRoot)).toEqual([]);

    await storage.put("public", key, Buffer.from("public copy"), "image/webp");
    expect((await storage.get("public", key))?.data.toString()).toBe("public copy");
    expect((await storage.get("private", key))?.data.toString()).toBe("private receipt");

    await storage.delete("public", key);
    expect(await storage.exists("private", key)).toBe(true);
  });

  it.each(UNSAFE_KEYS.map((key) => [JSON.stringify(key), key]))(
    "refuses the key %s and writes nothing",
    async (_label, key) => {
      const areas: StorageArea[] = ["public", "private"];
      for (const area of areas) {
        await expect(storage.put(area, key, Buffer.from("pwned"), "image/webp")).rejects.toThrow(/unsafe storage key/i);
        await expect(storage.get(area, key)).rejects.toThrow(/unsafe storage key/i);
        await expect(storage.delete(area, key)).rejects.toThrow(/unsafe storage key/i);
        expect(await storage.exists(area, key)).toBe(false);
      }
      expect(() => assertSafeKey(key)).toThrow(/unsafe storage key/i);
      expect(listFiles(parent)).toEqual([]);
    },
  );

  it("cannot read or delete a file outside the root through a crafted key", async () => {
    const outside = path.join(parent, "secret.webp");
    fs.writeFileSync(outside, "do not touch");
    fs.mkdirSync(path.join(root, "public"), { recursive: true });
    for (const key of ["../secret.webp", "../../secret.webp", outside]) {
      await expect(storage.get("public", key)).rejects.toThrow();
      await expect(storage.delete("public", key)).rejects.toThrow();
      expect(await storage.exists("public", key)).toBe(false);
    }
    expect(fs.readFileSync(outside, "utf8")).toBe("do not touch");
  });

  it("removes half-written files a crash left behind, not fresh ones nor real files", async () => {
    const disk = new DiskStorage(root);
    await disk.put("private", "receipts/u1/a.webp", Buffer.from("kept"));
    const folder = path.join(root, "private", "receipts", "u1");
    const stale = path.join(folder, "b.webp.123.abcd.tmp");
    const fresh = path.join(folder, "c.webp.123.ef01.tmp");
    fs.writeFileSync(stale, "half");
    fs.writeFileSync(fresh, "in flight");
    const hourAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(stale, hourAgo, hourAgo);
    expect(await disk.removeTemporaryFiles()).toBe(1);
    expect(listFiles(path.join(root, "private")).sort()).toEqual(
      ["receipts/u1/a.webp", "receipts/u1/c.webp.123.ef01.tmp"].map((name) => name.split("/").join(path.sep)),
    );
  });
});

describe("generateKey", () => {
  it("gives unique keys in the folder, accepted by the key rules", () => {
    const keys = Array.from({ length: 2000 }, () => generateKey("products", "webp"));
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) {
      expect(key).toMatch(/^products\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.webp$/);
      expect(() => assertSafeKey(key)).not.toThrow();
    }
    expect(generateKey("blog/2026", "png")).toMatch(/^blog\/2026\/[0-9a-f-]{36}\.png$/);
  });

  it("a generated key stores and reads back on disk", async () => {
    const storage: Storage = new DiskStorage(fs.mkdtempSync(path.join(sandbox, "gen-")));
    const key = generateKey("receipts", "webp");
    await storage.put("private", key, Buffer.from("x"), "image/webp");
    expect(await storage.exists("private", key)).toBe(true);
  });
});

describe("MemoryStorage", () => {
  it("round-trips and keeps areas apart", async () => {
    const storage = new MemoryStorage();
    await storage.put("private", "receipts/a.webp", Buffer.from("r"), "image/webp");
    expect(await storage.exists("private", "receipts/a.webp")).toBe(true);
    expect(await storage.exists("public", "receipts/a.webp")).toBe(false);
    expect(await storage.get("public", "receipts/a.webp")).toBeNull();
    expect(await storage.get("private", "receipts/a.webp")).toEqual({
      data: Buffer.from("r"),
      contentType: "image/webp",
    });
    await storage.delete("private", "receipts/a.webp");
    expect(storage.files.size).toBe(0);
  });

  it.each(UNSAFE_KEYS.map((key) => [JSON.stringify(key), key]))(
    "refuses the key %s like DiskStorage",
    async (_label, key) => {
      const storage = new MemoryStorage();
      await expect(storage.put("public", key, Buffer.from("x"), "image/webp")).rejects.toThrow(/unsafe storage key/i);
      await expect(storage.put("private", key, Buffer.from("x"), "image/webp")).rejects.toThrow(/unsafe storage key/i);
      expect(storage.files.size).toBe(0);
    },
  );
});

describe("publicUrl", () => {
  it("maps a key under /uploads and passes empty values through", () => {
    expect(publicUrl("products/a.webp")).toBe("/uploads/products/a.webp");
    expect(publicUrl(null)).toBeNull();
    expect(publicUrl(undefined)).toBeNull();
    expect(publicUrl("")).toBeNull();
  });
});
