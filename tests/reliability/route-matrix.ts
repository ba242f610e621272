import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, type PlaywrightWorkerArgs, test } from "@playwright/test";
import {
  apiAddToCart,
  apiOrders,
  apiPaymentKey,
  apiSignUp,
  apiSubmitPayment,
  CHECKOUT_DETAILS,
  receiptJpeg,
  uniqueEmail,
  uniquePassword,
} from "../e2e/fixtures";
import { insertFailedMessage } from "../setup/failed-message";
import { adminSignIn, createAdmin, openDatabase, removeFiles, type Shop, type ShopFiles, startShop } from "./shop";

/**
 * The authorization matrix: every route of app/routes.ts × GET (its loader) and POST (its
 * action, or 405 where the module has none) × who asks (signed out, customer A who owns an
 * order with a receipt, customer B, an admin (owner), a member of staff) → what the server must
 * answer. Staff answer as the admin except on the owner's screens (`owner`), where they get 403.
 *
 * authorization.spec.ts sends every cell and fails when a route of app/routes.ts has no row
 * here; forgery.spec.ts posts every row that has an action from another origin.
 */

export type Who = "signedOut" | "customerA" | "customerB" | "admin" | "staff";

export const EVERYONE: readonly Who[] = ["signedOut", "customerA", "customerB", "admin", "staff"];

/** The real rows of the spec's shop that the URLs and bodies point at. */
export interface MatrixIds {
  /** Customer A's order (pending payment, with a receipt). */
  orderA: string;
  orderNumberA: string;
  emailA: string;
  /** Customer B's user id (the admin customer page). */
  userB: string;
  productId: number;
  /** A paused webhook of the owner (Settings → Webhooks). */
  webhookId: string;
  categoryId: number;
  categorySlug: string;
  blogPostId: number;
  bankAccountId: number;
  /** A failed e-mail of order A (Admin → Messages). */
  messageId: string;
}

/** A status, or a redirect with its Location (a string is matched exactly). */
export type Outcome = number | { status: 302; location: string | RegExp };

export type Cells = Record<Who, Outcome>;

export type Form = Record<string, string>;

export interface MatrixRow {
  /** The route's full path as app/routes.ts builds it ("/" for the index, "/*" for a splat). */
  path: string;
  /** Its module, relative to app/. */
  file: string;
  /** The route id app/routes.ts gives it, where it names one (else the module path without extension). */
  id?: string;
  /** A concrete URL for the path. */
  url(ids: MatrixIds): string;
  get: Cells;
  /** null: the module has no action, so every POST is 405. */
  post: Cells | null;
  /**
   * What a signed-out visitor and the customers POST: on an admin route, a write that would
   * change the database if it got through (grant admin, delete, block, rename...).
   */
  body?(ids: MatrixIds): Form;
  /** What the admin POSTs: harmless (a refused form), so the matrix changes nothing itself. */
  adminBody?(ids: MatrixIds): Form;
  /** Only admins may act here: non-admin POSTs must change nothing. */
  adminOnly?: boolean;
  /**
   * The owner's: staff get 403 on the page and the write ("all") or on the write only ("write");
   * a staff POST then sends `body` (the harmful one) and must change nothing.
   */
  owner?: "all" | "write";
  /** The POST signs the client out: the spec sends these cells last. */
  signsOut?: boolean;
}

const toLogin = (path: string): Outcome => ({
  status: 302,
  location: `/login?redirectTo=${encodeURIComponent(path)}`,
});
const to = (location: string | RegExp): Outcome => ({ status: 302, location });
const TO_ADMIN_LOGIN = to("/admin/login");
const TO_LOGIN_ORDER = to(/^\/login\?redirectTo=%2Faccount%2Forders%2F[0-9a-f-]{36}$/);

const all = (outcome: Outcome): Cells => ({
  signedOut: outcome,
  customerA: outcome,
  customerB: outcome,
  admin: outcome,
  staff: outcome,
});
/** requireUser: signed out goes to /login and comes back. */
const signedIn = (path: string, outcome: Outcome): Cells => ({ ...all(outcome), signedOut: toLogin(path) });
/** requireAdmin on a GET: anyone else goes to /admin/login; staff as the admin, or 403 on the owner's pages. */
const adminPage = (outcome: Outcome, ownerOnly = false): Cells => ({
  ...all(TO_ADMIN_LOGIN),
  admin: outcome,
  staff: ownerOnly ? 403 : outcome,
});
/** requireAdmin on a POST: anyone else gets 403 and nothing runs (staff too on the owner's writes). */
const adminWrite = (outcome: Outcome, ownerOnly = false): Cells => ({
  ...all(403),
  admin: outcome,
  staff: ownerOnly ? 403 : outcome,
});

