import { type APIRequestContext, expect, test } from "@playwright/test";
import { apiSignUp, receiptJpeg, type UploadFile, uniqueEmail, uniquePassword } from "../e2e/fixtures";
import { killMidway, runs, type ScaleShop, type Shop, startScaleShop } from "./shop";
import {
  allReadyToPay,
  disposeShoppers,
  expectBurstAccounted,
  type PaymentOutcome,
  pay,
  type Shopper,
  signUpShoppers,
  tally,
  type Variant,
} from "./shoppers";

/**
 * Several processes of one shop (issue 16): two processes on one PostgreSQL database and one
 * S3 bucket (s3rver), behind a round-robin proxy that sends each request to the other
 * process. Started together on an empty database they migrate and seed it once; the sign-in
 * limit holds across them; and a kill -9 of one process in the middle of payments loses no
 * confirmed order, no receipt and no unit. (The purchase races on this layout are in
 * races.spec.ts; the browser flows in playwright.scale.config.ts.)
 */

const SHOPPERS = 20;
/** Fewer units than shoppers: some are refused for stock while the crash comes. */
const STOCK = 15;

test.describe.configure({ mode: "serial" });

let scale: ScaleShop | undefined;
const clients: APIRequestContext[] = [];
let shoppers: Shopper[] = [];
let receipt: UploadFile;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  scale = await startScaleShop("scale");
  receipt = await receiptJpeg();
});

// biome-ignore lint/correctness/noEmptyPattern: Playwright hooks name their fixtures this way
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus || !scale) return;
  for (const [i, shop] of scale.shops.entries()) {
    const log = `${shop.stdout?.() ?? ""}\n${shop.stderr()}`.slice(-20_000);
    await testInfo.attach(`process ${i + 1} log`, { body: log, contentType: "text/plain" });
    console.error(`--- process ${i + 1} log (end) ---\n${log.slice(-3_000)}`);
  }
});

test.afterAll(async () => {
  await disposeShoppers(shoppers);
  await Promise.all(clients.map((client) => client.dispose().catch(() => undefined)));
  await scale?.stop();
  scale = undefined;
});

function running(): ScaleShop {
  if (!scale) throw new Error("the shop did not start");
  return scale;
}

test("two processes started together on an empty database: both migrate, one seeds", async () => {
  const { shops, books } = running();
  const logs = shops.map((shop) => shop.stdout?.() ?? "");
  const seeded = logs.filter((log) => /database: seeded the demo catalogue/.test(log));
  const waited = logs.filter((log) => /another process seeded the demo catalogue/.test(log));
  expect(seeded, `start logs:\n${logs.join("\n---\n")}`).toHaveLength(1);
  // The other process either saw the catalogue already there or lost the race and said so.
  expect(waited.length).toBeLessThanOrEqual(1);
  // One catalogue, not two: every colour once.
  const variants = await books.variants(1);
  expect(variants).toHaveLength(1);
  for (const shop of shops) expect(shop.stderr(), "errors at start").not.toMatch(/error/i);
});

test("the sign-in limit holds across both processes: 5 failures, then 429 whichever answers", async ({
  playwright,
}) => {
  const { front, proxy } = running();
  const email = uniqueEmail("throttled");
  const password = uniquePassword();
  const signUp = await playwright.request.newContext({ baseURL: front.baseURL });
  clients.push(signUp);
  await apiSignUp(signUp, email, password);

  const client = await playwright.request.newContext({ baseURL: front.baseURL });
  clients.push(client);
  const login = async (attempt: string) => {
    const before = [...proxy.counts];
    const response = await client.post("/login", {
      form: { intent: "login", email, password: attempt, redirectTo: "/" },
      maxRedirects: 0,
    });
    const served = proxy.counts.findIndex((count, i) => count > (before[i] ?? 0));
    return { status: response.status(), text: await response.text(), served };
  };

  const servedBy: number[] = [];
  for (let attempt = 1; attempt <= 5; attempt++) {
    const answer = await login(`wrong-${attempt}`);
    expect(answer.status, `failure ${attempt}`).toBe(400);
    expect(answer.text).toContain("Login failed");
    servedBy.push(answer.served);
  }
  expect(new Set(servedBy).size, `processes that counted the failures: ${servedBy.join(", ")}`).toBe(2);
  // The right password now, twice: one of these goes to each process, and both refuse.
  const refusedBy: number[] = [];
  for (let attempt = 0; attempt < 2; attempt++) {
    const blocked = await login(password);
    expect(blocked.status, `sign-in after 5 failures, on process ${blocked.served + 1}`).toBe(429);
    expect(blocked.text).toContain("Too many attempts");
    refusedBy.push(blocked.served);
  }
  expect(new Set(refusedBy).size, "both processes refused").toBe(2);
});

/** Payments that lost their answer with the killed process: the proxy's 502, or a cut connection. */
function lost(outcome: PaymentOutcome): boolean {
  return outcome.kind === "noAnswer" || (outcome.kind === "other" && outcome.status === 502);
}

test(`kill -9 one of two processes in the middle of ${SHOPPERS} payments: nothing confirmed is lost`, async ({
  playwright,
}) => {
  test.setTimeout(runs(180_000, 900_000));
  const shop = running();
  const { books, bucket, proxy } = shop;
  shoppers = await signUpShoppers(playwright, [shop.front], SHOPPERS, "pg-crash-buyer");
  const [variant] = (await books.variants(1)) as [Variant];
  const seen = { confirmed: 0, outOfStock: 0, lost: 0, orphans: 0 };
  const countsBefore = [...proxy.counts];

  for (let run = 0; run < runs(3, 20); run++) {
    await books.setStock(variant, STOCK);
    const soldBefore = await books.unitsSold(variant);
    const keys = await allReadyToPay(shoppers, variant.productId, variant.color);

    const victim = run % 2;
    const outcomes = await killMidway(
      shoppers.map((shopper, i) => () => pay(shopper.request, keys[i] as string, receipt, { timeout: 30_000 })),
      () => (shop.shops[victim] as Shop).kill(),
    );
    const strange = outcomes.filter((outcome) => outcome.kind === "other" && !lost(outcome));
    expect(strange, "every answer is an order, an out-of-stock refusal or lost with the process").toEqual([]);
    await shop.restart(victim);

    const placed = await expectBurstAccounted(books, { outcomes, keys, variant, stockBefore: STOCK, soldBefore });

    // Every order's receipt is an object in the bucket (read back from S3, not from either process).
    const missing: string[] = [];
    for (const order of placed) {
      if (!order.receipt_path || !(await bucket.has("private", order.receipt_path))) missing.push(order.order_number);
    }
    expect(missing, "orders whose receipt object is missing from the bucket").toEqual([]);

    const counts = tally(outcomes);
    seen.confirmed += counts.confirmed;
    seen.outOfStock += counts.outOfStock;
    seen.lost += outcomes.filter(lost).length;
  }
  // Objects a crash left between writing a receipt and committing its order: harmless, reported.
  const referenced = new Set((await books.storedOrders()).map((order) => order.receipt_path));
  seen.orphans = (await bucket.keys("private")).filter((key) => !referenced.has(key)).length;
  const served = proxy.counts.map((count, i) => count - (countsBefore[i] ?? 0));
  expect(Math.min(...served), `requests per process during the bursts: ${served.join(", ")}`).toBeGreaterThan(0);
  test.info().annotations.push({ type: "crash totals", description: JSON.stringify(seen) });
  console.info(`PostgreSQL crash totals over ${runs(3, 20)} kills: ${JSON.stringify(seen)}`);
});
