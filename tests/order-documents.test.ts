import { createInstance } from "i18next";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { beforeEach, describe, expect, test } from "vitest";
import type { DB } from "#db/connect.server";
import type { UserRow } from "#db/schema";
import { I18nextInstanceProvider } from "~/lib/i18n";
import { formatMoney } from "~/lib/money";
import { DEFAULT_SHIPPING_RULE } from "~/lib/shipping";
import resources from "~/locales";
import { addToCart, cartIdForUser, loadCart } from "~/models/cart.server";
import { applyCartCode } from "~/models/discounts/cart.server";
import { transitionOrder } from "~/models/orders/desk.server";
import type { Invoice, PackingSlip } from "~/models/orders/documents.server";
import { MAX_PRINT_SELECTION } from "~/models/orders/documents.server";
import { refundOrder } from "~/models/orders/refunds.server";
import { DEFAULT_SHOP } from "~/models/settings/shop.server";
import type { CurrentUser } from "~/request/auth.server";
import AdminOrderDocuments, { loader as adminLoader } from "~/routes/admin/order-documents";
import AccountOrderInvoice, { loader as shopperLoader } from "~/routes/store/account-order-invoice";
import {
  createCustomer,
  createDiscountCode,
  createProduct,
  createSignedIn,
  placeTestOrder,
  TEST_CONFIG,
  uniqueTag,
} from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { adminAccount, dataOf, runRoute, statusOf } from "./setup/route";

/*
 * Packing slips and invoices (issue 29 item 3, docs/decisions/060) through their real loaders and
 * pages, on a real database — SQLite, and PostgreSQL in the `postgres` project.
 */

let svc: TestServices;
let db: DB;
let admin: CurrentUser;

beforeEach(async () => {
  svc = await freshTestServices();
  db = svc.db;
  admin = await createSignedIn(db, { admin: true });
});

/**
 * A placed order of a plate carrier in Black / L (SKU PC-BLK-L, HK$900.00) × 2 and a cap (no
 * option, HK$120.50) × 1 with a 10 % code, HK$ shipping free above 100 as the default zone has it.
 */
async function placedOrder(options: { locale?: "en" | "zh"; paid?: boolean; user?: UserRow; note?: string } = {}) {
  const sku = `PC-BLK-L-${uniqueTag()}`;
  const carrier = await createProduct(db, {
    name_en: "Plate carrier",
    name_zh: "戰術背心",
    price_hkd_cents: 900_00,
    variants: [{ color: "Black", color_zh: "黑色", stock: 0 }],
    option: { name: "Size", name_zh: "尺寸", values: [{ value: "L", value_zh: "大碼" }] },
    cells: [{ color: "Black", value: "L", stock: 5, sku }],
  });
  const cap = await createProduct(db, { name_en: "Field cap", name_zh: "野戰帽", price_hkd_cents: 120_50 });
  const user = options.user ?? (await createCustomer(db));
  const cartId = await cartIdForUser(db, user.id);
  await addToCart(db, cartId, { productId: carrier.id, color: "Black", option: "L", quantity: 2 });
  await addToCart(db, cartId, { productId: cap.id, color: "Black", quantity: 1 });
  const { code } = await createDiscountCode(db);
  await applyCartCode(db, await loadCart(db, cartId, "HKD", DEFAULT_SHIPPING_RULE), code, {
    rates: DEFAULT_SHOP.exchangeRates,
    shopper: { userId: user.id, email: user.email },
  });
  const { order } = await placeTestOrder(db, {
    user,
    lines: [],
    locale: options.locale,
    customer: { notes: options.note ?? "Please leave it with the guard", phone: "+852 9123 4567" },
  });
  if (!options.paid) return { order, user, sku };
  const paid = await transitionOrder(db, TEST_CONFIG, admin, {
    orderId: order.id,
    transition: "markPaid",
    expected: "pending_payment",
  });
  return { order: paid, user, sku };
}

const get = (path: string) => new Request(`http://localhost${path}`);

type PageData = Awaited<ReturnType<typeof adminLoader>>;