const page = (path: string, file: string, get: Cells, url: (ids: MatrixIds) => string = () => path): MatrixRow => ({
  path,
  file,
  url,
  get,
  post: null,
});

const CONTENT_PAGES = ["shipping", "returns", "faq", "contact", "privacy", "terms"] as const;

const adminRow = (
  path: string,
  module: string | { file: string; id: string },
  url: (ids: MatrixIds) => string,
  write: { body: (ids: MatrixIds) => Form; adminBody: (ids: MatrixIds) => Form; admin: Outcome } | null,
  getAdmin: Outcome = 200,
  owner?: "all" | "write",
): MatrixRow => ({
  path,
  ...(typeof module === "string" ? { file: module } : module),
  url,
  get: adminPage(getAdmin, owner === "all"),
  post: write ? adminWrite(write.admin, owner !== undefined) : null,
  body: write?.body,
  adminBody: write?.adminBody,
  adminOnly: true,
  ...(owner ? { owner } : {}),
});

export const ROUTE_MATRIX: readonly MatrixRow[] = [
  /* ---------------------------------------------------------------- the store */
  page("/", "routes/store/home.tsx", all(200)),
  ...CONTENT_PAGES.map((slug) => ({
    ...page(`/${slug}`, "routes/store/content-page.tsx", all(200)),
    id: `content-${slug}`,
  })),
  page("/category/:slug", "routes/store/category.tsx", all(200), (ids) => `/category/${ids.categorySlug}`),
  page("/product/:id", "routes/store/product.tsx", all(200), (ids) => `/product/${ids.productId}`),
  page("/search", "routes/store/search.tsx", all(200), () => "/search?q=cap"),
  {
    path: "/cart",
    file: "routes/store/cart.tsx",
    url: () => "/cart",
    get: all(200),
    // Clearing one's own (empty) cart: allowed for everyone, back to the cart.
    post: all(to("/cart")),
    body: () => ({ intent: "clear" }),
  },
  {
    path: "/checkout",
    file: "routes/store/checkout.tsx",
    url: () => "/checkout",
    get: all(200),
    // The details are kept; a signed-out shopper signs in first, a signed-in one pays next.
    post: { ...all(to("/payment")), signedOut: toLogin("/checkout") },
    body: () => ({
      firstName: "Chan",
      lastName: "Tai Man",
      email: "matrix-shopper@example.com",
      address: "1 Nathan Road",
      city: "Kowloon",
      country: "Hong Kong",
    }),
  },
  {
    path: "/payment",
    file: "routes/store/payment.tsx",
    url: () => "/payment",
    get: signedIn("/payment", 200),
    // No submission key: nothing to pay for.
    post: signedIn("/payment", 400),
    body: () => ({ submissionKey: "made-up" }),
  },
  page("/payment-success", "routes/store/payment-success.tsx", signedIn("/payment-success", 200)),
  page("/account/orders", "routes/store/account-orders.tsx", signedIn("/account/orders", 200)),
  {
    path: "/account/orders/:id",
    file: "routes/store/account-order.tsx",
    url: (ids) => `/account/orders/${ids.orderA}`,
    // Only the owner sees an order; for anyone else (admins included: they use /admin) it does not exist.
    get: { signedOut: TO_LOGIN_ORDER, customerA: 200, customerB: 404, admin: 404, staff: 404 },
    // Replacing the receipt: only after a rejection (409 for the owner now), 404 for the rest.
    post: { signedOut: TO_LOGIN_ORDER, customerA: 409, customerB: 404, admin: 404, staff: 404 },
    body: () => ({ intent: "receipt" }),
  },
  page("/blog", "routes/store/blog.tsx", all(200)),
  page("/blog/:id", "routes/store/blog-post.tsx", all(200), (ids) => `/blog/${ids.blogPostId}`),
  {
    path: "/login",
    file: "routes/store/login.tsx",
    url: () => "/login",
    get: { ...all(to("/")), signedOut: 200 },
    // A refused form re-renders the page, whose loader sends a signed-in user home.
    post: { ...all(to("/")), signedOut: 400 },
    body: () => ({ intent: "login" }),
  },
  {
    path: "/forgot-password",
    file: "routes/store/forgot-password.tsx",
    url: () => "/forgot-password",
    get: all(200),
    post: all(400),
    body: () => ({ email: "not an e-mail" }),
  },
  {
    path: "/reset-password",
    file: "routes/store/reset-password.tsx",
    url: () => "/reset-password",
    // No (valid) token: the page says the link is bad.
    get: all(400),
    post: all(400),
    body: () => ({ token: "x".repeat(40), password: "a-new-password-123", confirm: "a-new-password-123" }),
  },
  {
    path: "/join",
    file: "routes/store/join.tsx",
    url: () => "/join",
    // No (valid) invitation token: the page says the invitation does not work.
    get: all(400),
    post: all(400),
    body: () => ({ token: "x".repeat(40), password: "a-new-password-123", confirm: "a-new-password-123" }),
  },
  {
    path: "/verify-email",
    file: "routes/store/verify-email.tsx",
    url: () => "/verify-email",
    get: all(400),
    post: all(400),
    body: () => ({ token: "x".repeat(40) }),
  },
  {
    // "E-mail me when it's back" (docs/decisions/055): anyone; no such variant is a 404 page, a bad address a 400.
    path: "/stock-alerts",
    file: "routes/store/stock-alerts.tsx",
    url: () => "/stock-alerts?variant=999999999",
    get: all(404),
    post: all(400),
    body: () => ({ variant_id: "999999999", email: "not an e-mail" }),
  },
  {
    path: "/stock-alerts/confirm",
    file: "routes/store/stock-alert-confirm.tsx",
    url: () => "/stock-alerts/confirm",
    get: all(400),
    post: all(400),
    body: () => ({ token: "x".repeat(40) }),
  },
  {
    path: "/stock-alerts/stop",
    file: "routes/store/stock-alert-stop.tsx",
    url: () => "/stock-alerts/stop",
    get: all(400),
    post: all(400),
    body: () => ({ token: "x".repeat(40) }),
  },
  {
    path: "/account",
    file: "routes/store/account.tsx",
    url: () => "/account",
    get: signedIn("/account", 200),
    post: signedIn("/account", 400),
    body: () => ({ current: "wrong", password: "x", confirm: "y" }),
  },
  page("/*", "routes/store/not-found.tsx", all(404), () => "/no-such-page"),

  /* ------------------------------------------------------- store resource routes */
  {
    path: "/logout",
    file: "routes/store/logout.ts",
    url: () => "/logout",
    get: all(to("/")),
    post: all(to("/")),
    body: () => ({}),
    signsOut: true,
  },
  {
    // The shopper's discount code field (cart, checkout, payment): their own cart, anyone.
    path: "/cart/code",
    file: "routes/store/cart-code.ts",
    url: () => "/cart/code",
    get: all(to("/cart")),
    post: all(to("/cart")),
    body: () => ({ intent: "removeCode" }),
  },
  page("/sitemap.xml", "routes/resources/sitemap.ts", all(200)),
  page("/robots.txt", "routes/resources/robots.ts", all(200)),
  // A Google Merchant feed: public while the owner has it on; off in a new shop (docs/decisions/056).
  page("/feeds/google/:lang/:file", "routes/resources/merchant-feed.ts", all(404), () => "/feeds/google/en/HKD.xml"),
  page("/resources/search", "routes/resources/search.ts", all(200), () => "/resources/search?q=cap"),
  {
    ...page("/account/orders/:id/receipt", "routes/resources/receipt.ts", {
      // A private file: the owner and admins get it; anyone else (signed out too) "not found".
      signedOut: 404,
      customerA: 200,
      customerB: 404,
      admin: 200,
      staff: 200,
    }),
    url: (ids) => `/account/orders/${ids.orderA}/receipt`,
  },
  {
    ...page("/account/orders/:id/invoice", "routes/store/account-order-invoice.tsx", {
      // The owner's invoice once paid (order A is not paid yet: 404 for everyone); signed out: sign in first.
      signedOut: to(/^\/login\?redirectTo=%2Faccount%2Forders%2F[0-9a-f-]{36}%2Finvoice$/),
      customerA: 404,
      customerB: 404,
      admin: 404,
      staff: 404,
    }),
    url: (ids) => `/account/orders/${ids.orderA}/invoice`,
  },
  {
    path: "/resources/language",
    file: "routes/resources/language.ts",
    url: () => "/resources/language",
    get: all(to("/")),
    post: all(to("/cart")),
    body: () => ({ language: "en", redirectTo: "/cart" }),
  },
  {
    path: "/resources/currency",
    file: "routes/resources/currency.ts",
    url: () => "/resources/currency",
    get: all(to("/")),
    post: all(to("/cart")),
    body: () => ({ currency: "HKD", redirectTo: "/cart" }),
  },
  page("/resources/locales/:lng/:part", "routes/resources/locales.ts", all(200), () => "/resources/locales/zh/all"),

  /* ------------------------------------------------------------------ the admin */
  {
    path: "/admin/login",
    file: "routes/admin/login.tsx",
    url: () => "/admin/login",
    get: { ...all(200), admin: to("/admin"), staff: to("/admin") },
    post: { ...all(400), admin: to("/admin"), staff: to("/admin") },
    body: () => ({ intent: "login" }),
  },
  adminRow(
    "/admin/orders/:id/receipt",
    "routes/admin/order-receipt.ts",
    (ids) => `/admin/orders/${ids.orderA}/receipt`,
    null,
  ),
  // Packing slips and invoices (docs/decisions/060): owner and staff, read-only pages.
  adminRow(
    "/admin/orders/:id/packing-slip",
    { file: "routes/admin/order-documents.tsx", id: "admin-packing-slip" },
    (ids) => `/admin/orders/${ids.orderA}/packing-slip`,
    null,
  ),
  adminRow(
    "/admin/orders/:id/invoice",
    { file: "routes/admin/order-documents.tsx", id: "admin-invoice" },
    (ids) => `/admin/orders/${ids.orderA}/invoice`,
    null,
  ),
  adminRow(
    "/admin/orders/print",
    { file: "routes/admin/order-documents.tsx", id: "admin-order-documents" },
    (ids) => `/admin/orders/print?doc=packing-slip&id=${ids.orderA}`,
    null,
  ),
  adminRow(
    "/admin/customers/export",
    "routes/admin/customers-export.ts",
    () => "/admin/customers/export",
    // The export itself is harmless, but it is audited: a non-admin one must leave no row.
    { body: () => ({ q: "" }), adminBody: () => ({ q: "" }), admin: 200 },
    to("/admin/customers"),
    "all",
  ),
  adminRow(
    "/admin/orders/export",
    "routes/admin/orders-export.ts",
    () => "/admin/orders/export",
    // The owner's, audited like the customer export: a refused one must leave no row.
    { body: () => ({ status: "paid" }), adminBody: () => ({ status: "paid" }), admin: 200 },
    to("/admin/orders"),
    "all",
  ),
  adminRow(
    "/admin",
    "routes/admin/dashboard.tsx",
    () => "/admin",
    {
      // Grant the admin right to customer A (the owner's; staff read the dashboard).
      body: (ids) => ({ email: ids.emailA }),
      adminBody: () => ({ email: "nobody-here@example.com" }),
      admin: 400,
    },
    200,
    "write",
  ),
  adminRow(
    "/admin/products/export",
    "routes/admin/products-export.ts",
    () => "/admin/products/export",
    // Audited like the customer export: a non-admin one must leave no row.
    { body: () => ({}), adminBody: () => ({}), admin: 200 },
    to("/admin/products"),
  ),
  adminRow("/admin/products", "routes/admin/products.tsx", () => "/admin/products", {
    body: (ids) => ({ intent: "delete", productId: String(ids.productId) }),
    adminBody: () => ({ intent: "nothing" }),
    admin: 400,
  }),
  adminRow("/admin/categories", "routes/admin/categories.tsx", () => "/admin/categories", {
    body: (ids) => ({ intent: "delete", id: String(ids.categoryId), confirmed: "1" }),
    adminBody: () => ({ intent: "nothing" }),
    admin: 400,
  }),
  adminRow("/admin/brands", "routes/admin/brands.tsx", () => "/admin/brands", {
    body: () => ({ intent: "create", name: "Forged brand" }),
    adminBody: () => ({ intent: "nothing" }),
    admin: 400,
  }),
  adminRow(
    "/admin/products/new",
    { file: "routes/admin/product-form.tsx", id: "admin-product-new" },
    () => "/admin/products/new",
    {
      body: () => ({ name_en: "Forged product", name_zh: "偽造", price_hkd: "1.00", stock: "5" }),
      adminBody: () => ({ intent: "nothing" }),
      admin: 400,
    },
  ),
  adminRow("/admin/products/import", "routes/admin/products-import.tsx", () => "/admin/products/import", {
    // Confirm someone's staged import (a made-up token: refused before any file is read).
    body: () => ({ intent: "confirm", token: "x" }),
    adminBody: () => ({ intent: "nothing" }),
    admin: 400,
  }),
  adminRow(
    "/admin/products/edit/:id",
    { file: "routes/admin/product-form.tsx", id: "admin-product-edit" },
    (ids) => `/admin/products/edit/${ids.productId}`,
    {
      body: () => ({ name_en: "Renamed by a stranger", name_zh: "偽造", price_hkd: "0.01", stock: "0" }),
      adminBody: () => ({ intent: "nothing" }),
      admin: 400,
    },
  ),
  adminRow("/admin/orders", "routes/admin/orders.tsx", () => "/admin/orders", {
    // Mark order A paid from the receipt review queue.
    body: (ids) => ({ intent: "markPaid", orderId: ids.orderA, expected: "pending_payment" }),
    adminBody: () => ({ intent: "nothing" }),
    admin: 400,
  }),
  // Status changes, the deadline and refunds (intent "refund", docs/decisions/057): owner and staff alike.
  adminRow("/admin/orders/:id", "routes/admin/order.tsx", (ids) => `/admin/orders/${ids.orderA}`, {
    body: () => ({ intent: "markPaid", expected: "pending_payment" }),
    adminBody: () => ({ intent: "nothing" }),
    admin: 400,
  }),
  // Bulk shipping (docs/decisions/061): owner and staff, as the order page's "mark shipped".
  adminRow("/admin/orders/ship", "routes/admin/orders-ship.tsx", (ids) => `/admin/orders/ship?id=${ids.orderA}`, {
    body: (ids) => ({ "orders[0].id": ids.orderA, "orders[0].expected": "paid", "orders[0].tracking": "FORGED1" }),
    adminBody: () => ({}),
    admin: 400,
  }),
  // Discount codes: owner and staff; a forged write would give the shop away.
  adminRow("/admin/discounts", "routes/admin/discounts.tsx", () => "/admin/discounts", {
    body: () => ({ intent: "delete", id: "1" }),
    adminBody: () => ({ intent: "nothing" }),
    admin: 400,
  }),
  adminRow(
    "/admin/discounts/new",
    { file: "routes/admin/discount-form.tsx", id: "admin-discount-new" },
    () => "/admin/discounts/new",
    {
      body: () => ({ code: "FORGED90", kind: "percent", percent: "90", applies_to: "all", active: "on" }),
      adminBody: () => ({ intent: "nothing" }),
      admin: 400,
    },
  ),
  adminRow(
    "/admin/discounts/:id",
    { file: "routes/admin/discount-form.tsx", id: "admin-discount-edit" },
    () => "/admin/discounts/999999",
    {
      body: () => ({ code: "FORGED90", kind: "percent", percent: "90", applies_to: "all", active: "on" }),
      adminBody: () => ({ intent: "nothing" }),
      admin: 400,
    },
    404,
  ),
  adminRow(
    "/admin/messages",
    "routes/admin/messages.tsx",
    () => "/admin/messages",
    {
      // Keep sent messages for one day: the owner's (staff read the list and send messages again).
      body: () => ({ intent: "retention", days: "1" }),
      adminBody: () => ({ intent: "nothing" }),
      admin: 400,
    },
    200,
    "write",
  ),
  adminRow("/admin/messages/:id", "routes/admin/message.tsx", (ids) => `/admin/messages/${ids.messageId}`, {
    // Send order A's failed e-mail again (owner and staff may).
    body: () => ({ intent: "resend", expected: "failed" }),
    adminBody: () => ({ intent: "nothing" }),
    admin: 400,
  }),
  adminRow("/admin/customers", "routes/admin/customers.tsx", () => "/admin/customers", null),
  adminRow(
    "/admin/customers/:id",
    "routes/admin/customer.tsx",
    (ids) => `/admin/customers/${ids.userB}`,
    {
      // Blocking is the owner's; staff read the page.
      body: () => ({ intent: "block" }),
      adminBody: () => ({ intent: "nothing" }),
      admin: 400,
    },
    200,
    "write",
  ),
  adminRow("/admin/blog", "routes/admin/blog.tsx", () => "/admin/blog", {
    body: (ids) => ({ intent: "delete", id: String(ids.blogPostId), confirmed: "1" }),
    adminBody: () => ({ intent: "nothing" }),
    admin: 400,
  }),
  adminRow("/admin/blog/new", { file: "routes/admin/blog-form.tsx", id: "admin-blog-new" }, () => "/admin/blog/new", {
    body: () => ({
      title_en: "Forged",
      title_zh: "偽造",
      content_en: "Forged",
      content_zh: "偽造",
      author: "Mallory",
      published: "on",
    }),
    adminBody: () => ({}),
    admin: 400,
  }),
  adminRow(
    "/admin/blog/edit/:id",
    { file: "routes/admin/blog-form.tsx", id: "admin-blog-edit" },
    (ids) => `/admin/blog/edit/${ids.blogPostId}`,
    {
      body: () => ({
        title_en: "Defaced",
        title_zh: "偽造",
        content_en: "Defaced",
        content_zh: "偽造",
        author: "Mallory",
        published: "on",
      }),
      adminBody: () => ({}),
      admin: 400,
    },
  ),
  adminRow(
    "/admin/settings",
    "routes/admin/settings.tsx",
    () => "/admin/settings",
    {
      body: (ids) => ({ intent: "delete", id: String(ids.bankAccountId), confirmed: "1" }),
      adminBody: () => ({ intent: "nothing" }),
      admin: 400,
    },
    200,
    "all",
  ),
  adminRow(
    "/admin/settings/shop",
    "routes/admin/shop-details.tsx",
    () => "/admin/settings/shop",
    {
      body: () => ({ name_en: "Forged", name_zh: "偽造", support_email: "mallory@example.com" }),
      adminBody: () => ({}),
      admin: 400,
    },
    200,
    "all",
  ),
  adminRow(
    "/admin/settings/pages/:slug",
    "routes/admin/content-page-form.tsx",
    () => "/admin/settings/pages/shipping",
    {
      body: () => ({ intent: "save", title_en: "Defaced", body_en: "Defaced", title_zh: "偽造", body_zh: "偽造" }),
      adminBody: () => ({ intent: "nothing" }),
      admin: 400,
    },
    200,
    "all",
  ),
  adminRow(
    "/admin/settings/search",
    "routes/admin/search-synonyms.tsx",
    () => "/admin/settings/search",
    {
      body: () => ({ intent: "save", synonyms: "forged, 偽造" }),
      adminBody: () => ({ intent: "nothing" }),
      admin: 400,
    },
    200,
    "all",
  ),
  // The age checkbox's text: the owner's (docs/decisions/049).
  adminRow(
    "/admin/settings/age",
    "routes/admin/age-text.tsx",
    () => "/admin/settings/age",
    {
      body: () => ({ text_en: "Forged", text_zh: "偽造" }),
      adminBody: () => ({ text_en: "x".repeat(501) }),
      admin: 400,
    },
    200,
    "all",
  ),
  // Shopping feeds: the owner's (docs/decisions/056): what the shop publishes to Merchant Center.
  adminRow(
    "/admin/settings/feeds",
    "routes/admin/shopping-feeds.tsx",
    () => "/admin/settings/feeds",
    {
      body: () => ({ "feeds[]": "en-HKD" }),
      adminBody: () => ({ "feeds[]": "xx-XXX" }),
      admin: 400,
    },
    200,
    "all",
  ),
  // Shipping zones: the owner's (docs/decisions/047): what every shopper pays for delivery.
  adminRow(
    "/admin/settings/shipping",
    "routes/admin/shipping-zones.tsx",
    () => "/admin/settings/shipping",
    {
      body: () => ({ intent: "delete", id: "1", confirmed: "1" }),
      adminBody: () => ({ intent: "nothing" }),
      admin: 400,
    },
    200,
    "all",
  ),
  adminRow(
    "/admin/settings/shipping/new",
    { file: "routes/admin/shipping-zone.tsx", id: "admin-zone-new" },
    () => "/admin/settings/shipping/new",
    {
      body: () => ({ name_en: "Forged", name_zh: "偽造", "countries[]": "HK", fee_hkd: "0" }),
      adminBody: () => ({ intent: "nothing" }),
      admin: 400,
    },
    200,
    "all",
  ),
  adminRow(
    "/admin/settings/shipping/:id",
    { file: "routes/admin/shipping-zone.tsx", id: "admin-zone-edit" },
    () => "/admin/settings/shipping/1",
    {
      body: () => ({ name_en: "Forged", name_zh: "偽造", fee_hkd: "0" }),
      adminBody: () => ({ intent: "nothing" }),
      admin: 400,
    },
    200,
    "all",
  ),
  // Webhooks: the owner's. Opening the shop's network to them, or removing one, must not happen for anyone else.
  adminRow(
    "/admin/settings/webhooks",
    "routes/admin/webhooks.tsx",
    () => "/admin/settings/webhooks",
    {
      body: () => ({ intent: "network", allow_private: "on" }),
      adminBody: () => ({ intent: "nothing" }),
      admin: 400,
    },
    200,
    "all",
  ),
  adminRow(
    "/admin/settings/webhooks/:id",
    "routes/admin/webhook.tsx",
    (ids) => `/admin/settings/webhooks/${ids.webhookId}`,
    {
      body: () => ({ intent: "delete", confirmed: "1" }),
      adminBody: () => ({ intent: "nothing" }),
      admin: 400,
    },
    200,
    "all",
  ),
  // Without the page's own button (intent=remove, confirmed=1) nothing is removed: a 400.
  adminRow(
    "/admin/demo-data",
    "routes/admin/demo-data.tsx",
    () => "/admin/demo-data",
    {
      body: () => ({ intent: "remove", confirmed: "1" }),
      adminBody: () => ({ intent: "remove" }),
      admin: 400,
    },
    200,
    "all",
  ),
  // The staff screen: the owner's. Adding customer A as staff must not happen for anyone else.
  adminRow(
    "/admin/staff",
    "routes/admin/staff.tsx",
    () => "/admin/staff",
    {
      body: (ids) => ({ intent: "add", email: ids.emailA }),
      adminBody: () => ({ intent: "nothing" }),
      admin: 400,
    },
    200,
    "all",
  ),
  adminRow(
    "/admin/*",
    "routes/admin/not-found.tsx",
    () => "/admin/no-such-page",
    { body: () => ({}), adminBody: () => ({}), admin: 404 },
    404,
  ),
];

