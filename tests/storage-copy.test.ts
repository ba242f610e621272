import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HeadObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiskStorage, MemoryStorage, type Storage } from "~/lib/storage.server";
import { PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL, S3Storage } from "~/lib/storage-s3.server";
import { copyStorage, storageCopyCommand } from "../server/copy";
import { S3_CREDENTIALS, startS3rver } from "./setup/servers";

/**
 * `npm run storage:copy` against a real S3-compatible server (s3rver on a free loopback port):
 * every file of both areas of an uploads folder lands in the bucket under the same key, with its
 * bytes, its content type and its area's cache headers; running it again is fine. And
 * Storage.list, which the copy walks, on the disk, memory and S3 storages.
 */

const sandbox = fs.mkdtempSync(path.join(os.tmpdir(), "shop-storage-copy-"));
let s3rver: Awaited<ReturnType<typeof startS3rver>>;
let endpoint = "";
const BUCKETS = ["copy-target", "copy-cli", "list-test"];

Object.assign(process.env, S3_CREDENTIALS);

const clients: S3Storage[] = [];
function bucket(name: string): S3Storage {
  const storage = new S3Storage({ bucket: name, endpoint, region: "us-east-1", forcePathStyle: true });
  clients.push(storage);
  return storage;
}

beforeAll(async () => {
  s3rver = await startS3rver(BUCKETS);
  ({ endpoint } = s3rver);
});

afterAll(async () => {
  for (const storage of clients) storage.client.destroy();
  await s3rver.stop();
  fs.rmSync(sandbox, { recursive: true, force: true });
});

interface Fixture {
  area: "public" | "private";
  key: string;
  contentType: string;
  data: Buffer;
}

/** An uploads folder as the shop leaves it: images, receipts, and a crash's half-written file. */
async function uploadsFolder(): Promise<{ disk: DiskStorage; root: string; files: Fixture[] }> {
  const root = fs.mkdtempSync(path.join(sandbox, "uploads-"));
  const disk = new DiskStorage(root);
  const files: Fixture[] = [
    { area: "public", key: "products/a1b2c3.webp", contentType: "image/webp", data: crypto.randomBytes(3000) },
    { area: "public", key: "products/d4e5f6.png", contentType: "image/png", data: crypto.randomBytes(200) },
    { area: "public", key: "hero/banner.jpg", contentType: "image/jpeg", data: crypto.randomBytes(5000) },
    { area: "private", key: "receipts/user-1/r1.jpg", contentType: "image/jpeg", data: crypto.randomBytes(4000) },
    { area: "private", key: "receipts/user-2/r2.webp", contentType: "image/webp", data: crypto.randomBytes(100) },
    {
      area: "private",
      key: "mail/m1.eml",
      contentType: "message/rfc822",
      data: Buffer.from("Subject: hi\r\n\r\nhello"),
    },
  ];
  for (const file of files) await disk.put(file.area, file.key, file.data);
  fs.writeFileSync(path.join(root, "public", "products", "a1b2c3.webp.123.abcd.tmp"), "half");
  return { disk, root, files };
}

describe("copyStorage: an uploads folder into a bucket", () => {
  it("copies every file of both areas with its key, bytes, content type and cache headers, and verifies them", async () => {
    const { disk, files } = await uploadsFolder();
    const target = bucket("copy-target");
    const lines: string[] = [];
    const result = await copyStorage({ from: disk, to: target, log: (line) => lines.push(line) });
    expect(result.copied).toEqual({ public: 3, private: 3 });
    expect(result.bytes).toBe(files.reduce((sum, file) => sum + file.data.length, 0));
    expect(lines).toEqual(["public: 3 files", "private: 3 files"]);

    expect(await target.list("public")).toEqual(["hero/banner.jpg", "products/a1b2c3.webp", "products/d4e5f6.png"]);
    expect(await target.list("private")).toEqual(["mail/m1.eml", "receipts/user-1/r1.jpg", "receipts/user-2/r2.webp"]);
    for (const file of files) {
      const back = await target.get(file.area, file.key);
      expect(back?.data.equals(file.data), `${file.area}/${file.key}`).toBe(true);
      expect(back?.contentType).toBe(file.contentType);
      const head = await target.client.send(
        new HeadObjectCommand({ Bucket: target.bucket, Key: `${file.area}/${file.key}` }),
      );
      expect(head.CacheControl).toBe(file.area === "public" ? PUBLIC_CACHE_CONTROL : PRIVATE_CACHE_CONTROL);
    }
    // The crash leftover is not a file of the shop: not copied.
    expect(await target.exists("public", "products/a1b2c3.webp.123.abcd.tmp")).toBe(false);

    // Again into the bucket that already holds them: the same objects, verified again.
    const again = await copyStorage({ from: disk, to: target });
    expect(again.copied).toEqual({ public: 3, private: 3 });
    expect(await target.list("public")).toHaveLength(3);
    expect(await target.list("private")).toHaveLength(3);
  });

  it("fails, naming the file, when a file does not read back the same", async () => {
    const { disk } = await uploadsFolder();
    // A target that stores something else than it was given (a broken storage).
    const memory = new MemoryStorage();
    const broken: Storage = {
      put: (area, key, data, type) => memory.put(area, key, key.endsWith(".png") ? Buffer.from("other") : data, type),
      get: (area, key) => memory.get(area, key),
      delete: (area, key) => memory.delete(area, key),
      exists: (area, key) => memory.exists(area, key),
      list: (area) => memory.list(area),
    };
    await expect(copyStorage({ from: disk, to: broken })).rejects.toThrow(
      /^1 file\(s\) did not verify: public\/products\/d4e5f6\.png reads back with other bytes\.$/,
    );
  });
});

