import fs from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Services } from "~/context";
import { loadConfig, parseStorageUrl } from "~/lib/config.server";
import { DiskStorage, MemoryStorage, type Storage, type StorageArea } from "~/lib/storage.server";
import { PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL, S3Storage } from "~/lib/storage-s3.server";
import { receiptResponse } from "~/models/orders/receipts.server";
import { createApp } from "../server/app";
import { backupCommand, restoreCommand } from "../server/backup";
import { createStorage } from "../server/uploads";
import { S3_CREDENTIALS, startS3rver } from "./setup/servers";

/**
 * Object storage against a real S3-compatible server (s3rver on a free loopback port, a
 * throwaway folder), and the same storage contract for the disk, memory and S3 storages.
 */

const BUCKET = "shop-test";
const sandbox = fs.mkdtempSync(path.join(os.tmpdir(), "shop-s3-"));
let s3rver: Awaited<ReturnType<typeof startS3rver>>;
let endpoint = "";

// The SDK's default credential chain reads these; s3rver accepts its own fixed pair.
Object.assign(process.env, S3_CREDENTIALS);

function newS3Storage(): S3Storage {
  return new S3Storage({ bucket: BUCKET, endpoint, region: "us-east-1", forcePathStyle: true });
}

const clients: S3Storage[] = [];
function s3Storage(): S3Storage {
  const storage = newS3Storage();
  clients.push(storage);
  return storage;
}

beforeAll(async () => {
  s3rver = await startS3rver([BUCKET]);
  ({ endpoint } = s3rver);
});

afterAll(async () => {
  for (const storage of clients) storage.client.destroy();
  await s3rver.stop();
  fs.rmSync(sandbox, { recursive: true, force: true });
});

const UNSAFE_KEYS = ["../escape.webp", "products/../../x.webp", "/etc/x.webp", "escape.html", "products\\x.webp", ""];

interface Subject {
  name: string;
  make(): Storage;
}

const subjects: Subject[] = [
  { name: "DiskStorage", make: () => new DiskStorage(fs.mkdtempSync(path.join(sandbox, "disk-"))) },
  { name: "MemoryStorage", make: () => new MemoryStorage() },
  { name: "S3Storage", make: s3Storage },
];

describe.each(subjects)("storage contract: $name", ({ make }) => {
  it("round-trips put, exists, get and delete in both areas, kept apart", async () => {
    const storage = make();
    const key = `products/${Math.random().toString(36).slice(2)}.webp`;
    for (const area of ["public", "private"] as StorageArea[]) {
      expect(await storage.exists(area, key)).toBe(false);
      expect(await storage.get(area, key)).toBeNull();
    }
    await storage.put("public", key, Buffer.from("public bytes"), "image/webp");
    await storage.put("private", key, Buffer.from("private bytes"), "image/webp");
    expect(await storage.exists("public", key)).toBe(true);
    expect(await storage.exists("private", key)).toBe(true);
    const pub = await storage.get("public", key);
    expect(pub?.data.toString()).toBe("public bytes");
    expect(pub?.contentType).toBe("image/webp");
    expect((await storage.get("private", key))?.data.toString()).toBe("private bytes");

    // Overwriting replaces the file.
    await storage.put("public", key, Buffer.from("second"), "image/webp");
    expect((await storage.get("public", key))?.data.toString()).toBe("second");

    await storage.delete("public", key);
    expect(await storage.exists("public", key)).toBe(false);
    expect(await storage.get("public", key)).toBeNull();
    expect(await storage.exists("private", key)).toBe(true);
    // Deleting a missing file is fine.
    await expect(storage.delete("public", key)).resolves.toBeUndefined();
    await storage.delete("private", key);
    expect(await storage.exists("private", key)).toBe(false);
  });

  it("keeps the content type of each kind of file", async () => {
    const storage = make();
    const cases: Array<[string, string]> = [
      ["c/x.webp", "image/webp"],
      ["c/x.png", "image/png"],
      ["c/x.jpg", "image/jpeg"],
      ["mail/x.eml", "message/rfc822"],
    ];
    for (const [key, type] of cases) {
      await storage.put("private", key, Buffer.from(key), type);
      const file = await storage.get("private", key);
      expect(file?.contentType).toBe(type);
      expect(file?.data.toString()).toBe(key);
    }
  });

  it.each(UNSAFE_KEYS.map((key) => [JSON.stringify(key), key]))("refuses the unsafe key %s", async (_label, key) => {
    const storage = make();
    for (const area of ["public", "private"] as StorageArea[]) {
      await expect(storage.put(area, key, Buffer.from("x"), "image/webp")).rejects.toThrow(/unsafe storage key/i);
      await expect(storage.get(area, key)).rejects.toThrow(/unsafe storage key/i);
      await expect(storage.delete(area, key)).rejects.toThrow(/unsafe storage key/i);
      expect(await storage.exists(area, key)).toBe(false);
    }
  });
});

