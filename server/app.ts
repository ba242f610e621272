import cluster from "node:cluster";
import http, { type Server } from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { RouterContextProvider, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { type DB, migrateToLatest, openDatabase } from "#db/connect.server";
import { AlreadySeededError, isDatabaseEmpty, seedDemo } from "#db/seed/index.server";
import { requestInfoContext, type Services, servicesContext } from "~/context";
import { parseCommandLine, UsageError } from "~/lib/cli-args";
import { type Config, loadConfig } from "~/lib/config.server";
import { startCountryLookup } from "~/lib/geoip.server";
import { childLogger, logger } from "~/lib/log.server";
import { createMailer } from "~/lib/mail.server";
import { collectProcessMetrics, watchDatabase } from "~/lib/metrics.server";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/lib/password.server";
import { DiskStorage } from "~/lib/storage.server";
import { deliverDueMessages } from "~/models/outbox/deliver.server";
import { deliverOnWake } from "~/models/outbox/wake.server";
import { openAdminSetup } from "~/models/settings/admin-setup.server";
import { loadShop, shopName } from "~/models/settings/shop.server";
import { createUser, findUserByEmail, grantAdmin } from "~/models/user.server";
import { flushPageViews } from "~/request/page-views.server";
import { scaleAddressLimits } from "~/request/rate-limit.server";
import type { Visitor } from "~/request/visitor.server";
import { backupCommand, restoreCommand } from "./backup";
import { parseWebConcurrency, reportCannotStart, runWorkers } from "./cluster";
import { dbCopyCommand, storageCopyCommand } from "./copy";
import { liveness, readiness } from "./health";
import { checkPortFree, listen, StartError, stopWithLauncher } from "./lifecycle";
import { aggregateMetricsInPrimary, answerMetricsInWorker, measureRequests, serveMetrics } from "./metrics";
import { answerOutages } from "./outage";
import { PageCache, servePageCache } from "./page-cache";
import { servePrecompressed } from "./precompress";
import { pooledRandomBytes } from "./random-pool";
import { createRequestHandler } from "./request-handler";
import { handleUncaughtError, logRequests } from "./request-log";
import { proxyCountry } from "./request-origin";
import { assignRequestTrace, traceOf } from "./request-trace";
import { startScheduledJobs } from "./scheduled-jobs";
import { limitConcurrentUploads, UPLOAD_SLOTS } from "./upload-slots";
import { createStorage, serveBucketUploads } from "./uploads";

/**
 * The production web server: Express 5 around the React Router request handler. Bundled by
 * Vite together with the app (build/server/index.js), so the CLI commands below run from the
 * build too.
 */

const HASHED_ASSET_MAX_AGE = "1y";
/** A cached page is rendered again after this long even when nothing changed (the footer's year…). */
const PAGE_CACHE_TTL_MS = 10 * 60 * 1000;

export interface AppOptions {
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Folder of the browser build (build/client); absent in development. */
  clientDir?: string;
  vite?: ViteDevServer;
}

export function createApp(svc: Services, options: AppOptions): express.Express {
  const { config } = svc;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy);

  const pageCache = new PageCache({ maxBytes: config.pageCacheBytes, ttlMs: PAGE_CACHE_TTL_MS });
  app.use(assignRequestTrace(Boolean(config.trustProxy)));
  app.use(measureRequests);
  app.use(logRequests());
  // Every answer carries the security headers, /healthz's too.
  app.use(securityHeaders(config, Boolean(options.vite)));
  // Health checks and metrics: before the page cache, sessions and React Router (server/health.ts, server/metrics.ts).
  app.get("/healthz", liveness);
  app.get("/readyz", readiness(svc));
  app.get("/metrics", serveMetrics({ token: config.metricsToken }));

  app.use(escapeUnreadablePath);
  // Anonymous catalogue pages from memory, compressed once when stored (server/page-cache.ts).
  if (!options.vite) app.use(servePageCache(svc, pageCache));
  // Pages are compressed per request: at gzip 3 / brotli 3 a 110 KB category page costs half the
  // CPU of the defaults (gzip 6 / brotli 4) for 5-13% more bytes (docs/decisions/017).
  app.use(compression({ level: 3, brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 3 } } }));

  if (options.vite) {
    app.use(options.vite.middlewares);
  } else if (options.clientDir) {
    // Vite puts a content hash in every asset name: they never change, so cache them forever.
    const assetsDir = path.join(options.clientDir, "assets");
    app.use("/assets", servePrecompressed(assetsDir, { maxAge: HASHED_ASSET_MAX_AGE }));
    app.use(
      "/assets",
      express.static(assetsDir, {
        immutable: true,
        maxAge: HASHED_ASSET_MAX_AGE,
        index: false,
      }),
    );
    // The other files of the build (favicon, images) have an extension; a page's path never asks
    // the disk (a stat and its ENOENT error per page cost ~2% of an uncached render, decision 069).
    const clientFiles = express.static(options.clientDir, { maxAge: "1h", index: false });
    app.use((req, res, next) => {
      const extension = path.extname(req.path);
      return extension && extension !== ".data" ? clientFiles(req, res, next) : next();
    });
  }
  // Public uploads have generated, never reused names. Private files (receipts) are never served here.
  if (svc.storage instanceof DiskStorage) {
    app.use(
      "/uploads",
      express.static(svc.storage.publicRoot, {
        immutable: true,
        maxAge: HASHED_ASSET_MAX_AGE,
        index: false,
        dotfiles: "deny",
      }),
    );
  } else {
    // Object storage (STORAGE_URL=s3://…): served from the bucket through the app.
    app.use("/uploads", serveBucketUploads(svc.storage));
  }
  app.use("/uploads", (_req, res) => {
    res.status(404).type("text/plain").send("Not found");
  });

  app.use(refuseCrossOriginWrites(config));
  app.use(drainUnreadBody);
  app.use(limitConcurrentUploads(UPLOAD_SLOTS));

  // Every other request (no path pattern: Express would percent-decode a `/{*splat}` and answer
  // an unreadable path with its own page and a stack trace in the log).
  app.use(
    createRequestHandler({
      build: options.build,
      getLoadContext(req, res) {
        const context = new RouterContextProvider();
        context.set(servicesContext, svc);
        context.set(requestInfoContext, {
          nonce: res.locals.nonce as string,
          ip: req.ip ?? null,
          proxyCountry: config.trustProxy ? proxyCountry(req) : null,
          unreadablePath: res.locals.escapedUrl !== undefined,
          trace: traceOf(res),
          visitor: res.locals.visitor as Visitor | undefined,
        });
        return context;
      },
    }),
  );
  app.use(answerOutages);
  app.use(handleUncaughtError());
  return app;
}

