import { performance } from "node:perf_hooks";
import { logger } from "~/lib/log.server";

/*
 * "Send it now" inside one process. A message queued in a transaction is picked up by the
 * scheduler's next run at the latest (a minute); a process that serves requests also runs a
 * delivery pass right after it queues one, so a shopper's confirmation and the shop's alert leave
 * within a second. The pass cannot see a row whose transaction has not committed yet, so it looks
 * twice: at once and a little later. Each message is claimed by a compare-and-set
 * (deliver.server.ts), so passes in several processes never send one twice.
 */

type Pass = () => Promise<unknown>;

let pass: Pass | null = null;
let running: Promise<unknown> | null = null;
let again = false;
const timers = new Set<NodeJS.Timeout>();

/** The delays of the passes after a message is queued: after the commit, and once more. */
const WAKE_DELAYS_MS = [50, 2_000];

function runPass(): void {
  if (!pass) return;
  if (running) {
    again = true;
    return;
  }
  const current = pass;
  running = current()
    .catch((error) => logger.error({ err: error }, "outbox: delivery pass failed; the scheduler tries again"))
    .finally(() => {
      running = null;
      if (again && pass) {
        again = false;
        runPass();
      }
    });
}

/**
 * A pass waits while the process is busy answering requests (its event loop more than half used
 * since the last look), up to this long after it was due: building and sending the messages of
 * 20 orders placed at once took a third of the event loop while 50 payments were answered
 * (decision 073). They leave just after, still within about a second.
 */
const BUSY_DEFER_MAX_MS = 1_000;
const BUSY_LOOK_MS = 50;
const BUSY_UTILIZATION = 0.5;

function later(run: () => void, delay: number): void {
  const timer = setTimeout(() => {
    timers.delete(timer);
    run();
  }, delay);
  timer.unref();
  timers.add(timer);
}

/** runPass once the event loop is not busy, or at `deadline` (epoch ms) at the latest. */
function runPassWhenQuiet(deadline: number, since = performance.eventLoopUtilization()): void {
  const busy = performance.eventLoopUtilization(since).utilization > BUSY_UTILIZATION;
  if (busy && Date.now() < deadline) {
    const next = performance.eventLoopUtilization();
    later(() => runPassWhenQuiet(deadline, next), BUSY_LOOK_MS);
    return;
  }
  runPass();
}

/** Called by queueEmail / queueWebhookDelivery: delivery passes soon, in this process, if it delivers. */
export function wakeOutbox(): void {
  if (!pass) return;
  for (const delay of WAKE_DELAYS_MS) {
    const since = performance.eventLoopUtilization();
    later(() => runPassWhenQuiet(Date.now() + BUSY_DEFER_MAX_MS, since), delay);
  }
}

/**
 * Makes this process deliver right after it queues (the server at start). `stop()` cancels the
 * pending passes and waits for one in progress.
 */
export function deliverOnWake(deliveryPass: Pass): { stop(): Promise<void> } {
  pass = deliveryPass;
  return {
    async stop() {
      if (pass === deliveryPass) pass = null;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await running;
    },
  };
}
