import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { assertSafeKey, isSafeKey, type Storage, type StorageArea, type StoredFile } from "./storage.server";

/** Where an S3-compatible bucket is; credentials come from the SDK's default chain (AWS_* env). */
export interface S3Location {
  bucket: string;
  endpoint?: string;
  region?: string;
  forcePathStyle?: boolean;
}

/** Public names are content-hashed / generated and never reused: cache them forever. */
export const PUBLIC_CACHE_CONTROL = "public, max-age=31536000, immutable";
export const PRIVATE_CACHE_CONTROL = "private, no-store";

/** How long the bucket may take, and how often a failed request is tried (decision 065). */
export interface S3Limits {
  /** To open a connection (a bucket that does not answer at all). */
  connectionTimeoutMs: number;
  /** For one request from start to answer (a stalled bucket); a 10 MB upload needs 8 Mbit/s for 10 s. */
  requestTimeoutMs: number;
  /** Tries of one request in all, the SDK's backoff between them. */
  maxAttempts: number;
}

export const S3_LIMITS: S3Limits = { connectionTimeoutMs: 3_000, requestTimeoutMs: 10_000, maxAttempts: 2 };

/** A file read with the object's metadata, for serving public files over HTTP. */
export interface S3StoredFile extends StoredFile {
  etag: string | null;
  lastModified: Date | null;
}

/**
 * Files in one S3-compatible bucket (AWS S3, R2, MinIO, Backblaze …): the object key is
 * `${area}/${key}`. Private objects are only ever read through a route that checks who is
 * asking (storage.get); the bucket itself needs no public access.
 */
export class S3Storage implements Storage {
  readonly client: S3Client;
  readonly bucket: string;

  constructor(location: S3Location, client?: S3Client, limits: S3Limits = S3_LIMITS) {
    this.bucket = location.bucket;
    this.client =
      client ??
      new S3Client({
        region: location.region ?? "us-east-1",
        ...(location.endpoint ? { endpoint: location.endpoint } : {}),
        forcePathStyle: location.forcePathStyle ?? false,
        // A bucket that stops answering must not hold a shopper's request (or an upload slot)
        // for ever: the SDK's defaults have no time limit. A refused or timed-out request is
        // tried once more, then fails: 503 (unreachable) or 504 (too slow), decision 065.
        // requestTimeout is the whole request's time; without throwOnRequestTimeout the SDK only
        // warns when it runs out and goes on waiting.
        requestHandler: {
          connectionTimeout: limits.connectionTimeoutMs,
          requestTimeout: limits.requestTimeoutMs,
          throwOnRequestTimeout: true,
        },
        maxAttempts: limits.maxAttempts,
      });
  }

  private objectKey(area: StorageArea, key: string): string {
    assertSafeKey(key);
    return `${area}/${key}`;
  }

  async put(area: StorageArea, key: string, data: Buffer, contentType: string): Promise<void> {
    // A PUT is atomic on S3: readers see the old object or the new one, never half of it.
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(area, key),
        Body: data,
        ContentLength: data.length,
        ContentType: contentType,
        CacheControl: area === "public" ? PUBLIC_CACHE_CONTROL : PRIVATE_CACHE_CONTROL,
      }),
    );
  }

  async get(area: StorageArea, key: string): Promise<S3StoredFile | null> {
    const Key = this.objectKey(area, key);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key }));
      if (!out.Body) return null;
      const data = Buffer.from(await out.Body.transformToByteArray());
      return {
        data,
        contentType: out.ContentType ?? "application/octet-stream",
        etag: out.ETag ?? null,
        lastModified: out.LastModified ?? null,
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  /** Idempotent: S3 answers 204 for a key that is not there. */
  async delete(area: StorageArea, key: string): Promise<void> {
    const Key = this.objectKey(area, key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key }));
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  async exists(area: StorageArea, key: string): Promise<boolean> {
    let Key: string;
    try {
      Key = this.objectKey(area, key);
    } catch {
      return false; // like DiskStorage: an unsafe key names nothing
    }
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  /** Every object under `${area}/`, page by page (1,000 keys a request); other objects in the bucket are left out. */
  async list(area: StorageArea): Promise<string[]> {
    const prefix = `${area}/`;
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const out = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken }),
      );
      for (const object of out.Contents ?? []) {
        const key = object.Key?.slice(prefix.length);
        if (key && isSafeKey(key)) keys.push(key);
      }
      ContinuationToken = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return keys.sort();
  }
}

function isNotFound(error: unknown): boolean {
  if (error instanceof S3ServiceException) {
    return error.$metadata.httpStatusCode === 404 || error.name === "NotFound" || error.name === "NoSuchKey";
  }
  const name = (error as { name?: string } | null)?.name;
  return name === "NotFound" || name === "NoSuchKey";
}
