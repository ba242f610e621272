import fs from "node:fs/promises";
import path from "node:path";
import { HeadBucketCommand } from "@aws-sdk/client-s3";
import type { Request, Response } from "express";
import type { DB } from "#db/connect.server";
import type { Services } from "~/context";
import { logger } from "~/lib/log.server";
import { DiskStorage, type Storage } from "~/lib/storage.server";
import { S3Storage } from "~/lib/storage-s3.server";
import { setTraceRoute } from "./metrics";

/**
 * The health checks (docs/decisions/063), answered before the page cache, the session and React
 * Router, never cached:
 * - `/healthz`, liveness: this process answers HTTP. It touches nothing else, so a database
 *   outage does not get a healthy shop restarted by its supervisor (it would come back to the
 *   same outage); a process whose event loop is stuck does not answer at all.
 * - `/readyz`, readiness: the database answers a one-row read and the storage is reachable, each
 *   within a few seconds. 200 `ok`, or 503 naming what failed (no addresses, no messages), for a
 *   load balancer to send shoppers elsewhere meanwhile.
 */

/** Longest each readiness check may take before it counts as failed. */
export const READY_TIMEOUT_MS = 3_000;

export function liveness(_req: Request, res: Response): void {
  setTraceRoute(res, "/healthz");
  res.status(200).type("text/plain").set("Cache-Control", "no-store").send("ok");
}

export function readiness(svc: Pick<Services, "db" | "storage">) {
  /** The checks that failed at the last probe: a failure is logged when it starts and when it ends. */
  let failing = new Set<string>();
  return async (_req: Request, res: Response): Promise<void> => {
    setTraceRoute(res, "/readyz");
    const checks = await Promise.all([
      check("database", () => databaseAnswers(svc.db)),
      check("storage", () => storageAnswers(svc.storage)),
    ]);
    const failed = new Set<string>();
    for (const [name, error] of checks) {
      if (error === null) {
        if (failing.has(name)) logger.info(`readiness: ${name} answers again`);
        continue;
      }
      failed.add(name);
      if (!failing.has(name)) logger.error({ err: String(error) }, `readiness: ${name} unavailable`);
    }
    failing = failed;
    res.type("text/plain").set("Cache-Control", "no-store");
    if (failed.size === 0) {
      res.status(200).send("ok");
      return;
    }
    res.status(503).send(`${[...failed].map((name) => `${name} unavailable`).join("\n")}\n`);
  };
}

/** The check's name and null when it passed, else why it failed (for the log only). */
async function check(name: string, probe: () => Promise<void>): Promise<[string, string | null]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${READY_TIMEOUT_MS}ms`)), READY_TIMEOUT_MS);
  });
  try {
    await Promise.race([probe(), timeout]);
    return [name, null];
  } catch (error) {
    return [name, error instanceof Error ? error.message : String(error)];
  } finally {
    clearTimeout(timer);
  }
}

/** One primary-key read of a table (not `select 1`, which SQLite answers without its file). */
async function databaseAnswers(db: DB): Promise<void> {
  await db.selectFrom("page_cache_version").select("version").where("id", "=", 1).execute();
}

async function storageAnswers(storage: Storage): Promise<void> {
  if (storage instanceof S3Storage) {
    await storage.client.send(new HeadBucketCommand({ Bucket: storage.bucket }), {
      abortSignal: AbortSignal.timeout(READY_TIMEOUT_MS),
    });
    return;
  }
  if (storage instanceof DiskStorage) {
    // The uploads folder (made on first use, as a file's put would) can be written to.
    const root = path.dirname(storage.publicRoot);
    await fs.mkdir(root, { recursive: true });
    await fs.access(root, fs.constants.R_OK | fs.constants.W_OK);
  }
}
