import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { insertFailedMessage } from "../../setup/failed-message";
import {
  type ApiShopper,
  apiAddToCart,
  apiCheckout,
  apiOrders,
  apiPaymentKey,
  apiSubmitPayment,
  expect,
  mailsTo,
  mainServerPaths,
  newApiShopper,
  productIdByName,
  receiptJpeg,
  setLanguage,
  signInAsAdmin,
  shopperTest as test,
  withLock,
} from "../fixtures";

/**
 * Issue 26, Admin → Messages (JavaScript on and off): a shopper orders; the order's e-mail has
 * failed for good (written as the outbox leaves it after 24 hours of refused attempts); the
 * dashboard warns, the admin finds it on the Messages screen, sends it again, and it goes out
 * (an .eml file with its own Message-ID) and shows as sent with both attempts; the order page
 * lists it; a copy of the sent e-mail goes out as a new message; the owner sets how long sent
 * messages are kept. Then the screens at phone and desk width in both languages.
 */

/** A product whose stock no spec asserts (see customers.spec.ts). */
const PRODUCT = "0.25 g Precision BBs (4000 rds)";

/** A shopper's order placed through the shop, and an e-mail of it that failed for good. */
async function orderWithFailedEmail(
  shopper: ApiShopper,
): Promise<{ order: { id: string; number: string }; messageId: string }> {
  await apiAddToCart(shopper.request, await productIdByName(shopper.request, PRODUCT), "Default", 1);
  await apiCheckout(shopper.request, shopper.email);
  const paid = await apiSubmitPayment(shopper.request, await apiPaymentKey(shopper.request), await receiptJpeg());
  expect(paid.status()).toBe(302);
  const [order] = await apiOrders(shopper.request);
  if (!order) throw new Error("the shopper has no order");
  const messageId = insertFailedMessage(path.join(mainServerPaths().data, "shop.db"), {
    orderId: order.id,
    recipient: shopper.email,
  });
  return { order, messageId };
}

/** Reloads `url` until `done` holds on it (the shop sends in the background, within seconds). */
async function reloadUntil(page: Page, url: string, done: () => Promise<boolean>): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.goto(url);
        return done();
      },
      { timeout: 15_000, intervals: [250, 500, 1000] },
    )
    .toBe(true);
}

test("a failed e-mail is found from the dashboard, sent again and goes out; a copy of it too", async ({
  page,
  context,
  playwright,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const shopper = await newApiShopper(playwright, baseURL as string, "messages-buyer");
  let order: { id: string; number: string };
  let messageId: string;
  try {
    ({ order, messageId } = await orderWithFailedEmail(shopper));
  } finally {
    await shopper.dispose();
  }
  await signInAsAdmin(page, "messages-admin");

  // The dashboard warns while a message has failed, and leads to the failed ones.
  const warning = page.getByTestId("failed-messages");
  await expect(warning.getByRole("heading")).toHaveText(/^\d+ messages? could not be sent$/);
  await warning.getByRole("link", { name: "See the failed messages" }).click();
  await expect(page).toHaveURL(/\/admin\/messages\?status=failed$/);
  await expect(page.getByRole("heading", { level: 1, name: "Messages" })).toBeVisible();
  await expect(page.getByTestId("status-failed")).toHaveAttribute("aria-current", "page");

  // Found by its order number.
  await page.getByLabel("Recipient or order number").fill(order.number);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${order.number}`));
  const row = page.getByTestId("message-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(shopper.email);
  await expect(row).toContainText("We received your order");
  await expect(row).toContainText("Order received");
  await expect(row.getByTestId("message-status")).toHaveText("Failed");
  await expect(row).toContainText("connect ECONNREFUSED 127.0.0.1:2525");
  await expect(row.getByRole("link", { name: order.number })).toHaveAttribute("href", `/admin/orders/${order.id}`);

  // A second tab still shows it failed, with its own "Send again".
  const stale = await context.newPage();
  await stale.goto(`/admin/messages/${messageId}`);
  await expect(stale.getByTestId("message-status")).toHaveText("Failed");

  // Sent again: back on the same filtered list, where it is failed no more.
  await row.getByRole("button", { name: `Send again the message to ${shopper.email}` }).click();
  await expect(
    page.getByRole("status").filter({ hasText: `The message to ${shopper.email} is being sent again.` }),
  ).toBeVisible();
  await expect(page).toHaveURL(/status=failed/);
  await expect(page.getByTestId("message-row")).toHaveCount(0);

  // It goes out within seconds: sent, with the refused attempt and the accepted one.
  const messagePage = `/admin/messages/${messageId}`;
  await reloadUntil(page, messagePage, async () => (await page.getByTestId("message-status").textContent()) === "Sent");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Message to ${shopper.email}`);
  const attempts = page.getByTestId("attempt-row");
  await expect(attempts).toHaveCount(2);
  await expect(attempts.nth(0)).toContainText("Failed");
  await expect(attempts.nth(0)).toContainText("connect ECONNREFUSED 127.0.0.1:2525");
  await expect(attempts.nth(1)).toContainText("Accepted");
  await expect(page.getByRole("region", { name: "Text of the e-mail" })).toContainText("We have received your order.");
  const sent = mailsTo(shopper.email).filter(({ raw }) => raw.includes(`<${messageId}@harbourtactical.hk>`));
  expect(sent, "the e-mail written by the shop's transport, with its Message-ID").toHaveLength(1);
  expect(sent[0]?.raw).toMatch(/^Subject: We received your order/m);

  // The out-of-date tab's "Send again" sends nothing: the message says what it is now.
  await stale.getByRole("button", { name: `Send again the message to ${shopper.email}` }).click();
  await expect(stale.getByRole("alert")).toContainText("Nothing was sent: this message is now “Sent”.");
  await expect(stale.getByTestId("message-status")).toHaveText("Sent");
  await stale.close();
  expect(mailsTo(shopper.email).filter(({ raw }) => raw.includes(`<${messageId}@harbourtactical.hk>`))).toHaveLength(1);

  // The order page lists it, sent.
  await page.goto(`/admin/orders/${order.id}`);
  const listed = page.getByTestId("order-message-row").filter({ hasText: "We received your order" });
  await expect(listed.first().getByTestId("message-status")).toHaveText("Sent");
  await listed.first().getByRole("link", { name: "We received your order" }).click();
  await expect(page).toHaveURL(/\/admin\/messages\/[\w-]+$/);

  // A copy of the sent e-mail: a new message, which goes out with a Message-ID of its own.
  await page.goto(messagePage);
  await page.getByRole("button", { name: "Send a copy" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: `A copy of the message to ${shopper.email} is being sent.` }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/messages\/[\w-]+$/);
  const copyId = new URL(page.url()).pathname.split("/").pop() as string;
  expect(copyId).not.toBe(messageId);
  await reloadUntil(
    page,
    `/admin/messages/${copyId}`,
    async () => (await page.getByTestId("message-status").textContent()) === "Sent",
  );
  await expect.poll(() => mailsTo(shopper.email).filter(({ raw }) => raw.includes(`<${copyId}@`)).length).toBe(1);
});

