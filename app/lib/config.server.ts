import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** Everything the server reads from the environment, with defaults that work out of the box. */
export interface Config {
  port: number;
  databaseUrl: string;
  dataDir: string;
  uploadsDir: string;
  sessionSecret: string;
  shopOwnerEmail: string | null;
  smtpUrl: string | null;
  publicUrl: string;
  trustProxy: boolean;
  /** undefined: seed only when the database is empty. */
  seedDemo: boolean | undefined;
  secureCookies: boolean;
  /** New accounts must confirm their e-mail before signing in (needs working e-mail). */
  emailVerification: boolean;
  /** Fixed first-admin setup token (tests, scripted installs); otherwise one is generated at start. */
  adminSetupToken: string | null;
  /** Multiplies the per-address sign-in, sign-up and reset limits. */
  rateLimitAddressFactor: number;
  /**
   * A demonstration shop: the demo bank account may be shown to shoppers (marked as a demo).
   * Off, a shop whose primary account is still the demo one (or that has none) takes no orders.
   */
  demoMode: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  const dataDir = path.resolve(env.DATA_DIR ?? "./data");
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, "");
  return {
    port,
    databaseUrl: env.DATABASE_URL ?? `file:${path.join(dataDir, "shop.db")}`,
    dataDir,
    uploadsDir: path.resolve(env.UPLOADS_DIR ?? "./uploads"),
    sessionSecret: env.SESSION_SECRET || sessionSecretFromDataDir(dataDir),
    shopOwnerEmail: env.SHOP_OWNER_EMAIL?.trim().toLowerCase() || null,
    smtpUrl: env.SMTP_URL || null,
    publicUrl,
    trustProxy: isOn(env.TRUST_PROXY),
    seedDemo: env.SEED_DEMO === undefined || env.SEED_DEMO === "" ? undefined : isOn(env.SEED_DEMO),
    secureCookies: publicUrl.startsWith("https://"),
    emailVerification: isOn(env.EMAIL_VERIFICATION),
    adminSetupToken: env.ADMIN_SETUP_TOKEN?.trim() || null,
    rateLimitAddressFactor: Math.max(1, Number(env.RATE_LIMIT_ADDRESS_FACTOR) || 1),
    demoMode:
      env.DEMO_MODE === undefined || env.DEMO_MODE.trim() === "" ? isLocalAddress(env.PUBLIC_URL) : isOn(env.DEMO_MODE),
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