describe("S3Storage in the bucket", () => {
  it("stores each file as <area>/<key> with the content type and the cache headers of its area", async () => {
    const storage = s3Storage();
    await storage.put("public", "products/hash-1.webp", Buffer.from("img"), "image/webp");
    await storage.put("private", "receipts/u1/r.jpg", Buffer.from("rcpt"), "image/jpeg");
    const { HeadObjectCommand } = await import("@aws-sdk/client-s3");
    const pub = await storage.client.send(
      new HeadObjectCommand({ Bucket: BUCKET, Key: "public/products/hash-1.webp" }),
    );
    expect(pub.ContentType).toBe("image/webp");
    expect(pub.CacheControl).toBe(PUBLIC_CACHE_CONTROL);
    const priv = await storage.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: "private/receipts/u1/r.jpg" }));
    expect(priv.ContentType).toBe("image/jpeg");
    expect(priv.CacheControl).toBe(PRIVATE_CACHE_CONTROL);
  });

  it("serves a private receipt through the authorised route's response unchanged", async () => {
    const storage = s3Storage();
    await storage.put("private", "receipts/u2/paid.jpg", Buffer.from("jpeg bytes"), "image/jpeg");
    const response = await receiptResponse(storage, { order_number: "HT-1001", receipt_path: "receipts/u2/paid.jpg" });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/jpeg");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(Buffer.from(await response.arrayBuffer()).toString()).toBe("jpeg bytes");
    await expect(
      receiptResponse(storage, { order_number: "HT-1002", receipt_path: "receipts/u2/missing.jpg" }),
    ).rejects.toMatchObject({ init: { status: 404 } });
  });

  it("a storage on an unreachable server fails loudly instead of answering 'missing'", async () => {
    const storage = new S3Storage({
      bucket: BUCKET,
      endpoint: "http://127.0.0.1:9",
      region: "us-east-1",
      forcePathStyle: true,
    });
    try {
      await expect(storage.exists("public", "products/x.webp")).rejects.toThrow();
    } finally {
      storage.client.destroy();
    }
  });
});