/** The page's loader data, whether it answered plainly or with a status (a refused selection). */
function pageData(result: unknown): Exclude<PageData, { init: unknown }> {
  return (result && typeof result === "object" && "init" in result ? dataOf(result) : result) as never;
}

/** The server HTML of a documents page for its loader data, read in `language` (the reader's). */
async function render(Component: unknown, data: unknown, language: "en" | "zh" = "en") {
  const i18n = createInstance();
  await i18n.init({ resources, lng: language, interpolation: { escapeValue: false } });
  const Stub = createRoutesStub([{ id: "page", path: "/page", Component: Component as never, loader: () => data }]);
  return renderToString(
    createElement(
      I18nextInstanceProvider,
      { i18n },
      createElement(Stub, { initialEntries: ["/page"], hydrationData: { loaderData: { page: data } } }),
    ),
  );
}

/** The text of the rendered sheets alone (what prints): tags dropped, the toolbar left out. */
function sheetsText(html: string): string {
  const sheets = html.match(/<article[\s\S]*?<\/article>/g) ?? [];
  return sheets
    .join(" ")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
}

describe("packing slip", () => {
  test("has the shop, the order number as a barcode, the ship-to, the lines with option and SKU, the note, and no price", async () => {
    const { order, sku } = await placedOrder({ paid: true });
    const { result } = await runRoute(svc, adminLoader, get(`/admin/orders/${order.id}/packing-slip`), admin, {
      id: order.id,
    });
    const data = pageData(result);
    expect(data.documents).toHaveLength(1);
    const slip = data.documents[0] as PackingSlip;
    expect(slip.kind).toBe("packing-slip");
    // No price of any kind in the page's data, so none can reach the paper or the browser.
    expect(JSON.stringify(data.documents)).not.toMatch(/cents|price|total/i);
    expect(
      slip.lines.map(({ name, colour, option, sku, quantity }) => ({ name, colour, option, sku, quantity })),
    ).toEqual([
      { name: "Plate carrier", colour: "Black", option: { name: "Size", value: "L" }, sku, quantity: 2 },
      { name: "Field cap", colour: "Black", option: null, sku: expect.any(String), quantity: 1 },
    ]);

    const html = await render(AdminOrderDocuments, data);
    const text = sheetsText(html);
    expect(text).toContain(order.order_number);
    expect(html).toMatch(/<svg role="img" aria-label="ORD-[^"]+"[^>]*viewBox/);
    for (const words of ["Packing slip", "Harbour Tactical", "Plate carrier", "Size: L", sku, "Field cap"]) {
      expect(text).toContain(words);
    }
    expect(text).toContain("Chan Tai Man");
    expect(text).toContain("+852 9123 4567");
    expect(text).toContain("Please leave it with the guard");
    expect(text).toContain("3 items");
    expect(text).not.toMatch(/HK\$|\d+\.\d\d/);
  });
});

describe("invoice", () => {
  test("its lines less the discount plus shipping are the order's total; refunds are listed with what is left paid", async () => {
    const { order } = await placedOrder({ paid: true });
    await refundOrder(db, TEST_CONFIG, admin, {
      orderId: order.id,
      amountCents: 120_50,
      reason: "Cap out of stock",
      expectedRefundedCents: 0,
      restock: [],
    });
    const { result } = await runRoute(svc, adminLoader, get(`/admin/orders/${order.id}/invoice`), admin, {
      id: order.id,
    });
    const data = pageData(result);
    const invoice = data.documents[0] as Invoice;
    expect(invoice.kind).toBe("invoice");
    const linesSum = invoice.lines.reduce((sum, line) => sum + line.lineTotalCents, 0);
    expect(linesSum).toBe(2 * 900_00 + 120_50);
    expect(invoice.linesCents).toBe(linesSum);
    expect(invoice.discount?.cents).toBeGreaterThan(0);
    expect(linesSum - (invoice.discount?.cents ?? 0) + invoice.shippingCents).toBe(order.total_cents);
    expect(invoice.totalCents).toBe(order.total_cents);
    expect(invoice.refunds).toEqual([
      { id: expect.any(Number), amountCents: 120_50, reason: "Cap out of stock", at: expect.any(String) },
    ]);
    expect(invoice.keptCents).toBe(order.total_cents - 120_50);
    expect(invoice.paidAt).toBe(order.paid_at);

    const text = sheetsText(await render(AdminOrderDocuments, data));
    expect(text).toContain(`Invoice number ${order.order_number}`);
    expect(text).toContain("HK$1,920.50");
    expect(text).toContain(`Discount (${invoice.discount?.code})`);
    expect(text).toContain(`Total ${formatMoney(order.total_cents, "HKD")}`);
    expect(text).toContain("Bank transfer / FPS");
    expect(text).toContain("Paid on");
    expect(text).toContain("Cap out of stock");
    expect(text).toContain(`Paid, after refunds ${formatMoney(order.total_cents - 120_50, "HKD")}`);
    expect(text).toContain(DEFAULT_SHOP.address.en);
    expect(text).toContain(DEFAULT_SHOP.supportEmail);
  });
});

