import type { BrowserContext, Page } from "@playwright/test";
import {
  expect,
  openPage,
  productIdByName,
  setLanguage,
  signInAsAdmin,
  solidPng,
  shopperTest as test,
} from "../fixtures";

/**
 * The product form's prices that follow HKD (issue 14, docs/decisions/020), its colours' Chinese
 * names, its total stock and its image previews. A GBP/EUR/USD price left empty follows HKD and is
 * recomputed on every save; a typed one is fixed until it is cleared. The form shows which is which
 * (an empty field with today's derived amount as placeholder and hint, or the typed value with
 * "Fixed price"). Each run makes its own product; the shop's rates are the defaults (0.1, 0.118,
 * 0.128 per HK$1).
 */

function uniqueName(project: string): string {
  return `Price Rifle ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}-${project}`;
}

/** The shopper's currency, as the header's currency form sets it (an unsigned cookie). */
async function setCurrency(context: BrowserContext, baseURL: string, currency: "HKD" | "GBP" | "EUR"): Promise<void> {
  await context.addCookies([{ name: "currency", value: btoa(JSON.stringify(currency)), url: baseURL }]);
}

function productForm(page: Page) {
  return page.locator("form").filter({ has: page.locator("#product-price_hkd") });
}

/** A price field's hint, found through the input's aria-describedby. */
function hintOf(page: Page, name: string) {
  return page.locator(`#product-${name}-hint`);
}

async function save(page: Page): Promise<void> {
  await productForm(page).getByRole("button", { name: "Save", exact: true }).last().click();
  await expect(page).toHaveURL(/\/admin\/products$/);
}

async function storePrice(page: Page, id: number, jsEnabled: boolean) {
  await openPage(page, `/product/${id}`, jsEnabled);
  return page.locator("main [data-price]").first();
}