/**
 * A path that cannot be percent-decoded (`/product/%FF%FE`: a mangled link, a scanner) is the
 * visitor's mistake, answered 400 with the shop's own page in their language. React Router is
 * handed the path escaped whole (`res.locals.escapedUrl`), one segment that only the store's
 * catch-all route matches, and told so (`unreadablePath`): that route answers 400 instead of 404,
 * and no page's loader or action runs on half-decoded parameters.
 */
export function escapeUnreadablePath(req: Request, res: Response, next: NextFunction) {
  if (!req.path.includes("%")) return next();
  try {
    decodeURIComponent(req.path);
  } catch {
    const query = req.originalUrl.indexOf("?");
    res.locals.escapedUrl = `/${encodeURIComponent(req.path.slice(1))}${query >= 0 ? req.originalUrl.slice(query) : ""}`;
  }
  next();
}

/** CSP with a per-response nonce, and the other headers every response carries. */
function securityHeaders(config: Config, dev: boolean) {
  return (_req: Request, res: Response, next: NextFunction) => {
    const nonce = pooledRandomBytes(16).toString("base64");
    res.locals.nonce = nonce;
    const scriptSrc = dev ? `'self' 'unsafe-inline'` : `'self' 'nonce-${nonce}'`;
    res.setHeader(
      "Content-Security-Policy",
      [
        "default-src 'self'",
        `script-src ${scriptSrc}`,
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self'",
        `connect-src 'self'${dev ? " ws: wss:" : ""}`,
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ].join("; "),
    );
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
    if (config.secureCookies) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  };
}

