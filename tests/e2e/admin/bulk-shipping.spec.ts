import type { Page } from "@playwright/test";
import {
  type ApiShopper,
  apiAddToCart,
  apiCheckout,
  apiOrders,
  apiPaymentKey,
  apiSubmitPayment,
  expect,
  mailsTo,
  newApiShopper,
  productIdByName,
  readableMail,
  receiptJpeg,
  signInAsAdmin,
  shopperTest as test,
} from "../fixtures";

/**
 * Bulk actions on the orders list (issue 29 item 4, docs/decisions/061), with and without
 * JavaScript: four paid orders chosen by their checkboxes are sent to one form, each with its own
 * carrier and tracking number; one is cancelled by another admin meanwhile, so three are marked
 * shipped and the page names the fourth and why it did not move. Each of the three shoppers is
 * e-mailed once, the fourth not at all, and the list shows them shipped. Then two chosen orders go to the packing slips' print page (another page's: only its
 * address is checked). With JavaScript the admin reads English on a desk and chooses with "select
 * all"; without it, Chinese on a 390 px phone, one box at a time.
 */

const TEXT = {
  en: {
    selectOrder: (number: string) => `Select order ${number}`,
    selectAll: "Select all on this page",
    markShipped: "Mark shipped…",
    print: "Print packing slips",
    title: "Mark orders shipped",
    carrier: (number: string) => `Carrier for order ${number}`,
    tracking: (number: string) => `Tracking number for order ${number}`,
    submit: "Mark 4 orders shipped",
    trackingRequired: "Enter the tracking number",
    moved: "3 orders marked shipped:",
    refused: "1 order did not move:",
    shipped: "Shipped",
    paid: "Paid",
    cancelled: "Cancelled",
  },
  zh: {
    selectOrder: (number: string) => `選擇訂單 ${number}`,
    selectAll: "全選本頁",
    markShipped: "標記已寄出…",
    print: "列印裝箱單",
    title: "標記訂單已寄出",
    carrier: (number: string) => `訂單 ${number} 的物流公司`,
    tracking: (number: string) => `訂單 ${number} 的追蹤編號`,
    submit: "將 4 張訂單標記為已寄出",
    trackingRequired: "請輸入追蹤編號",
    moved: "3 張訂單已標記為已寄出：",
    refused: "1 張訂單未有更改：",
    shipped: "已寄出",
    paid: "已付款",
    cancelled: "已取消",
  },
};

const CARRIERS = ["SF Express", "Hongkong Post", "DHL Express"];

/** A shopper's order of one LiPo battery, paid by a receipt upload. */
async function placeOrder(shopper: ApiShopper, productId: number) {
  await apiAddToCart(shopper.request, productId, "Default", 1);
  await apiCheckout(shopper.request, shopper.email);
  const response = await apiSubmitPayment(shopper.request, await apiPaymentKey(shopper.request), await receiptJpeg());
  expect(response.status()).toBe(302);
  const [order] = await apiOrders(shopper.request);
  if (!order) throw new Error("the order is missing from the shopper's account");
  return order;
}

/** The status badges of the list's rows, by order number. */
async function statusesOf(page: Page, numbers: string[]) {
  const rows = page.getByTestId("order-row");
  return Promise.all(
    numbers.map((number) => rows.filter({ hasText: number }).getByTestId("order-status").textContent()),
  );
}