test.describe("product prices that follow HKD", () => {
  test("an empty price follows every HKD change; a typed one stays until cleared", async ({
    page,
    context,
    baseURL,
    jsEnabled,
  }, testInfo) => {
    test.setTimeout(90_000);
    const name = uniqueName(testInfo.project.name);
    const base = baseURL ?? "";
    await signInAsAdmin(page, "price-admin");

    await test.step("create with HKD and a fixed EUR price only", async () => {
      await openPage(page, "/admin/products/new", jsEnabled);
      const form = productForm(page);
      // Nothing typed yet: each empty price says it follows HKD at its rate.
      await expect(hintOf(page, "price_gbp")).toHaveText("Follows HKD at 0.1 — type a price to fix it");
      await form.getByLabel("English Name", { exact: true }).fill(name);
      await form.getByLabel("Chinese Name", { exact: true }).fill("價格測試步槍");
      await form.getByLabel("Price (HKD)", { exact: true }).fill("888");
      await form.getByLabel("Price (EUR)", { exact: true }).fill("99.99");
      if (jsEnabled) {
        // The hints follow the HKD field and the typed EUR field as they are typed.
        await expect(hintOf(page, "price_gbp")).toHaveText(
          "Follows HKD: ≈ £88.80 from HK$ at 0.1 — type a price to fix it",
        );
        await expect(form.getByLabel("Price (GBP)", { exact: true })).toHaveAttribute("placeholder", "≈ 88.80");
        await expect(hintOf(page, "price_eur")).toHaveText("Fixed price — clear it to follow HKD");
      }
      await form.getByLabel("Stock", { exact: true }).fill("2");
      await save(page);
    });
    const id = await productIdByName(page.request, name);

    await test.step("the form marks GBP/USD as derived and EUR as fixed", async () => {
      await openPage(page, `/admin/products/edit/${id}`, jsEnabled);
      const form = productForm(page);
      await expect(form.getByLabel("Price (GBP)", { exact: true })).toHaveValue("");
      await expect(form.getByLabel("Price (GBP)", { exact: true })).toHaveAttribute("placeholder", "≈ 88.80");
      await expect(hintOf(page, "price_gbp")).toHaveText(
        "Follows HKD: ≈ £88.80 from HK$ at 0.1 — type a price to fix it",
      );
      await expect(hintOf(page, "price_usd")).toContainText("≈ $113.66 from HK$ at 0.128");
      await expect(form.getByLabel("Price (EUR)", { exact: true })).toHaveValue("99.99");
      await expect(hintOf(page, "price_eur")).toHaveText("Fixed price — clear it to follow HKD");
      // The hint is the field's description for screen readers.
      await expect(form.getByLabel("Price (GBP)", { exact: true })).toHaveAccessibleDescription(
        /Follows HKD: ≈ £88\.80/,
      );

      await setLanguage(context, base, "zh");
      await openPage(page, `/admin/products/edit/${id}`, jsEnabled);
      await expect(hintOf(page, "price_gbp")).toHaveText("跟隨港幣：按匯率 0.1 約為 £88.80，輸入價格即可固定");
      await expect(hintOf(page, "price_eur")).toHaveText("固定價格，清空即跟隨港幣換算");
      await setLanguage(context, base, "en");
    });

    await test.step("GBP shoppers pay the derived price", async () => {
      await setCurrency(context, base, "GBP");
      await expect(await storePrice(page, id, jsEnabled)).toHaveText("£88.80");
    });

    await test.step("raising HKD moves GBP and leaves the typed EUR alone", async () => {
      await openPage(page, `/admin/products/edit/${id}`, jsEnabled);
      await productForm(page).getByLabel("Price (HKD)", { exact: true }).fill("1888");
      if (jsEnabled) {
        await expect(hintOf(page, "price_gbp")).toHaveText(
          "Follows HKD: ≈ £188.80 from HK$ at 0.1 — type a price to fix it",
        );
      }
      await save(page);
      await expect(await storePrice(page, id, jsEnabled)).toHaveText("£188.80");
      await setCurrency(context, base, "EUR");
      await expect(await storePrice(page, id, jsEnabled)).toHaveText("€99.99");
    });

    await test.step("clearing the typed EUR price makes it follow HKD again", async () => {
      await openPage(page, `/admin/products/edit/${id}`, jsEnabled);
      const eur = productForm(page).getByLabel("Price (EUR)", { exact: true });
      await eur.fill("");
      if (jsEnabled) await expect(hintOf(page, "price_eur")).toContainText("≈ €222.78 from HK$ at 0.118");
      await save(page);
      await expect(await storePrice(page, id, jsEnabled)).toHaveText("€222.78");
      await openPage(page, `/admin/products/edit/${id}`, jsEnabled);
      await expect(productForm(page).getByLabel("Price (EUR)", { exact: true })).toHaveValue("");
      await expect(hintOf(page, "price_eur")).toContainText("Follows HKD: ≈ €222.78");
      await setCurrency(context, base, "HKD");
    });
  });

  test("a bad price or Chinese colour name comes back with its message and the input kept", async ({
    page,
    jsEnabled,
  }, testInfo) => {
    const name = uniqueName(testInfo.project.name);
    await signInAsAdmin(page, "price-admin");
    await openPage(page, "/admin/products/new", jsEnabled);
    const form = productForm(page);
    await form.getByLabel("English Name", { exact: true }).fill(name);
    await form.getByLabel("Chinese Name", { exact: true }).fill("價格測試步槍");
    await form.getByLabel("Price (HKD)", { exact: true }).fill("100");
    await form.getByLabel("Price (GBP)", { exact: true }).fill("1.999");
    // Leaving the field first: with JavaScript its message appears on blur and moves the button
    // below it, so a click that blurs the field would land where the button was.
    await form.getByLabel("Price (GBP)", { exact: true }).press("Tab");
    await form.getByRole("button", { name: "Add colour", exact: true }).click();
    await form.getByLabel("Colour", { exact: true }).fill("Black");
    await form.getByLabel("Chinese colour name", { exact: true }).fill("黑".repeat(61));
    await form.getByRole("button", { name: "Save", exact: true }).last().click();
    await expect(page.getByRole("alert").filter({ hasText: "Please correct the errors below" })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/products\/new$/);
    await expect(form.getByLabel("Price (GBP)", { exact: true })).toHaveValue("1.999");
    await expect(form.getByLabel("Price (GBP)", { exact: true })).toHaveAccessibleDescription(
      /Enter a price that is not negative/,
    );
    await expect(form.getByLabel("Chinese colour name", { exact: true })).toHaveValue("黑".repeat(61));
    await expect(form.getByLabel("Chinese colour name", { exact: true })).toHaveAccessibleDescription(
      "The colour name is too long",
    );

    // Fixed: saved with the Chinese name, which the edit form shows again.
    await form.getByLabel("Price (GBP)", { exact: true }).fill("");
    await form.getByLabel("Chinese colour name", { exact: true }).fill(" 黑色 ");
    await save(page);
    const id = await productIdByName(page.request, name);
    await openPage(page, `/admin/products/edit/${id}`, jsEnabled);
    await expect(productForm(page).getByLabel("Chinese colour name", { exact: true })).toHaveValue("黑色");
    await expect(productForm(page).getByLabel("Price (GBP)", { exact: true })).toHaveValue("");
  });
});

