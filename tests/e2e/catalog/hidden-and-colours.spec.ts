import type { Page } from "@playwright/test";
import { expect, insertRifle, signInAsAdmin, shopperTest as test, waitForReact, withMainDatabase } from "../fixtures";
import { cards, waitForHydration } from "./helpers";

/**
 * Issue 14: an inactive category hides its products from shoppers everywhere (the demo's
 * Eyewear category is inactive), and colours show their Chinese names on Chinese pages. With
 * and without JavaScript.
 */

/** A demo product of the inactive Eyewear category. */
const HIDDEN = "Anti-Fog Tactical Goggles";

/** The names on every page of a listing. */
async function listingNames(page: Page, path: string): Promise<string[]> {
  const names: string[] = [];
  for (let n = 1; n <= 20; n++) {
    await page.goto(`${path}${path.includes("?") ? "&" : "?"}page=${n}`);
    names.push(...(await cards(page).locator("h3").allInnerTexts()).map((name) => name.trim()));
    if ((await page.getByRole("link", { name: /^Next/ }).count()) === 0) break;
  }
  return names;
}

test.describe("a product of an inactive category", () => {
  test("is hidden from shoppers everywhere and marked in the admin list", async ({ page, newShopper, jsEnabled }) => {
    test.setTimeout(90_000);
    // The admin still lists it, with a badge saying why shoppers do not see it.
    const admin = await newShopper();
    await signInAsAdmin(admin.page, "hidden-admin");
    await admin.page.goto(`/admin/products?q=${encodeURIComponent(HIDDEN)}`);
    const row = admin.page.locator("tr[data-product-id]").filter({ hasText: HIDDEN });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId("hidden-badge")).toHaveText("Hidden — category inactive");
    const id = Number(await row.getAttribute("data-product-id"));
    expect(id).toBeGreaterThan(0);
    // A product of an active category has no badge.
    await admin.page.goto("/admin/products?q=M4%20CQB");
    await expect(admin.page.locator("tr[data-product-id]").first().getByTestId("hidden-badge")).toHaveCount(0);

    // Its page is a 404.
    const response = await page.goto(`/product/${id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Product not found");

    // Not in All Products, nor New Arrivals (it arrived 19 days ago), nor the home page.
    const all = await listingNames(page, "/category/all");
    expect(all.length).toBeGreaterThan(24);
    expect(all).toContain("M4 CQB Carbine AEG");
    expect(all).not.toContain(HIDDEN);
    expect(await listingNames(page, "/category/new-arrivals")).not.toContain(HIDDEN);
    await page.goto("/");
    await expect(page.locator("main")).not.toContainText(HIDDEN);

    // The search page finds nothing.
    await page.goto("/search?q=Goggles");
    await expect(page.getByText("No products found.")).toBeVisible();
    await expect(cards(page)).toHaveCount(0);
    await page.goto("/search?q=Tactical");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Tactical");
    expect(await cards(page).count()).toBeGreaterThan(0);
    await expect(cards(page).filter({ hasText: HIDDEN })).toHaveCount(0);

    // Nor does the search-as-you-type panel.
    if (jsEnabled) {
      await page.goto("/");
      await waitForHydration(page);
      await page.locator("#search-desktop").fill("Goggles");
      await expect(page.getByTestId("search-panel")).toContainText("No products found.");
    }
    const panel = await page.request.get("/resources/search?q=Goggles");
    expect(((await panel.json()) as { results: unknown[] }).results).toEqual([]);

    // It cannot be added to the cart (the form refuses; the cart stays empty).
    const add = await page.request.post("/cart", {
      form: { intent: "add", productId: String(id), color: "Black", quantity: "1", redirectTo: "/cart" },
      maxRedirects: 0,
    });
    expect(add.status()).toBe(303);
    await page.goto("/cart");
    await expect(page.getByRole("alert").filter({ hasText: "This product is not available." })).toBeVisible();
    await expect(page.getByTestId("cart-line")).toHaveCount(0);

    // Nor is it in the sitemap.
    const sitemap = await (await page.request.get("/sitemap.xml")).text();
    expect(sitemap).toContain("/product/");
    expect(sitemap).not.toContain(`/product/${id}<`);
  });
});

test.describe("a product whose category goes inactive while it is in a cart", () => {
  test("shows as no longer available, and checkout waits until it is removed", async ({ page, jsEnabled }) => {
    const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    const at = new Date().toISOString();
    // Its own product, at first without a category (shown), so no other spec sees a new category.
    const productId = withMainDatabase((db) => {
      const product = db
        .prepare(
          `INSERT INTO products (category_id, name_en, name_zh, description_en, description_zh, price_hkd_cents,
             price_gbp_cents, price_eur_cents, price_usd_cents, created_at, updated_at)
           VALUES (NULL, ?, ?, '', '', 20000, 2000, 2400, 2600, ?, ?)`,
        )
        .run(`Soon Hidden Rifle ${tag}`, `即將隱藏長槍 ${tag}`, at, at);
      const id = Number(product.lastInsertRowid);
      db.prepare("INSERT INTO product_variants (product_id, color, stock, sort_order) VALUES (?, 'Black', 5, 0)").run(
        id,
      );
      return id;
    });
    const add = (id: number) =>
      page.request.post("/cart", {
        form: { intent: "add", productId: String(id), color: "Black", quantity: "1", redirectTo: "/cart" },
        maxRedirects: 0,
      });
    expect((await add(productId)).status()).toBe(302);
    const found = await page.request.get("/resources/search?q=M4%20CQB");
    const m4 = ((await found.json()) as { results: { id: number }[] }).results[0]?.id ?? 0;
    expect((await add(m4)).status()).toBe(302);

    // The operator moves it into an inactive category (the demo's Eyewear).
    withMainDatabase((db) =>
      db
        .prepare("UPDATE products SET category_id = (SELECT id FROM categories WHERE slug = 'eyewear') WHERE id = ?")
        .run(productId),
    );

    await page.goto("/cart");
    const hiddenLine = page.getByTestId("cart-line").filter({ hasText: `Soon Hidden Rifle ${tag}` });
    await expect(hiddenLine.getByTestId("line-unavailable")).toHaveText("No longer available");
    await expect(hiddenLine.getByTestId("line-total")).toHaveCount(0);
    await expect(page.getByText("Remove the items that are no longer available before checking out.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Proceed to Checkout", exact: true })).toHaveCount(0);

    // Checkout sends the shopper back to the cart, saying why.
    await page.goto("/checkout");
    await expect(page).toHaveURL(/\/cart$/);
    await expect(
      page.getByRole("alert").filter({ hasText: "Remove the items that are no longer available" }),
    ).toBeVisible();

    // Removed: checkout is open again.
    if (jsEnabled) await waitForReact(page);
    await hiddenLine.getByRole("button", { name: /^Remove/ }).click();
    await expect(page.getByTestId("cart-line")).toHaveCount(1);
    await expect(page.getByRole("link", { name: "Proceed to Checkout", exact: true })).toBeVisible();
  });
});

/**
 * A product of its own (in Rifles, written straight into the main server's database) whose
 * colours are one with a Chinese name no translation file knows and one without any.
 */
function insertColouredProduct(): { id: number; en: string; zh: string } {
  return insertRifle({ en: "Colour Carbine", zh: "顏色長槍" }, [
    ["Sand Storm", "風暴沙", 5],
    ["Night Shade", null, 3],
  ]);
}

test.describe("colour names in Chinese", () => {
  test("on the product page, the cards, the cart and its messages", async ({ page, inChinese, jsEnabled }) => {
    const product = insertColouredProduct();
    await inChinese();

    // The product page's colour chips: the Chinese name where there is one, else the English
    // one; the form still sends the English name (the cart's key).
    await page.goto(`/product/${product.id}`);
    if (jsEnabled) await waitForReact(page);
    const colours = page.getByRole("group", { name: "顏色" });
    await expect(colours.locator("label")).toHaveText(["風暴沙", "Night Shade"]);
    await expect(colours.locator('input[value="Sand Storm"]')).toHaveCount(1);

    // Add the first one.
    await colours.locator("label").filter({ hasText: "風暴沙" }).click();
    // The product's own form (the related products' cards have 加入購物車 buttons too).
    await page
      .locator("main form")
      .filter({ has: colours })
      .getByRole("button", { name: "加入購物車", exact: true })
      .click();
    if (jsEnabled) await expect(page.getByTestId("cart-message")).toContainText("已加入購物車");
    else await expect(page.getByRole("status").filter({ hasText: "已加入購物車" })).toBeVisible();

    // The cart names the colour in Chinese.
    await page.goto("/cart");
    await expect(page.getByTestId("cart-line")).toHaveCount(1);
    await expect(page.getByTestId("line-colour")).toHaveText(/^顏色[:：] ?風暴沙$/);
    await expect(page.getByTestId("cart-line")).not.toContainText("Sand Storm");
    // So does the order summary of checkout (and payment: the same CartSummary).
    await page.goto("/checkout");
    await expect(page.locator("aside[aria-labelledby=order-summary-heading]")).toContainText(
      `${product.zh} · 風暴沙 × 1`,
    );
    await page.goto("/cart");

    // Asking for more than the colour has: the refusal names it in Chinese too.
    const tooMany = await page.request.post("/cart", {
      form: { intent: "add", productId: String(product.id), color: "Sand Storm", quantity: "999", redirectTo: "/cart" },
      maxRedirects: 0,
    });
    expect(tooMany.status()).toBe(303);
    await page.goto("/cart");
    await expect(page.getByRole("alert").filter({ hasText: "風暴沙只剩 5 件庫存" })).toBeVisible();

    // Removing it says which colour went, in Chinese.
    await page.getByRole("button", { name: /^移除/ }).click();
    await expect(page.getByRole("status").filter({ hasText: "（風暴沙）" })).toBeVisible();
    await expect(page.getByTestId("cart-line")).toHaveCount(0);

    // The listing cards show the Chinese name too.
    await page.goto(`/search?q=${encodeURIComponent(product.en)}`);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).getByRole("list", { name: "顏色" })).toHaveText(/風暴沙\s*Night Shade/);

    // English pages show the English names.
    await page.context().clearCookies({ name: "lng" });
    await page.goto(`/product/${product.id}`);
    await expect(page.getByRole("group", { name: "Colour" }).locator("label")).toHaveText([
      "Sand Storm",
      "Night Shade",
    ]);
  });
});
