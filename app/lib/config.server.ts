import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Everything the server reads from the environment, with defaults that work out of the box. */
export interface Config {
  port: number;
  /** The address to listen on (HOST, default 0.0.0.0: every address of the machine). */
  host: string;
  databaseUrl: string;
  dataDir: string;
  /** The disk folder of the `file:` storage (STORAGE_URL=file:…, else UPLOADS_DIR, else ./uploads). */
  uploadsDir: string;
  /** Where files live: STORAGE_URL (see parseStorageUrl). */
  storage: StorageConfig;
  sessionSecret: string;
  shopOwnerEmail: string | null;
  smtpUrl: string | null;
  publicUrl: string;
  /**
   * Which proxies' X-Forwarded-* headers to believe (Express's "trust proxy"): false (none), true
   * (all: the left-most address), a hop count, or addresses/CIDRs/names (loopback, uniquelocal…).
   */
  trustProxy: boolean | number | string;
  /**
   * A MaxMind GeoLite2/GeoIP2 Country database (GEOIP_DB, an absolute path) the shopper's country
   * is read from, reloaded when the file changes; null: the data bundled with geoip-country
   * (app/lib/geoip.server.ts, docs/decisions/064).
   */
  geoipDb: string | null;
  /** How often each process looks at GEOIP_DB's file for a new version (GEOIP_POLL_SECONDS, default 60). */
  geoipPollMs: number;
  /** undefined: seed only when the database is empty. */
  seedDemo: boolean | undefined;
  secureCookies: boolean;
  /** New accounts must confirm their e-mail before signing in (needs working e-mail). */
  emailVerification: boolean;
  /** Fixed first-admin setup token (tests, scripted installs); otherwise one is generated at start. */
  adminSetupToken: string | null;
  /** METRICS_TOKEN: a bearer token that may read /metrics from anywhere (else loopback only). */
  metricsToken: string | null;
  /** Multiplies the per-address sign-in, sign-up and reset limits. */
  rateLimitAddressFactor: number;
  /**
   * A demonstration shop: the demo bank account may be shown to shoppers (marked as a demo).
   * Off, a shop whose primary account is still the demo one (or that has none) takes no orders.
   */
  demoMode: boolean;
  /** Memory each process gives the rendered-page cache (PAGE_CACHE_MB, default 32); 0 turns it off. */
  pageCacheBytes: number;
  /**
   * Hours an order placed without an accepted payment has to be paid (PAYMENT_WINDOW_HOURS,
   * default 48) unless the owner set another window under Settings → Shop details.
   */
  paymentWindowHours: number;
  /**
   * How often each process's scheduler wakes to run the shop's jobs (payment deadlines, the
   * outbox): SCHEDULER_INTERVAL_SECONDS, default 60. A job still runs once per interval across
   * all processes (server/scheduled-jobs.ts).
   */
  schedulerIntervalMs: number;
  /**
   * The outbox's first wait after a failed attempt (OUTBOX_RETRY_SECONDS, default 60); each
   * next wait doubles, up to 2 hours, for 24 hours (docs/decisions/044).
   */
  outboxRetryMs: number;
  /**
   * How long a message being sent stays claimed (OUTBOX_CLAIM_SECONDS, default 300): a claim
   * older than this is presumed to belong to a dead process and the message is sent again,
   * with the same Message-ID.
   */
  outboxClaimMs: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  const dataDir = path.resolve(env.DATA_DIR ?? "./data");
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, "");
  const storage = parseStorageUrl(env.STORAGE_URL, env);
  return {
    port,
    host: env.HOST?.trim() || "0.0.0.0",
    databaseUrl: env.DATABASE_URL ?? `file:${path.join(dataDir, "shop.db")}`,
    dataDir,
    uploadsDir: storage.kind === "file" ? storage.dir : path.resolve(env.UPLOADS_DIR || "./uploads"),
    storage,
    sessionSecret: env.SESSION_SECRET || sessionSecretFromDataDir(dataDir),
    shopOwnerEmail: env.SHOP_OWNER_EMAIL?.trim().toLowerCase() || null,
    smtpUrl: env.SMTP_URL || null,
    publicUrl,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    geoipDb: env.GEOIP_DB?.trim() ? path.resolve(env.GEOIP_DB.trim()) : null,
    geoipPollMs: parseSeconds("GEOIP_POLL_SECONDS", env.GEOIP_POLL_SECONDS, 60, 3600) * 1000,
    seedDemo: env.SEED_DEMO === undefined || env.SEED_DEMO === "" ? undefined : isOn(env.SEED_DEMO),
    secureCookies: publicUrl.startsWith("https://"),
    emailVerification: isOn(env.EMAIL_VERIFICATION),
    adminSetupToken: env.ADMIN_SETUP_TOKEN?.trim() || null,
    metricsToken: parseMetricsToken(env.METRICS_TOKEN),
    rateLimitAddressFactor: Math.max(1, Number(env.RATE_LIMIT_ADDRESS_FACTOR) || 1),
    demoMode:
      env.DEMO_MODE === undefined || env.DEMO_MODE.trim() === "" ? isLocalAddress(env.PUBLIC_URL) : isOn(env.DEMO_MODE),
    pageCacheBytes: parsePageCacheMb(env.PAGE_CACHE_MB) * 1024 * 1024,
    paymentWindowHours: parsePaymentWindowHours(env.PAYMENT_WINDOW_HOURS),
    schedulerIntervalMs: parseSeconds("SCHEDULER_INTERVAL_SECONDS", env.SCHEDULER_INTERVAL_SECONDS, 60, 3600) * 1000,
    outboxRetryMs: parseSeconds("OUTBOX_RETRY_SECONDS", env.OUTBOX_RETRY_SECONDS, 60, 7200) * 1000,
    outboxClaimMs:
      parseSeconds("OUTBOX_CLAIM_SECONDS", env.OUTBOX_CLAIM_SECONDS, DEFAULT_OUTBOX_CLAIM_SECONDS, 86_400) * 1000,
  };
}

