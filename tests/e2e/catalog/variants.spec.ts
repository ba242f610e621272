import {
  expect,
  mailsTo,
  openPage,
  readableMail,
  setLanguage,
  signInAsAdmin,
  test,
  uniqueEmail,
  waitForMail,
  withMainDatabase,
} from "../fixtures";

/**
 * Sizes (issue 28 item 1, docs/decisions/054), JavaScript on and off: the owner gives a new
 * product a colour and a second option "Size" with two values on the product form (rows added with
 * list intents: in the browser, or through the server without JavaScript), fills the grid's stock
 * and SKU; the shopper sees the two choices on its page, the size sold out in that colour marked
 * and not choosable, adds the other to the cart (the form itself, not an API), and the cart line
 * names colour and size; in Chinese at phone width the option's Chinese name shows. The shopper
 * then asks to hear when the sold-out size is back, confirms by e-mail, the owner restocks that
 * cell of the grid, and the shopper gets one e-mail naming colour and size (docs/decisions/055).
 */
test("a product with sizes: the owner fills the grid, the shopper chooses a size and the cart names it", async ({
  page,
  browser,
  baseURL,
  jsEnabled,
}, testInfo) => {
  test.setTimeout(120_000);
  const tag = `${Date.now().toString(36)}-${testInfo.project.name}`;
  const name = `Sized Gloves ${tag}`;
  const sku = `E2E-${tag}-M`.toUpperCase();
  const email = uniqueEmail("size-alert");

  await signInAsAdmin(page, "sizes-admin");
  await openPage(page, "/admin/products/new", jsEnabled);
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Add colour", exact: true }) });
  await form.getByLabel("English Name", { exact: true }).fill(name);
  await form.getByLabel("Chinese Name", { exact: true }).fill("尺碼手套");
  await form.getByLabel("Price (HKD)", { exact: true }).fill("300.00");
  await form.getByRole("button", { name: "Add colour", exact: true }).click();
  await form.getByLabel("Colour", { exact: true }).fill("Black");
  await form.getByLabel("Option name", { exact: true }).fill("Size");
  await form.getByLabel("Chinese option name", { exact: true }).fill("尺寸");
  await form.getByRole("button", { name: "Add value", exact: true }).click();
  await form.getByLabel("Value", { exact: true }).fill("M");
  await form.getByRole("button", { name: "Add value", exact: true }).click();
  await form.getByLabel("Value", { exact: true }).nth(1).fill("L");
  // Without JavaScript the grid's headings come from the last answer: add the values first, then fill the cells.
  if (!jsEnabled) await form.getByRole("button", { name: "Add value", exact: true }).click();
  if (!jsEnabled) await form.getByRole("button", { name: "Remove", exact: true }).last().click();
  const grid = form.locator("[data-variant-grid]");
  await expect(grid.getByRole("columnheader", { name: "L", exact: true })).toBeVisible();
  await grid.getByLabel("Stock of Black / M", { exact: true }).fill("3");
  await grid.getByLabel("SKU of Black / M", { exact: true }).fill(sku);
  await grid.getByLabel("Stock of Black / L", { exact: true }).fill("0");
  await form.getByRole("button", { name: "Save", exact: true }).last().click();
  await expect(page).toHaveURL(/\/admin\/products(\?|$)/);

  const saved = withMainDatabase((db) =>
    db
      .prepare(
        `select v.option_value, v.stock, v.sku, p.id from product_variants v join products p on p.id = v.product_id
         where p.name_en = ? order by v.option_order`,
      )
      .all(name),
  ) as { option_value: string; stock: number; sku: string; id: number }[];
  expect(saved.map((row) => [row.option_value, row.stock])).toEqual([
    ["M", 3],
    ["L", 0],
  ]);
  expect(saved[0]?.sku).toBe(sku);
  const productId = saved[0]?.id;

  const context = await browser.newContext({ baseURL, javaScriptEnabled: jsEnabled, locale: "en-GB" });
  const shopper = await context.newPage();
  try {
    await openPage(shopper, `/product/${productId}`, jsEnabled);
    const sizes = shopper.locator("[data-option-choice]");
    await expect(sizes.locator("legend")).toHaveText("Size");
    await expect(sizes.getByRole("radio", { name: "L" })).toBeDisabled();
    await expect(sizes.getByRole("radio", { name: "M" })).toBeChecked();
    await shopper.getByRole("button", { name: "Add to Cart" }).click();
    await expect(shopper.getByText("Added to cart").first()).toBeVisible();

    await openPage(shopper, "/cart", jsEnabled);
    const line = shopper.getByTestId("cart-line").filter({ hasText: name });
    await expect(line.getByTestId("line-colour")).toHaveText("Colour: Black");
    await expect(line.getByTestId("line-option")).toHaveText("Size: M");

    if (jsEnabled) {
      await shopper.setViewportSize({ width: 390, height: 844 });
      await setLanguage(context, baseURL ?? "", "zh");
      await openPage(shopper, `/product/${productId}`, jsEnabled);
      await expect(shopper.locator("[data-option-choice] legend")).toHaveText("尺寸");
      await shopper.screenshot({ path: testInfo.outputPath("sizes-zh-390.png"), fullPage: true });
      await setLanguage(context, baseURL ?? "", "en");
      await shopper.setViewportSize({ width: 1280, height: 900 });
    }

    // The sold-out size: "e-mail me when it's back", confirmed through the e-mailed link.
    await openPage(shopper, `/product/${productId}`, jsEnabled);
    await shopper.getByRole("link", { name: "Black / L is sold out: e-mail me when it's back" }).click();
    const alert = shopper.getByTestId("stock-alert");
    await alert.getByLabel("E-mail", { exact: true }).fill(email);
    await alert.getByRole("button", { name: "E-mail me when it's back" }).click();
    const link = await waitForMail(email, /https?:\/\/[^\s"'<>]+\/stock-alerts\/confirm\?token=[A-Za-z0-9_-]+/);
    const confirm = new URL(link[0]);
    await openPage(shopper, `${confirm.pathname}${confirm.search}`, jsEnabled);
    await shopper.getByRole("button", { name: "Confirm the alert" }).click();
    await expect(shopper.getByRole("status").filter({ hasText: "Alert confirmed." })).toBeVisible();
  } finally {
    await context.close();
  }

  // The owner restocks that one cell of the grid: one e-mail naming the colour and size.
  await openPage(page, `/admin/products/edit/${productId}`, jsEnabled);
  if (jsEnabled) {
    // At phone width the grid scrolls inside its box; the page does not scroll sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  await page.locator("[data-variant-grid]").getByLabel("Stock of Black / L", { exact: true }).fill("2");
  await page.getByRole("button", { name: "Save", exact: true }).last().click();
  await expect(page).toHaveURL(/\/admin\/products(\?|$)/);
  const back = await waitForMail(email, /Back in stock: [^\n]*/);
  expect(back[0]).toContain(`${name} (Black / L)`);
  expect(mailsTo(email).filter(({ raw }) => /Back in stock/.test(readableMail(raw)))).toHaveLength(1);
});