describe("invoice in another currency", () => {
  test("a GBP order is invoiced in pounds, paid by (international) bank transfer, not FPS", async () => {
    const product = await createProduct(db, { price_gbp_cents: 12_34 });
    const { order } = await placeTestOrder(db, {
      currency: "GBP",
      lines: [{ productId: product.id, color: "Black", quantity: 3 }],
    });
    const { result } = await runRoute(svc, adminLoader, get(`/admin/orders/${order.id}/invoice`), admin, {
      id: order.id,
    });
    const text = sheetsText(await render(AdminOrderDocuments, pageData(result)));
    expect(text).toContain(`Total ${formatMoney(order.total_cents, "GBP")}`);
    expect(text).toContain("£37.02");
    expect(text).toContain("Bank transfer Not paid yet");
    expect(text).not.toContain("FPS");
    expect(text).not.toContain("HK$");
  });
});

describe("language", () => {
  test("a Chinese order's documents are in Chinese whatever the admin reads; the toolbar stays the reader's", async () => {
    const { order } = await placedOrder({ locale: "zh", paid: true });
    for (const kind of ["packing-slip", "invoice"] as const) {
      const { result } = await runRoute(svc, adminLoader, get(`/admin/orders/${order.id}/${kind}?lng=en`), admin, {
        id: order.id,
      });
      const html = await render(AdminOrderDocuments, pageData(result), "en");
      const text = sheetsText(html);
      expect(html).toMatch(/<article lang="zh-Hant-HK"/);
      expect(text).toContain(kind === "invoice" ? "發票" : "裝箱單");
      expect(text).toContain("戰術背心");
      expect(text).toContain("顏色：黑色");
      expect(text).toContain("尺寸：大碼");
      expect(text).toContain("港灣戰術");
      expect(text).not.toContain("Plate carrier");
      // The toolbar (not printed) is the admin's English.
      expect(html).toContain("Back to the order");
    }
  });
});

describe("a selection", () => {
  test("renders one document per order found, in the order asked, and names the ids that are not orders", async () => {
    const orders = [
      (await placedOrder()).order,
      (await placedOrder({ locale: "zh" })).order,
      (await placedOrder()).order,
    ];
    const unknown = "00000000-0000-4000-8000-000000000000";
    const query = [...orders.map((o) => `id=${o.id}`), `id=${unknown}`, "id=not-an-id", `id=${orders[0]?.id}`].join(
      "&",
    );
    const { result } = await runRoute(svc, adminLoader, get(`/admin/orders/print?doc=packing-slip&${query}`), admin);
    expect(statusOf(result)).toBeUndefined();
    const data = pageData(result);
    expect(data.documents.map((d) => d.orderNumber)).toEqual(orders.map((o) => o.order_number));
    expect(data.missing).toEqual([unknown, "not-an-id"]);
    const html = await render(AdminOrderDocuments, data);
    expect(html.match(/<article /g)).toHaveLength(3);
    expect(html.match(/data-document="packing-slip"/g)).toHaveLength(3);
    expect(html).toContain(`Not found, not printed (2): ${unknown}, not-an-id`);
    expect(html).toContain("3 documents, one per page");
  });

  test("no kind, no order or more than the cap is a 400 that says what to do", async () => {
    const { order } = await placedOrder();
    const many = Array.from({ length: MAX_PRINT_SELECTION + 1 }, () => `id=${crypto.randomUUID()}`).join("&");
    const cases = [
      [`/admin/orders/print?doc=receipt&id=${order.id}`, "orderDocuments.errors.kind"],
      ["/admin/orders/print?doc=invoice", "orderDocuments.errors.none"],
      [`/admin/orders/print?doc=invoice&${many}`, "orderDocuments.errors.tooMany"],
    ] as const;
    for (const [path, key] of cases) {
      const { result, thrown } = await runRoute(svc, adminLoader, get(path), admin);
      expect(thrown).toBeUndefined();
      expect(statusOf(result)).toBe(400);
      const data = pageData(result);
      expect((data.problem as { key: string } | null)?.key).toBe(key);
      expect(data.documents).toEqual([]);
    }
    const { result } = await runRoute(svc, adminLoader, get(`/admin/orders/print?doc=invoice&${many}`), admin);
    expect(await render(AdminOrderDocuments, pageData(result))).toContain(
      `At most ${MAX_PRINT_SELECTION} orders can be printed at once (${MAX_PRINT_SELECTION + 1} were chosen)`,
    );
  });
});

