import type { Page } from "@playwright/test";
import en from "../../../app/locales/en/translation";
import zh from "../../../app/locales/zh/translation";
import { CJK, expect, productIdByName, setLanguage, test, waitForReact } from "../fixtures";

/**
 * Storefront interface details: the flash message's "×" with and without JavaScript, Chinese
 * pages in Chinese (breadcrumb label, one term for New Arrivals), Latin punctuation in a Latin
 * font on English pages, and sold-out colours that cannot be chosen.
 */

const TEXT = { en, zh } as const;

/** Switches the currency in the header, which answers with a flash message. */
async function switchCurrency(page: Page, jsEnabled: boolean, currency: string): Promise<void> {
  const picker = page.locator("header form[action='/resources/currency']").first();
  if (jsEnabled) await waitForReact(page);
  await picker.getByRole("combobox").selectOption(currency);
  if (!jsEnabled) await picker.getByRole("button").click();
}

/** The platform fonts Chromium used to draw the text of the first element matching `selector`. */
async function fontsUsed(page: Page, selector: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send("DOM.enable");
    await cdp.send("CSS.enable");
    const { root } = await cdp.send("DOM.getDocument", { depth: 0 });
    const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector });
    const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
    return fonts.map((font) => font.familyName);
  } finally {
    await cdp.detach();
  }
}

test.describe("storefront interface", () => {
  for (const lang of ["en", "zh"] as const) {
    test(`the flash message's × dismisses it (${lang})`, async ({ page, context, baseURL, jsEnabled }) => {
      await setLanguage(context, baseURL ?? "", lang);
      await page.goto("/faq");
      await switchCurrency(page, jsEnabled, "EUR");
      const flash = page.getByRole("status").filter({ hasText: "EUR" });
      await expect(flash).toBeVisible();
      await expect(page).toHaveURL(/\/faq$/);
      // A marker that survives only if the page is not reloaded.
      await page.evaluate(() => {
        (window as unknown as { marker?: number }).marker = 1;
      });
      await flash.getByRole(jsEnabled ? "button" : "link", { name: TEXT[lang].flash.dismiss }).click();
      await expect(flash).toHaveCount(0);
      await expect(page).toHaveURL(/\/faq$/);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      const marker = await page.evaluate(() => (window as unknown as { marker?: number }).marker ?? null);
      // With JavaScript it hides in place; without, the same page comes back without the message.
      expect(marker).toBe(jsEnabled ? 1 : null);
      await page.reload();
      await expect(page.getByRole("status").filter({ hasText: "EUR" })).toHaveCount(0);
    });
  }

  test("Chinese pages name the breadcrumb in Chinese and say New Arrivals one way", { tag: "@render" }, async ({
    page,
    inChinese,
  }) => {
    await page.goto("/category/rifles");
    await expect(page.getByRole("navigation", { name: en.nav.breadcrumb, exact: true })).toBeVisible();

    await inChinese();
    await page.goto("/category/rifles");
    const breadcrumb = page.getByRole("navigation", { name: zh.nav.breadcrumb, exact: true });
    await expect(breadcrumb).toBeVisible();
    await expect(breadcrumb).toContainText(zh.catalog.home);
    await expect(page.locator("nav[aria-label=Breadcrumb]")).toHaveCount(0);
    for (const nav of await page.locator("nav[aria-label]").all()) {
      await expect(nav).toHaveAttribute("aria-label", CJK);
    }

    // The home page's New Arrivals button, the listing it opens and the category's name agree.
    expect(zh.home.newArrivals).toBe(zh.catalog.newArrivals);
    await page.goto("/");
    await page.getByRole("link", { name: zh.home.newArrivals, exact: true }).click();
    await expect(page).toHaveURL(/\/category\/new-arrivals$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(zh.home.newArrivals);
    await expect(page.getByRole("navigation", { name: zh.nav.breadcrumb })).toContainText(zh.home.newArrivals);
  });

  test("English pages draw curly quotes with a Latin font; Chinese pages use a CJK font", { tag: "@render" }, async ({
    page,
    inChinese,
  }) => {
    await page.goto("/search?q=m4");
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).toHaveText("Results for “m4”");
    // A full-width quote is as wide as the font size; a Latin one (bold DejaVu Sans here) about 0.65.
    const quoteWidth = await heading.evaluate((h1) => {
      const text = h1.firstChild as Text;
      const range = document.createRange();
      const at = (text.textContent ?? "").indexOf("“");
      range.setStart(text, at);
      range.setEnd(text, at + 1);
      return range.getBoundingClientRect().width / Number.parseFloat(getComputedStyle(h1).fontSize);
    });
    expect(quoteWidth).toBeLessThan(0.8);
    const englishFonts = await fontsUsed(page, "main h1");
    expect(englishFonts.length).toBeGreaterThan(0);
    expect(englishFonts.filter((font) => /CJK|TC|HK|JhengHei|PingFang/.test(font))).toEqual([]);

    await inChinese();
    await page.goto("/search?q=m4");
    await expect(heading).toHaveText(zh.search.resultsFor.replace("{{q}}", "m4"));
    const chineseFonts = await fontsUsed(page, "main h1");
    expect(
      chineseFonts.some((font) => /CJK/.test(font)),
      chineseFonts.join(", "),
    ).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/^"Noto Sans CJK HK"/);
  });

  test("a sold-out colour cannot be chosen, and the cart refuses it anyway", async ({ page, inChinese, jsEnabled }) => {
    const id = await productIdByName(page.request, "M4 CQB Carbine AEG");
    for (const lang of ["en", "zh"] as const) {
      if (lang === "zh") await inChinese();
      await page.goto(`/product/${id}`);
      if (jsEnabled) await waitForReact(page);
      const form = page.locator("main form").filter({ has: page.locator("input[name=productId]") });
      const soldOutSelector = 'input[type=radio][name=color][value="Olive Drab"]';
      const soldOut = form.locator(soldOutSelector);
      const label = form.locator("label").filter({ has: page.locator(soldOutSelector) });
      await expect(soldOut).toBeDisabled();
      await expect(label).toContainText(TEXT[lang].product.soldOut);
      await expect(form.locator('input[type=radio][name=color][value="Black"]')).toBeChecked();
      await label.click({ force: true });
      await expect(soldOut).not.toBeChecked();
      await expect(form.locator('input[type=radio][name=color][value="Black"]')).toBeChecked();
      await expect(page.getByTestId("stock")).not.toHaveText(TEXT[lang].product.soldOut);
      await expect(form.getByRole("button", { name: TEXT[lang].product.addToCart, exact: true })).toBeEnabled();
    }

    // A forged post for the sold-out colour: refused with a message, nothing in the cart.
    const plain = await page.request.post("/cart", {
      form: { intent: "add", productId: String(id), color: "Olive Drab", quantity: "1", redirectTo: `/product/${id}` },
      maxRedirects: 0,
    });
    expect(plain.status()).toBe(303);
    // Back to the product page with the colour asked for in the address (docs/decisions/054).
    expect(plain.headers().location).toBe(`/product/${id}?colour=Olive+Drab`);
    await page.goto(`/product/${id}`);
    await expect(page.getByRole("alert")).toContainText(zh.cart.errors.insufficientStock);
    const viaFetcher = await page.request.post("/cart", {
      form: { intent: "add", productId: String(id), color: "Olive Drab", quantity: "1", _fetcher: "1" },
      maxRedirects: 0,
    });
    expect(viaFetcher.status()).toBe(400);
    await expect(page.getByTestId("cart-count")).toHaveCount(0);
  });
});
