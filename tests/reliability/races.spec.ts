import { type APIRequestContext, expect, test } from "@playwright/test";
import { receiptJpeg, type UploadFile, uniqueEmail, uniquePassword } from "../e2e/fixtures";
import {
  adminSignIn,
  type Books,
  createAdmin,
  newShopFiles,
  removeFiles,
  runs,
  type ScaleShop,
  type Shop,
  type ShopFiles,
  startScaleShop,
  startShop,
} from "./shop";
import {
  allReadyToPay,
  busyErrors,
  disposeShoppers,
  moveShopper,
  type PaymentOutcome,
  pay,
  payAllAtOnce,
  readyToPay,
  type Shopper,
  sameSessionOn,
  signUpShoppers,
  sqliteBooks,
  tally,
  type Variant,
} from "./shoppers";

/**
 * Races (issue 9, part 6): many shoppers paying for the last units at the same moment, the
 * same payment form sent ten times at once, two admins changing one order at once; first on
 * one server, then on two server processes sharing one SQLite file, then (issue 16) on two
 * processes of one shop on PostgreSQL + S3 behind a round-robin proxy that sends each request
 * to the other process. Whatever arrives at once,
 * the shop sells exactly what it has, makes one order per form, lets exactly one status change
 * win, and no shopper or admin ever sees a locked database.
 */

const SHOPPERS = 50;
const UNITS = 7;

const LAYOUTS = [
  { name: "one server", processes: 1, database: "sqlite" },
  { name: "two servers on one SQLite file", processes: 2, database: "sqlite" },
  { name: "two processes on PostgreSQL + S3 behind a round-robin proxy", processes: 2, database: "postgres" },
] as const;

/** Log lines of a database refusing or aborting a writer: SQLite's busy, PostgreSQL's deadlocks. */
function lockErrors(shop: Shop): string[] {
  const postgres = shop
    .stderr()
    .split("\n")
    .filter((line) => /deadlock detected|could not serialize|lock timeout|too many clients/i.test(line));
  return [...busyErrors(shop), ...postgres];
}

/** The payment page's "changed meanwhile" refusal (adminOrders.errors.changedMeanwhile). */
const CHANGED_MEANWHILE = /The order(?:'|&#x27;|&#39;)s status changed meanwhile/;

test.describe.configure({ mode: "serial" });

let files: ShopFiles;
const shops: Shop[] = [];
let shoppers: Shopper[] = [];
const clients: APIRequestContext[] = [];
let receipt: UploadFile;
const admin = { email: uniqueEmail("race-admin"), password: uniquePassword() };
/** Two admins (two sessions of one account), each on their own server when there are two. */
const admins: APIRequestContext[] = [];
/** The processes of the PostgreSQL layout, for the logs of a failed test. */
const scaleServers: Shop[] = [];

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(180_000);
  files = newShopFiles("races");
  shops.push(await startShop({ files, name: "races" }));
  receipt = await receiptJpeg();
  shoppers = await signUpShoppers(playwright, shops, SHOPPERS);
  createAdmin(files, admin.email, admin.password);
  for (let i = 0; i < 2; i++) {
    const client = await playwright.request.newContext({ baseURL: (shops[0] as Shop).baseURL });
    clients.push(client);
    await adminSignIn(client, admin.email, admin.password);
    admins.push(client);
  }
});

// biome-ignore lint/correctness/noEmptyPattern: Playwright hooks name their fixtures this way
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) return;
  for (const [i, shop] of [...shops, ...scaleServers].entries()) {
    const stderr = shop.stderr().slice(-20_000);
    await testInfo.attach(`server ${i + 1} stderr`, { body: stderr, contentType: "text/plain" });
    console.error(`--- server ${i + 1} stderr (end) ---\n${stderr.slice(-3_000)}`);
  }
});

test.afterAll(async () => {
  await disposeShoppers(shoppers);
  await Promise.all(clients.map((client) => client.dispose().catch(() => undefined)));
  await Promise.all(shops.map((shop) => shop.stop()));
  shops.length = 0;
  if (files) removeFiles(files);
});

