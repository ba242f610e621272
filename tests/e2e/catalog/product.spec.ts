import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures";
import { cardNamed, cards } from "./helpers";

/**
 * The product page (/product/:id), reached the way a shopper does: from a listing card.
 * Seeded data (db/seed/catalogue.ts): the M4 CQB carbine has five images and the colours
 * Black, Tan and Olive Drab (none left); the DMR is sold out in every colour.
 */

const M4 = "M4 CQB Carbine AEG";
const SOLD_OUT = "Marksman DMR AEG 20-inch";

/** Opens the rifles listing, remembers its product names, and follows `name`'s Details link. */
async function openFromRifles(page: Page, name: string): Promise<{ path: string; rifles: string[] }> {
  await page.goto("/category/rifles");
  const rifles = (await cards(page).locator("h3").allTextContents()).map((t) => t.trim());
  await cardNamed(page, name).getByRole("link", { name: "Details", exact: true }).click();
  await expect(page).toHaveURL(/\/product\/\d+$/);
  return { path: new URL(page.url()).pathname, rifles };
}

function productForm(page: Page) {
  return page.locator("main form").filter({ has: page.getByRole("spinbutton", { name: "Quantity" }) });
}

test.describe("product page", () => {
  test("shows the product bought from a card's Details link", async ({ page }) => {
    const { path, rifles } = await openFromRifles(page, M4);

    const breadcrumb = page.getByRole("navigation", { name: "Breadcrumb" });
    await expect(breadcrumb).toHaveText(new RegExp(`^\\s*Home\\s*›\\s*Rifles\\s*›\\s*${M4}\\s*$`));
    await expect(breadcrumb.getByRole("link", { name: "Rifles" })).toHaveAttribute("href", "/category/rifles");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(M4);
    await expect(page.locator("main h1 + [data-price]")).toHaveText("HK$1,880.00");

    const form = productForm(page);
    const radios = form.getByRole("radio");
    await expect(radios).toHaveCount(3);
    // The first colour with stock is chosen; the sold-out one says so.
    await expect(form.getByRole("radio", { name: "Black" })).toBeChecked();
    await expect(form.getByRole("radio", { name: "Tan" })).not.toBeChecked();
    await expect(form.getByRole("radio", { name: "Olive Drab · Sold out" })).not.toBeChecked();

    const quantity = form.getByRole("spinbutton", { name: "Quantity" });
    await expect(quantity).toHaveAttribute("type", "number");
    await expect(quantity).toHaveAttribute("min", "1");
    await expect(quantity).toHaveValue("1");
    await expect(form.getByRole("button", { name: /^Add to Cart/ })).toBeEnabled();
    await expect(page.getByTestId("stock")).toHaveText(/^[1-9]\d* in stock$/);

    // Related products: up to four others from the same category.
    const related = page.locator("section[aria-labelledby=related-heading]");
    await expect(related.getByRole("heading", { name: "Related Products" })).toBeVisible();
    const relatedNames = (await related.locator("article h3").allTextContents()).map((t) => t.trim());
    expect(relatedNames.length).toBeGreaterThan(0);
    expect(relatedNames.length).toBeLessThanOrEqual(4);
    expect(relatedNames).not.toContain(M4);
    for (const name of relatedNames) expect(rifles).toContain(name);
    const relatedLinks = await related
      .locator("article h3 a")
      .evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(relatedLinks).not.toContain(path);

    // Structured data for search engines.
    const jsonLd = JSON.parse((await page.locator('main script[type="application/ld+json"]').textContent()) ?? "");
    expect(jsonLd["@type"]).toBe("ProductGroup");
    expect(jsonLd.name).toBe(M4);
    expect(jsonLd.hasVariant[0].offers.priceCurrency).toBe("HKD");
    expect(jsonLd.hasVariant[0].offers.price).toBe("1880.00");
    expect(jsonLd.hasVariant[0].offers.availability).toBe("https://schema.org/InStock");
  });

  test("the gallery steps through the images and wraps around", async ({ page }) => {
    const { path } = await openFromRifles(page, M4);
    const gallery = page.getByRole("region", { name: "Product images" });
    const counter = gallery.getByTestId("image-counter");
    const main = gallery.getByRole("img", { name: M4 });

    const first = /^1 \/ (\d+)$/.exec(((await counter.textContent()) ?? "").trim());
    expect(first, "the counter reads 1 / N").not.toBeNull();
    const count = Number(first?.[1]);
    expect(count).toBeGreaterThan(1);
    const firstSrc = await main.getAttribute("src");

    await gallery.getByRole("link", { name: "Next image" }).click();
    await expect(page).toHaveURL(new RegExp(`${path}\\?image=1$`));
    await expect(counter).toHaveText(`2 / ${count}`);
    await expect(main).not.toHaveAttribute("src", firstSrc ?? "");

    await gallery.getByRole("link", { name: "Previous image" }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(counter).toHaveText(`1 / ${count}`);
    await expect(main).toHaveAttribute("src", firstSrc ?? "");

    // Previous from the first image wraps to the last, Next from the last back to the first.
    await gallery.getByRole("link", { name: "Previous image" }).click();
    await expect(page).toHaveURL(new RegExp(`${path}\\?image=${count - 1}$`));
    await expect(counter).toHaveText(`${count} / ${count}`);
    await gallery.getByRole("link", { name: "Next image" }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(counter).toHaveText(`1 / ${count}`);

    // Thumbnails link to their image (at most four are shown).
    const thumbs = gallery.getByRole("link", { name: /^Show image \d+(, \+\d+)?$/ });
    await expect(thumbs).toHaveCount(Math.min(4, count));
    await expect(gallery.getByRole("link", { name: "Show image 1" })).toHaveAttribute("aria-current", "true");
    await expect(gallery.getByRole("link", { name: "Show image 2" })).toHaveAttribute("href", `${path}?image=1`);
    await gallery.getByRole("link", { name: "Show image 2" }).click();
    await expect(page).toHaveURL(new RegExp(`${path}\\?image=1$`));
    await expect(counter).toHaveText(`2 / ${count}`);
    await expect(gallery.getByRole("link", { name: "Show image 2" })).toHaveAttribute("aria-current", "true");
    await expect(gallery.getByRole("link", { name: "Show image 1" })).not.toHaveAttribute("aria-current", "true");
  });

  test("a sold-out product cannot be added to the cart", async ({ page }) => {
    await openFromRifles(page, SOLD_OUT);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(SOLD_OUT);
    const form = productForm(page);
    await expect(form.getByRole("button", { name: "Out of Stock" })).toBeDisabled();
    await expect(form.getByRole("button", { name: /^Add to Cart/ })).toHaveCount(0);
    await expect(page.getByTestId("stock")).toHaveText("Sold out");
    const jsonLd = JSON.parse((await page.locator('main script[type="application/ld+json"]').textContent()) ?? "");
    expect(jsonLd.hasVariant.length).toBeGreaterThan(0);
    for (const variant of jsonLd.hasVariant) expect(variant.offers.availability).toBe("https://schema.org/OutOfStock");
  });

  for (const path of ["/product/999999", "/product/abc"]) {
    test(`${path} answers 404 with a way home`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Product not found");
      const home = page.getByRole("link", { name: "Back to Home" });
      await expect(home).toHaveAttribute("href", "/");
      await home.click();
      await expect(page.getByRole("heading", { level: 1, name: "Gear Up for the Field" })).toBeVisible();
    });
  }
});