describe("who may", () => {
  test("owner and staff print; a customer or a signed-out visitor goes to the admin sign-in; an unknown order is 404", async () => {
    const { order, user } = await placedOrder({ paid: true });
    const path = `/admin/orders/${order.id}/invoice`;
    const staff = await adminAccount(svc, "staff");
    const owner = await adminAccount(svc, "owner");
    for (const who of [staff, owner]) {
      const { result, thrown } = await runRoute(svc, adminLoader, get(path), who, { id: order.id });
      expect(thrown).toBeUndefined();
      expect(pageData(result).documents).toHaveLength(1);
    }
    const customer: CurrentUser = { id: user.id, email: user.email, isAdmin: false, role: null };
    for (const who of [customer, null]) {
      const { thrown } = await runRoute(svc, adminLoader, get(path), who, { id: order.id });
      expect(statusOf(thrown)).toBe(302);
      expect((thrown as Response).headers.get("Location")).toBe("/admin/login");
    }
    const missing = "00000000-0000-4000-8000-000000000000";
    const { thrown } = await runRoute(svc, adminLoader, get(`/admin/orders/${missing}/invoice`), admin, {
      id: missing,
    });
    expect(statusOf(thrown)).toBe(404);
  });

  test("the shopper's own invoice once paid; another customer, an unpaid order: 404; signed out: sign in first", async () => {
    const owner = await createCustomer(db);
    const { order } = await placedOrder({ user: owner, paid: true });
    const { order: unpaid } = await placedOrder({ user: owner });
    const me: CurrentUser = { id: owner.id, email: owner.email, isAdmin: false, role: null };
    const path = (id: string) => `/account/orders/${id}/invoice`;

    const { result } = await runRoute(svc, shopperLoader, get(path(order.id)), me, { id: order.id });
    const data = result as Awaited<ReturnType<typeof shopperLoader>>;
    expect((data.documents[0] as Invoice).totalCents).toBe(order.total_cents);
    expect(sheetsText(await render(AccountOrderInvoice, data))).toContain(order.order_number);

    const notPaid = await runRoute(svc, shopperLoader, get(path(unpaid.id)), me, { id: unpaid.id });
    expect(statusOf(notPaid.thrown)).toBe(404);
    const other = await createSignedIn(db);
    const theirs = await runRoute(svc, shopperLoader, get(path(order.id)), other, { id: order.id });
    expect(statusOf(theirs.thrown)).toBe(404);
    // An admin's own account is a shopper's here too: the admin prints from /admin.
    const asAdmin = await runRoute(svc, shopperLoader, get(path(order.id)), admin, { id: order.id });
    expect(statusOf(asAdmin.thrown)).toBe(404);
    const signedOut = await runRoute(svc, shopperLoader, get(path(order.id)), null, { id: order.id });
    expect(statusOf(signedOut.thrown)).toBe(302);
    expect((signedOut.thrown as Response).headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
  });
});
