import { waitForHydration } from "../catalog/helpers";
import { expect, ownerServer, setLanguage, signInAsAdmin, test, waitForReact } from "../fixtures";

/**
 * Settings → Search synonyms on a shop of its own (the "owner" projects): the owner adds a group,
 * is told at the field what is wrong with a bad line (with JavaScript and without), and a
 * shopper's search, on the results page and in the header's live panel, follows at once — the
 * anonymous results page, served from the page cache before the change, is not served stale.
 */

const WORD = "瞄具";
const PRODUCT = "Compact Red Dot Sight 1x22";

/** A signed-out shopper's results page for `term` (no cookies: a page the cache may answer). */
async function shopperSearch(baseURL: string, term: string, cache?: "hit" | "miss"): Promise<string> {
  const response = await fetch(`${baseURL}/search?q=${encodeURIComponent(term)}`);
  expect(response.status).toBe(200);
  if (cache) expect(response.headers.get("x-page-cache")).toBe(cache);
  return response.text();
}

test("the owner edits the search synonyms, and shoppers' searches follow", async ({
  page,
  javaScriptEnabled,
  baseURL,
}) => {
  const jsEnabled = javaScriptEnabled !== false;
  const base = baseURL ?? "";
  // A shopper searches for a word no product name has: nothing (and the page is now cached).
  expect(await shopperSearch(base, WORD)).toContain("No products found.");
  expect(await shopperSearch(base, WORD, "hit")).toContain("No products found.");

  await signInAsAdmin(page, "synonyms", ownerServer(jsEnabled));
  await page.goto("/admin/settings");
  const section = page.locator("section[aria-labelledby=search-heading]");
  await expect(section.getByTestId("synonyms-summary")).toHaveText(/^\d+ groups · The shop's default list applies\.$/);
  await section.getByRole("link", { name: "Edit search synonyms" }).click();
  await expect(page).toHaveURL(/\/admin\/settings\/search$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Search synonyms");
  const box = page.getByLabel("Synonym groups");
  await expect(box).toHaveValue(/^長槍, 步槍, rifle, rifles\n/);
  const defaults = await box.inputValue();

  // A group of one word: the message at the field, with its line, and the text kept.
  const lines = defaults.split("\n").length;
  await box.fill(`${defaults}\n${WORD}`);
  await page.getByRole("button", { name: "Save synonyms" }).click();
  const message = `Line ${lines + 1}: a group needs at least two words, separated by commas or slashes.`;
  await expect(page.getByText(message)).toBeVisible();
  await expect(box).toHaveAttribute("aria-invalid", "true");
  await expect(box).toHaveValue(`${defaults}\n${WORD}`);
  // A word already in another group is named, with the line of its group.
  await box.fill(`${defaults}\n${WORD} / rifle`);
  await page.getByRole("button", { name: "Save synonyms" }).click();
  await expect(
    page.getByText(`Line ${lines + 1}: “rifle” is already in the group on line 1; a word can be in one group only.`),
  ).toBeVisible();

  await box.fill(`${defaults}\n${WORD} / sight`);
  await page.getByRole("button", { name: "Save synonyms" }).click();
  await expect(page.getByRole("status")).toContainText("Search synonyms saved.");
  await expect(page.getByTestId("synonyms-state")).toContainText("Your list, edited");
  await expect(box).toHaveValue(`${defaults}\n${WORD}, sight`);

  // The shopper's next search finds the sight, and says which word it also looked for.
  const after = await shopperSearch(base, WORD, "miss");
  expect(after).toContain(PRODUCT);
  expect(after).toContain("Also searched for “sight”");
  if (jsEnabled) {
    // Search as you type: the header's panel uses the same list.
    await page.goto("/");
    await waitForHydration(page);
    await page.locator("#search-desktop").fill(WORD);
    await expect(page.getByTestId("search-panel").getByRole("link", { name: new RegExp(PRODUCT) })).toBeVisible();
  }

  // In Chinese, the screen and its messages.
  await setLanguage(page.context(), base, "zh");
  await page.goto("/admin/settings/search");
  // With JavaScript, the form is filled once React owns it (a fill before hydration can be lost).
  if (jsEnabled) await waitForReact(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("搜尋同義詞");
  await page.getByLabel("同義詞組").fill("x, 長槍");
  await page.getByRole("button", { name: "儲存同義詞" }).click();
  await expect(page.getByText("第 1 行：「x」太短，每個字詞最少要有 2 個字元。")).toBeVisible();
  await setLanguage(page.context(), base, "en");

  // Back to the default list: a confirmation first (confirm() with JavaScript, a second step without).
  await page.goto("/admin/settings/search");
  if (jsEnabled) await waitForReact(page);
  page.once("dialog", (dialog) => dialog.accept());
  await page.getByRole("button", { name: "Restore the default list" }).click();
  if (!jsEnabled) {
    await expect(page.getByRole("alertdialog")).toBeVisible();
    await page.getByRole("alertdialog").getByRole("button", { name: "Restore the default list" }).click();
  }
  await expect(page.getByRole("status")).toContainText("The default search synonyms apply again.");
  await expect(page.getByLabel("Synonym groups")).toHaveValue(defaults);
  expect(await shopperSearch(base, WORD)).toContain("No products found.");
});
