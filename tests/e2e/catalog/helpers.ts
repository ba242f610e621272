import { expect, type Locator, type Page } from "@playwright/test";

/**
 * Small helpers shared by the catalogue specs (not a spec itself: Playwright only runs *.spec.ts).
 */

/**
 * Waits until React has hydrated the page (the root's first commit is done), so event handlers
 * such as a select's auto-submit or the live search box are attached. Only for the `js` project.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const key = Object.keys(document).find((k) => k.startsWith("__reactContainer$"));
    if (!key) return false;
    // biome-ignore lint/suspicious/noExplicitAny: React internals, read only
    const hostRoot = (document as any)[key];
    const state = hostRoot?.stateNode?.current?.memoizedState;
    return state !== undefined && state !== null && state.isDehydrated === false;
  });
}

/** The product cards of the listing in <main> (not the related products of a product page). */
export function cards(page: Page): Locator {
  return page.locator("main article");
}

/** "HK$1,880.00" -> 1880, "£187.99" -> 187.99. */
export function amount(text: string): number {
  const digits = text.replace(/[^\d.]/g, "");
  if (!/^\d+(\.\d+)?$/.test(digits)) throw new Error(`not a price: ${JSON.stringify(text)}`);
  return Number(digits);
}

/** The number in the listing's "Showing N products" line. */
export async function shownCount(page: Page): Promise<number> {
  const text = (await page.getByTestId("product-count").textContent()) ?? "";
  const match = /(\d+)/.exec(text);
  if (!match) throw new Error(`no count in ${JSON.stringify(text)}`);
  return Number(match[1]);
}

/** The /product/{id} links of the cards, in order (one per card: its "Details" link). */
export async function cardProductLinks(page: Page): Promise<string[]> {
  return cards(page)
    .locator("h3 a")
    .evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
}

/** The card whose name (its h3) is exactly `name`. */
export function cardNamed(page: Page, name: string): Locator {
  return cards(page).filter({ has: page.locator("h3", { hasText: new RegExp(`^\\s*${escapeRegExp(name)}\\s*$`) }) });
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Prices of every card, as shown. */
export async function cardPrices(page: Page): Promise<string[]> {
  // The price paid is the element's first text; a sale adds the regular price struck through after it.
  return cards(page)
    .locator("[data-price]")
    .evaluateAll((elements) => elements.map((element) => (element.firstChild?.textContent ?? "").trim()));
}

/** Chooses `currency` in the header's currency form (auto-submits with JS, button without). */
export async function switchCurrency(page: Page, currency: string, jsEnabled: boolean): Promise<void> {
  if (jsEnabled) await waitForHydration(page);
  const picker = page.locator("header form[action='/resources/currency']").first();
  await picker.getByRole("combobox").selectOption(currency);
  if (!jsEnabled) await picker.getByRole("button").click();
  await expect(page.getByRole("status")).toContainText(`Prices now shown in ${currency}`);
}
