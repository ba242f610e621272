import type { Page } from "@playwright/test";
import {
  apiOrders,
  apiPlaceOrder,
  colourStocks,
  expect,
  mailsTo,
  newApiShopper,
  productIdByName,
  readableMail,
  receiptJpeg,
  signIn,
  signInAsAdmin,
  shopperTest as test,
  testIdText,
} from "../fixtures";

/**
 * Orders Management, with and without JavaScript: an order placed on the storefront reaches the
 * admin, its receipt opens, it is marked paid then shipped (the customer is e-mailed each time);
 * a receipt is rejected and the shopper uploads a new one; a cancelled order's stock comes back.
 * Each project buys its own product so the stock figures are its own.
 */
const PRODUCT: Record<string, { name: string; colour: string }> = {
  js: { name: "Full-Finger Tactical Gloves", colour: "Olive Drab" },
  "no-js": { name: "Padded Battle Belt", colour: "Black" },
};
/** The cancel test counts stock: its products are bought by nothing else. */
const RESTOCK_PRODUCT: Record<string, { name: string; colour: string }> = {
  js: { name: "Triple Magazine Pouch (MOLLE)", colour: "Coyote Brown" },
  "no-js": { name: "Knee & Elbow Pad Set", colour: "Tan" },
};

async function expectMail(email: string, subject: string, text?: string) {
  await expect
    .poll(() => mailsTo(email).some(({ raw }) => readableMail(raw).includes(subject)), { message: subject })
    .toBe(true);
  if (text) {
    const mail = mailsTo(email).find(({ raw }) => readableMail(raw).includes(subject));
    expect(readableMail(mail?.raw ?? "")).toContain(text);
  }
}

function flash(page: Page) {
  return page.getByRole("status").filter({ hasText: "Order status updated successfully" });
}

