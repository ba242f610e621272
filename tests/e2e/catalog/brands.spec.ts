import { expect, openPage as open, productIdByName, setLanguage, signInAsAdmin, test } from "../fixtures";

/**
 * Brands end to end (issue 28 item 2, docs/decisions/052), JavaScript on and off: the owner adds
 * a brand on Admin → Brands and picks it on a new product's form; a shopper sees the brand on the
 * product page, follows it to the brand's listing, narrows another listing by it with a plain
 * link that keeps the sort, and clears it; in Chinese at phone width once (its Chinese name).
 */

test("an owner's brand shows on the product page and filters listings", async ({
  page,
  browser,
  baseURL,
  jsEnabled,
}, testInfo) => {
  test.setTimeout(90_000);
  const tag = `${Date.now().toString(36)}-${testInfo.project.name}`;
  const brand = `Brand ${tag}`;
  const slug = `brand-${tag}`.toLowerCase();
  const brandZh = `品牌 ${tag}`;
  const name = `Branded Rifle ${tag}`;

  await signInAsAdmin(page, "brand-admin");
  await open(page, "/admin/brands", jsEnabled);
  await page.getByRole("link", { name: "Add Brand", exact: true }).click();
  const brandForm = page.getByRole("region", { name: "Add New Brand", exact: true });
  await brandForm.getByLabel("Name", { exact: true }).fill(brand);
  await brandForm.getByLabel("Chinese name", { exact: true }).fill(brandZh);
  await brandForm.getByRole("button", { name: "Create", exact: true }).click();
  const row = page.getByTestId("brand-row").filter({ hasText: brand });
  await expect(row.getByTestId("brand-products")).toHaveText("0 products");

  await open(page, "/admin/products/new", jsEnabled);
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Add colour", exact: true }) });
  await form.getByLabel("English Name", { exact: true }).fill(name);
  await form.getByLabel("Chinese Name", { exact: true }).fill("品牌步槍");
  await form.getByLabel("Price (HKD)", { exact: true }).fill("1200.00");
  await form.getByLabel("Stock", { exact: true }).fill("3");
  await form.getByLabel("Brand", { exact: true }).selectOption({ label: `${brand} / ${brandZh}` });
  await form.getByRole("button", { name: "Save", exact: true }).last().click();
  await expect(page).toHaveURL(/\/admin\/products(\?|$)/);
  await open(page, "/admin/brands", jsEnabled);
  await expect(row.getByTestId("brand-products")).toHaveText("1 product");

  const context = await browser.newContext({ baseURL, javaScriptEnabled: jsEnabled, locale: "en-GB" });
  const shopper = await context.newPage();
  try {
    // The product page names the brand and links to its listing.
    const id = await productIdByName(shopper.request, name);
    await open(shopper, `/product/${id}`, jsEnabled);
    await shopper.getByTestId("product-brand").getByRole("link", { name: brand, exact: true }).click();
    await expect(shopper).toHaveURL(new RegExp(`/category/all\\?brand=${slug}$`));
    await expect(shopper.getByTestId("active-brand")).toContainText(`Brand: ${brand}`);
    await expect(shopper.getByTestId("product-count")).toHaveText("Showing 1 product");
    await expect(shopper.getByRole("link", { name, exact: true })).toBeVisible();

    // Another listing, sorted: the brand link narrows it and keeps the sort; "Clear brand" undoes it.
    await open(shopper, "/category/all?sort=newest", jsEnabled);
    const filter = shopper.getByTestId("brand-filter");
    await filter.getByRole("link", { name: `${brand} (1)`, exact: true }).click();
    await expect(shopper).toHaveURL(/[?&]sort=newest/);
    await expect(shopper).toHaveURL(new RegExp(`[?&]brand=${slug}`));
    await expect(shopper.getByTestId("product-count")).toHaveText("Showing 1 product");
    await expect(filter.getByRole("link", { name: `${brand} (1)`, exact: true })).toHaveAttribute(
      "aria-current",
      "true",
    );
    await shopper.getByRole("link", { name: `Clear brand ${brand}`, exact: true }).click();
    await expect(shopper).toHaveURL(/\/category\/all\?sort=newest$/);
    await expect(shopper.getByTestId("active-brand")).toHaveCount(0);

    // Search finds it by the brand's name.
    await open(shopper, `/search?q=${encodeURIComponent(brand)}`, jsEnabled);
    await expect(shopper.getByRole("link", { name, exact: true })).toBeVisible();

    if (jsEnabled) {
      await shopper.setViewportSize({ width: 390, height: 844 });
      await setLanguage(context, baseURL ?? "", "zh");
      await open(shopper, `/category/all?brand=${slug}`, jsEnabled);
      await expect(shopper.getByTestId("active-brand")).toContainText(`品牌：${brandZh}`);
      await expect(shopper.getByRole("link", { name: `清除品牌 ${brandZh}`, exact: true })).toBeVisible();
      await open(shopper, `/product/${id}`, jsEnabled);
      await expect(shopper.getByTestId("product-brand")).toContainText(brandZh);
      await setLanguage(context, baseURL ?? "", "en");
    }
  } finally {
    await context.close();
  }
});
