import type { Page } from "@playwright/test";
import { apiAddToCart, expect, productIdByName, setLanguage, signInAsAdmin, test, waitForReact } from "../fixtures";

/**
 * Sale prices end to end (issue 28 item 3, docs/decisions/053), JavaScript on and off: the owner
 * puts a new product on sale on the product form (HK$500, on sale at HK$450); a shopper finds it
 * in the Sale listing with its badge and the old price struck through, sees the saving on its
 * page (in Chinese at phone width too), and the cart charges the sale price.
 */

async function open(page: Page, url: string, jsEnabled: boolean): Promise<void> {
  await page.goto(url);
  if (jsEnabled) await waitForReact(page);
}

test("a product put on sale shows the struck-through price and saving, and the cart charges the sale price", async ({
  page,
  browser,
  baseURL,
  jsEnabled,
}, testInfo) => {
  test.setTimeout(90_000);
  const name = `Sale Vest ${Date.now().toString(36)}-${testInfo.project.name}`;

  await signInAsAdmin(page, "sale-admin");
  await open(page, "/admin/products/new", jsEnabled);
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Add colour", exact: true }) });
  await form.getByLabel("English Name", { exact: true }).fill(name);
  await form.getByLabel("Chinese Name", { exact: true }).fill("特價背心");
  await form.getByLabel("Price (HKD)", { exact: true }).fill("500.00");
  await form.getByLabel("Stock", { exact: true }).fill("5");
  // Not below the price: refused at the field, the input kept.
  await form.getByLabel("Sale price (HKD)", { exact: true }).fill("500");
  await form.getByRole("button", { name: "Save", exact: true }).last().click();
  await expect(page.getByText("The sale price must be below the regular price").first()).toBeVisible();
  await expect(form.getByLabel("English Name", { exact: true })).toHaveValue(name);
  await form.getByLabel("Sale price (HKD)", { exact: true }).fill("450");
  await form.getByLabel("Sale ends (Hong Kong time)", { exact: true }).fill("2099-12-01T18:00");
  await form.getByRole("button", { name: "Save", exact: true }).last().click();
  await expect(page).toHaveURL(/\/admin\/products(\?|$)/);

  const context = await browser.newContext({ baseURL, javaScriptEnabled: jsEnabled, locale: "en-GB" });
  const shopper = await context.newPage();
  try {
    // The Sale listing: the card with its badge.
    await open(shopper, "/category/sale", jsEnabled);
    const card = shopper.locator("article").filter({ has: shopper.getByRole("link", { name, exact: true }) });
    await expect(card.locator("[data-sale-badge]")).toHaveText("Sale");
    await card.getByRole("link", { name, exact: true }).click();

    // The product page: what is paid, the regular price struck through, the saving.
    await expect(shopper.locator("[data-price]").first()).toHaveText("HK$450.00");
    await expect(shopper.locator("[data-was-price]")).toHaveText("Regular price HK$500.00");
    await expect(shopper.locator("[data-saving]")).toHaveText("Save HK$50.00");

    if (jsEnabled) {
      await shopper.setViewportSize({ width: 390, height: 844 });
      await setLanguage(context, baseURL ?? "", "zh");
      await shopper.reload();
      await expect(shopper.locator("[data-saving]")).toHaveText("節省 HK$50.00");
      await expect(shopper.locator("[data-was-price]")).toHaveText("原價 HK$500.00");
      await setLanguage(context, baseURL ?? "", "en");
    }

    // The cart charges the sale price (computed on the server).
    await apiAddToCart(shopper.request, await productIdByName(shopper.request, name), "Default", 2);
    await open(shopper, "/cart", jsEnabled);
    await expect(shopper.getByTestId("subtotal")).toHaveText("HK$900.00");
    await expect(shopper.locator("main [data-was-price]").first()).toContainText("HK$500.00");
  } finally {
    await context.close();
  }
});
