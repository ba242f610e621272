import type { DB } from "#db/connect.server";

/**
 * Fixed-window counters in the database (table rate_limit_hits, docs/decisions/027; the limiters are app/request/rate-limit.server.ts), so every app
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
