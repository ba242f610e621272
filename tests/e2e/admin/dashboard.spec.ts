import type { Locator, Page } from "@playwright/test";
import {
  type ApiShopper,
  apiAddToCart,
  apiOrders,
  apiPaymentKey,
  apiSubmitPayment,
  CHECKOUT_DETAILS,
  createAdmin,
  expect,
  newApiShopper,
  productIdByName,
  receiptJpeg,
  setLanguage,
  shopperTest,
  signInAsAdmin,
  submitAuthForm,
  test,
  uniqueEmail,
  uniquePassword,
} from "../fixtures";

/** The dashboard reads what the server recorded: page views from storefront visits, orders, the catalogue. */
test.describe("admin dashboard", () => {
  test("shows analytics with the pages shoppers visited, a chart and business metrics", async ({
    page,
    browser,
    baseURL,
  }) => {
    // A shopper (a separate browser) visits a page nobody else visits.
    const path = `/category/all?visit=${Date.now()}`;
    // Headless Chromium calls itself HeadlessChrome, which the server rightly skips as a bot.
    const userAgent =
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
    const shopper = await browser.newContext({ baseURL, userAgent });
    const visitor = await shopper.newPage();
    await visitor.goto("/faq");
    await visitor.goto(path);
    await shopper.close();

    const email = uniqueEmail("dash-admin");
    const password = uniquePassword();
    createAdmin(email, password);
    await page.goto("/admin/login");
    await submitAuthForm(page, email, password, "Login");
    await expect(page).toHaveURL(/\/admin$/);

    const analytics = page.getByTestId("analytics");
    await expect(analytics).toContainText("Total Views");
    // Views are written in batches every few seconds (decision 030): reload until they are in.
    let totalViews = 0;
    await expect
      .poll(
        async () => {
          await page.reload();
          totalViews = Number((await analytics.locator("p.text-2xl").first().textContent()) ?? "0");
          const popular = (await page.getByTestId("popular-pages").textContent()) ?? "";
          return totalViews >= 2 ? popular : "fewer than 2 views";
        },
        { timeout: 15_000, intervals: [500, 1_000] },
      )
      .toContain("/category/all");
    // The chart is server-drawn SVG: there without JavaScript.
    await expect(page.locator("svg[role=img] title").first()).toHaveText("Daily views and orders (last 30 days)");
    expect(await page.locator("svg[role=img] rect").count()).toBe(30);
    const business = page.getByTestId("business");
    await expect(business).toContainText("Total Products");
    await expect(business).toContainText("HK$");
    // Admin pages are not counted as page views.
    await page.reload();
    const again = Number((await page.getByTestId("analytics").locator("p.text-2xl").first().textContent()) ?? "0");
    expect(again).toBeGreaterThanOrEqual(totalViews);
  });
});

/* ------------------------------------------------------------------------------------------ */

/** A product whose stock no spec asserts (see customers.spec.ts). */
const PRODUCT = "0.25 g Precision BBs (4000 rds)";

/**
 * Each project pays in a currency no other spec orders in (the two projects run at the same
 * time against one shop), so that currency's figures move only with this test's orders.
 */
const CURRENCY: Record<string, { code: "EUR" | "USD"; symbol: string }> = {
  js: { code: "EUR", symbol: "€" },
  "no-js": { code: "USD", symbol: "$" },
};

/** An order in `currency` under a Chinese name, paid for with a receipt: pending payment. */
async function placeOrder(shopper: ApiShopper, currency: string) {
  const chosen = await shopper.request.post("/resources/currency", {
    form: { currency, redirectTo: "/" },
    maxRedirects: 0,
  });
  expect(chosen.status()).toBe(302);
  await apiAddToCart(shopper.request, await productIdByName(shopper.request, PRODUCT), "Default", 1);
  const checkout = await shopper.request.post("/checkout", {
    form: { ...CHECKOUT_DETAILS, firstName: "大文", lastName: "陳", email: shopper.email },
    maxRedirects: 0,
  });
  expect(checkout.status()).toBe(302);
  const paid = await apiSubmitPayment(shopper.request, await apiPaymentKey(shopper.request), await receiptJpeg());
  expect(paid.status()).toBe(302);
  const [order] = await apiOrders(shopper.request);
  if (!order) throw new Error("the order is missing from the shopper's account");
  return order;
}

