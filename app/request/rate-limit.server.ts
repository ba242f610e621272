import type { DB } from "#db/connect.server";
import { stockAlertsPerAddress } from "~/models/products/stock-alerts.server";
import { RateLimiter } from "~/models/rate-limits.server";

export { RateLimiter };

/*
 * The limiters of sign-in, sign-up and password resets: who may try again when (the counters are
 * app/models/rate-limits.server.ts). The back-in-stock limiters live with their model
 * (app/models/products/stock-alerts.server.ts).
 */
const FIFTEEN_MINUTES = 15 * 60 * 1000;

/** Failed sign-ins per account: 5 in 15 minutes, then wait (never a permanent lock-out). */
export const signInFailuresPerAccount = new RateLimiter("sign-in-account", 5, FIFTEEN_MINUTES);
/** Sign-in attempts per client address. */
export const signInAttemptsPerAddress = new RateLimiter("sign-in-address", 30, FIFTEEN_MINUTES);
/**
 * Seconds a sign-in to `account` from `ip` must wait before its password is checked (0: go on).
 * A locked account's attempt is refused without counting against the address; otherwise the
 * attempt counts against the address here. Both sign-in forms (shop and admin) start with it.
 */
export async function signInWait(db: DB, account: string, ip: string): Promise<number> {
  const accountWait = await signInFailuresPerAccount.retryAfter(db, account);
  return accountWait > 0
    ? Math.max(accountWait, await signInAttemptsPerAddress.retryAfter(db, ip))
    : signInAttemptsPerAddress.hit(db, ip);
}
/** Sign-ups per client address. */
export const signUpsPerAddress = new RateLimiter("sign-up-address", 10, 60 * 60 * 1000);
/** Password-reset e-mails per client address. */
export const passwordResetsPerAddress = new RateLimiter("password-reset-address", 5, FIFTEEN_MINUTES);

/**
 * Scales the per-address limits (RATE_LIMIT_ADDRESS_FACTOR): a shop whose visitors share one
 * address (a school, an office) may raise them, and the browser tests, whose every request
 * comes from 127.0.0.1, do. The per-account limit never changes. Only the limits change (each
 * process sets them from its own configuration at start); the counters stay in the database.
 */
export function scaleAddressLimits(factor: number): void {
  if (!Number.isFinite(factor) || factor < 1) return;
  signInAttemptsPerAddress.limit = Math.round(30 * factor);
  signUpsPerAddress.limit = Math.round(10 * factor);
  passwordResetsPerAddress.limit = Math.round(5 * factor);
  stockAlertsPerAddress.limit = Math.round(20 * factor);
}
