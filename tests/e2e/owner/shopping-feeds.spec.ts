import { childrenNamed, childText, parseXml, type XmlElement } from "../../setup/xml";
import { expect, ownerServer, setLanguage, signInAsAdmin, test } from "../fixtures";

/**
 * Settings → Shopping feeds on a shop of its own (the "owner" projects; docs/decisions/056): the
 * owner turns on the English HKD feed, Settings shows its address, and that address answers the
 * Merchant Center feed (RSS with the g: namespace, one item per variant); a feed that is off is
 * not found. With JavaScript and without; the screen in Chinese at phone width.
 */

test("the owner turns on a shopping feed and its address answers XML", async ({ page, javaScriptEnabled, baseURL }) => {
  const jsEnabled = javaScriptEnabled !== false;
  const base = baseURL ?? "";
  await signInAsAdmin(page, "feeds", ownerServer(jsEnabled));
  await page.goto("/admin/settings");
  const section = page.locator("section[aria-labelledby=feeds-heading]");
  await section.getByRole("link", { name: "Choose feeds" }).click();
  await expect(page).toHaveURL(/\/admin\/settings\/feeds$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Shopping feeds");

  // Whatever another run left: start from every feed off.
  const boxes = page.getByRole("checkbox");
  await expect(boxes).toHaveCount(8);
  for (const box of await boxes.all()) await box.uncheck();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status")).toContainText("Shopping feeds saved");
  await expect(page.getByText("No feed is on.")).toBeVisible();
  expect((await fetch(`${base}/feeds/google/en/HKD.xml`)).status).toBe(404);

  await page.getByRole("checkbox", { name: "English feed in HKD" }).check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status")).toContainText("Shopping feeds saved");
  await expect(page.getByRole("checkbox", { name: "English feed in HKD" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Chinese feed in GBP" })).not.toBeChecked();

  // Settings lists the address to paste into Merchant Center; it answers the feed.
  await page.goto("/admin/settings");
  const link = section.locator("[data-feed-url=en-HKD]");
  await expect(link).toHaveText(/\/feeds\/google\/en\/HKD\.xml$/);
  const address = new URL((await link.getAttribute("href")) ?? "");
  const response = await fetch(`${base}${address.pathname}`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
  const xml = await response.text();
  expect(xml).toMatch(
    /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<rss version="2\.0" xmlns:g="http:\/\/base\.google\.com\/ns\/1\.0">/,
  );
  // Well-formed, and every item of the demo catalogue has what Google requires.
  const channel = childrenNamed(parseXml(xml), "channel")[0] as XmlElement;
  const items = childrenNamed(channel, "item");
  expect(items.length).toBeGreaterThan(0);
  for (const item of items) {
    const id = childText(item, "g:id");
    for (const name of ["g:id", "g:title", "g:description", "g:link", "g:image_link", "g:condition"]) {
      expect(childText(item, name), `${id} ${name}`).toMatch(/\S/);
    }
    expect(childText(item, "g:price"), `${id}`).toMatch(/^\d+\.\d{2} HKD$/);
    expect(["in_stock", "out_of_stock"]).toContain(childText(item, "g:availability"));
  }
  expect((await fetch(`${base}/feeds/google/zh/GBP.xml`)).status).toBe(404);

  // In Chinese, at phone width: the screen's own words, nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await setLanguage(page.context(), base, "zh");
  await page.goto("/admin/settings/feeds");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("購物資料饋送");
  await expect(page.getByRole("checkbox", { name: "英文資料饋送（HKD）" })).toBeChecked();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await setLanguage(page.context(), base, "en");
});