/** Cents from "€1,234.50" / "$10.00". */
function cents(text: string): number {
  const digits = text.replace(/[^\d.]/g, "");
  return Math.round(Number(digits) * 100);
}

/** A money card's figure in one currency: its amount and its number of orders (0 when absent). */
async function figure(card: Locator, currency: string): Promise<{ cents: number; count: number }> {
  const row = card.locator(`li[data-currency="${currency}"]`);
  if ((await row.count()) === 0) return { cents: 0, count: 0 };
  const [amount, count] = await row.locator("span").allTextContents();
  return { cents: cents(amount ?? ""), count: Number((count ?? "").replace(/\D/g, "")) };
}

async function openDashboard(page: Page) {
  await page.goto("/admin");
  await expect(page.getByTestId("business")).toBeVisible();
  return { revenue: page.getByTestId("revenue"), pending: page.getByTestId("pending") };
}

shopperTest.describe("dashboard figures", () => {
  shopperTest(
    "revenue counts paid orders per currency, pending payments apart; recent orders link with number and name",
    async ({ page, context, baseURL, playwright }, testInfo) => {
      shopperTest.setTimeout(60_000);
      const { code, symbol } = CURRENCY[testInfo.project.name] ?? { code: "EUR", symbol: "€" };
      await signInAsAdmin(page, "dash-figures");
      let cards = await openDashboard(page);
      const revenueBefore = await figure(cards.revenue, code);
      const pendingBefore = await figure(cards.pending, code);

      const shopper = await newApiShopper(playwright, baseURL as string, "dash-buyer");
      let order: { id: string; number: string };
      try {
        order = await placeOrder(shopper, code);
      } finally {
        await shopper.dispose();
      }

      // Pending: counted apart, not revenue.
      cards = await openDashboard(page);
      const pendingNow = await figure(cards.pending, code);
      expect(pendingNow.count).toBe(pendingBefore.count + 1);
      const total = pendingNow.cents - pendingBefore.cents;
      expect(total).toBeGreaterThan(0);
      expect(await figure(cards.revenue, code)).toEqual(revenueBefore);
      await expect(cards.pending.locator(`li[data-currency="${code}"]`)).toContainText(symbol);

      // Recent Orders: the ORD number, the name in Chinese order, the amount; the row links to the order.
      const recent = page.getByTestId("recent-order").filter({ hasText: order.number });
      await expect(recent).toHaveCount(1);
      await expect(recent.getByTestId("recent-customer")).toHaveText("陳大文");
      await expect(recent).toContainText(symbol);
      // The same status words as the order page and the shopper's: the receipt is in review.
      await expect(recent).toContainText("Receipt in review");
      await recent.getByRole("link", { name: order.number }).click();
      await expect(page).toHaveURL(new RegExp(`/admin/orders/${order.id}$`));
      await expect(page.getByRole("heading", { level: 1 })).toContainText(order.number);

      // Marked paid: now revenue, no longer pending.
      await page.getByRole("button", { name: "Mark Paid" }).click();
      await expect(page.getByTestId("order-status").first()).toHaveText("Paid");
      cards = await openDashboard(page);
      expect(await figure(cards.revenue, code)).toEqual({
        cents: revenueBefore.cents + total,
        count: revenueBefore.count + 1,
      });
      expect(await figure(cards.pending, code)).toEqual(pendingBefore);

      // The same figures in Chinese.
      await setLanguage(context, baseURL as string, "zh");
      cards = await openDashboard(page);
      await expect(cards.revenue).toContainText("收入");
      await expect(cards.pending).toContainText("等待付款");
      expect(await figure(cards.revenue, code)).toEqual({
        cents: revenueBefore.cents + total,
        count: revenueBefore.count + 1,
      });
      const recentZh = page.getByTestId("recent-order").filter({ hasText: order.number });
      await expect(recentZh.getByTestId("recent-customer")).toHaveText("陳大文");
      await expect(recentZh).toContainText("已付款");
    },
  );
});