/** METRICS_TOKEN: unset or empty is none; a short one (guessable) stops the start. */
export function parseMetricsToken(value: string | undefined): string | null {
  const token = value?.trim() ?? "";
  if (token === "") return null;
  if (token.length < 16 || /\s/.test(token)) {
    throw new Error("METRICS_TOKEN must be at least 16 characters with no spaces (openssl rand -hex 32 makes one)");
  }
  return token;
}

/** How long a message being sent stays claimed unless OUTBOX_CLAIM_SECONDS says otherwise. */
export const DEFAULT_OUTBOX_CLAIM_SECONDS = 300;

/**
 * A duration setting in whole seconds, from 1 to `max`; unset or empty is `fallback`. Anything
 * else stops the start with one sentence naming the setting.
 */
export function parseSeconds(name: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const seconds = Number(value.trim());
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > max) {
    throw new Error(`${name} must be a whole number of seconds from 1 to ${max}, not "${value}"`);
  }
  return seconds;
}

/** PAGE_CACHE_MB: whole megabytes, 0 (off) to 4096; unset or empty is 32. */
export function parsePageCacheMb(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return 32;
  const mb = Number(value.trim());
  if (!Number.isInteger(mb) || mb < 0 || mb > 4096) {
    throw new Error(`PAGE_CACHE_MB must be a whole number of megabytes from 0 (off) to 4096, not "${value}"`);
  }
  return mb;
}

/** The longest payment window, in hours (30 days): the setting and an admin's extension alike. */
export const MAX_PAYMENT_WINDOW_HOURS = 720;
export const DEFAULT_PAYMENT_WINDOW_HOURS = 48;

/** PAYMENT_WINDOW_HOURS: whole hours from 1 to 720; unset or empty is 48. */
export function parsePaymentWindowHours(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return DEFAULT_PAYMENT_WINDOW_HOURS;
  const hours = Number(value.trim());
  if (!Number.isInteger(hours) || hours < 1 || hours > MAX_PAYMENT_WINDOW_HOURS) {
    throw new Error(
      `PAYMENT_WINDOW_HOURS must be a whole number of hours from 1 to ${MAX_PAYMENT_WINDOW_HOURS}, not "${value}"`,
    );
  }
  return hours;
}

export type StorageConfig =
  | { kind: "file"; dir: string }
  | { kind: "s3"; bucket: string; endpoint?: string; region: string; forcePathStyle: boolean };

const STORAGE_URL_FORMS = "file:./uploads or s3://BUCKET?endpoint=…&region=…&forcePathStyle=true";
const S3_PARAMS = new Set(["endpoint", "region", "forcePathStyle"]);
/** S3's bucket naming rules (3-63 characters: lowercase letters, digits, dots and hyphens). */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function storageUrlError(reason: string): Error {
  return new Error(`STORAGE_URL ${reason}: use ${STORAGE_URL_FORMS}.`);
}