test.describe("Orders Management", () => {
  test("an order goes from receipt to paid to shipped, and the customer hears of each step", async ({
    page,
    playwright,
    baseURL,
  }, testInfo) => {
    test.setTimeout(60_000);
    const { name, colour } = PRODUCT[testInfo.project.name] ?? { name: "", colour: "" };
    const shopper = await newApiShopper(playwright, baseURL as string, "orders-buyer");
    const stranger = await newApiShopper(playwright, baseURL as string, "orders-stranger");
    try {
      const productId = await productIdByName(shopper.request, name);
      const order = await apiPlaceOrder(shopper, productId, colour, 2);
      await signInAsAdmin(page, "orders-admin");

      // The list finds it by its number; the row shows what the spec lists.
      await page.goto("/admin/orders");
      await expect(page.getByRole("heading", { level: 1, name: "Orders Management" })).toBeVisible();
      await page.getByLabel("Order number, order id or e-mail").fill(order.number);
      await page.getByRole("button", { name: "Filter" }).click();
      await expect(page).toHaveURL(new RegExp(`q=${order.number}`));
      const row = page.getByTestId("order-row");
      await expect(row).toHaveCount(1);
      await expect(row).toContainText(shopper.email);
      await expect(row.getByTestId("order-status")).toHaveText("Receipt in review");
      // Items: after the row's checkbox (bulk actions, docs/decisions/061), the number and the customer.
      await expect(row.getByRole("cell").nth(3)).toHaveText("2");

      // The details page shows the receipt inline; it downloads; nobody else gets it.
      await row.getByRole("link", { name: `Details of ${order.number}` }).click();
      await expect(page.getByRole("heading", { level: 1, name: `Order ${order.number}` })).toBeVisible();
      await expect(page.getByTestId("order-line")).toContainText(name);
      await expect(page.getByTestId("order-line")).toContainText(colour);
      const receipt = page.getByRole("img", { name: `Transfer receipt of order ${order.number}` });
      await expect(receipt).toBeVisible();
      await expect.poll(() => receipt.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      const download = await page.request.get(`/admin/orders/${order.id}/receipt?download=1`);
      expect(download.status()).toBe(200);
      expect(download.headers()["content-type"]).toMatch(/^image\//);
      expect(download.headers()["content-disposition"]).toMatch(/^attachment; filename="receipt-ORD-/);
      expect(download.headers()["cache-control"]).toBe("private, no-store");
      for (const path of [`/admin/orders/${order.id}/receipt`, `/account/orders/${order.id}/receipt`]) {
        const refused = await stranger.request.get(path, { maxRedirects: 0 });
        expect([302, 404], path).toContain(refused.status());
      }

      // Mark Paid, then Mark Shipped with a tracking number.
      await page.getByRole("button", { name: "Mark Paid" }).click();
      await expect(flash(page)).toBeVisible();
      await expect(page.getByTestId("order-status").first()).toHaveText("Paid");
      await expectMail(shopper.email, `Payment confirmed for order ${order.number}`);
      await page.getByLabel("Tracking number").fill("SF-E2E-4242");
      await page.getByRole("button", { name: "Mark Shipped" }).click();
      await expect(flash(page)).toBeVisible();
      await expect(page.getByTestId("order-status").first()).toHaveText("Shipped");
      await expect(page.getByText("SF-E2E-4242")).toBeVisible();
      await expectMail(shopper.email, `Your order ${order.number} is on its way`, "Tracking number: SF-E2E-4242");
      await expect(page.getByText("Marked shipped")).toBeVisible();

      // The shopper's own order page follows.
      const mine = await shopper.request.get(`/account/orders/${order.id}`);
      expect(testIdText(await mine.text(), "order-status")).toBe("Shipped");
    } finally {
      await shopper.dispose();
      await stranger.dispose();
    }
  });

  test("a rejected receipt is replaced by the shopper; a cancelled order's stock comes back", async ({
    page,
    playwright,
    browser,
    baseURL,
    newShopper,
  }, testInfo) => {
    test.setTimeout(90_000);
    const { name, colour } = RESTOCK_PRODUCT[testInfo.project.name] ?? { name: "", colour: "" };
    const shopper = await newApiShopper(playwright, baseURL as string, "orders-reject");
    try {
      const productId = await productIdByName(shopper.request, name);
      const before = await colourStocks(browser, baseURL as string, productId);
      const order = await apiPlaceOrder(shopper, productId, colour, 3);

      await signInAsAdmin(page, "orders-admin");
      await page.goto(`/admin/orders/${order.id}`);
      await page.getByLabel("Reason for the customer").fill("The amount on the receipt does not match");
      await page.getByRole("button", { name: "Reject Receipt" }).click();
      await expect(flash(page)).toBeVisible();
      await expect(page.getByText("Receipt rejected: The amount on the receipt does not match")).toBeVisible();
      await expect(page.getByTestId("order-status").first()).toHaveText("Receipt rejected");
      await expectMail(
        shopper.email,
        `Please upload a new receipt for order ${order.number}`,
        "Reason: The amount on the receipt does not match",
      );

      // The shopper signs in and uploads a new receipt from their order page.
      const buyer = await newShopper();
      await signIn(buyer.page, shopper.email, shopper.password);
      await buyer.page.goto(`/account/orders/${order.id}`);
      await expect(
        buyer.page.getByText("Your receipt was rejected: The amount on the receipt does not match"),
      ).toBeVisible();
      await buyer.page
        .getByLabel("Photo or screenshot of the new receipt")
        .setInputFiles(await receiptJpeg("new-receipt.jpg"));
      await buyer.page.getByRole("button", { name: "Upload a new receipt" }).click();
      await expect(buyer.page.getByRole("status").filter({ hasText: "Receipt uploaded" })).toBeVisible();

      // The admin sees the new receipt, then cancels (a confirmation step first).
      await page.goto(`/admin/orders/${order.id}`);
      await expect(page.getByText(/^Receipt rejected: /)).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Reject Receipt" })).toBeVisible();
      await page.getByRole("link", { name: "Cancel Order" }).click();
      await expect(page.getByText(`Cancel order ${order.number}?`)).toBeVisible();
      await page.getByRole("button", { name: "Yes, cancel the order" }).click();
      await expect(flash(page)).toBeVisible();
      await expect(page.getByTestId("order-status").first()).toHaveText("Cancelled");
      await expect(page.getByText("No further status changes for this order.")).toBeVisible();
      await expectMail(shopper.email, `Your order ${order.number} has been cancelled`);

      // A second cancel of the same order (a replayed form) is refused; the stock came back once.
      const replay = await page.request.post(`/admin/orders/${order.id}`, {
        form: { intent: "cancel", expected: "pending_payment" },
        maxRedirects: 0,
      });
      expect(replay.status()).toBe(409);
      expect(await colourStocks(browser, baseURL as string, productId)).toEqual(before);
    } finally {
      await shopper.dispose();
    }
  });

  test("a customer cannot see or change orders in the admin", { tag: "@http" }, async ({ playwright, baseURL }) => {
    const shopper = await newApiShopper(playwright, baseURL as string, "orders-intruder");
    try {
      const [order] = await apiOrders(shopper.request);
      const target = order?.id ?? "00000000-0000-4000-8000-000000000000";
      for (const path of ["/admin/orders", `/admin/orders/${target}`]) {
        const page = await shopper.request.get(path, { maxRedirects: 0 });
        expect(page.status(), path).toBe(302);
        expect(page.headers().location).toMatch(/\/admin\/login$/);
      }
      for (const intent of ["markPaid", "markShipped", "cancel", "rejectReceipt", "markDelivered"]) {
        const response = await shopper.request.post(`/admin/orders/${target}`, {
          form: { intent, expected: "pending_payment", reason: "x" },
          maxRedirects: 0,
        });
        expect(response.status(), intent).toBe(403);
      }
    } finally {
      await shopper.dispose();
    }
  });
});
