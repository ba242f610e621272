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

/** Called by queueEmail / queueWebhookDelivery: delivery passes soon, in this process, if it delivers. */
export function wakeOutbox(): void {
  if (!pass) return;
  for (const delay of WAKE_DELAYS_MS) {
    const timer = setTimeout(() => {
      timers.delete(timer);
      runPass();
    }, delay);
    timer.unref();
    timers.add(timer);
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