/** The route id React Router knows the row by (the `_routes` of a client navigation's data request). */
export function routeId(row: MatrixRow): string {
  return row.id ?? row.file.replace(/\.tsx?$/, "");
}

/** What `who` POSTs on `row`: the harmless body where the write would go through, else the harmful one. */
export function postBody(row: MatrixRow, who: Who, ids: MatrixIds): Form {
  const mayWrite = who === "admin" || (who === "staff" && row.adminOnly && !row.owner);
  return (mayWrite ? row.adminBody : undefined)?.(ids) ?? row.body?.(ids) ?? {};
}

/** The POST outcome of a cell: 405 for everyone where the module has no action. */
export function postOutcome(row: MatrixRow, who: Who): Outcome {
  return row.post ? row.post[who] : 405;
}

/* ------------------------------------------------------------------------------------------
 * "Nothing changed": a fingerprint of the shop's database and uploads.
 * ------------------------------------------------------------------------------------------ */

export interface Fingerprint {
  /** Table (or "uploads") → "<row count>:<sha256 of the sorted rows>". */
  tables: Record<string, string>;
}

/**
 * Every table's row count and a hash of its rows (sorted, so the order rows come back in does
 * not matter), plus the list of uploaded files. `ignore` names tables, or "table.column", left
 * out: the caller says why in a comment where it passes them.
 */