/** How much of a body no one read is still taken in (and dropped) after the answer. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

/**
 * An action may answer before it reads the whole body (a 404, a refused right, a 413): the rest
 * is read and dropped, up to a limit, so the client gets that answer instead of a reset
 * connection. Nobody reads it any more, so it is not buffered.
 */
export function drainUnreadBody(req: Request, res: Response, next: NextFunction) {
  res.on("finish", () => {
    if (req.complete || req.destroyed) return;
    let seen = 0;
    req.removeAllListeners("data");
    req.on("data", (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_LIMIT) req.destroy();
    });
    req.resume();
  });
  next();
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Non-GET requests from another origin are refused before any action runs: a foreign
 * Origin, `Origin: null`, or (older browsers) no Origin with Sec-Fetch-Site: cross-site.
 */
export function refuseCrossOriginWrites(config: Pick<Config, "trustProxy">) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get("Origin");
    const host = (config.trustProxy ? req.get("X-Forwarded-Host") : undefined) ?? req.get("Host");
    let allowed: boolean;
    if (origin === undefined) {
      allowed = req.get("Sec-Fetch-Site") !== "cross-site";
    } else {
      try {
        allowed = origin !== "null" && new URL(origin).host === host;
      } catch {
        allowed = false;
      }
    }
    if (allowed) return next();
    res.status(403).type("text/plain").send("Cross-site request refused");
  };
}

/** What every process of the shop needs to serve: the database and the storage. */
export interface Connection {
  config: Config;
  services: Services;
  close(): Promise<void>;
}

/** A prepared shop (once per start, in the cluster's primary): what its start log says. */
export interface Runtime extends Connection {
  /** The first-admin setup token stored in the database (null once an admin exists): printed at start. */
  setupToken: string | null;
  /** The shop's name as the owner set it in Shop details (English, else Chinese). */
  shopName: string;
}

/**
 * Opens the database, the storage and GEOIP_DB's country database: what every process of the shop
 * needs to serve. `strict` (the process that starts the shop) refuses an unusable GEOIP_DB in one
 * line; a worker falls back to the bundled country data instead (app/lib/geoip.server.ts).
 */
async function connect(config: Config, { strict }: { strict: boolean }): Promise<Connection> {
  scaleAddressLimits(config.rateLimitAddressFactor);
  const stopGeoIp = await startCountryLookup(config.geoipDb, { strict, log: strict, pollMs: config.geoipPollMs });
  const db: DB = openDatabase(config.databaseUrl);
  const storage = createStorage(config);
  const services: Services = { db, storage, config, mailer: createMailer(config) };
  return {
    config,
    services,
    close: () => {
      stopGeoIp();
      return db.destroy();
    },
  };
}

/**
 * Opens the database, runs migrations, stores the setup token while no admin exists, and seeds
 * the demo catalogue into an empty database. Runs once per start (in the cluster's primary).
 */
export async function prepare(config: Config = loadConfig()): Promise<Runtime> {
  const runtime = await connect(config, { strict: true });
  const { db, storage } = runtime.services;
  const applied = await migrateToLatest(db);
  if (applied.length > 0) logger.info({ migrations: applied }, `database: applied ${applied.join(", ")}`);
  if (storage instanceof DiskStorage) {
    const leftovers = await storage.removeTemporaryFiles();
    if (leftovers > 0) logger.info(`uploads: removed ${leftovers} half-written file(s) left by an earlier crash`);
  }
  // One-time token for "Add Me As Admin" on /admin/login, in the database so every process
  // shares it; it works only while no admin exists (removed once one does).
  const setupToken = await openAdminSetup(db, config);
  const shouldSeed = config.seedDemo ?? (await isDatabaseEmpty(db));
  if (shouldSeed && (await isDatabaseEmpty(db))) {
    const started = Date.now();
    try {
      const result = await seedDemo(db, storage);
      logger.info(
        `database: seeded the demo catalogue (${result.categories} categories, ${result.products} products) in ${Date.now() - started}ms`,
      );
    } catch (error) {
      if (!(error instanceof AlreadySeededError)) throw error;
      logger.info("database: another process seeded the demo catalogue");
    }
  }
  return { ...runtime, setupToken, shopName: shopName(await loadShop(db), "en") };
}

