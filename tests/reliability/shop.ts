import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import type { APIRequestContext } from "@playwright/test";
import Database from "better-sqlite3";
import pg from "pg";
import { type PostgresCluster, runStatement, startPostgres } from "../setup/postgres";
import { type RoundRobin, startRoundRobin } from "../setup/round-robin";
import { freePort, S3_CREDENTIALS, startS3rver } from "../setup/servers";
import type { StoredOrder, Variant } from "./shoppers";

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

export { freePort, S3_CREDENTIALS };

export interface ShopFiles {
  /** The folder holding data/ (database, mail, sessions) and uploads/. */
  dir: string;
  dataDir: string;
  databaseFile: string;
  uploadsDir: string;
  /** A PostgreSQL database instead of `databaseFile` (see `newScaleFiles`). */
  databaseUrl?: string;
  /** Object storage (STORAGE_URL=s3://…) instead of `uploadsDir`. */
  storageUrl?: string;
  /** More environment for every process on these files (credentials, a shared session secret). */
  env?: Record<string, string>;
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
    DATABASE_URL: files.databaseUrl ?? `file:${files.databaseFile}`,
    UPLOADS_DIR: files.uploadsDir,
    ...(files.storageUrl ? { STORAGE_URL: files.storageUrl } : {}),
    ADMIN_SETUP_TOKEN: "reliability-setup-token-0123456789",
    // Every request of the suite comes from 127.0.0.1: per-address limits would throttle the suite.
    RATE_LIMIT_ADDRESS_FACTOR: "1000",
    // One process per shop (not one per core, npm start's default): the specs kill a shop by its
    // pid, measure its RSS and race two shops on one file; several processes are spelled out.
    WEB_CONCURRENCY: "1",
    ...files.env,
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
  /** What the server wrote to stdout (its start log: migrations, seeding). */
  stdout?(): string;
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
  options: { files?: ShopFiles; name?: string; env?: Record<string, string>; port?: number } = {},
): Promise<Shop> {
  const files = options.files ?? newShopFiles(options.name);
  const port = options.port ?? (await freePort());
  const baseURL = `http://127.0.0.1:${port}`;
  // The flags of `npm start` (package.json), so memory is measured as in production.
  const child = spawn(process.execPath, ["--max-semi-space-size=8", "bin/shop.mjs", "start"], {
    cwd: ROOT,
    env: shopEnv(files, { PORT: String(port), PUBLIC_URL: baseURL, ...options.env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (chunk: string) => {
    stdout = (stdout + chunk).slice(-50_000);
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
    stdout: () => stdout,
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
export function createAdmin(
  files: ShopFiles,
  email: string,
  password: string,
  role: "owner" | "staff" = "owner",
): void {
  const args = ["bin/shop.mjs", "admin:create", "--email", email, "--password", password, "--role", role];
  execFileSync(process.execPath, args, {
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

/* ------------------------------------------------------------------------------------------
 * Several processes of one shop on PostgreSQL + S3 behind a round-robin proxy (issue 16)
 * ------------------------------------------------------------------------------------------ */

/** s3rver's fixed credentials; the shop's AWS SDK reads them from the environment. */
/** A throwaway S3-compatible bucket (s3rver on a free loopback port, a temporary folder). */
export interface TestBucket {
  bucket: string;
  endpoint: string;
  /** STORAGE_URL for the shop. */
  storageUrl: string;
  /** Whether the object `area/key` exists. */
  has(area: "public" | "private", key: string): Promise<boolean>;
  /** Keys of all objects under `area/`. */
  keys(area: "public" | "private"): Promise<string[]>;
  /** The S3 server stops listening (the bucket is unreachable); `up` brings it back, objects kept. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestBucket(bucket = "shop-scale"): Promise<TestBucket> {
  const server = await startS3rver([bucket]);
  const { endpoint } = server;
  const client = new S3Client({
    region: "us-east-1",
    endpoint,
    forcePathStyle: true,
    credentials: {
      accessKeyId: S3_CREDENTIALS.AWS_ACCESS_KEY_ID,
      secretAccessKey: S3_CREDENTIALS.AWS_SECRET_ACCESS_KEY,
    },
  });
  return {
    bucket,
    endpoint,
    storageUrl: `s3://${bucket}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&forcePathStyle=true`,
    async has(area, key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: `${area}/${key}` }));
        return true;
      } catch (error) {
        if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
        throw error;
      }
    },
    async keys(area) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: `${area}/`, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key.slice(area.length + 1));
        token = page.NextContinuationToken;
      } while (token);
      return keys;
    },
    down: () => server.down(),
    up: () => server.up(),
    async close() {
      client.destroy();
      await server.stop();
    },
  };
}

/** Creates database `name` on `cluster` and returns its URL. */
export async function createPostgresDatabase(cluster: PostgresCluster, name: string): Promise<string> {
  await runStatement(cluster.url("postgres"), `CREATE DATABASE "${name}"`);
  return cluster.url(name);
}

/**
 * Files for processes of one shop on PostgreSQL (`databaseUrl`) and a bucket: data/ still holds
 * the mail outbox (shared by the processes), and they share one session secret.
 */
export function newScaleFiles(name: string, databaseUrl: string, bucket: TestBucket): ShopFiles {
  return {
    ...newShopFiles(name),
    databaseUrl,
    storageUrl: bucket.storageUrl,
    env: { ...S3_CREDENTIALS, SESSION_SECRET: `scale-session-secret-${name}-0123456789abcdef` },
  };
}

/** Processes of one shop behind a round-robin proxy: `front` is what shoppers talk to. */
export interface ShopCluster {
  files: ShopFiles;
  shops: Shop[];
  proxy: RoundRobin;
  /** The proxy as a Shop (its baseURL); stderr is every process's, stop/kill act on all. */
  front: Shop;
  /** Starts process `index` again (after a kill) on its port, so the proxy reaches it again. */
  restart(index: number): Promise<Shop>;
  stop(): Promise<void>;
}

/**
 * Starts `count` processes on `files` at once (on an empty database they migrate and seed
 * together: one seeds, the others wait) and a round-robin proxy in front of them.
 */
export async function startShopCluster(files: ShopFiles, count = 2): Promise<ShopCluster> {
  const shops = await Promise.all(Array.from({ length: count }, () => startShop({ files })));
  const proxy = await startRoundRobin(shops.map((shop) => shop.baseURL));
  const all = () => shops;
  const front: Shop = {
    files,
    port: proxy.port,
    baseURL: proxy.url,
    child: (shops[0] as Shop).child,
    stderr: () =>
      all()
        .map((shop) => shop.stderr())
        .join("\n"),
    stop: async () => {
      await Promise.all(all().map((shop) => shop.stop()));
    },
    kill: async () => {
      await Promise.all(all().map((shop) => shop.kill()));
    },
  };
  return {
    files,
    shops,
    proxy,
    front,
    async restart(index) {
      const old = shops[index] as Shop;
      const shop = await startShop({ files, port: old.port });
      shops[index] = shop;
      return shop;
    },
    async stop() {
      await proxy.close();
      await Promise.all(shops.map((shop) => shop.stop()));
    },
  };
}

/**
 * What the shop's database holds, read beside the running processes: the SQLite file or the
 * PostgreSQL database. Async, so one race body serves both.
 */
export interface Books {
  variants(count: number): Promise<Variant[]>;
  setStock(variant: Variant, stock: number): Promise<void>;
  stockOf(variant: Variant): Promise<number>;
  unitsSold(variant: Variant): Promise<number>;
  storedOrders(numbers?: readonly string[]): Promise<StoredOrder[]>;
  close(): Promise<void>;
}

/** The books of a shop on PostgreSQL (a small pool of its own). */
export function postgresBooks(databaseUrl: string): Books {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  // An idle connection cut by the server (a restart in faults.spec.ts) is dropped, not a crash.
  pool.on("error", () => undefined);
  const query = async <T>(text: string, values: unknown[] = []) => (await pool.query(text, values)).rows as T[];
  return {
    async variants(count) {
      const rows = await query<Variant>(
        `SELECT v.product_id AS "productId", v.color FROM product_variants v
         JOIN products p ON p.id = v.product_id LEFT JOIN categories c ON c.id = p.category_id
         WHERE c.id IS NULL OR c.is_active = 1
         ORDER BY v.product_id, v.sort_order LIMIT $1`,
        [count],
      );
      if (rows.length < count) throw new Error(`the catalogue has only ${rows.length} colour variants`);
      return rows.map((row) => ({ productId: Number(row.productId), color: row.color }));
    },
    async setStock(variant, stock) {
      const result = await pool.query("UPDATE product_variants SET stock = $1 WHERE product_id = $2 AND color = $3", [
        stock,
        variant.productId,
        variant.color,
      ]);
      if (result.rowCount !== 1) throw new Error(`no variant ${variant.productId}/${variant.color}`);
    },
    async stockOf(variant) {
      const [row] = await query<{ stock: number }>(
        "SELECT stock FROM product_variants WHERE product_id = $1 AND color = $2",
        [variant.productId, variant.color],
      );
      if (!row) throw new Error(`no variant ${variant.productId}/${variant.color}`);
      return Number(row.stock);
    },
    async unitsSold(variant) {
      const [row] = await query<{ units: string }>(
        `SELECT COALESCE(SUM(order_lines.quantity), 0) AS units FROM order_lines
         JOIN orders ON orders.id = order_lines.order_id
         WHERE order_lines.product_id = $1 AND order_lines.color = $2 AND orders.status <> 'cancelled'`,
        [variant.productId, variant.color],
      );
      return Number(row?.units ?? 0);
    },
    async storedOrders(numbers) {
      const orders = await query<Omit<StoredOrder, "lines">>(
        `SELECT id, order_number, status, user_id, receipt_path, submission_key FROM orders
         ${numbers ? "WHERE order_number = ANY($1)" : ""} ORDER BY created_at`,
        numbers ? [[...numbers]] : [],
      );
      const lines = await query<StoredOrder["lines"][number] & { order_id: string }>(
        "SELECT order_id, product_id, color, quantity FROM order_lines WHERE order_id = ANY($1) ORDER BY id",
        [orders.map((order) => order.id)],
      );
      return orders.map((order) => ({
        ...order,
        id: String(order.id),
        user_id: String(order.user_id),
        lines: lines
          .filter((line) => String(line.order_id) === String(order.id))
          .map(({ product_id, color, quantity }) => ({
            product_id: product_id === null ? null : Number(product_id),
            color,
            quantity: Number(quantity),
          })),
      }));
    },
    close: () => pool.end(),
  };
}

/** One shop on PostgreSQL + S3: its cluster, bucket, processes and books. Stop it with `stop`. */
export interface ScaleShop extends ShopCluster {
  postgres: PostgresCluster;
  bucket: TestBucket;
  books: Books;
}

/** A PostgreSQL cluster, a bucket and `count` processes of one new shop behind a round-robin proxy. */
export async function startScaleShop(name: string, count = 2): Promise<ScaleShop> {
  const postgres = await startPostgres();
  let bucket: TestBucket | undefined;
  try {
    bucket = await startTestBucket();
    const databaseUrl = await createPostgresDatabase(postgres, name.replace(/\W/g, "_"));
    const files = newScaleFiles(name, databaseUrl, bucket);
    const cluster = await startShopCluster(files, count);
    const books = postgresBooks(databaseUrl);
    const started = bucket;
    return {
      ...cluster,
      postgres,
      bucket: started,
      books,
      async stop() {
        await cluster.stop();
        await books.close().catch(() => undefined);
        await started.close();
        postgres.stop();
        removeFiles(files);
      },
    };
  } catch (error) {
    await bucket?.close();
    postgres.stop();
    throw error;
  }
}

/**
 * Runs `tasks` at once and calls `kill` after a random number of them have finished (none to
 * `maxAnswers`) and a random few milliseconds more, so the kill lands in a different place of
 * the burst each time, whatever the machine's speed. Resolves with every task's result.
 */
export async function killMidway<T>(
  tasks: readonly (() => Promise<T>)[],
  kill: () => Promise<void>,
  maxAnswers = tasks.length / 2,
): Promise<T[]> {
  const answersBeforeKill = Math.floor(Math.random() * maxAnswers);
  const extraDelay = Math.floor(Math.random() * 40);
  let answered = 0;
  let reached: () => void = () => undefined;
  const enoughAnswers = new Promise<void>((resolve) => {
    reached = resolve;
  });
  if (answersBeforeKill === 0) reached();
  const outcomes = tasks.map((task) =>
    task().then((outcome) => {
      answered++;
      if (answered >= answersBeforeKill) reached();
      return outcome;
    }),
  );
  await Promise.race([enoughAnswers, Promise.all(outcomes)]);
  await new Promise((resolve) => setTimeout(resolve, extraDelay));
  await kill();
  return Promise.all(outcomes);
}
