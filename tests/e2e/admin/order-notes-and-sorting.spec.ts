import path from "node:path";
import Database from "better-sqlite3";
import {
  apiAddToCart,
  apiCheckout,
  apiOrders,
  apiPaymentKey,
  apiSubmitPayment,
  expect,
  mainServerPaths,
  newApiShopper,
  receiptJpeg,
  signInAsAdmin,
  shopperTest as test,
  waitForReact,
} from "../fixtures";

/**
 * Issue 29 items 5 and 6 (docs/decisions/058), JavaScript on and off: a staff note is added on the
 * admin order page and shown in the order's history with its author (never on the shopper's
 * page); the products list is sorted by price through its header link, with aria-sort.
 * The products are this spec's own, written into the main server's database.
 */

/** Inserts products (no category) with one Black variant each; returns their ids. */
function insertProducts(rows: { name: string; hkd: number }[]): number[] {
  const db = new Database(path.join(mainServerPaths().data, "shop.db"));
  try {
    db.pragma("busy_timeout = 10000");
    const at = new Date().toISOString();
    const insert = db.prepare(
      `INSERT INTO products (name_en, name_zh, description_en, description_zh, price_hkd_cents,
         price_gbp_cents, price_eur_cents, price_usd_cents, is_featured, created_at, updated_at)
       VALUES (?, ?, '', '', ?, 1000, 1100, 1200, 0, ?, ?)`,
    );
    const variant = db.prepare(
      "INSERT INTO product_variants (product_id, color, stock, sort_order) VALUES (?, 'Black', 20, 0)",
    );
    return rows.map((row) => {
      const id = Number(insert.run(row.name, `排序 ${row.name}`, row.hkd, at, at).lastInsertRowid);
      variant.run(id);
      return id;
    });
  } finally {
    db.close();
  }
}

const tagOf = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test.describe("staff notes and sortable lists", () => {
  test("a note is added to an order and shown in its history, never to the shopper", async ({
    page,
    playwright,
    baseURL,
    jsEnabled,
  }) => {
    test.setTimeout(60_000);
    const [productId] = insertProducts([{ name: `Noted Widget ${tagOf()}`, hkd: 50_000 }]);
    const shopper = await newApiShopper(playwright, baseURL as string, "notes-buyer");
    try {
      await apiAddToCart(shopper.request, productId as number, "Black", 1);
      await apiCheckout(shopper.request, shopper.email);
      const paid = await apiSubmitPayment(shopper.request, await apiPaymentKey(shopper.request), await receiptJpeg());
      expect(paid.status()).toBe(302);
      const [order] = await apiOrders(shopper.request);
      if (!order) throw new Error("no order");
      const admin = await signInAsAdmin(page, "notes-admin");

      await page.goto(`/admin/orders/${order.id}`);
      if (jsEnabled) await waitForReact(page);
      const history = page.getByRole("region", { name: "History" });
      // An empty note is refused next to the field.
      await page.getByLabel("Staff note").fill("   ");
      await page.getByRole("button", { name: "Add note" }).click();
      await expect(page.locator("#note-body-errors")).toContainText("Write the note first");
      await expect(history.getByTestId("staff-note")).toHaveCount(0);
      const text = `Called the customer ${tagOf()}: ships Monday`;
      await page.getByLabel("Staff note").fill(text);
      await page.getByRole("button", { name: "Add note" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Note added" })).toBeVisible();
      const note = history.getByTestId("staff-note");
      await expect(note).toContainText(text);
      await expect(note).toContainText(`Note by ${admin}`);
      // After the order's placing, in time order.
      await expect(history.locator("li").first()).toContainText("Order placed");
      await expect(page.getByLabel("Staff note")).toHaveValue("");

      const shopperPage = await shopper.request.get(`/account/orders/${order.id}`);
      expect(shopperPage.status()).toBe(200);
      expect(await shopperPage.text()).not.toContain(text);
    } finally {
      await shopper.dispose();
    }
  });

  test("the products list sorts by price through its header link", async ({ page, jsEnabled }) => {
    const tag = tagOf();
    insertProducts([
      { name: `Sorted Widget ${tag} B`, hkd: 300_00 },
      { name: `Sorted Widget ${tag} A`, hkd: 100_00 },
      { name: `Sorted Widget ${tag} C`, hkd: 200_00 },
    ]);
    await signInAsAdmin(page, "sort-admin");
    await page.goto(`/admin/products?q=${encodeURIComponent(tag)}`);
    if (jsEnabled) await waitForReact(page);
    const names = () => page.getByTestId("products-table").locator("tbody tr td:nth-child(2)").allTextContents();
    const letters = async () => (await names()).map((name) => name.trim().slice(-1));
    expect(await letters()).toEqual(["C", "A", "B"]);

    const table = page.getByTestId("products-table");
    await table.getByRole("link", { name: /^Price/ }).click();
    await expect(page).toHaveURL(new RegExp(`q=${tag}&sort=price&dir=asc`));
    await expect(table.locator("th[aria-sort]")).toHaveAttribute("aria-sort", "ascending");
    await expect.poll(letters).toEqual(["A", "C", "B"]);

    await table.getByRole("link", { name: /^Price/ }).click();
    await expect(page).toHaveURL(/sort=price&dir=desc/);
    await expect(table.locator("th[aria-sort]")).toHaveAttribute("aria-sort", "descending");
    await expect.poll(letters).toEqual(["B", "C", "A"]);

    // A search keeps the sort.
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/sort=price&dir=desc/);
    await expect.poll(letters).toEqual(["B", "C", "A"]);
  });
});