export function fingerprint(files: ShopFiles, ignore: readonly string[] = []): Fingerprint {
  const db = openDatabase(files);
  try {
    const names = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]
    ).map((row) => row.name);
    const tables: Record<string, string> = {};
    for (const name of names) {
      // The shop's own minute timer (server/scheduled-jobs.ts) writes its claim there, whatever requests come.
      if (ignore.includes(name) || name === "scheduled_jobs") continue;
      const dropped = ignore
        .filter((entry) => entry.startsWith(`${name}.`))
        .map((entry) => entry.slice(name.length + 1));
      const rows = (db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[]).map((row) => {
        for (const column of dropped) delete row[column];
        return JSON.stringify(row, (_key, value: unknown) =>
          Buffer.isBuffer(value) ? value.toString("base64") : typeof value === "bigint" ? String(value) : value,
        );
      });
      rows.sort();
      tables[name] = `${rows.length}:${crypto.createHash("sha256").update(rows.join("\n")).digest("hex")}`;
    }
    tables.uploads = listFiles(files.uploadsDir).join("\n");
    return { tables };
  } finally {
    db.close();
  }
}

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** The tables whose fingerprints differ, for a readable failure. */
export function changedTables(before: Fingerprint, after: Fingerprint): string[] {
  const names = new Set([...Object.keys(before.tables), ...Object.keys(after.tables)]);
  return [...names].filter((name) => before.tables[name] !== after.tables[name]).sort();
}

