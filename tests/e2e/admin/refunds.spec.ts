import {
  apiPlaceOrder,
  colourStocks,
  expect,
  mailsTo,
  newApiShopper,
  productIdByName,
  readableMail,
  setLanguage,
  signInAsAdmin,
  shopperTest as test,
} from "../fixtures";

/**
 * Refunds (issue 29 item 1, docs/decisions/057), with and without JavaScript: a paid order is
 * refunded in part from the admin order page — a refusal comes back next to the amount with the
 * input kept, then the refund is recorded with one unit back in stock — and the shopper is
 * e-mailed and sees it on their order page. Each project buys its own product (bought by no
 * other spec) so the stock figures are its own.
 */
const PRODUCT: Record<string, { name: string; colour: string }> = {
  js: { name: "3-9x40 Sniper Scope with Rings", colour: "Black" },
  "no-js": { name: "Tri-Shot Spring Shotgun", colour: "Tan" },
};

test("a paid order is refunded in part: the refusal by its field, stock back, the shopper told and shown", async ({
  page,
  playwright,
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(90_000);
  const { name, colour } = PRODUCT[testInfo.project.name] ?? { name: "", colour: "" };
  const shopper = await newApiShopper(playwright, baseURL as string, "refund-buyer");
  try {
    const productId = await productIdByName(shopper.request, name);
    const before = await colourStocks(browser, baseURL as string, productId);
    const order = await apiPlaceOrder(shopper, productId, colour, 2);
    await signInAsAdmin(page, "refunds-admin");
    await page.goto(`/admin/orders/${order.id}`);
    // An order not yet paid offers no refund.
    await expect(page.getByRole("button", { name: "Refund", exact: true })).toHaveCount(0);
    await page.getByRole("button", { name: "Mark Paid" }).click();
    await expect(page.getByTestId("order-status").first()).toHaveText("Paid");

    const refunds = page.getByRole("region", { name: "Refunds" });
    const amount = refunds.getByLabel("Amount (HKD)");
    const reason = refunds.getByLabel("Reason (the customer reads it)");
    // Prefilled with all that is left to refund.
    await expect(amount).toHaveValue(/^\d+\.\d{2}$/);

    // More than was paid: refused next to the amount, the reason kept.
    await amount.fill("99999");
    await reason.fill("Scope caps missing from the box");
    await refunds.getByRole("button", { name: "Refund", exact: true }).click();
    await expect(refunds.getByText(/^At most HK\$[\d,]+\.\d{2} is left to refund$/)).toBeVisible();
    await expect(amount).toHaveAttribute("aria-invalid", "true");
    await expect(reason).toHaveValue("Scope caps missing from the box");

    // A part of it, with one unit back in stock.
    await amount.fill("10.00");
    await refunds.getByRole("spinbutton").first().fill("1");
    await refunds.getByRole("button", { name: "Refund", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "Refund of HK$10.00 recorded" })).toBeVisible();
    await expect(page.getByTestId("refund-state").first()).toHaveText("Partially refunded");
    const list = page.getByTestId("refund-list");
    await expect(list).toContainText("HK$10.00");
    await expect(list).toContainText("Scope caps missing from the box");
    await expect(list).toContainText("1 unit back in stock");
    // The form starts again: what is left prefilled, no reason.
    await expect(reason).toHaveValue("");
    await expect(amount).not.toHaveValue("10.00");

    const after = await colourStocks(browser, baseURL as string, productId);
    expect(after[colour]).toBe((before[colour] ?? 0) - 1);

    // The shopper's e-mail, once, and their order page.
    const subject = `A partial refund for your order ${order.number}`;
    await expect
      .poll(() => mailsTo(shopper.email).filter(({ raw }) => readableMail(raw).includes(subject)).length)
      .toBe(1);
    const mail = mailsTo(shopper.email).find(({ raw }) => readableMail(raw).includes(subject));
    expect(readableMail(mail?.raw ?? "")).toContain("Reason: Scope caps missing from the box");
    const own = await shopper.request.get(`/account/orders/${order.id}`);
    expect(own.status()).toBe(200);
    const html = await own.text();
    expect(html).toContain("Partially refunded");
    expect(html).toContain("Scope caps missing from the box");
  } finally {
    await shopper.dispose();
  }
});

/** The Chinese test's product per project: bought by no other spec, one unit, no stock figures read. */
const ZH_PRODUCT: Record<string, { name: string; colour: string }> = {
  js: { name: "Electric Compact Pistol AEP", colour: "Black" },
  "no-js": { name: "Six-Inch CO2 Revolver", colour: "Black" },
};

test("in Chinese: the back office refunds a Chinese order in part, the shopper reads it in Chinese", async ({
  page,
  context,
  playwright,
  baseURL,
}, testInfo) => {
  test.setTimeout(90_000);
  const { name, colour } = ZH_PRODUCT[testInfo.project.name] ?? { name: "", colour: "" };
  const shopper = await newApiShopper(playwright, baseURL as string, "refund-buyer-zh");
  try {
    // The product is found by its English name (the search reads the shopper's language).
    const productId = await productIdByName(shopper.request, name);
    // The shopper shops in Chinese (the language toggle's POST sets the cookie): the order is Chinese.
    const toggled = await shopper.request.post("/resources/language", {
      form: { language: "zh", redirectTo: "/" },
      maxRedirects: 0,
    });
    expect(toggled.status()).toBe(302);
    const order = await apiPlaceOrder(shopper, productId, colour, 1);

    await signInAsAdmin(page, "refunds-admin-zh");
    await setLanguage(context, baseURL as string, "zh");
    await page.goto(`/admin/orders/${order.id}`);
    await page.getByRole("button", { name: "標記為已付款", exact: true }).click();
    await expect(page.getByTestId("order-status").first()).toHaveText("已付款");

    const refunds = page.getByRole("region", { name: "退款" });
    const amount = refunds.getByLabel("金額（HKD）");
    const reason = refunds.getByLabel("原因（顧客會看到）");
    // No amount: refused next to the field in Chinese, the reason kept.
    await amount.fill("");
    await reason.fill("槍身有刮痕");
    await refunds.getByRole("button", { name: "退款", exact: true }).click();
    await expect(amount).toHaveAttribute("aria-invalid", "true");
    await expect(reason).toHaveValue("槍身有刮痕");

    await amount.fill("20.00");
    await refunds.getByRole("button", { name: "退款", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "已記錄退款 HK$20.00" })).toBeVisible();
    await expect(page.getByTestId("refund-state").first()).toHaveText("已部分退款");
    await expect(page.getByTestId("refund-list")).toContainText("槍身有刮痕");

    // The shopper's e-mail in the order's language, once, and their order page in Chinese.
    // (The subject is an encoded header; the body's first sentence names the refund.)
    const subject = `我們已為你的訂單 ${order.number} 退回 HK$20.00`;
    await expect
      .poll(() => mailsTo(shopper.email).filter(({ raw }) => readableMail(raw).includes(subject)).length)
      .toBe(1);
    const mail = mailsTo(shopper.email).find(({ raw }) => readableMail(raw).includes(subject));
    expect(readableMail(mail?.raw ?? "")).toContain("原因：槍身有刮痕");
    const own = await shopper.request.get(`/account/orders/${order.id}`);
    expect(own.status()).toBe(200);
    const html = await own.text();
    expect(html).toContain("已部分退款");
    expect(html).toContain("槍身有刮痕");
  } finally {
    await shopper.dispose();
  }
});
