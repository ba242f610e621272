import { expect, test } from "../fixtures";
import { cards, shownCount, waitForHydration } from "./helpers";

/** Product search: the header box (a GET form, plus a live panel with JavaScript) and /search. */

const PANEL_LIMIT = 10;
const PAGE_SIZE = 24;

test.describe("search", () => {
  test("the header search box opens the results page", async ({ page, jsEnabled }) => {
    await page.goto("/");
    if (jsEnabled) await waitForHydration(page);
    const box = page.locator("#search-desktop");
    await expect(box).toBeVisible();
    await box.fill("pistol");
    await box.press("Enter");

    await expect(page).toHaveURL(/\/search\?q=pistol$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Results for “pistol”");
    const shown = await shownCount(page);
    expect(shown).toBeGreaterThan(0);
    await expect(cards(page)).toHaveCount(Math.min(shown, PAGE_SIZE));
    // Each hit names a pistol, or is in the Pistols category.
    for (const card of await cards(page).all()) {
      await expect(card).toContainText(/pistol/i);
    }
    // The page's own search form keeps the term.
    await expect(page.locator("#search-page")).toHaveValue("pistol");
  });

  test("a one-character search asks for more", async ({ page }) => {
    await page.goto("/search?q=p");
    await expect(page.getByText("Enter at least 2 characters to search.")).toBeVisible();
    await expect(cards(page)).toHaveCount(0);
  });

  test("the live panel shows results as the shopper types", async ({ page, jsEnabled }) => {
    test.skip(!jsEnabled, "the live panel needs JavaScript");
    await page.goto("/");
    await waitForHydration(page);
    const box = page.locator("#search-desktop");
    const panel = page.getByTestId("search-panel");

    await box.fill("pistol");
    await expect(panel).toBeVisible();
    const results = panel.getByRole("link");
    await expect(results.first()).toBeVisible();
    const count = await results.count();
    expect(count).toBeLessThanOrEqual(PANEL_LIMIT);
    for (const result of await results.all()) {
      await expect(result).toHaveAttribute("href", /^\/product\/\d+$/);
      await expect(result).toContainText(/pistol/i);
      await expect(result).toContainText(/HK\$\d[\d,]*\.\d{2}/);
    }
    // The search stayed in the panel: no navigation.
    await expect(page).toHaveURL(/\/$/);

    // One character: a hint and no results.
    await box.fill("p");
    await expect(panel).toContainText("Start typing to search products...");
    await expect(results).toHaveCount(0);

    // Nonsense: nothing found.
    await box.fill("qzxjvwq");
    await expect(panel).toContainText("No products found.");
    await expect(results).toHaveCount(0);

    // Choosing a result opens the product and closes the panel.
    await box.fill("pistol");
    await expect(results.first()).toBeVisible();
    const first = results.first();
    const href = (await first.getAttribute("href")) ?? "";
    const text = (await first.innerText()).trim();
    await first.click();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    await expect(panel).toBeHidden();
    // The result's first line is the product's name: the product page (once drawn) is headed by it.
    const name = text.split("\n")[0]?.trim() ?? "";
    expect(name.length).toBeGreaterThan(0);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  });

  test("finds products by a two-character Chinese term", async ({ page, inChinese }) => {
    await inChinese();
    const response = await page.goto(`/search?q=${encodeURIComponent("手槍")}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("「手槍」的搜尋結果");
    // A match is on the Chinese name or the category (手槍 is also the pistols category); other
    // specs may add products to that category while this runs.
    const found = await cards(page).allTextContents();
    expect(found.length).toBeGreaterThan(0);
    for (const text of found) expect(text).toContain("手槍");
    const names = (await cards(page).locator("h3").allTextContents()).map((t) => t.trim());
    expect(names.some((name) => name.includes("手槍"))).toBe(true);
  });
});
