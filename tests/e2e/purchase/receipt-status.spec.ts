import {
  apiAddToCart,
  apiCheckout,
  apiOrders,
  apiPaymentKey,
  apiSubmitPayment,
  expect,
  newApiShopper,
  productIdByName,
  receiptJpeg,
  setLanguage,
  signIn,
  signInAsAdmin,
  shopperTest as test,
} from "../fixtures";

/**
 * Issue 14: after paying with a receipt the customer's order says "Receipt in review" (not
 * "Awaiting payment", issue 25's one vocabulary) and its history shows the receipt sent; when the
 * shop rejects the receipt, the order says so and its history gives the reason; a new receipt
 * puts it back in review. In English and Chinese, with and without JavaScript. Each project buys
 * its own product.
 */
const PRODUCT: Record<string, { name: string; colour: string }> = {
  js: { name: "1-4x24 Low Power Scope", colour: "Black" },
  "no-js": { name: "AEG Mid-Cap Magazine 120 rds (3-Pack)", colour: "Black" },
};

const REASON = "The transfer is HK$10 short";

test("the customer sees their receipt being checked, rejected with its reason, and checked again", async ({
  page,
  context,
  baseURL,
  playwright,
  newShopper,
}, testInfo) => {
  test.setTimeout(90_000);
  const { name, colour } = PRODUCT[testInfo.project.name] ?? { name: "", colour: "" };
  const shopper = await newApiShopper(playwright, baseURL as string, "receipt-status");
  try {
    // Bought and paid with a receipt.
    await apiAddToCart(shopper.request, await productIdByName(shopper.request, name), colour, 1);
    await apiCheckout(shopper.request, shopper.email);
    const paid = await apiSubmitPayment(shopper.request, await apiPaymentKey(shopper.request), await receiptJpeg());
    expect(paid.status()).toBe(302);
    const [order] = await apiOrders(shopper.request);
    if (!order) throw new Error("no order");

    // The customer's list and order page: the receipt is in review, sent with the order.
    await signIn(page, shopper.email, shopper.password);
    await page.goto("/account/orders");
    const row = page.getByTestId("order-row").filter({ hasText: order.number });
    await expect(row).toContainText("Receipt in review");
    await expect(row).not.toContainText("Awaiting payment");
    await row.getByRole("link", { name: order.number }).click();
    await expect(page.getByTestId("order-status")).toHaveText("Receipt in review");
    await expect(page.getByTestId("order-history")).toContainText("Placed");
    await expect(page.getByTestId("order-history")).toContainText("Payment receipt sent");

    // The shop rejects the receipt, with a reason.
    const admin = await newShopper();
    await signInAsAdmin(admin.page, "receipt-status-admin");
    await admin.page.goto(`/admin/orders/${order.id}`);
    await admin.page.getByLabel("Reason for the customer").fill(REASON);
    await admin.page.getByRole("button", { name: "Reject Receipt" }).click();
    await expect(admin.page.getByText(`Receipt rejected: ${REASON}`)).toBeVisible();

    // The customer's order says so, and its history has the rejection with the reason.
    await page.goto(`/account/orders/${order.id}`);
    await expect(page.getByTestId("order-status")).toHaveText("Receipt rejected");
    const history = page.getByTestId("order-history").getByRole("listitem");
    await expect(history).toHaveCount(3);
    await expect(history.nth(0)).toContainText("Placed");
    await expect(history.nth(1)).toContainText("Payment receipt sent");
    await expect(history.nth(2)).toContainText(`Receipt rejected: ${REASON}`);
    await page.goto("/account/orders");
    await expect(page.getByTestId("order-row").filter({ hasText: order.number })).toContainText("Receipt rejected");

    // In Chinese too.
    await setLanguage(context, baseURL ?? "", "zh");
    await page.goto(`/account/orders/${order.id}`);
    await expect(page.getByTestId("order-status")).toHaveText("收據未獲接納");
    await expect(history.nth(1)).toContainText("已提交付款收據");
    await expect(history.nth(2)).toContainText(`收據未獲接納：${REASON}`);

    // A new receipt: being checked again, and the history says so.
    await page.getByLabel("新收據的相片或截圖").setInputFiles(await receiptJpeg("new-receipt.jpg"));
    await page.getByRole("button", { name: "上載新收據" }).click();
    await expect(page.getByRole("status").filter({ hasText: "收據已上載" })).toBeVisible();
    await expect(page.getByTestId("order-status")).toHaveText("收據審核中");
    await expect(history).toHaveCount(4);
    await expect(history.nth(3)).toContainText("已上載新收據");
    await page.goto("/account/orders");
    await expect(page.getByTestId("order-row").filter({ hasText: order.number })).toContainText("收據審核中");

    // The admin's history shows the new receipt too.
    await admin.page.reload();
    await expect(admin.page.getByText("New receipt uploaded by the customer")).toBeVisible();
  } finally {
    await shopper.dispose();
  }
});