/** The Location of a redirect, relative to the shop when it points at it. */
export function relativeLocation(location: string | undefined, baseURL: string): string | undefined {
  if (location === undefined) return undefined;
  return location.startsWith(baseURL) ? location.slice(baseURL.length) || "/" : location;
}

/** Whether a response matches an outcome of the matrix; the reason when it does not. */
export function outcomeMismatch(outcome: Outcome, status: number, location: string | undefined): string | null {
  const expected = typeof outcome === "number" ? { status: outcome, location: undefined } : outcome;
  if (status !== expected.status)
    return `status ${status}${location ? ` → ${location}` : ""}, expected ${expected.status}`;
  if (expected.location === undefined) return null;
  const ok =
    typeof expected.location === "string" ? location === expected.location : expected.location.test(location ?? "");
  return ok ? null : `Location ${location}, expected ${expected.location}`;
}

/* ------------------------------------------------------------------------------------------
 * The people of the matrix on a running shop.
 * ------------------------------------------------------------------------------------------ */

/** Customer A's order carries this address: it must never show up in anyone else's response. */
export const SECRET_ADDRESS = "Flat Z, 99/F, 7 Secret Harbour Road";

export interface Account {
  email: string;
  password: string;
}

export interface Parties {
  ids: MatrixIds;
  /** One HTTP client (own cookie jar) per person, signed in as that person. */
  clients: Record<Who, APIRequestContext>;
  accounts: Record<Exclude<Who, "signedOut">, Account>;
  /** The catalogue row A bought: a product with a colour in stock. */
  stocked: { productId: number; color: string };
  dispose(): Promise<void>;
}

