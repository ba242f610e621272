import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { APIRequestContext } from "@playwright/test";
import Database from "better-sqlite3";

/**
 * The reliability suite's shop: the real production build (`node bin/shop.mjs start`, from
 * BUILD_DIR when set) on a free loopback port with its own database and uploads folder.
 * Unlike the end-to-end servers, a spec owns its shops: it can start two processes on one
 * SQLite file, kill one with SIGKILL and start it again on the same files.
 */

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** `npm run test:reliability` sets RELIABILITY_LEVEL=full; inside `npm test` the fast level runs. */
export const FULL = process.env.RELIABILITY_LEVEL === "full";

/** A count for the fast level (inside `npm test`) and one for the full suite. */
export function runs(fast: number, full: number): number {
  return FULL ? full : fast;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export interface ShopFiles {
  /** The folder holding data/ (database, mail, sessions) and uploads/. */
  dir: string;
  dataDir: string;
  databaseFile: string;
  uploadsDir: string;
}

/** A new temporary folder for a shop's files (removed by `removeFiles`). */
export function newShopFiles(name = "shop"): ShopFiles {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `shop-rel-${name}-`));
  const dataDir = path.join(dir, "data");
  return { dir, dataDir, databaseFile: path.join(dataDir, "shop.db"), uploadsDir: path.join(dir, "uploads") };
}

export function removeFiles(files: ShopFiles): void {
  fs.rmSync(files.dir, { recursive: true, force: true });
}

/** The environment the shop's CLI and server read for these files. */
export function shopEnv(files: ShopFiles, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    DATA_DIR: files.dataDir,
    DATABASE_URL: `file:${files.databaseFile}`,
    UPLOADS_DIR: files.uploadsDir,
    ADMIN_SETUP_TOKEN: "reliability-setup-token-0123456789",
    // Every request of the suite comes from 127.0.0.1: per-address limits would throttle the suite.
    RATE_LIMIT_ADDRESS_FACTOR: "1000",
    ...extra,
  };
}

export interface Shop {
  files: ShopFiles;
  port: number;
  baseURL: string;
  child: ChildProcess;
  /** What the server wrote to stderr (its errors), for assertions and failure messages. */
  stderr(): string;
  /** SIGTERM, then SIGKILL after a grace period; resolves when the process has exited. */
  stop(): Promise<void>;
  /** SIGKILL at once: a crash. Resolves when the process has exited. */
  kill(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/**
 * Starts the production server on `files` (new ones when omitted) and waits for /healthz.
 * Several shops may share one `files`: two processes on one SQLite file.
 */
export async function startShop(
  options: { files?: ShopFiles; name?: string; env?: Record<string, string> } = {},
): Promise<Shop> {
  const files = options.files ?? newShopFiles(options.name);
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  // The flags of `npm start` (package.json), so memory is measured as in production.
  const child = spawn(process.execPath, ["--max-semi-space-size=8", "bin/shop.mjs", "start"], {
    cwd: ROOT,
    env: shopEnv(files, { PORT: String(port), PUBLIC_URL: baseURL, ...options.env }),
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-200_000);
  });
  const shop: Shop = {
    files,
    port,
    baseURL,
    child,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited(child);
      clearTimeout(timer);
    },
    async kill() {
      child.kill("SIGKILL");
      await exited(child);
    },
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      if (!options.files) removeFiles(files);
      throw new Error(`the shop exited before it answered (code ${child.exitCode}):\n${stderr}`);
    }
    try {
      const response = await fetch(`${baseURL}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return shop;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await shop.kill();
      if (!options.files) removeFiles(files);
      throw new Error(`the shop did not answer /healthz within 2 minutes:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Makes `email` an admin with the real CLI (creating the account with `password`). */
export function createAdmin(files: ShopFiles, email: string, password: string): void {
  execFileSync(process.execPath, ["bin/shop.mjs", "admin:create", "--email", email, "--password", password], {
    cwd: ROOT,
    env: shopEnv(files),
    stdio: "pipe",
    timeout: 60_000,
  });
}

/** Signs `request` in on /admin/login (the account must be an admin already). */
export async function adminSignIn(request: APIRequestContext, email: string, password: string): Promise<void> {
  const response = await request.post("/admin/login", {
    form: { intent: "login", email, password },
    maxRedirects: 0,
  });
  if (response.status() !== 302) throw new Error(`admin sign-in answered ${response.status()}`);
}

/**
 * The shop's database, opened read-only beside the running server (WAL: readers never block
 * it). Close it when done.
 */
export function openDatabase(files: ShopFiles): Database.Database {
  const db = new Database(files.databaseFile, { readonly: true, fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  return db;
}

/** Stock of every colour of a product, by colour name. */
export function colourStock(files: ShopFiles, productId: number): Record<string, number> {
  const db = openDatabase(files);
  try {
    const rows = db.prepare("SELECT color, stock FROM product_variants WHERE product_id = ?").all(productId) as {
      color: string;
      stock: number;
    }[];
    return Object.fromEntries(rows.map((row) => [row.color, row.stock]));
  } finally {
    db.close();
  }
}
