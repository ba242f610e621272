import type { NextFunction, Request, Response } from "express";
import type { Config } from "~/lib/config.server";
import { assertSafeKey, DiskStorage, type Storage } from "~/lib/storage.server";
import { PUBLIC_CACHE_CONTROL, S3Storage } from "~/lib/storage-s3.server";

/** The storage STORAGE_URL names: a disk folder (the default) or one S3-compatible bucket. */
export function createStorage(config: Pick<Config, "storage">): DiskStorage | S3Storage {
  const { storage } = config;
  if (storage.kind === "file") return new DiskStorage(storage.dir);
  return new S3Storage(storage);
}

/**
 * `/uploads/<key>` from the bucket, through the app (the bucket needs no public access): GET and
 * HEAD of one public object with the long-lived cache headers of content-hashed names, its
 * ETag (express answers If-None-Match with 304), 404 for a missing or unsafe key, no listing.
 * Private files (receipts) are never served here. Mount at "/uploads".
 */
export function serveBucketUploads(storage: Storage) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const key = publicKey(req.path);
    if (!key) return next();
    try {
      const file = await storage.get("public", key);
      if (!file) return next();
      const etag = (file as { etag?: unknown }).etag;
      res.status(200);
      res.set({
        "Content-Type": file.contentType,
        "Cache-Control": PUBLIC_CACHE_CONTROL,
        "X-Content-Type-Options": "nosniff",
      });
      if (typeof etag === "string" && etag) res.set("ETag", etag);
      res.send(file.data);
    } catch (error) {
      next(error);
    }
  };
}

/** The storage key of a request path under /uploads, or null when it cannot be one. */
function publicKey(requestPath: string): string | null {
  let key: string;
  try {
    key = decodeURIComponent(requestPath.replace(/^\/+/, ""));
  } catch {
    return null;
  }
  try {
    assertSafeKey(key);
  } catch {
    return null;
  }
  return key;
}
