import { describe, expect, it } from "vitest";
import { limiter, RECEIPT_SLOTS } from "~/lib/receipt-images.server";

describe("receipt re-encoding slots", () => {
  it("runs at most `slots` tasks at once, the rest in arrival order, and frees a slot on failure", async () => {
    const run = limiter(2);
    let active = 0;
    let peak = 0;
    const order: number[] = [];
    const task = (n: number, fail = false) =>
      run(async () => {
        active++;
        peak = Math.max(peak, active);
        await new Promise((resolve) => setTimeout(resolve, 5));
        active--;
        order.push(n);
        if (fail) throw new Error(`task ${n}`);
        return n;
      });
    const results = await Promise.allSettled([task(1, true), task(2), task(3), task(4), task(5)]);
    expect(peak).toBe(2);
    expect(order).toEqual([1, 2, 3, 4, 5]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "fulfilled", "fulfilled", "fulfilled", "fulfilled"]);
    expect(await run(async () => "free again")).toBe("free again");
  });

  it("sizes the slots to the cores, leaving a thread of libuv's pool free", () => {
    expect(RECEIPT_SLOTS).toBeGreaterThanOrEqual(1);
    expect(RECEIPT_SLOTS).toBeLessThanOrEqual(3);
  });
});
