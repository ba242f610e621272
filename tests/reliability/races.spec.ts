import { type APIRequestContext, expect, test } from "@playwright/test";
import { receiptJpeg, type UploadFile, uniqueEmail, uniquePassword } from "../e2e/fixtures";
import {
  adminSignIn,
  createAdmin,
  newShopFiles,
  removeFiles,
  runs,
  type Shop,
  type ShopFiles,
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
  setStock,
  signUpShoppers,
  stockOf,
  storedOrders,
  tally,
  unitsSold,
  type Variant,
  variants,
} from "./shoppers";

/**
 * Races (issue 9, part 6): many shoppers paying for the last units at the same moment, the
 * same payment form sent ten times at once, two admins changing one order at once; first on
 * one server, then on two server processes sharing one SQLite file. Whatever arrives at once,
 * the shop sells exactly what it has, makes one order per form, lets exactly one status change
 * win, and no shopper or admin ever sees a locked database.
 */

const SHOPPERS = 50;
const UNITS = 7;

const LAYOUTS = [
  { name: "one server", processes: 1 },
  { name: "two servers on one SQLite file", processes: 2 },
] as const;

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
  for (const [i, shop] of shops.entries()) {
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

    test.beforeAll(async ({ playwright }) => {
      const own = variants(files, 8).slice(layout.processes === 1 ? 0 : 4);
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

    /** Nothing the shoppers did made the database refuse a writer, on any process. */
    function expectNoLockErrors() {
      for (const shop of shops) expect(busyErrors(shop), `SQLITE_BUSY in the log of ${shop.baseURL}`).toEqual([]);
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
        setStock(files, variant, stock);
        const soldBefore = unitsSold(files, variant);
        const keys = await allReadyToPay(buyers, variant.productId, variant.color);
        const outcomes = await payAllAtOnce(
          buyers.map((buyer, i) => ({ request: buyer.request, submissionKey: keys[i] as string })),
          receipt,
        );
        expectSoldOut(outcomes, stock);

        const numbers = outcomes.flatMap((outcome) => (outcome.kind === "confirmed" ? [outcome.orderNumber] : []));
        expect(new Set(numbers).size, "every confirmed order is a different order").toBe(stock);
        const orders = storedOrders(files, numbers);
        expect(orders, "every confirmed order is in the database").toHaveLength(stock);
        for (const order of orders) {
          expect(order.lines).toEqual([{ product_id: variant.productId, color: variant.color, quantity: 1 }]);
        }
        const placed = storedOrders(files).filter((order) => keys.includes(order.submission_key ?? ""));
        expect(placed, "orders made by this race (confirmed or not)").toHaveLength(stock);
        expect(stockOf(files, variant), "stock after the race").toBe(0);
        expect(unitsSold(files, variant) - soldBefore, "units sold in this race").toBe(stock);
        expectNoLockErrors();
      }
    }

    test(`${SHOPPERS} shoppers pay for the last unit at once: one order, ${SHOPPERS - 1} clear refusals`, async () => {
      await raceForStock(lastUnit, 1, shoppers);
    });

    test(`${UNITS} units, ${UNITS * 3} shoppers at once: ${UNITS} orders, never oversold`, async () => {
      await raceForStock(fewUnits, UNITS, shoppers.slice(0, UNITS * 3));
    });

    test("the same payment form sent 10 times at once makes one order", async ({ playwright }) => {
      const [shopper] = shoppers as [Shopper];
      // With two servers, the same session (same form) goes half to each.
      const twin = shops[1] ? await sameSessionOn(playwright, shopper, shops[1]) : shopper.request;
      if (twin !== shopper.request) clients.push(twin);
      for (let run = 0; run < runs(1, 5); run++) {
        setStock(files, sameForm, 5);
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
        const orders = storedOrders(files).filter((order) => order.submission_key === key);
        expect(orders).toHaveLength(1);
        expect(orders[0]?.order_number).toBe([...numbers][0]);
        expect(orders[0]?.lines).toEqual([{ product_id: sameForm.productId, color: sameForm.color, quantity: 2 }]);
        expect(stockOf(files, sameForm), "two units taken once").toBe(3);
        expectNoLockErrors();
      }
    });

    test("two admins change one order at once: exactly one wins, stock comes back once", async () => {
      const [first, second] = admins as [APIRequestContext, APIRequestContext];
      const buyer = shoppers[1] as Shopper;
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
          setStock(files, adminRace, 10);
          const key = await readyToPay(buyer, adminRace.productId, adminRace.color, 3);
          const placed = await pay(buyer.request, key, receipt);
          expect(placed.kind).toBe("confirmed");
          const [order] = storedOrders(files).filter((row) => row.submission_key === key);
          if (!order) throw new Error("the order is not in the database");
          expect(stockOf(files, adminRace)).toBe(7);

          const answers = await Promise.all([change(first, order.id, one), change(second, order.id, other)]);
          const statuses = answers.map((answer) => answer.status());
          expect(statuses.toSorted(), `${one} against ${other}`).toEqual([302, 409]);
          const winner = statuses[0] === 302 ? one : other;
          const loser = answers.find((answer) => answer.status() === 409);
          expect(await loser?.text()).toMatch(CHANGED_MEANWHILE);

          const [after] = storedOrders(files, [order.order_number]);
          expect(after?.status).toBe(winner === "cancel" ? "cancelled" : "paid");
          expect(stockOf(files, adminRace), `stock after ${winner} won`).toBe(winner === "cancel" ? 10 : 7);
          expectNoLockErrors();
        }
      }
    });
  });
}
