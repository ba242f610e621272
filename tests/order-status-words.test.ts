import { beforeEach, describe, expect, it } from "vitest";
import type { Language } from "~/locales";
import en from "~/locales/en/translation";
import zh from "~/locales/zh/translation";
import { languageCookie } from "~/middleware/i18next";
import { transitionOrder } from "~/models/orders/desk.server";
import type { CurrentUser } from "~/request/auth.server";
import Dashboard, { loader as dashboardLoader } from "~/routes/admin/dashboard";
import AdminOrder, { loader as adminOrderLoader } from "~/routes/admin/order";
import AdminOrders, { loader as adminOrdersLoader } from "~/routes/admin/orders";
import AccountOrder, { loader as accountOrderLoader } from "~/routes/store/account-order";
import AccountOrders, { loader as accountOrdersLoader } from "~/routes/store/account-orders";
import { createSignedIn, placeOrderWithReceipt } from "./factories";
import { dlContentProblems } from "./html-structure";
import { freshTestServices, type TestServices } from "./setup/db";
import { renderPage } from "./setup/render";
import { runRoute } from "./setup/route";

/**
 * One vocabulary of order statuses (issue 25, docs/decisions/041): the admin's order page,
 * orders list and dashboard and the shopper's order page and list name an order's status with
 * the same words, in English and Chinese — a receipt waiting for the shop is "Receipt in
 * review" everywhere, never also "Awaiting payment" nor counted among orders awaiting payment.
 */

let svc: TestServices;
let ADMIN: CurrentUser;
beforeEach(async () => {
  svc = await freshTestServices();
  ADMIN = await createSignedIn(svc.db, { email: "desk@shop.hk", admin: true });
});

/** Every page's server HTML for the order, in `language`. */
async function pages(orderId: string, customer: CurrentUser, language: Language) {
  const cookie = await languageCookie.serialize(language);
  const render = async (
    url: string,
    loader: (args: never) => Promise<unknown>,
    Component: unknown,
    user: CurrentUser,
    options: { pattern?: string; params?: Record<string, string> } = {},
  ) => {
    const request = new Request(`http://localhost${url}`, { headers: { Cookie: cookie } });
    const { result, thrown } = await runRoute(svc, loader, request, user, options.params);
    expect(thrown).toBeUndefined();
    return renderPage({ url, pattern: options.pattern, Component, loaderData: result, language });
  };
  const id = { pattern: "/orders/:id", params: { id: orderId } };
  return {
    adminOrder: await render(`/orders/${orderId}`, adminOrderLoader, AdminOrder, ADMIN, id),
    adminList: await render("/admin/orders", adminOrdersLoader, AdminOrders, ADMIN),
    dashboard: await render("/admin", dashboardLoader, Dashboard, ADMIN),
    shopperOrder: await render(`/orders/${orderId}`, accountOrderLoader, AccountOrder, customer, id),
    shopperList: await render("/account/orders", accountOrdersLoader, AccountOrders, customer),
  };
}

/** The status badges' texts of a page. */
function statuses(html: string): string[] {
  return [...html.matchAll(/<span[^>]*data-testid="order-status"[^>]*>([^<]*)<\/span>/g)].map(
    (match) => match[1] ?? "",
  );
}

/** The number on one of the dashboard's "awaiting payment" tiles. */
function tile(html: string, bucket: string): string | undefined {
  return new RegExp(`data-testid="unpaid-${bucket}"[\\s\\S]*?tabular-nums[^>]*>(\\d+)<`).exec(html)?.[1];
}

describe("the order status", () => {
  it("has the same name on the admin's and the shopper's pages, in both languages", async () => {
    const { order, customer } = await placeOrderWithReceipt(svc.db);
    for (const [language, words] of [
      ["en", en.orders.statuses],
      ["zh", zh.orders.statuses],
    ] as const) {
      const html = await pages(order.id, customer, language);
      for (const [page, text] of Object.entries(html)) {
        expect(statuses(text), `${page} (${language})`).toEqual([words.receipt_checking]);
      }
      // A receipt in review is counted in review, not also as awaiting payment.
      expect(tile(html.dashboard, "under24h")).toBe("0");
      expect(html.dashboard).toMatch(/data-testid="receipt-queue"[\s\S]*?1 (receipt in review|張收據審核中)/);
    }

    // Rejected: "Receipt rejected" on every page, and then it is awaiting payment on the dashboard.
    await transitionOrder(svc.db, svc.config, ADMIN, {
      orderId: order.id,
      transition: "rejectReceipt",
      expected: "pending_payment",
      reason: "The amount does not match",
    });
    const rejected = await pages(order.id, customer, "en");
    for (const [page, text] of Object.entries(rejected)) {
      expect(statuses(text), page).toEqual(["Receipt rejected"]);
    }
    expect(tile(rejected.dashboard, "under24h")).toBe("1");

    // Paid: "Paid" everywhere.
    await transitionOrder(svc.db, svc.config, ADMIN, {
      orderId: order.id,
      transition: "markPaid",
      expected: "pending_payment",
    });
    for (const [page, text] of Object.entries(await pages(order.id, customer, "zh"))) {
      expect(statuses(text), page).toEqual([zh.orders.statuses.paid]);
    }
  });

  it("shows the receipt sent with the order in the shopper's history, and valid customer details to the admin", async () => {
    const { order, customer } = await placeOrderWithReceipt(svc.db);
    const html = await pages(order.id, customer, "en");
    const history = /data-testid="order-history"[^>]*>([\s\S]*?)<\/ul>/.exec(html.shopperOrder)?.[1] ?? "";
    expect(
      [...history.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((match) =>
        match[1]?.replace(/<!-- -->/g, "").replace(/^.*· /, ""),
      ),
    ).toEqual(["Placed", "Payment receipt sent"]);
    // The admin order page's customer details: every <dl> one kind of group (Nu HTML Checker).
    expect(html.adminOrder).toContain(">Account</dt>");
    expect(dlContentProblems(html.adminOrder)).toEqual([]);
  });
});