/**
 * STORAGE_URL: unset or empty means the disk folder UPLOADS_DIR (default ./uploads);
 * `file:<folder>` a disk folder; `s3://BUCKET?endpoint=&region=&forcePathStyle=` one bucket of
 * any S3-compatible service, with credentials from the AWS SDK's default chain
 * (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY). Anything else stops the start with one sentence
 * (the value itself is not repeated: it may hold secrets).
 */
export function parseStorageUrl(value: string | undefined, env: NodeJS.ProcessEnv = {}): StorageConfig {
  const raw = value?.trim() ?? "";
  if (!raw) return { kind: "file", dir: path.resolve(env.UPLOADS_DIR || "./uploads") };
  if (raw.startsWith("file:")) {
    let folder = raw.slice("file:".length);
    if (folder.startsWith("//")) {
      try {
        folder = fileURLToPath(raw);
      } catch {
        throw storageUrlError("is not a usable file: URL");
      }
    }
    if (!folder) throw storageUrlError("names no folder");
    return { kind: "file", dir: path.resolve(folder) };
  }
  if (!raw.startsWith("s3://")) throw storageUrlError("has an unknown scheme");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw storageUrlError("is not a valid URL");
  }
  if (url.username || url.password) {
    throw storageUrlError("must not hold credentials (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)");
  }
  const bucket = url.hostname;
  if (!BUCKET_NAME.test(bucket) || bucket.includes("..")) throw storageUrlError("names no valid bucket");
  if (url.port || (url.pathname !== "" && url.pathname !== "/")) {
    throw storageUrlError("has a port or path after the bucket (put the server address in ?endpoint=)");
  }
  for (const name of url.searchParams.keys()) {
    if (!S3_PARAMS.has(name)) throw storageUrlError(`has an unknown parameter "${name}"`);
  }
  const endpoint = url.searchParams.get("endpoint")?.trim() || undefined;
  if (endpoint !== undefined) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(endpoint);
    } catch {
      parsed = null;
    }
    if (!parsed || !["http:", "https:"].includes(parsed.protocol)) {
      throw storageUrlError("has an endpoint that is not an http(s) address");
    }
  }
  const region = url.searchParams.get("region")?.trim() || env.AWS_REGION?.trim() || "us-east-1";
  if (!/^[a-z0-9-]+$/i.test(region)) throw storageUrlError("has an invalid region");
  const style = (url.searchParams.get("forcePathStyle") ?? "").trim().toLowerCase();
  if (!["", "true", "false", "1", "0"].includes(style))
    throw storageUrlError("has forcePathStyle other than true or false");
  return {
    kind: "s3",
    bucket,
    ...(endpoint ? { endpoint } : {}),
    region,
    forcePathStyle: style === "true" || style === "1",
  };
}

/**
 * Demo mode's default: on while the shop has no public address of its own (PUBLIC_URL unset, or
 * a loopback host), off once it is served at its real address.
 */
function isLocalAddress(publicUrl: string | undefined): boolean {
  if (!publicUrl?.trim()) return true;
  let host: string;
  try {
    host = new URL(publicUrl.trim()).hostname;
  } catch {
    return false;
  }
  return ["localhost", "127.0.0.1", "[::1]", "::1"].includes(host.toLowerCase());
}

/**
 * TRUST_PROXY: off (default), on (every proxy: the left-most X-Forwarded-For address, right for a
 * proxy that overwrites the header), a number of proxies in front (1 for one load balancer: the
 * address it saw, which a shopper cannot forge), or a comma-separated list of proxy addresses,
 * CIDR ranges or Express's names (loopback, linklocal, uniquelocal). A malformed list stops the
 * start (Express refuses it).
 */
export function parseTrustProxy(value: string | undefined): boolean | number | string {
  const text = (value ?? "").trim();
  if (text === "" || ["0", "false", "off", "no"].includes(text.toLowerCase())) return false;
  if (isOn(text)) return text === "1" ? 1 : true;
  if (/^\d+$/.test(text)) return Number(text);
  return text;
}

function isOn(value: string | undefined): boolean {
  return ["1", "true", "on", "yes"].includes((value ?? "").trim().toLowerCase());
}

/**
 * A secret generated on first start and kept in the data folder, so restarts keep sessions
 * without the operator having to invent one.
 */
function sessionSecretFromDataDir(dataDir: string): string {
  const file = path.join(dataDir, "session-secret");
  try {
    const existing = fs.readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return existing;
  } catch {
    // first start
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = crypto.randomBytes(32).toString("base64url");
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
