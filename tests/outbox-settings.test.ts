import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { loadConfig } from "~/lib/config.server";
import { logger } from "~/lib/log.server";
import type { Mailer } from "~/lib/mail.server";
import { renderLocalizedEmail } from "~/lib/mail.server";
import { CLAIM_MS, deliverDueMessages } from "~/models/outbox/deliver.server";
import { queueEmail } from "~/models/outbox/queue.server";
import { DEFAULT_SHOP } from "~/models/settings/shop.server";
import { JOB_INTERVAL_MS, jobClaimMs, startScheduledJobs } from "../server/scheduled-jobs";
import { freshTestServices } from "./setup/db";

/*
 * The operator's clock of the outbox (docs/decisions/044, "Settings"): SCHEDULER_INTERVAL_SECONDS,
 * OUTBOX_RETRY_SECONDS and OUTBOX_CLAIM_SECONDS, read by loadConfig. The reliability spec
 * (tests/reliability/outbox.spec.ts) runs the production build with them short; here, what each
 * changes and what is refused.
 */

const SECRET = { SESSION_SECRET: "x".repeat(40) };

describe("the settings", () => {
  test("default to a minute's scheduler, a minute's first retry and a five-minute claim", () => {
    const config = loadConfig(SECRET);
    expect(config.schedulerIntervalMs).toBe(JOB_INTERVAL_MS);
    expect(config.outboxRetryMs).toBe(60_000);
    expect(config.outboxClaimMs).toBe(CLAIM_MS);
    expect(CLAIM_MS).toBe(5 * 60_000);
  });

  test("are whole seconds; anything else stops the start naming the setting", () => {
    const config = loadConfig({
      ...SECRET,
      SCHEDULER_INTERVAL_SECONDS: " 5 ",
      OUTBOX_RETRY_SECONDS: "2",
      OUTBOX_CLAIM_SECONDS: "",
    });
    expect([config.schedulerIntervalMs, config.outboxRetryMs, config.outboxClaimMs]).toEqual([5_000, 2_000, CLAIM_MS]);
    for (const [name, value] of [
      ["SCHEDULER_INTERVAL_SECONDS", "0"],
      ["SCHEDULER_INTERVAL_SECONDS", "3601"],
      ["OUTBOX_RETRY_SECONDS", "1.5"],
      ["OUTBOX_RETRY_SECONDS", "7201"],
      ["OUTBOX_CLAIM_SECONDS", "five"],
      ["OUTBOX_CLAIM_SECONDS", "-1"],
    ]) {
      expect(() => loadConfig({ ...SECRET, [name as string]: value }), `${name}=${value}`).toThrow(
        new RegExp(`^${name} must be a whole number of seconds`),
      );
    }
  });

  test("a job's claim lasts a little less than the scheduler's interval", () => {
    expect(jobClaimMs(60_000)).toBe(55_000);
    expect(jobClaimMs(1_000)).toBe(500);
  });
});

describe("the outbox follows them", () => {
  beforeEach(() => {
    vi.spyOn(logger, "error").mockImplementation(() => undefined);
    vi.spyOn(logger, "warn").mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  async function queued(svc: Awaited<ReturnType<typeof freshTestServices>>, at: Date): Promise<string> {
    const message = await renderLocalizedEmail(DEFAULT_SHOP, "buyer@example.com", "en", () => ({
      subject: "Order ORD-1 received",
      heading: "Hello",
      paragraphs: ["Thanks."],
    }));
    return queueEmail(svc.db, message, { event: "order.placed", audience: "customer", language: "en" }, at);
  }

  test("OUTBOX_RETRY_SECONDS is the first wait after a failure, doubling after each", async () => {
    const svc = await freshTestServices({ outboxRetryMs: 3_000 });
    const refusing: Mailer = {
      async send() {
        throw new Error("451 try again later");
      },
    };
    const start = new Date();
    const id = await queued(svc, start);
    let at = start;
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      expect(await deliverDueMessages({ ...svc, mailer: refusing }, at)).toMatchObject({ retry: 1 });
      const next = await svc.db
        .selectFrom("outbox_messages")
        .select("next_attempt_at")
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      waits.push(Date.parse(next.next_attempt_at) - at.getTime());
      at = new Date(next.next_attempt_at);
    }
    expect(waits).toEqual([3_000, 6_000, 12_000]);
  });

  test("OUTBOX_CLAIM_SECONDS is how long a claim holds a message whose send never ends", async () => {
    const svc = await freshTestServices({ outboxClaimMs: 4_000 });
    const start = new Date();
    const id = await queued(svc, start);
    // A process claims it and hangs in the send (then dies: nothing settles it).
    const hanging: Mailer = { send: () => new Promise<void>(() => undefined) };
    void deliverDueMessages({ ...svc, mailer: hanging }, start);
    await vi.waitFor(async () => {
      const claimed = await svc.db
        .selectFrom("outbox_messages")
        .select(["status", "claimed_until"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      expect(claimed).toEqual({ status: "sending", claimed_until: new Date(start.getTime() + 4_000).toISOString() });
    });
    expect(await deliverDueMessages(svc, new Date(start.getTime() + 3_999))).toMatchObject({ sent: 0 });
    expect(await deliverDueMessages(svc, new Date(start.getTime() + 4_000))).toMatchObject({ sent: 1 });
    expect(svc.mailer.sent).toHaveLength(1);
  });

  test("a claim made late in a long pass still holds for its whole length (a backlog after an outage)", async () => {
    const svc = await freshTestServices({ outboxClaimMs: 2_000 });
    const start = new Date();
    await queued(svc, start);
    const second = await queued(svc, start);
    // Each send takes over a second: the second message is claimed more than a second into the pass.
    const slow: Mailer = {
      async send() {
        await new Promise((resolve) => setTimeout(resolve, 1_100));
      },
    };
    const pass = deliverDueMessages({ ...svc, mailer: slow }, start);
    const claimOf = async (id: string) =>
      (
        await svc.db
          .selectFrom("outbox_messages")
          .select(["status", "claimed_until"])
          .where("id", "=", id)
          .executeTakeFirstOrThrow()
      ).claimed_until;
    await vi.waitFor(async () => expect(await claimOf(second)).not.toBeNull(), { timeout: 5_000 });
    // Claimed from the pass's clock, not from its start: another process does not take it as stale.
    expect(Date.parse((await claimOf(second)) ?? "")).toBeGreaterThanOrEqual(start.getTime() + 3_000);
    expect(await pass).toMatchObject({ sent: 2 });
  });

  test("SCHEDULER_INTERVAL_SECONDS is how often each process's scheduler wakes", async () => {
    const svc = await freshTestServices({ schedulerIntervalMs: 2_000 });
    const setInterval = vi.spyOn(globalThis, "setInterval");
    const scheduler = startScheduledJobs(svc);
    await scheduler.stop();
    expect(setInterval).toHaveBeenCalledWith(expect.any(Function), 2_000);
  });
});
