import { type DB, now } from "#db/connect.server";
import { isDatabaseUnavailable } from "#db/errors";
import type { Services } from "~/context";
import { runPaymentDeadlines } from "~/models/orders/payment-deadlines.server";
import { runOutbox } from "~/models/outbox/deliver.server";
import { outboxRetentionDays } from "~/models/outbox/retention.server";
import { clearEndedSales } from "~/models/products/sale-prices.server";

/*
 * Work the shop does on a timer, inside its own processes (no cron to install). Every process
 * runs the timer; a run starts only in the process that claims the job's row in
 * `scheduled_jobs` (a compare-and-set on locked_until), so with several processes — one machine
 * or several — a job runs once a minute, not once per process. What a run does is safe to repeat
 * anyway: each order is claimed by its own compare-and-set (payment-deadlines.server.ts). A run
 * looks at everything already due, so the first run after a restart catches up on what fell due
 * while the shop was down.
 */

/** The scheduler's interval unless SCHEDULER_INTERVAL_SECONDS says otherwise (`config.schedulerIntervalMs`). */
export const JOB_INTERVAL_MS = 60_000;

/**
 * A claim lasts a little less than the interval (5 s less, or half of a short one), so the next
 * tick's timer in any process may claim again.
 */
export function jobClaimMs(intervalMs: number): number {
  return intervalMs - Math.min(5_000, intervalMs / 2);
}

const CLAIM_MS = jobClaimMs(JOB_INTERVAL_MS);

/**
 * Claims the job `name` at `at` for `claimMs`: true in exactly one of the processes that try at
 * once. The row is made on first use; on PostgreSQL the conditional update takes the row's lock,
 * and the second claimant re-reads the committed locked_until and finds it in the future.
 */
export async function claimJob(db: DB, name: string, at: Date, claimMs = CLAIM_MS): Promise<boolean> {
  const timestamp = now(at);
  await db
    .insertInto("scheduled_jobs")
    .values({ name, locked_until: now(new Date(0)) })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const claimed = await db
    .updateTable("scheduled_jobs")
    .set({ locked_until: now(new Date(at.getTime() + claimMs)), last_started_at: timestamp })
    .where("name", "=", name)
    .where("locked_until", "<=", timestamp)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

async function finishJob(db: DB, name: string, at: Date, result: unknown): Promise<void> {
  await db
    .updateTable("scheduled_jobs")
    .set({ last_finished_at: now(at), last_result: JSON.stringify(result) })
    .where("name", "=", name)
    .execute();
}

export interface ScheduledJob {
  name: string;
  run(services: Services, at: Date): Promise<unknown>;
}

export const JOBS: ScheduledJob[] = [
  {
    name: "payment-deadlines",
    run: ({ db, config }, at) => runPaymentDeadlines(db, config, at),
  },
  {
    // Every outgoing message: what is due (retries included), then sent ones past the owner's
    // retention (app/models/outbox/deliver.server.ts, retention.server.ts, docs/decisions/044).
    name: "outbox",
    run: async (services, at) => runOutbox(services, at, await outboxRetentionDays(services.db)),
  },
  {
    // Sales past their end lose their sale columns (the price already returned at the end by
    // itself: every query compares the end with now; docs/decisions/053).
    name: "sale-ends",
    run: ({ db }, at) => clearEndedSales(db, at),
  },
];

/** Claims and runs each job once at `at`; what each claimed job returned, by name. */
export async function runJobsOnce(
  services: Services,
  at: Date,
  jobs: ScheduledJob[] = JOBS,
): Promise<Record<string, unknown>> {
  const results: Record<string, unknown> = {};
  for (const job of jobs) {
    const claimMs = jobClaimMs(services.config.schedulerIntervalMs);
    if (!(await claimJob(services.db, job.name, at, claimMs))) continue;
    try {
      results[job.name] = await job.run(services, at);
      await finishJob(services.db, job.name, new Date(), results[job.name]);
    } catch (error) {
      // A lost database is one line, not a stack: the job's claim runs out by itself and the
      // next tick (any process) runs it again once the database is back (decision 065).
      if (isDatabaseUnavailable(error)) {
        console.error(
          `scheduled job ${job.name}: the database is unavailable (${(error as Error).message}); it runs again next tick`,
        );
      } else console.error(`scheduled job ${job.name} failed; it runs again next minute`, error);
      await finishJob(services.db, job.name, new Date(), { error: String(error) }).catch(() => {});
    }
  }
  return results;
}

/**
 * Runs the jobs now (the catch-up after a start) and then every minute (SCHEDULER_INTERVAL_SECONDS),
 * until `stop()`, which waits for a run in progress. The timer never keeps the process alive on
 * its own.
 */
export function startScheduledJobs(
  services: Services,
  options: { intervalMs?: number; clock?: () => Date } = {},
): { stop(): Promise<void> } {
  const clock = options.clock ?? (() => new Date());
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (stopped || running) return;
    running = runJobsOnce(services, clock())
      .catch((error) =>
        isDatabaseUnavailable(error)
          ? console.error(
              `scheduled jobs: the database is unavailable (${(error as Error).message}); trying again next tick`,
            )
          : console.error("scheduled jobs failed", error),
      )
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, options.intervalMs ?? services.config.schedulerIntervalMs);
  timer.unref();
  tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
