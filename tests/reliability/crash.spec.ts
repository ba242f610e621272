import { expect, test } from "@playwright/test";
import { receiptJpeg, type UploadFile } from "../e2e/fixtures";
import { killMidway, newShopFiles, removeFiles, runs, type Shop, type ShopFiles, startShop } from "./shop";
import {
  allReadyToPay,
  busyErrors,
  disposeShoppers,
  expectBurstAccounted,
  integrityCheck,
  moveShopper,
  type PaymentOutcome,
  pay,
  privateFile,
  receiptAudit,
  type Shopper,
  setStock,
  signUpShoppers,
  sqliteBooks,
  tally,
  unitsSold,
  type Variant,
  variants,
} from "./shoppers";

/**
 * Crash safety (issue 9, part 7): the server is killed with SIGKILL in the middle of a burst of
 * orders, then started again on the same files, many times over. After every restart the
 * database is sound, every order a shopper was told about is there with its items and its
 * receipt file, and the stock and the units sold still add up to what there was: a crash may
 * lose an answer, never an order, a unit or a receipt.
 */

const SHOPPERS = 20;
/** Fewer units than shoppers: some are refused for stock while the crash comes. */
const STOCK = 15;

test.describe.configure({ mode: "serial" });

let files: ShopFiles;
let shop: Shop | undefined;
let shoppers: Shopper[] = [];
let receipt: UploadFile;
let variant: Variant;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(180_000);
  files = newShopFiles("crash");
  shop = await startShop({ files, name: "crash" });
  [variant] = variants(files, 1) as [Variant];
  receipt = await receiptJpeg();
  shoppers = await signUpShoppers(playwright, [shop], SHOPPERS, "crash-buyer");
});

test.afterAll(async () => {
  await disposeShoppers(shoppers);
  await shop?.stop();
  if (files) removeFiles(files);
});

/**
 * Every shopper pays at once; the server is killed after a random number of answers (none to
 * half of them) and a random few milliseconds more (`killMidway`, shared with scale.spec.ts).
 */
function burstWithCrash(running: Shop, keys: string[]): Promise<PaymentOutcome[]> {
  return killMidway(
    shoppers.map((shopper, i) => () => pay(shopper.request, keys[i] as string, receipt, { timeout: 30_000 })),
    () => running.kill(),
  );
}

test(`kill -9 in the middle of ${SHOPPERS} payments, restart: nothing confirmed is lost, nothing double-sold`, async ({
  playwright,
}) => {
  test.setTimeout(runs(180_000, 900_000));
  const seen = { confirmed: 0, outOfStock: 0, noAnswer: 0, orphans: 0, temporary: 0 };
  for (let run = 0; run < runs(3, 20); run++) {
    let running = shop as Shop;
    setStock(files, variant, STOCK);
    const soldBefore = unitsSold(files, variant);
    const keys = await allReadyToPay(shoppers, variant.productId, variant.color);

    const outcomes = await burstWithCrash(running, keys);
    expect(busyErrors(running), "SQLITE_BUSY before the crash").toEqual([]);
    const strange = outcomes.filter((outcome) => outcome.kind === "other");
    expect(strange, "every answer is an order, an out-of-stock refusal or none at all").toEqual([]);

    shop = undefined;
    running = await startShop({ files, name: "crash" });
    shop = running;
    for (const shopper of shoppers) await moveShopper(playwright, shopper, running);

    expect(integrityCheck(files), `integrity after crash ${run + 1}`).toBe("ok");

    await expectBurstAccounted(sqliteBooks(files), { outcomes, keys, variant, stockBefore: STOCK, soldBefore });

    const audit = receiptAudit(files);
    expect(
      audit.missing.map((order) => `${order.order_number}: ${privateFile(files, order.receipt_path ?? "")}`),
      "orders whose receipt file is missing",
    ).toEqual([]);

    const counts = tally(outcomes);
    seen.confirmed += counts.confirmed;
    seen.outOfStock += counts.outOfStock;
    seen.noAnswer += counts.noAnswer;
    seen.orphans = audit.orphans.length;
    seen.temporary = audit.temporary.length;
  }
  // Files a crash left between writing a receipt and committing its order: harmless, reported.
  test.info().annotations.push({ type: "crash totals", description: JSON.stringify(seen) });
  console.info(`crash totals over ${runs(3, 20)} kills: ${JSON.stringify(seen)}`);
});
