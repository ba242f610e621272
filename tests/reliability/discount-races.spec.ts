import { type APIRequestContext, expect, test } from "@playwright/test";
import { receiptJpeg, type UploadFile, uniqueEmail, uniquePassword } from "../e2e/fixtures";
import {
  adminSignIn,
  type Books,
  createAdmin,
  FULL,
  newShopFiles,
  removeFiles,
  type ScaleShop,
  type Shop,
  type ShopFiles,
  startScaleShop,
  startShop,
} from "./shop";
import {
  busyErrors,
  disposeShoppers,
  inBatches,
  moveShopper,
  readyToPay,
  type Shopper,
  signUpShoppers,
  sqliteBooks,
  type Variant,
} from "./shoppers";

/**
 * Discount codes under load (issue 27, docs/decisions/048): shoppers on two server processes
 * pay at the same moment with a code that has 10 uses left; exactly 10 orders are placed with
 * it and every other shopper is told the code is used up. Two processes on one SQLite file
 * always; two processes on PostgreSQL (behind the round-robin proxy) at full strength
 * (RELIABILITY_LEVEL=full), where starting the cluster is the expensive part. Vitest races 50
 * placeOrder calls on both databases in tests/discounts.test.ts.
 */

const SHOPPERS = 30;
const USES_LEFT = 10;
const USED_UP = /The code \S+ has been used up\./;

const LAYOUTS = [
  { name: "two servers on one SQLite file", database: "sqlite" },
  { name: "two processes on PostgreSQL + S3 behind a round-robin proxy", database: "postgres" },
] as const;

test.describe.configure({ mode: "serial" });

for (const layout of LAYOUTS) {
  test.describe(layout.name, () => {
    test.skip(layout.database === "postgres" && !FULL, "PostgreSQL layout: RELIABILITY_LEVEL=full");

    let files: ShopFiles | undefined;
    const shops: Shop[] = [];
    let scale: ScaleShop | undefined;
    let books: Books;
    let shoppers: Shopper[] = [];
    let admin: APIRequestContext;
    let receipt: UploadFile;
    let variant: Variant;
    const owner = { email: uniqueEmail("discount-race-admin"), password: uniquePassword() };

    test.beforeAll(async ({ playwright }) => {
      test.setTimeout(240_000);
      receipt = await receiptJpeg();
      let front: Shop;
      if (layout.database === "postgres") {
        scale = await startScaleShop("discount-races");
        books = scale.books;
        front = scale.front;
        shops.push(...scale.shops);
        createAdmin(scale.files, owner.email, owner.password);
        shoppers = await signUpShoppers(playwright, [front], SHOPPERS, "pg-code");
      } else {
        files = newShopFiles("discount-races");
        front = await startShop({ files, name: "discount-races" });
        shops.push(front);
        books = sqliteBooks(files);
        createAdmin(files, owner.email, owner.password);
        shoppers = await signUpShoppers(playwright, [front], SHOPPERS, "code");
        const second = await startShop({ files, name: "discount-races" });
        shops.push(second);
        for (const [i, shopper] of shoppers.entries()) if (i % 2 === 1) await moveShopper(playwright, shopper, second);
      }
      [variant] = (await books.variants(1)) as [Variant];
      admin = await playwright.request.newContext({ baseURL: front.baseURL });
      await adminSignIn(admin, owner.email, owner.password);
    });

    test.afterAll(async () => {
      await disposeShoppers(shoppers);
      await admin?.dispose().catch(() => undefined);
      if (scale) await scale.stop();
      else await Promise.all(shops.map((shop) => shop.stop()));
      if (files) removeFiles(files);
    });

    test(`${SHOPPERS} shoppers pay at once with a code that has ${USES_LEFT} uses left: ${USES_LEFT} orders carry it`, async () => {
      const code = `RACE${Date.now().toString(36).toUpperCase()}`;
      const created = await admin.post("/admin/discounts/new", {
        form: { code, kind: "percent", percent: "10", applies_to: "all", max_uses: String(USES_LEFT), active: "on" },
        maxRedirects: 0,
      });
      expect(created.status(), "the owner adds the code").toBe(302);
      await books.setStock(variant, SHOPPERS * 2);

      const keys = await inBatches(shoppers, 10, async (shopper) => {
        const key = await readyToPay(shopper, variant.productId, variant.color);
        const applied = await shopper.request.post("/cart/code", {
          form: { intent: "applyCode", code: code.toLowerCase(), redirectTo: "/payment" },
          maxRedirects: 0,
        });
        expect(applied.headers().location, "the code applies before the race").toBe("/payment");
        return key;
      });
      // Every payment form at the same moment (multipart, as without JavaScript); the refusals'
      // pages are read for their reason.
      const answers = await Promise.all(
        shoppers.map((shopper, i) =>
          shopper.request.post("/payment", {
            multipart: { submissionKey: keys[i] as string, receipt },
            maxRedirects: 0,
            timeout: 60_000,
          }),
        ),
      );
      const confirmed = answers.filter((answer) => /\/payment-success\?order=/.test(answer.headers().location ?? ""));
      const refused = answers.filter((answer) => !confirmed.includes(answer));
      expect(confirmed, `refusals: ${refused.map((answer) => answer.status()).join(", ")}`).toHaveLength(USES_LEFT);
      for (const answer of refused) {
        expect(answer.status()).toBe(409);
        expect(await answer.text()).toMatch(USED_UP);
      }
      const placed = (await books.storedOrders()).filter((order) => keys.includes(order.submission_key ?? ""));
      expect(placed, "orders made by this race").toHaveLength(USES_LEFT);
      // The admin's list counts exactly the uses taken.
      const list = await (await admin.get("/admin/discounts")).text();
      expect(list).toContain(code);
      expect(list).toMatch(new RegExp(`${USES_LEFT}(?:<!-- -->)? of (?:<!-- -->)?${USES_LEFT}`));
      if (layout.database === "sqlite") {
        for (const shop of shops) expect(busyErrors(shop), `lock errors in ${shop.baseURL}`).toEqual([]);
      }
    });
  });
}