/**
 * What the start log says, once per start (by the cluster's primary, not by each worker): the
 * shop's own name and where it runs and, only while no admin exists (prepare() makes a setup
 * token only then), the two ways to get the first admin account.
 */
export function startMessages(
  config: Pick<Config, "publicUrl" | "port">,
  runtime: Pick<Runtime, "setupToken" | "shopName">,
): string[] {
  const lines = [`${runtime.shopName} is running at ${config.publicUrl} (port ${config.port})`];
  if (runtime.setupToken) {
    lines.push(
      "No admin yet. Create one: npm run admin:create -- --email you@example.com --password 'a long password'",
      `Or sign up on the shop, open ${config.publicUrl}/admin/login and use "Add Me As Admin" with the one-time setup token: ${runtime.setupToken}`,
    );
  }
  return lines;
}

/**
 * `npm start` with one process, `npm run dev`, and each cluster worker: prepare (a `worker` skips
 * the preparation its primary did), listen — a port that is taken rejects with a StartError
 * (one line) — then serve until SIGTERM/SIGINT, finishing requests in flight. A worker logs
 * nothing about starting and stopping: its primary says it once for all.
 */
export async function startServer(options: { vite?: ViteDevServer; worker?: boolean } = {}): Promise<Server> {
  const worker = options.worker ?? false;
  if (!worker) stopWithLauncher();
  const prepared = worker ? null : await prepare();
  const runtime = prepared ?? (await connect(loadConfig(), { strict: false }));
  const { config } = runtime;
  const build: AppOptions["build"] = options.vite
    ? () => options.vite?.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>
    : ((await import("virtual:react-router/server-build")) as ServerBuild);
  const app = createApp(runtime.services, {
    build,
    clientDir: options.vite ? undefined : path.resolve(import.meta.dirname, "../client"),
    vite: options.vite,
  });
  // This process's metrics: the database's gauges, Node's own, and (a worker) its registry for the primary.
  watchDatabase(runtime.services.db);
  collectProcessMetrics();
  answerMetricsInWorker();
  // Not app.listen(port, host, callback): Express 5 calls that callback with the listen error
  // too, and the shop said "is running" on a port another program held.
  const server = http.createServer(app);
  try {
    await listen(server, config.port, config.host);
  } catch (error) {
    await runtime.close();
    throw error;
  }
  if (prepared) for (const line of startMessages(config, prepared)) logger.info(line);
  // Idle keep-alive connections stay open 65 s (Node's default is 5 s), longer than the idle
  // timeout of the proxies and HTTP clients in front of the shop: otherwise a client that reuses
  // a connection the server is just closing gets ECONNRESET on its next request (seen under load).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // Payment reminders and deadlines, the outbox, once a minute across all processes (server/scheduled-jobs.ts).
  const jobs = startScheduledJobs(runtime.services);
  // A message queued by a request here leaves at once, not at the next minute (docs/decisions/044).
  const outbox = deliverOnWake(() => deliverDueMessages(runtime.services));

  const log = worker ? () => {} : (line: string) => logger.info(line);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: finishing requests in flight, then stopping`);
    const force = setTimeout(() => {
      logger.warn("shutdown: requests still open after 10s, closing them");
      server.closeAllConnections();
    }, 10_000);
    force.unref();
    server.close(async () => {
      // The page views still queued (at most one interval's) go in before the database closes.
      await flushPageViews();
      await jobs.stop();
      await outbox.stop();
      await runtime.close();
      log("shutdown: done");
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  return server;
}

const ADMIN_CREATE = {
  usage: "npm run admin:create -- --email you@example.com --password 'a long password' [--role owner|staff]",
  options: { email: { type: "string" }, password: { type: "string" }, role: { type: "string" } },
} as const;

/**
 * The command-line entry points (bin/shop.mjs), all run from the built server. Each reads its
 * arguments strictly: a mistyped or incomplete command line is refused with a UsageError.
 */
export const commands: Record<string, (args: string[]) => Promise<void>> = {
  async start(args) {
    parseCommandLine(args, { usage: "npm start (settings are environment variables: see the README)", options: {} });
    const workers = parseWebConcurrency(process.env.WEB_CONCURRENCY);
    if (cluster.isWorker) {
      // Forked by the primary below, which prepared the database once for all its workers.
      try {
        await startServer({ worker: true });
      } catch (error) {
        // The port was taken between the primary's check and this worker's listen.
        if (error instanceof StartError) await reportCannotStart(error.message);
        throw error;
      }
      return;
    }
    const config = loadConfig();
    // A taken port is said in one line before the database is touched or a worker forked.
    await checkPortFree(config.port, config.host);
    if (workers === 1) {
      await startServer();
      return;
    }
    stopWithLauncher();
    const runtime = await prepare(config);
    const lines = startMessages(config, runtime);
    await runtime.close();
    // A scrape of /metrics on any worker is answered with every worker's metrics (server/metrics.ts).
    aggregateMetricsInPrimary();
    const primary = childLogger({ role: "primary" });
    runWorkers({
      workers,
      handleSignals: true,
      onServing: () => {
        for (const line of lines) primary.info(line);
      },
      log: (line) => primary.info(line),
      error: (line) => primary.error(line),
    });
  },
  async migrate(args) {
    parseCommandLine(args, { usage: "npm run db:migrate", options: {} });
    const config = loadConfig();
    const db = openDatabase(config.databaseUrl);
    try {
      const applied = await migrateToLatest(db);
      console.info(applied.length ? `Applied ${applied.join(", ")}` : "The database is up to date.");
    } finally {
      await db.destroy();
    }
  },
  async seed(args) {
    parseCommandLine(args, { usage: "npm run db:seed", options: {} });
    const config = loadConfig();
    const db = openDatabase(config.databaseUrl);
    try {
      await migrateToLatest(db);
      if (!(await isDatabaseEmpty(db))) {
        console.info("The database already has a catalogue; nothing seeded.");
        return;
      }
      const result = await seedDemo(db, createStorage(config));
      console.info(`Seeded ${result.categories} categories and ${result.products} products.`);
    } finally {
      await db.destroy();
    }
  },
  /** `backup [--to <folder>]`: an online snapshot of the database and the uploads (server/backup.ts). */
  backup: backupCommand,
  /** `restore <backup folder>`: verifies the backup, then puts it in place (the shop must be stopped). */
  restore: restoreCommand,
  /** `db:copy --to postgres://… [--from <sqlite>]`: a SQLite shop into an empty PostgreSQL database (server/copy.ts). */
  "db:copy": dbCopyCommand,
  /** `storage:copy --to s3://… [--from <storage>]`: every uploaded file into another storage, verified. */
  "storage:copy": storageCopyCommand,
  /**
   * `admin:create --email E --password P [--role owner|staff]`: creates the account if missing and
   * makes it admin with the role (owner unless said; an account that is admin already keeps its role).
   */
  async "admin:create"(args) {
    const { values } = parseCommandLine(args, ADMIN_CREATE);
    const { email = "", password = "", role = "owner" } = values;
    if (!email) throw new UsageError("--email is missing", ADMIN_CREATE.usage);
    if (role !== "owner" && role !== "staff") {
      throw new UsageError(`--role must be owner or staff, not ${JSON.stringify(role)}`, ADMIN_CREATE.usage);
    }
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      throw new UsageError(`${JSON.stringify(email)} is not an e-mail address`, ADMIN_CREATE.usage);
    }
    const config = loadConfig();
    const db = openDatabase(config.databaseUrl);
    try {
      await migrateToLatest(db);
      let user = await findUserByEmail(db, email);
      if (user) {
        console.info(`The account ${user.email} exists already; its password is unchanged.`);
      } else {
        if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
          throw new Error(`The password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long.`);
        }
        user = await createUser(db, { email, password });
        console.info(`Created the account ${user.email}.`);
      }
      const granted = await grantAdmin(db, user, { actorUserId: user.id }, role);
      console.info(
        granted
          ? `${user.email} is now an admin (${role}).`
          : `${user.email} was an admin already; its role is unchanged.`,
      );
    } finally {
      await db.destroy();
    }
  },
};
