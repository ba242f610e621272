import type { DB } from "#db/connect.server";

/**
 * Fixed-window counters in the database (table rate_limit_hits, docs/decisions/027), so every app
 * process serving one shop shares them. Used to throttle sign-in, sign-up and password resets.
 *
 * Each hit is one atomic statement, a portable upsert (SQLite and PostgreSQL both have
 * `insert … on conflict do update … returning`): it starts a new window when the stored one has
 * ended, else adds one, and returns the count. Two processes hitting the same key at once are
 * serialised by the database on the row, so both hits count and at most `limit` are let through.
 *
 * `at` (milliseconds since the epoch) is the clock, injectable for tests.
 */
export class RateLimiter {
  /** Hits since this process last deleted expired rows. */
  private sincePrune = 0;

  constructor(
    /** Namespaces the stored keys: one table serves every limiter. */
    readonly name: string,
    public limit: number,
    readonly windowMs: number,
  ) {}

  private key(key: string): string {
    return `${this.name}:${key}`;
  }

  /**
   * Counts one attempt by `key` and answers whether it is over the limit: the seconds to wait,
   * or 0 when this attempt may go ahead. A refused attempt still counts, but never moves the end
   * of the window, so the wait is the same as if it had not been made.
   */
  async hit(db: DB, key: string, at = Date.now()): Promise<number> {
    const row = await this.hitStatement(db, key, at).executeTakeFirstOrThrow();
    if (++this.sincePrune >= 100) {
      this.sincePrune = 0;
      await this.prune(db, at);
    }
    return this.wait(Number(row.count), row.reset_at, at);
  }

  /**
   * The one statement of a hit: an upsert that starts a new window when the stored one has ended,
   * else adds one, and returns the new count and the window's end. (Public so the tests can run
   * it from other threads.)
   */
  hitStatement(db: DB, key: string, at: number) {
    const now = new Date(at).toISOString();
    const resetAt = new Date(at + this.windowMs).toISOString();
    return db
      .insertInto("rate_limit_hits")
      .values({ key: this.key(key), count: 1, reset_at: resetAt })
      .onConflict((oc) =>
        oc.column("key").doUpdateSet((eb) => {
          const expired = eb("rate_limit_hits.reset_at", "<=", now);
          return {
            count: eb
              .case()
              .when(expired)
              .then(1)
              .else(eb("rate_limit_hits.count", "+", 1))
              .end(),
            reset_at: eb
              .case()
              .when(expired)
              .then(eb.ref("excluded.reset_at"))
              .else(eb.ref("rate_limit_hits.reset_at"))
              .end(),
          };
        }),
      )
      .returning(["count", "reset_at"]);
  }

  /** Whether `key` has used up its attempts (without counting one): the seconds to wait, or 0. */
  async retryAfter(db: DB, key: string, at = Date.now()): Promise<number> {
    const row = await db
      .selectFrom("rate_limit_hits")
      .select(["count", "reset_at"])
      .where("key", "=", this.key(key))
      .executeTakeFirst();
    return row ? this.wait(Number(row.count) + 1, row.reset_at, at) : 0;
  }

  async isLimited(db: DB, key: string, at = Date.now()): Promise<boolean> {
    return (await this.retryAfter(db, key, at)) > 0;
  }

  /** Forgets `key`'s attempts (a successful sign-in clears the account's failures). */
  async reset(db: DB, key: string): Promise<void> {
    await db.deleteFrom("rate_limit_hits").where("key", "=", this.key(key)).execute();
  }

  /** Deletes every ended window (of every limiter): done now and then on a hit; one indexed delete. */
  async prune(db: DB, at = Date.now()): Promise<void> {
    await db.deleteFrom("rate_limit_hits").where("reset_at", "<=", new Date(at).toISOString()).execute();
  }

  /** The wait for the `count`-th attempt in a window ending at `resetAt`. */
  private wait(count: number, resetAt: string, at: number): number {
    const end = Date.parse(resetAt);
    if (end <= at || count <= this.limit) return 0;
    return Math.ceil((end - at) / 1000);
  }
}

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

/** Back-in-stock alert requests per client address (docs/decisions/055). */
export const stockAlertsPerAddress = new RateLimiter("stock-alert-address", 20, 60 * 60 * 1000);
/** Back-in-stock alert e-mails (confirmation or acknowledgement) per e-mail address: the shop is no mail cannon. */
export const stockAlertMailsPerEmail = new RateLimiter("stock-alert-email", 5, 24 * 60 * 60 * 1000);

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