test.describe("product form helpers", () => {
  test("the total stock follows the colour stocks; chosen images show a preview", async ({ page, jsEnabled }) => {
    await signInAsAdmin(page, "stock-admin");
    await openPage(page, "/admin/products/new", jsEnabled);
    const form = productForm(page);
    const total = form.getByText(/^Total stock: \d+$/);
    await expect(total).toHaveText("Total stock: 0");
    await form.getByLabel("Stock", { exact: true }).fill("4");
    if (jsEnabled) await expect(total).toHaveText("Total stock: 4");
    await form.getByRole("button", { name: "Add colour", exact: true }).click();
    await expect(form.getByLabel("Colour", { exact: true })).toHaveCount(1);
    // Without JavaScript the total is the server's, after each add or remove.
    await expect(total).toHaveText("Total stock: 4");
    await form.getByRole("button", { name: "Add colour", exact: true }).click();
    await expect(form.getByLabel("Colour", { exact: true })).toHaveCount(2);
    await expect(total).toHaveText("Total stock: 4");
    const stocks = form.getByLabel("Stock", { exact: true });
    await stocks.nth(0).fill("7");
    await stocks.nth(1).fill("5");
    await expect(total).toHaveText(jsEnabled ? "Total stock: 12" : "Total stock: 4");
    await form.getByRole("button", { name: "Remove", exact: true }).first().click();
    await expect(form.getByLabel("Colour", { exact: true })).toHaveCount(1);
    await expect(total).toHaveText("Total stock: 5");
    if (jsEnabled) {
      await stocks.nth(0).fill("");
      await expect(total).toHaveText("Total stock: 0");
    }

    const files = form.getByLabel("Add images", { exact: true });
    await files.setInputFiles([
      await solidPng("front.png", { r: 200, g: 40, b: 40 }),
      await solidPng("side.png", { r: 40, g: 40, b: 200 }),
    ]);
    const previews = form.getByRole("img", { name: /^New image \d: / });
    if (!jsEnabled) {
      // Without JavaScript the browser's own file input names the choice; nothing else shows.
      await expect(previews).toHaveCount(0);
      return;
    }
    await expect(previews).toHaveCount(2);
    await expect(previews.nth(0)).toHaveAccessibleName("New image 1: front.png");
    await expect(previews.nth(1)).toHaveAccessibleName("New image 2: side.png");
    const firstUrl = (await previews.nth(0).getAttribute("src")) ?? "";
    expect(firstUrl).toMatch(/^blob:/);
    await expect
      .poll(() => previews.nth(0).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(64);
    // A new choice replaces the previews and releases the old object URLs.
    await files.setInputFiles([await solidPng("back.png", { r: 40, g: 200, b: 40 })]);
    await expect(previews).toHaveCount(1);
    await expect(previews.nth(0)).toHaveAccessibleName("New image 1: back.png");
    const released = await page.evaluate(async (url) => {
      try {
        await fetch(url);
        return false;
      } catch {
        return true;
      }
    }, firstUrl);
    expect(released).toBe(true);
  });

  test("the form fits a phone in both languages", async ({ page, context, baseURL, jsEnabled }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAsAdmin(page, "phone-admin");
    for (const language of ["en", "zh"] as const) {
      await setLanguage(context, baseURL ?? "", language);
      await openPage(page, "/admin/products/new", jsEnabled);
      const addColour = { en: "Add colour", zh: "新增顏色" }[language];
      await productForm(page).getByRole("button", { name: addColour, exact: true }).click();
      await expect(productForm(page).locator("#variant-0-color_zh")).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `horizontal overflow in ${language}`).toBeLessThanOrEqual(0);
    }
    await setLanguage(context, baseURL ?? "", "en");
  });
});