for (const layout of LAYOUTS) {
  test.describe(layout.name, () => {
    /** One colour per test and layout, so no test's sales show up in another's stock. */
    let lastUnit: Variant;
    let fewUnits: Variant;
    let sameForm: Variant;
    let adminRace: Variant;
    /** What this layout's tests race on: the shared SQLite shop, or a shop of its own on PostgreSQL. */
    let books: Books;
    let racers: Shopper[] = shoppers;
    let scale: ScaleShop | undefined;
    /** The servers whose logs must stay free of lock errors. */
    let servers: Shop[] = shops;

    test.beforeAll(async ({ playwright }) => {
      if (layout.database === "postgres") {
        test.setTimeout(240_000);
        scale = await startScaleShop("races");
        books = scale.books;
        servers = scale.shops;
        scaleServers.push(...scale.shops);
        [lastUnit, fewUnits, sameForm, adminRace] = (await books.variants(4)) as [Variant, Variant, Variant, Variant];
        racers = await signUpShoppers(playwright, [scale.front], SHOPPERS, "pg-racer");
        createAdmin(scale.files, admin.email, admin.password);
        for (let i = 0; i < 2; i++) {
          const client = await playwright.request.newContext({ baseURL: scale.front.baseURL });
          clients.push(client);
          await adminSignIn(client, admin.email, admin.password);
          admins[i] = client;
        }
        return;
      }
      books = sqliteBooks(files);
      racers = shoppers;
      const own = (await books.variants(8)).slice(layout.processes === 1 ? 0 : 4);
      [lastUnit, fewUnits, sameForm, adminRace] = own as [Variant, Variant, Variant, Variant];
      if (layout.processes === 1) return;
      // A second process on the same (migrated, seeded) file; every other shopper and the
      // second admin move to it, keeping their sessions (they live in the database).
      const second = await startShop({ files, name: "races" });
      shops.push(second);
      for (const [i, shopper] of shoppers.entries()) if (i % 2 === 1) await moveShopper(playwright, shopper, second);
      const client = await playwright.request.newContext({ baseURL: second.baseURL });
      clients.push(client);
      await adminSignIn(client, admin.email, admin.password);
      admins[1] = client;
    });

    test.afterAll(async () => {
      if (!scale) return;
      const counts = scale.proxy.counts;
      await disposeShoppers(racers);
      await scale.stop();
      scale = undefined;
      expect(Math.min(...counts), `requests per process behind the proxy: ${counts.join(", ")}`).toBeGreaterThan(0);
    });

    /** Nothing the shoppers did made the database refuse a writer, on any process. */
    function expectNoLockErrors() {
      for (const shop of servers) expect(lockErrors(shop), `lock errors in the log of ${shop.baseURL}`).toEqual([]);
    }

    /** Expects `outcomes` to be exactly `confirmed` orders and out-of-stock refusals for the rest. */
    function expectSoldOut(outcomes: PaymentOutcome[], confirmed: number) {
      const counts = tally(outcomes);
      const unexpected = outcomes.filter((outcome) => outcome.kind === "other" || outcome.kind === "noAnswer");
      expect(unexpected, "answers other than an order or the out-of-stock refusal").toEqual([]);
      expect(counts).toEqual({ confirmed, outOfStock: outcomes.length - confirmed, other: 0, noAnswer: 0 });
    }

    /** Sells `stock` units of `variant` to `buyers` all at once, `runs` times, and checks the books. */
    async function raceForStock(variant: Variant, stock: number, buyers: Shopper[]) {
      for (let run = 0; run < runs(1, 5); run++) {
        await books.setStock(variant, stock);
        const soldBefore = await books.unitsSold(variant);
        const keys = await allReadyToPay(buyers, variant.productId, variant.color);
        const outcomes = await payAllAtOnce(
          buyers.map((buyer, i) => ({ request: buyer.request, submissionKey: keys[i] as string })),
          receipt,
        );
        expectSoldOut(outcomes, stock);

        const numbers = outcomes.flatMap((outcome) => (outcome.kind === "confirmed" ? [outcome.orderNumber] : []));
        expect(new Set(numbers).size, "every confirmed order is a different order").toBe(stock);
        const orders = await books.storedOrders(numbers);
        expect(orders, "every confirmed order is in the database").toHaveLength(stock);
        for (const order of orders) {
          expect(order.lines).toEqual([{ product_id: variant.productId, color: variant.color, quantity: 1 }]);
        }
        const placed = (await books.storedOrders()).filter((order) => keys.includes(order.submission_key ?? ""));
        expect(placed, "orders made by this race (confirmed or not)").toHaveLength(stock);
        expect(await books.stockOf(variant), "stock after the race").toBe(0);
        expect((await books.unitsSold(variant)) - soldBefore, "units sold in this race").toBe(stock);
        expectNoLockErrors();
      }
    }

    test(`${SHOPPERS} shoppers pay for the last unit at once: one order, ${SHOPPERS - 1} clear refusals`, async () => {
      await raceForStock(lastUnit, 1, racers);
    });

    test(`${UNITS} units, ${UNITS * 3} shoppers at once: ${UNITS} orders, never oversold`, async () => {
      await raceForStock(fewUnits, UNITS, racers.slice(0, UNITS * 3));
    });

    test("the same payment form sent 10 times at once makes one order", async ({ playwright }) => {
      const [shopper] = racers as [Shopper];
      // With two servers, the same session (same form) goes half to each (behind the proxy,
      // every other request goes to the other process anyway).
      const other = scale ? scale.front : shops[1];
      const twin = other ? await sameSessionOn(playwright, shopper, other) : shopper.request;
      if (twin !== shopper.request) clients.push(twin);
      for (let run = 0; run < runs(1, 5); run++) {
        await books.setStock(sameForm, 5);
        const key = await readyToPay(shopper, sameForm.productId, sameForm.color, 2);
        const outcomes = await Promise.all(
          Array.from({ length: 10 }, (_, i) => pay(i % 2 === 0 ? shopper.request : twin, key, receipt)),
        );
        expect(tally(outcomes), JSON.stringify(outcomes.filter((o) => o.kind !== "confirmed"))).toEqual({
          confirmed: 10,
          outOfStock: 0,
          other: 0,
          noAnswer: 0,
        });
        const numbers = new Set(outcomes.map((outcome) => (outcome.kind === "confirmed" ? outcome.orderNumber : "")));
        expect(numbers.size, "every answer names the same order").toBe(1);
        const orders = (await books.storedOrders()).filter((order) => order.submission_key === key);
        expect(orders).toHaveLength(1);
        expect(orders[0]?.order_number).toBe([...numbers][0]);
        expect(orders[0]?.lines).toEqual([{ product_id: sameForm.productId, color: sameForm.color, quantity: 2 }]);
        expect(await books.stockOf(sameForm), "two units taken once").toBe(3);
        expectNoLockErrors();
      }
    });

    test("two admins change one order at once: exactly one wins, stock comes back once", async () => {
      const [first, second] = admins as [APIRequestContext, APIRequestContext];
      const buyer = racers[1] as Shopper;
      const change = (admin: APIRequestContext, orderId: string, intent: string) =>
        admin.post(`/admin/orders/${orderId}`, { form: { intent, expected: "pending_payment" }, maxRedirects: 0 });

      // Mark paid against cancel (each in turn from either admin), then cancel against cancel.
      const pairs = [
        ["markPaid", "cancel"],
        ["cancel", "markPaid"],
        ["cancel", "cancel"],
      ] as const;
      for (let run = 0; run < runs(1, 5); run++) {
        for (const [one, other] of pairs) {
          await books.setStock(adminRace, 10);
          const key = await readyToPay(buyer, adminRace.productId, adminRace.color, 3);
          const placed = await pay(buyer.request, key, receipt);
          expect(placed.kind).toBe("confirmed");
          const [order] = (await books.storedOrders()).filter((row) => row.submission_key === key);
          if (!order) throw new Error("the order is not in the database");
          expect(await books.stockOf(adminRace)).toBe(7);

          const answers = await Promise.all([change(first, order.id, one), change(second, order.id, other)]);
          const statuses = answers.map((answer) => answer.status());
          expect(statuses.toSorted(), `${one} against ${other}`).toEqual([302, 409]);
          const winner = statuses[0] === 302 ? one : other;
          const loser = answers.find((answer) => answer.status() === 409);
          expect(await loser?.text()).toMatch(CHANGED_MEANWHILE);

          const [after] = await books.storedOrders([order.order_number]);
          expect(after?.status).toBe(winner === "cancel" ? "cancelled" : "paid");
          expect(await books.stockOf(adminRace), `stock after ${winner} won`).toBe(winner === "cancel" ? 10 : 7);
          expectNoLockErrors();
        }
      }
    });
  });
}