describe("/uploads from the bucket", () => {
  let server: Server;
  let base = "";
  let storage: S3Storage;

  beforeAll(async () => {
    storage = s3Storage();
    // The production app itself (server/app.ts), with the bucket as its storage. /uploads never
    // reaches React Router or the database, so neither is given.
    const config = loadConfig({ SESSION_SECRET: "x".repeat(40), STORAGE_URL: `s3://${BUCKET}` });
    const svc = { config, storage, db: null, mailer: null } as unknown as Services;
    const app = createApp(svc, {
      build: () => Promise.reject(new Error("React Router is not part of this test")),
    });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("serves a public object with its type, long-lived cache headers, ETag and nosniff", async () => {
    const bytes = Buffer.from("RIFF....WEBPVP8 served");
    await storage.put("public", "products/abc-123.webp", bytes, "image/webp");
    const response = await fetch(`${base}/uploads/products/abc-123.webp`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/webp");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const etag = response.headers.get("etag");
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);

    const head = await fetch(`${base}/uploads/products/abc-123.webp`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("image/webp");
    expect(head.headers.get("content-length")).toBe(String(bytes.length));
    expect((await head.arrayBuffer()).byteLength).toBe(0);

    // fetch() adds "Cache-Control: no-cache" to a conditional request unless one is given.
    const again = await fetch(`${base}/uploads/products/abc-123.webp`, {
      headers: { "If-None-Match": etag ?? "", "Cache-Control": "max-age=0" },
    });
    expect(again.status).toBe(304);
  });

  it("answers 404 for a missing, unsafe or private key, and lists nothing", async () => {
    await storage.put("private", "receipts/secret.webp", Buffer.from("private"), "image/webp");
    for (const url of [
      "/uploads/products/missing.webp",
      "/uploads/receipts/secret.webp",
      "/uploads/products/%2e%2e%2f%2e%2e%2fprivate%2freceipts%2fsecret.webp",
      "/uploads/%2Fetc%2Fpasswd.webp",
      "/uploads/products/x.html",
      "/uploads/",
      "/uploads",
      "/uploads/products/",
    ]) {
      const response = await fetch(`${base}${url}`);
      expect(response.status, url).toBe(404);
      expect(await response.text(), url).toBe("Not found");
    }
    const post = await fetch(`${base}/uploads/products/abc-123.webp`, { method: "POST" });
    expect(post.status).toBe(404);
  });
});

describe("STORAGE_URL", () => {
  it("defaults to the disk folder UPLOADS_DIR, else ./uploads", () => {
    expect(parseStorageUrl(undefined)).toEqual({ kind: "file", dir: path.resolve("./uploads") });
    expect(parseStorageUrl("", { UPLOADS_DIR: "/srv/shop/files" })).toEqual({ kind: "file", dir: "/srv/shop/files" });
    const config = loadConfig({ UPLOADS_DIR: "/srv/shop/files", SESSION_SECRET: "x".repeat(40) });
    expect(config.storage).toEqual({ kind: "file", dir: "/srv/shop/files" });
    expect(config.uploadsDir).toBe("/srv/shop/files");
    expect(createStorage(config)).toBeInstanceOf(DiskStorage);
  });

  it("reads file:<folder> (relative or file:// URL) as a disk folder", () => {
    expect(parseStorageUrl("file:./uploads")).toEqual({ kind: "file", dir: path.resolve("./uploads") });
    expect(parseStorageUrl("file:/var/shop/uploads")).toEqual({ kind: "file", dir: "/var/shop/uploads" });
    expect(parseStorageUrl(pathToFileURL("/var/shop/up loads").href)).toEqual({
      kind: "file",
      dir: "/var/shop/up loads",
    });
    const config = loadConfig({ STORAGE_URL: "file:/var/shop/uploads", SESSION_SECRET: "x".repeat(40) });
    expect(config.uploadsDir).toBe("/var/shop/uploads");
  });

  it("reads s3://BUCKET with endpoint, region and forcePathStyle", () => {
    expect(
      parseStorageUrl("s3://shop-files?endpoint=http://127.0.0.1:9000&region=eu-west-2&forcePathStyle=true"),
    ).toEqual({
      kind: "s3",
      bucket: "shop-files",
      endpoint: "http://127.0.0.1:9000",
      region: "eu-west-2",
      forcePathStyle: true,
    });
    // AWS S3 itself: no endpoint, virtual-hosted style, the region from AWS_REGION or us-east-1.
    expect(parseStorageUrl("s3://shop.files")).toEqual({
      kind: "s3",
      bucket: "shop.files",
      region: "us-east-1",
      forcePathStyle: false,
    });
    expect(parseStorageUrl("s3://shop-files", { AWS_REGION: "ap-east-1" })).toMatchObject({ region: "ap-east-1" });
    const config = loadConfig({
      STORAGE_URL: `s3://${BUCKET}?endpoint=${encodeURIComponent(endpoint)}&forcePathStyle=true`,
      SESSION_SECRET: "x".repeat(40),
    });
    const storage = createStorage(config);
    expect(storage).toBeInstanceOf(S3Storage);
    (storage as S3Storage).client.destroy();
  });

  it.each([
    ["ftp://bucket", /unknown scheme/],
    ["s3://", /valid/],
    ["s3://UPPER", /no valid bucket/],
    ["s3://ab", /no valid bucket/],
    ["s3://bucket/prefix", /port or path/],
    ["s3://key:secret@bucket", /credentials/],
    ["s3://bucket?endpoint=not-a-url", /endpoint/],
    ["s3://bucket?endpoint=ftp://x", /endpoint/],
    ["s3://bucket?forcePathStyle=maybe", /forcePathStyle/],
    ["s3://bucket?bucket=other", /unknown parameter/],
    ["s3://bucket?region=eu%20west", /region/],
    ["file:", /no folder/],
    ["/just/a/path", /unknown scheme/],
  ])("refuses %s with one sentence naming STORAGE_URL", (value, reason) => {
    let message = "";
    try {
      loadConfig({ STORAGE_URL: value, SESSION_SECRET: "x".repeat(40) });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^STORAGE_URL /);
    expect(message).toMatch(reason);
    expect(message).toContain("s3://BUCKET?endpoint=");
    expect(message.split(/\.\s/)).toHaveLength(1);
    if (value.includes("secret")) expect(message).not.toContain("secret");
  });
});

describe("backup and restore with STORAGE_URL=s3://…", () => {
  it("refuse with one sentence instead of copying a disk folder that holds none of the files", async () => {
    const names = ["STORAGE_URL", "DATABASE_URL", "DATA_DIR"] as const;
    const saved = names.map((name) => [name, process.env[name]] as const);
    process.env.STORAGE_URL = `s3://${BUCKET}?endpoint=${encodeURIComponent(endpoint)}&forcePathStyle=true`;
    process.env.DATABASE_URL = `file:${path.join(sandbox, "backup-refusal.db")}`;
    process.env.DATA_DIR = path.join(sandbox, "backup-refusal");
    try {
      await expect(backupCommand([])).rejects.toThrow(/^STORAGE_URL points at the bucket shop-test/);
      await expect(restoreCommand([path.join(sandbox, "none")])).rejects.toThrow(/^STORAGE_URL points at the bucket/);
    } finally {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    expect(fs.existsSync(path.join(sandbox, "backup-refusal", "backups"))).toBe(false);
  });
});