describe("npm run storage:copy", () => {
  it("copies the configured uploads folder to --to and prints the counts", async () => {
    const { root } = await uploadsFolder();
    const saved = { STORAGE_URL: process.env.STORAGE_URL, UPLOADS_DIR: process.env.UPLOADS_DIR };
    process.env.STORAGE_URL = "";
    process.env.UPLOADS_DIR = root;
    const lines: string[] = [];
    const info = console.info;
    console.info = (line: string) => lines.push(line);
    try {
      await storageCopyCommand(["--to", `s3://copy-cli?endpoint=${encodeURIComponent(endpoint)}&forcePathStyle=true`]);
    } finally {
      console.info = info;
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    expect(lines.at(-1)).toMatch(/^verified: 3 public and 3 private files \(\d+ bytes\), size and SHA-256 read back$/);
    expect(await bucket("copy-cli").list("private")).toHaveLength(3);
  });

  it("copies a bucket back into a folder (a copy of the bucket on disk)", async () => {
    const { disk, files } = await uploadsFolder();
    const source = bucket("copy-cli");
    await copyStorage({ from: disk, to: source });
    const folder = fs.mkdtempSync(path.join(sandbox, "from-bucket-"));
    const info = console.info;
    console.info = () => {};
    try {
      await storageCopyCommand([
        "--from",
        `s3://copy-cli?endpoint=${encodeURIComponent(endpoint)}&forcePathStyle=true`,
        "--to",
        `file:${folder}`,
      ]);
    } finally {
      console.info = info;
    }
    const copy = new DiskStorage(folder);
    for (const file of files) {
      const back = await copy.get(file.area, file.key);
      expect(back?.data.equals(file.data), `${file.area}/${file.key}`).toBe(true);
      expect(back?.contentType).toBe(file.contentType);
    }
    expect(fs.existsSync(path.join(folder, "private", "receipts", "user-1", "r1.jpg"))).toBe(true);
  });

  it("refuses to copy a storage onto itself", async () => {
    const { root } = await uploadsFolder();
    await expect(storageCopyCommand(["--from", `file:${root}`, "--to", `file:${root}`])).rejects.toThrow(
      /^--from and --to are both the folder /,
    );
  });
});

describe.each([
  { name: "DiskStorage", make: (): Storage => new DiskStorage(fs.mkdtempSync(path.join(sandbox, "list-"))) },
  { name: "MemoryStorage", make: (): Storage => new MemoryStorage() },
  { name: "S3Storage", make: (): Storage => bucket("list-test") },
])("Storage.list: $name", ({ make }) => {
  it("lists the keys of one area, sorted, and nothing of the other", async () => {
    const storage = make();
    expect(await storage.list("public")).toEqual([]);
    await storage.put("public", "products/b.webp", Buffer.from("b"), "image/webp");
    await storage.put("public", "a.png", Buffer.from("a"), "image/png");
    await storage.put("private", "receipts/u/c.jpg", Buffer.from("c"), "image/jpeg");
    expect(await storage.list("public")).toEqual(["a.png", "products/b.webp"]);
    expect(await storage.list("private")).toEqual(["receipts/u/c.jpg"]);
    await storage.delete("public", "a.png");
    expect(await storage.list("public")).toEqual(["products/b.webp"]);
  });
});