test("the owner sets how long sent messages are kept; a bad number is refused next to the field", async ({
  page,
  jsEnabled,
}) => {
  await signInAsAdmin(page, "messages-owner");
  // The setting is the shop's: one test at a time changes it.
  await withLock("outbox-retention", async () => {
    await page.goto("/admin/messages");
    const section = page.getByRole("region", { name: "Keeping sent messages" });
    const days = section.getByLabel("Keep sent messages for (days)");
    if (!jsEnabled) {
      // Without JavaScript the browser checks the range first; the server's own check is what a
      // browser that does not gets (tested in tests/admin-messages.test.ts).
      await days.evaluate((input) => input.closest("form")?.setAttribute("novalidate", ""));
    }
    await days.fill("0");
    await section.getByRole("button", { name: "Save" }).click();
    await expect(section.getByText("Enter a whole number of days from 1 to 3650.")).toBeVisible();
    await expect(days).toHaveAttribute("aria-invalid", "true");
    await days.fill("45");
    await section.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Sent messages are now kept for 45 days." })).toBeVisible();
    await expect(section).toContainText("Sent messages are kept for 45 days");
    await days.fill("90");
    await section.getByRole("button", { name: "Save" }).click();
    await expect(section).toContainText("Sent messages are kept for 90 days");
  });
});

const WIDTHS = [390, 1280] as const;
const SCREENSHOTS = process.env.SCREENSHOT_DIR;

test("the messages screens fit a phone and a desk in both languages", { tag: "@render" }, async ({
  page,
  context,
  baseURL,
  playwright,
}) => {
  test.setTimeout(90_000);
  const shopper = await newApiShopper(playwright, baseURL as string, "messages-render-buyer");
  let order: { id: string; number: string };
  let messageId: string;
  try {
    ({ order, messageId } = await orderWithFailedEmail(shopper));
  } finally {
    await shopper.dispose();
  }
  await signInAsAdmin(page, "messages-render");
  const screens = [
    ["dashboard", "/admin"],
    ["list", `/admin/messages?status=failed&q=${encodeURIComponent(order.number)}`],
    ["message", `/admin/messages/${messageId}`],
    ["order", `/admin/orders/${order.id}#messages-heading`],
  ] as const;
  if (SCREENSHOTS) fs.mkdirSync(SCREENSHOTS, { recursive: true });
  for (const language of ["en", "zh"] as const) {
    await setLanguage(context, baseURL as string, language);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      for (const [name, url] of screens) {
        await page.goto(url);
        await expect(page.locator("html")).toHaveAttribute("lang", language === "en" ? "en" : "zh-Hant-HK");
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${name} (${language}, ${width} px) scrolls sideways`).toBeLessThanOrEqual(0);
        if (name === "list" || name === "order") {
          // On a phone each message is a card: its status and "send again" are on screen.
          const row = page.getByTestId(name === "list" ? "message-row" : "order-message-row").first();
          const button = row.getByRole("button");
          await expect(button).toBeVisible();
          const box = await button.boundingBox();
          expect((box?.x ?? 0) + (box?.width ?? 0), `${name}: the button is on screen`).toBeLessThanOrEqual(width);
        }
        if (SCREENSHOTS) {
          await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${language}-${width}.png`), fullPage: true });
        }
      }
    }
  }
});
