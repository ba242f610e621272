import type { Pool } from "pg";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { type DB, databasePool } from "#db/connect.server";
import type { OutboxChannel, OutboxStatus } from "#db/schema";

/**
 * The shop's Prometheus metrics (docs/decisions/063): one registry per process, its families
 * named `shop_…` (Node's process metrics keep their standard names). The code that does the
 * work bumps a counter here (a page-cache hit, an order placed, a failed delivery); gauges that
 * describe the database (the outbox's depth, the pool) are read when `/metrics` is scraped.
 * server/metrics.ts serves them, summed over the cluster's workers.
 *
 * A new metric: declare it below with `registers: [metrics]`, a `shop_` name, a help text and
 * only bounded labels (never an id, a path or an address), bump it where the thing happens, and
 * add it to the README's list (Going live → Metrics) and tests/metrics.test.ts.
 */
export const metrics = new Registry();

/** The request histogram's upper bounds, in seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const requestDuration = new Histogram({
  name: "shop_http_request_duration_seconds",
  help: "Time from a request's arrival to its answer's last byte, by route pattern, method and status class.",
  labelNames: ["route", "method", "status"] as const,
  buckets: DURATION_BUCKETS,
  registers: [metrics],
});

const pageCacheRequests = new Counter({
  name: "shop_page_cache_requests_total",
  help: "Anonymous catalogue pages looked up in the page cache: answered from it (hit) or rendered (miss).",
  labelNames: ["result"] as const,
  registers: [metrics],
});
const pageCacheHits = pageCacheRequests.labels({ result: "hit" });
const pageCacheMisses = pageCacheRequests.labels({ result: "miss" });
pageCacheRequests.inc({ result: "hit" }, 0);
pageCacheRequests.inc({ result: "miss" }, 0);

export function countPageCache(hit: boolean): void {
  (hit ? pageCacheHits : pageCacheMisses).inc();
}

const jobRuns = new Counter({
  name: "shop_scheduled_job_runs_total",
  help: "Runs of each scheduled job (in the process that claimed it), failed ones included.",
  labelNames: ["job"] as const,
  registers: [metrics],
});
const jobFailures = new Counter({
  name: "shop_scheduled_job_failures_total",
  help: "Runs of each scheduled job that failed (it runs again at the next interval).",
  labelNames: ["job"] as const,
  registers: [metrics],
});

/** Every job shows (at 0) from the start, so an alert on failures has a series to watch. */
export function declareJobs(names: readonly string[]): void {
  for (const job of names) {
    jobRuns.inc({ job }, 0);
    jobFailures.inc({ job }, 0);
  }
}

export function countJobRun(job: string, failed: boolean): void {
  jobRuns.inc({ job });
  if (failed) jobFailures.inc({ job });
}

const CHANNELS: readonly OutboxChannel[] = ["email", "webhook"];
/** The outbox's waiting states: due or waiting to be tried again, being sent, given up on. */
const WAITING: readonly OutboxStatus[] = ["pending", "sending", "failed"];

const deliveryFailures = new Counter({
  name: "shop_outbox_delivery_failures_total",
  help: "Outbox delivery attempts that failed (the message is tried again later, or marked failed).",
  labelNames: ["channel"] as const,
  registers: [metrics],
});
for (const channel of CHANNELS) deliveryFailures.inc({ channel }, 0);

export function countDeliveryFailure(channel: OutboxChannel): void {
  deliveryFailures.inc({ channel });
}

const ordersPlaced = new Counter({
  name: "shop_orders_placed_total",
  help: "Orders placed (counted once the order's transaction committed; a repeated submission is not counted).",
  registers: [metrics],
});
const ordersPaid = new Counter({
  name: "shop_orders_paid_total",
  help: "Orders marked paid by an admin (once the change committed).",
  registers: [metrics],
});

export function countOrderPlaced(): void {
  ordersPlaced.inc();
}

export function countOrderPaid(): void {
  ordersPaid.inc();
}

/** The database the scrape-time gauges read; set once per process by `watchDatabase`. */
let watched: DB | null = null;

/** Longest a scrape waits for the outbox count before it answers without it. */
const OUTBOX_QUERY_TIMEOUT_MS = 2_000;

new Gauge({
  name: "shop_outbox_messages",
  help: "Outbox messages not yet delivered, by status (pending: due or waiting for a retry; sending; failed: given up) and channel.",
  labelNames: ["status", "channel"] as const,
  // Every worker reads the same table: the cluster's answer is one reading, not their sum.
  aggregator: "max",
  registers: [metrics],
  async collect() {
    this.reset();
    const db = watched;
    if (!db) return;
    // After the pool's gauges are read (in this same scrape): its own query is not counted as waiting.
    await new Promise((resolve) => setImmediate(resolve));
    const counts = new Map<string, number>();
    try {
      const rows = await withTimeout(
        db
          .selectFrom("outbox_messages")
          .select(["status", "channel", db.fn.countAll<number>().as("count")])
          .where("status", "in", WAITING)
          .groupBy(["status", "channel"])
          .execute(),
        OUTBOX_QUERY_TIMEOUT_MS,
      );
      for (const row of rows) counts.set(`${row.status} ${row.channel}`, Number(row.count));
    } catch {
      // The database does not answer: the gauge has no value (absent, rather than a false 0);
      // /readyz says why.
      return;
    }
    for (const status of WAITING) {
      for (const channel of CHANNELS) this.set({ status, channel }, counts.get(`${status} ${channel}`) ?? 0);
    }
  },
});

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms}ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/*
 * The PostgreSQL pool of this process (`DATABASE_POOL_SIZE` connections at most). Registered
 * only on PostgreSQL: SQLite has no pool (one connection per process, used in turn).
 */
let pool: Pool | null = null;

const poolInUse = new Gauge({
  name: "shop_db_pool_connections_in_use",
  help: "PostgreSQL connections of the pool running a query or a transaction.",
  registers: [],
  collect() {
    if (pool) this.set(pool.totalCount - pool.idleCount);
  },
});
const poolIdle = new Gauge({
  name: "shop_db_pool_connections_idle",
  help: "PostgreSQL connections of the pool open and idle.",
  registers: [],
  collect() {
    if (pool) this.set(pool.idleCount);
  },
});
const poolWaiting = new Gauge({
  name: "shop_db_pool_waiting_requests",
  help: "Queries waiting for a PostgreSQL connection (the pool is at DATABASE_POOL_SIZE).",
  registers: [],
  collect() {
    if (pool) this.set(pool.waitingCount);
  },
});

/**
 * Points the scrape-time gauges at this process's database (the outbox's depth; the pool on
 * PostgreSQL). Once per server process.
 */
export function watchDatabase(db: DB): void {
  watched = db;
  pool = databasePool(db);
  if (pool && !metrics.getSingleMetric("shop_db_pool_connections_in_use")) {
    for (const gauge of [poolInUse, poolIdle, poolWaiting]) metrics.registerMetric(gauge);
  }
}

let processMetrics = false;

/** Node's standard process metrics (CPU, memory, event loop lag, GC…), once per process. */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: metrics });
}
