/**
 * Fixed-window counters in memory: enough for one server process (a restart forgets them,
 * which only ever makes the shop more lenient). Used to throttle sign-in and sign-up.
 */
export class RateLimiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();

  constructor(
    public limit: number,
    readonly windowMs: number,
  ) {}

  /** Whether `key` has used up its attempts; returns the seconds to wait, or 0. */
  retryAfter(key: string, at = Date.now()): number {
    const entry = this.hits.get(key);
    if (!entry || entry.resetAt <= at) return 0;
    return entry.count >= this.limit ? Math.ceil((entry.resetAt - at) / 1000) : 0;
  }

  hit(key: string, at = Date.now()): void {
    const entry = this.hits.get(key);
    if (!entry || entry.resetAt <= at) {
      this.hits.set(key, { count: 1, resetAt: at + this.windowMs });
      if (this.hits.size > 50_000) this.prune(at);
    } else {
      entry.count++;
    }
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private prune(at: number): void {
    for (const [key, entry] of this.hits) if (entry.resetAt <= at) this.hits.delete(key);
  }
}

const FIFTEEN_MINUTES = 15 * 60 * 1000;

/** Failed sign-ins per account: 5 in 15 minutes, then wait (never a permanent lock-out). */
export const signInFailuresPerAccount = new RateLimiter(5, FIFTEEN_MINUTES);
/** Sign-in attempts per client address. */
export const signInAttemptsPerAddress = new RateLimiter(30, FIFTEEN_MINUTES);
/** Sign-ups per client address. */
export const signUpsPerAddress = new RateLimiter(10, 60 * 60 * 1000);
/** Password-reset e-mails per client address. */
export const passwordResetsPerAddress = new RateLimiter(5, FIFTEEN_MINUTES);

/**
 * Scales the per-address limits (RATE_LIMIT_ADDRESS_FACTOR): a shop whose visitors share one
 * address (a school, an office) may raise them, and the browser tests, whose every request
 * comes from 127.0.0.1, do. The per-account limit never changes.
 */
export function scaleAddressLimits(factor: number): void {
  if (!Number.isFinite(factor) || factor < 1) return;
  signInAttemptsPerAddress.limit = Math.round(30 * factor);
  signUpsPerAddress.limit = Math.round(10 * factor);
  passwordResetsPerAddress.limit = Math.round(5 * factor);
}
