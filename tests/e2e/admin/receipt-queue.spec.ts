import type { Locator, Page } from "@playwright/test";
import {
  type ApiShopper,
  apiAddToCart,
  apiCheckout,
  apiOrders,
  apiPaymentKey,
  apiSubmitPayment,
  expect,
  newApiShopper,
  productIdByName,
  receiptJpeg,
  signInAsAdmin,
  shopperTest as test,
  waitForReact,
} from "../fixtures";

/**
 * The receipt review queue, with and without JavaScript: the dashboard says how many receipts
 * wait; the review list (oldest first) offers "Mark Paid" and "Reject" with a reason on each row.
 * A rejection without a reason comes back next to that row's field with what was typed; with a
 * reason the receipt is rejected, and another order is marked paid, each one step from the list.
 * Each project buys its own colour so no other spec's stock figures move.
 */
const PRODUCT = "Compact Bullpup AEG";
const COLOUR: Record<string, string> = { js: "Olive Drab", "no-js": "Black" };

async function placeOrderWithReceipt(shopper: ApiShopper, productId: number, colour: string) {
  await apiAddToCart(shopper.request, productId, colour, 1);
  await apiCheckout(shopper.request, shopper.email);
  const response = await apiSubmitPayment(shopper.request, await apiPaymentKey(shopper.request), await receiptJpeg());
  expect(response.status()).toBe(302);
}

function rowOf(page: Page, number: string): Locator {
  return page.getByTestId("review-row").filter({ hasText: number });
}

test("an admin works through the receipt review queue from the dashboard", async ({
  page,
  playwright,
  baseURL,
  jsEnabled,
}, testInfo) => {
  test.setTimeout(40_000);
  const colour = COLOUR[testInfo.project.name] ?? "Black";
  const shopper = await newApiShopper(playwright, baseURL as string, "queue-buyer");
  try {
    const productId = await productIdByName(shopper.request, PRODUCT);
    await placeOrderWithReceipt(shopper, productId, colour);
    await placeOrderWithReceipt(shopper, productId, colour);
    const [newer, older] = await apiOrders(shopper.request);
    if (!newer || !older) throw new Error("the two orders are missing from the shopper's account");

    await signInAsAdmin(page, "queue-admin");
    await page.goto("/admin");
    const queue = page.getByTestId("receipt-queue");
    await expect(queue).toContainText(/\d+ receipts? in review/);
    const waiting = Number((await queue.textContent())?.match(/(\d+) receipts/)?.[1]);
    expect(waiting).toBeGreaterThanOrEqual(2);
    await expect(queue).toContainText(/oldest .* ago/);
    await expect(page.getByTestId("unpaid-overdue")).toContainText("Overdue");

    await queue.click();
    await expect(page).toHaveURL(/\/admin\/orders\?status=review$/);
    await expect(page.getByLabel("Status")).toHaveValue("review");
    // Other specs' orders wait too: the shopper's e-mail narrows the queue to these two, oldest first.
    await page.getByLabel("Order number, order id or e-mail").fill(shopper.email);
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page.getByTestId("review-row")).toHaveCount(2);
    await expect(page.getByTestId("review-row").first()).toContainText(older.number);
    await expect(rowOf(page, older.number).getByRole("link", { name: /View the receipt of/ })).toHaveAttribute(
      "href",
      `/admin/orders/${older.id}/receipt`,
    );
    if (jsEnabled) await waitForReact(page);

    // Reject without a reason: the message is next to that row's field, what was typed is kept.
    const first = rowOf(page, older.number);
    await first.getByLabel("Reason for the customer").fill("   ");
    await first.getByRole("button", { name: `Reject the receipt of ${older.number}` }).click();
    await expect(rowOf(page, older.number).getByText("Tell the customer why the receipt was rejected")).toBeVisible();
    await expect(rowOf(page, older.number).getByLabel("Reason for the customer")).toHaveValue("   ");
    await expect(rowOf(page, older.number).getByLabel("Reason for the customer")).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    await expect(rowOf(page, newer.number).getByText("Tell the customer why")).toHaveCount(0);

    // With a reason.
    await rowOf(page, older.number).getByLabel("Reason for the customer").fill("The amount does not match");
    await rowOf(page, older.number)
      .getByRole("button", { name: `Reject the receipt of ${older.number}` })
      .click();
    if (jsEnabled) {
      await expect(rowOf(page, older.number).getByRole("status")).toContainText(`Receipt rejected: ${older.number}`);
    } else {
      await expect(page.getByRole("status").filter({ hasText: "Order status updated successfully" })).toBeVisible();
      await expect(page).toHaveURL(/status=review/);
      await expect(rowOf(page, older.number)).toHaveCount(0);
    }

    // Approve the other one.
    await rowOf(page, newer.number)
      .getByRole("button", { name: `Mark Paid ${newer.number}` })
      .click();
    if (jsEnabled) {
      await expect(rowOf(page, newer.number).getByRole("status")).toContainText(`Marked paid: ${newer.number}`);
    } else {
      await expect(page.getByRole("status").filter({ hasText: "Order status updated successfully" })).toBeVisible();
      await expect(page.getByTestId("review-row")).toHaveCount(0);
    }

    // The order pages agree.
    await page.goto(`/admin/orders/${newer.id}`);
    await expect(page.getByTestId("order-status").first()).toHaveText("Paid");
    await page.goto(`/admin/orders/${older.id}`);
    await expect(page.getByTestId("order-status").first()).toHaveText("Receipt rejected");
    await expect(page.getByText("Receipt rejected: The amount does not match")).toBeVisible();
  } finally {
    await shopper.dispose();
  }
});