test("paid orders marked shipped from the list, one refused by name, each shopper e-mailed once; two sent to the packing slips", async ({
  page,
  playwright,
  baseURL,
  jsEnabled,
  inChinese,
}, testInfo) => {
  test.setTimeout(120_000);
  const language = jsEnabled ? "en" : "zh";
  const text = TEXT[language];
  // The shoppers' e-mails start with this run's tag: the list's search finds exactly them.
  const tag = `bulkship-${testInfo.project.name}-${Date.now().toString(36)}`;
  const shoppers = await Promise.all([0, 1, 2, 3].map(() => newApiShopper(playwright, baseURL as string, tag)));
  try {
    const productId = await productIdByName(shoppers[0]!.request, "11.1V 1300 mAh LiPo Battery");
    const orders = [];
    for (const shopper of shoppers) orders.push(await placeOrder(shopper, productId));
    const all = orders.map((order) => order.number);
    // The first three ship; the fourth is cancelled while the form is filled in.
    const numbers = all.slice(0, 3);
    const late = orders[3]!;

    await signInAsAdmin(page, "bulk-ship-admin");
    // Paid first, as the order page's button does (a plain post of its form).
    for (const order of orders) {
      const paid = await page.request.post(`/admin/orders/${order.id}`, {
        form: { intent: "markPaid", expected: "pending_payment" },
        maxRedirects: 0,
      });
      expect(paid.status()).toBe(302);
    }
    if (language === "zh") await inChinese();
    if (!jsEnabled) await page.setViewportSize({ width: 390, height: 844 });

    const list = `/admin/orders?q=${tag}`;
    await page.goto(list);
    await expect(page.getByTestId("order-row")).toHaveCount(4);
    expect(await statusesOf(page, all)).toEqual([text.paid, text.paid, text.paid, text.paid]);
    if (jsEnabled) {
      await page.getByLabel(text.selectAll).check();
      for (const number of all) await expect(page.getByLabel(text.selectOrder(number))).toBeChecked();
    } else {
      // Without JavaScript there is no "select all": each box on its own.
      await expect(page.getByLabel(text.selectAll)).toHaveCount(0);
      for (const number of all) await page.getByLabel(text.selectOrder(number)).check();
    }
    await page.getByRole("button", { name: text.markShipped }).click();
    await expect(page).toHaveURL(/\/admin\/orders\/ship\?(id=[0-9a-f-]{36}&){3}id=[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { level: 1, name: text.title })).toBeVisible();
    await expect(page.getByTestId("ship-row")).toHaveCount(4);

    await page.getByLabel(text.carrier(late.number)).fill("UPS");
    await page.getByLabel(text.tracking(late.number)).fill("1ZLATE");
    for (const [index, number] of numbers.entries()) {
      await page.getByLabel(text.carrier(number)).fill(CARRIERS[index] ?? "");
      if (index > 0 || !jsEnabled) await page.getByLabel(text.tracking(number)).fill(`TRK${index}-${number}`);
    }
    if (jsEnabled) {
      // Checked in the browser before anything is sent: the missing number is named by its field.
      await page.getByRole("button", { name: text.submit }).click();
      const first = page.getByLabel(text.tracking(numbers[0] ?? ""));
      await expect(first).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByText(text.trackingRequired)).toBeVisible();
      await expect(page).toHaveURL(/\/admin\/orders\/ship\?/);
      await first.fill(`TRK0-${numbers[0]}`);
    }
    // Another admin cancels the fourth order meanwhile.
    const cancelled = await page.request.post(`/admin/orders/${late.id}`, {
      form: { intent: "cancel", expected: "paid" },
      maxRedirects: 0,
    });
    expect(cancelled.status()).toBe(302);
    await page.getByRole("button", { name: text.submit }).click();
    // The three moved; the fourth is named with the reason (its status now), and offers no fields.
    await expect(page.getByTestId("bulk-shipped")).toContainText(text.moved);
    for (const number of numbers) await expect(page.getByTestId("bulk-shipped")).toContainText(number);
    const refused = page.getByTestId("bulk-refused");
    await expect(refused).toContainText(text.refused);
    await expect(refused).toContainText(late.number);
    await expect(refused).toContainText(text.cancelled);
    await expect(refused).not.toContainText(numbers[0] ?? "");
    await expect(page.getByLabel(text.tracking(late.number))).toHaveCount(0);
    await expect(page.getByTestId("shipped-now")).toHaveCount(3);

    await page.goto(list);
    expect(await statusesOf(page, all)).toEqual([text.shipped, text.shipped, text.shipped, text.cancelled]);

    // Each shopper is told once, with their carrier and tracking number.
    for (const [index, shopper] of shoppers.slice(0, 3).entries()) {
      const subject = `Your order ${numbers[index]} is on its way`;
      const shipped = () => mailsTo(shopper.email).filter(({ raw }) => readableMail(raw).includes(subject));
      await expect.poll(() => shipped().length, { timeout: 20_000 }).toBe(1);
      const mail = readableMail(shipped()[0]?.raw ?? "");
      expect(mail).toContain(`Carrier: ${CARRIERS[index]}`);
      expect(mail).toContain(`Tracking number: TRK${index}-${numbers[index]}`);
    }
    // The order cancelled meanwhile sent no shipped e-mail.
    const lateMails = () => mailsTo(shoppers[3]!.email).map(({ raw }) => readableMail(raw));
    await expect
      .poll(() => lateMails().some((mail) => mail.includes(`Your order ${late.number} has been cancelled`)))
      .toBe(true);
    expect(lateMails().filter((mail) => mail.includes(`Your order ${late.number} is on its way`))).toEqual([]);
    // The shopper's order page shows the carrier beside the tracking number.
    const own = await (await shoppers[1]!.request.get(`/account/orders/${orders[1]?.id}`)).text();
    expect(own).toContain(CARRIERS[1]);
    expect(own).toContain(`TRK1-${numbers[1]}`);

    // Two chosen orders to the packing slips: the print page's own address (another page's work).
    await page.getByLabel(text.selectOrder(numbers[0] ?? "")).check();
    await page.getByLabel(text.selectOrder(numbers[2] ?? "")).check();
    await page.getByRole("button", { name: text.print }).click();
    // In the list's order (newest first): the third order, then the first.
    await expect(page).toHaveURL(
      new RegExp(`/admin/orders/print\\?doc=packing-slip&id=${orders[2]?.id}&id=${orders[0]?.id}$`),
    );
  } finally {
    await Promise.all(shoppers.map((shopper) => shopper.dispose()));
  }
});