/**
 * Signs up customer A and places a real order with a receipt (the checkout and payment forms),
 * signs up customer B, makes an admin and a member of staff with the CLI and signs them in; finds the catalogue rows
 * the matrix URLs point at. Every client has seen its sign-in flash message afterwards.
 */
export async function prepareParties(playwright: PlaywrightWorkerArgs["playwright"], shop: Shop): Promise<Parties> {
  const clients = {} as Record<Who, APIRequestContext>;
  for (const who of EVERYONE) clients[who] = await playwright.request.newContext({ baseURL: shop.baseURL });
  const dispose = async () => {
    for (const client of Object.values(clients)) await client.dispose();
  };
  try {
    const accounts = {} as Parties["accounts"];
    for (const who of ["customerA", "customerB", "admin", "staff"] as const) {
      accounts[who] = { email: uniqueEmail(who.toLowerCase()), password: uniquePassword() };
    }
    const db = openDatabase(shop.files);
    const catalogue = db
      .prepare(
        `SELECT p.id AS productId, v.color AS color, c.id AS categoryId, c.slug AS categorySlug
         FROM products p JOIN product_variants v ON v.product_id = p.id JOIN categories c ON c.id = p.category_id
         WHERE v.stock > 5 AND c.is_active = 1 ORDER BY p.id LIMIT 1`,
      )
      .get() as { productId: number; color: string; categoryId: number; categorySlug: string };
    const blogPost = db.prepare("SELECT id FROM blog_posts WHERE published = 1 ORDER BY id LIMIT 1").get() as {
      id: number;
    };
    const bankAccount = db.prepare("SELECT id FROM bank_accounts ORDER BY id LIMIT 1").get() as { id: number };
    db.close();

    const a = clients.customerA;
    await apiSignUp(a, accounts.customerA.email, accounts.customerA.password);
    await apiAddToCart(a, catalogue.productId, catalogue.color);
    const checkout = await a.post("/checkout", {
      form: { ...CHECKOUT_DETAILS, address: SECRET_ADDRESS, email: accounts.customerA.email },
      maxRedirects: 0,
    });
    expect(checkout.headers().location, "checkout of customer A").toMatch(/\/payment$/);
    const paid = await apiSubmitPayment(a, await apiPaymentKey(a), await receiptJpeg());
    expect(paid.status(), "payment of customer A").toBe(302);
    const [order] = await apiOrders(a);
    if (!order) throw new Error("customer A has no order");

    await apiSignUp(clients.customerB, accounts.customerB.email, accounts.customerB.password);
    createAdmin(shop.files, accounts.admin.email, accounts.admin.password);
    await adminSignIn(clients.admin, accounts.admin.email, accounts.admin.password);
    // A paused webhook: nothing is ever sent to it.
    const webhook = await clients.admin.post("/admin/settings/webhooks", {
      form: { intent: "create", name: "Matrix", url: "https://93.184.215.14/matrix", events: "order.paid" },
      maxRedirects: 0,
    });
    const webhookId = /\/admin\/settings\/webhooks\/([0-9a-f-]{36})$/.exec(webhook.headers().location ?? "")?.[1];
    if (!webhookId) throw new Error(`the owner's webhook was not added (${webhook.status()})`);
    createAdmin(shop.files, accounts.staff.email, accounts.staff.password, "staff");
    await adminSignIn(clients.staff, accounts.staff.email, accounts.staff.password);
    // Each sign-in left a flash message in its session: show it now, so no later page takes it.
    for (const who of EVERYONE) await clients[who].get("/");

    return {
      ids: {
        orderA: order.id,
        orderNumberA: order.number,
        emailA: accounts.customerA.email,
        userB: userId(shop.files, accounts.customerB.email),
        productId: catalogue.productId,
        webhookId,
        categoryId: catalogue.categoryId,
        categorySlug: catalogue.categorySlug,
        blogPostId: blogPost.id,
        bankAccountId: bankAccount.id,
        messageId: insertFailedMessage(shop.files.databaseFile, {
          orderId: order.id,
          recipient: accounts.customerA.email,
        }),
      },
      clients,
      accounts,
      stocked: { productId: catalogue.productId, color: catalogue.color },
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

export function userId(files: ShopFiles, email: string): string {
  const db = openDatabase(files);
  try {
    const row = db.prepare("SELECT id FROM users WHERE email = ?").get(email) as { id: string } | undefined;
    if (!row) throw new Error(`no account ${email}`);
    return row.id;
  } finally {
    db.close();
  }
}

/** Signs `client` in on /login as a customer. */
export async function customerSignIn(client: APIRequestContext, account: Account): Promise<void> {
  const response = await client.post("/login", {
    form: { intent: "login", ...account, redirectTo: "/" },
    maxRedirects: 0,
  });
  expect(response.status(), `sign-in of ${account.email}`).toBe(302);
}

/**
 * For a spec file: a shop of its own with the four parties, started before its tests (each
 * `ready` call gets them) and stopped, with its files removed, after them.
 */
export function shopWithParties(name: string, ready: (shop: Shop, parties: Parties) => void): void {
  let shop: Shop | undefined;
  let parties: Parties | undefined;
  test.beforeAll(async ({ playwright }) => {
    test.setTimeout(120_000);
    shop = await startShop({ name });
    parties = await prepareParties(playwright, shop);
    ready(shop, parties);
  });
  test.afterAll(async () => {
    await parties?.dispose();
    if (shop) {
      await shop.stop();
      removeFiles(shop.files);
    }
  });
}
