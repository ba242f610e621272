import { afterEach, describe, expect, it } from "vitest";
import { deliverOnWake, wakeOutbox } from "~/models/outbox/wake.server";

/*
 * Decision 073: the "send it now" pass after a message is queued waits while the process is busy
 * answering requests (50 payments at once), up to a second, then runs.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Keeps the event loop busy for `ms`: 40 ms of work in every 45 ms. */
async function busyFor(ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const spin = Date.now() + 40;
    while (Date.now() < spin) {
      // busy
    }
    await sleep(5);
  }
}

let stop: (() => Promise<void>) | null = null;
afterEach(async () => {
  await stop?.();
  stop = null;
});

function countPasses() {
  const passes: number[] = [];
  const started = Date.now();
  stop = deliverOnWake(async () => {
    passes.push(Date.now() - started);
  }).stop;
  return passes;
}

describe("the outbox's send-now pass", () => {
  it("runs about 50 ms after a message is queued when the process is idle", async () => {
    const passes = countPasses();
    wakeOutbox();
    await sleep(400);
    expect(passes).toHaveLength(1);
    expect(passes[0]).toBeLessThan(300);
  });

  it("waits while the event loop is busy, and runs once it is quiet", async () => {
    const passes = countPasses();
    wakeOutbox();
    await busyFor(500);
    expect(passes).toEqual([]);
    await sleep(300);
    expect(passes).toHaveLength(1);
  });

  it("runs within about a second even when the process stays busy", async () => {
    const passes = countPasses();
    wakeOutbox();
    await busyFor(1_400);
    expect(passes).toHaveLength(1);
    expect(passes[0]).toBeGreaterThanOrEqual(1_000);
  });
});
