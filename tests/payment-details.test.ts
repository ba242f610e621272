import crypto from "node:crypto";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { type DB, now } from "#db/connect.server";
import type { Currency } from "#db/schema";
import { loadConfig } from "~/lib/config.server";
import { type Mailer, MemoryMailer } from "~/lib/mail.server";
import { currencyContext } from "~/middleware/currency";
import { addToCart, cartIdForUser } from "~/models/cart.server";
import { newOrderNumber, placeOrder } from "~/models/orders/place.server";
import { deliverDueMessages } from "~/models/outbox/deliver.server";
import { type PaymentAccountRow, paymentInstructions } from "~/models/payment-accounts.server";
import { DEFAULT_SHOP } from "~/models/settings/shop.server";
import type { CurrentUser } from "~/request/auth.server";
import { saveCheckout } from "~/request/checkout.server";
import { action as paymentAction, loader as paymentLoader } from "~/routes/store/payment";
import type { CheckoutInput } from "~/schemas/checkout";
import { createCustomer, createProduct, TEST_CONFIG, uniqueTag } from "./factories";
import { createTestServices } from "./setup/db";
import { queuedEmails } from "./setup/outbox";
import { formOf, routeContext, runRoute } from "./setup/route";

/**
 * What the shopper is told to pay: FPS for an HKD order, an international transfer (SWIFT/BIC)
 * for GBP, EUR and USD, never the FPS id there; the demo account only in demo mode; a live shop
 * still on the demo account takes no order.
 */

const SUPPORT = "help@shop.example";

const ACCOUNT: PaymentAccountRow = {
  bank_name: "HSBC Hong Kong",
  account_holder: "Harbour Tactical Limited",
  account_number: "848-302915-838",
  fps_id: "1648203",
  swift_code: "HSBCHKHHHKH",
  bank_address: "1 Queen's Road Central, Hong Kong",
  routing_number: null,
  is_demo: 0,
};

describe("demo mode (DEMO_MODE)", () => {
  const demoMode = (env: Record<string, string>) => loadConfig({ SESSION_SECRET: "x".repeat(40), ...env }).demoMode;

  it("is on while the shop has no public address of its own, off at its real address", () => {
    expect(demoMode({})).toBe(true);
    expect(demoMode({ PUBLIC_URL: "" })).toBe(true);
    expect(demoMode({ PUBLIC_URL: "http://localhost:3000" })).toBe(true);
    expect(demoMode({ PUBLIC_URL: "http://127.0.0.1:8080/" })).toBe(true);
    expect(demoMode({ PUBLIC_URL: "http://[::1]:3000" })).toBe(true);
    expect(demoMode({ PUBLIC_URL: "https://shop.example.hk" })).toBe(false);
    expect(demoMode({ PUBLIC_URL: "http://192.168.1.20:3000" })).toBe(false);
  });

  it("follows DEMO_MODE when it is set", () => {
    expect(demoMode({ DEMO_MODE: "off" })).toBe(false);
    expect(demoMode({ DEMO_MODE: "off", PUBLIC_URL: "http://localhost:3000" })).toBe(false);
    expect(demoMode({ DEMO_MODE: "on", PUBLIC_URL: "https://shop.example.hk" })).toBe(true);
    expect(demoMode({ DEMO_MODE: "1" })).toBe(true);
  });
});

describe("paymentInstructions", () => {
  const live = { demoMode: false, supportEmail: SUPPORT };
  const demo = { demoMode: true, supportEmail: SUPPORT };

  it("gives an HKD order the FPS details, with the account number", () => {
    expect(paymentInstructions(ACCOUNT, "HKD", live)).toEqual({
      kind: "fps",
      demo: false,
      fpsId: "1648203",
      bank: "HSBC Hong Kong",
      holder: "Harbour Tactical Limited",
      accountNumber: "848-302915-838",
    });
    expect(paymentInstructions({ ...ACCOUNT, fps_id: null }, "HKD", live)).toMatchObject({ kind: "fps", fpsId: null });
  });

  it("gives GBP, EUR and USD orders an international transfer, never the FPS id", () => {
    for (const currency of ["GBP", "EUR", "USD"] as Currency[]) {
      const instructions = paymentInstructions({ ...ACCOUNT, routing_number: "021000021" }, currency, live);
      expect(instructions).toEqual({
        kind: "international",
        demo: false,
        currency,
        bank: "HSBC Hong Kong",
        holder: "Harbour Tactical Limited",
        accountNumber: "848-302915-838",
        swift: "HSBCHKHHHKH",
        bankAddress: "1 Queen's Road Central, Hong Kong",
        routingNumber: "021000021",
      });
      expect(JSON.stringify(instructions)).not.toContain("1648203");
    }
  });

  it("sends a non-HKD shopper to the shop when the account has no SWIFT code", () => {
    expect(paymentInstructions({ ...ACCOUNT, swift_code: null }, "GBP", live)).toEqual({
      kind: "contact",
      supportEmail: SUPPORT,
    });
    expect(paymentInstructions({ ...ACCOUNT, swift_code: null }, "HKD", live)).toMatchObject({ kind: "fps" });
  });

  it("shows the demo account only in demo mode, marked; a live shop on it (or with none) is closed", () => {
    const demoAccount = { ...ACCOUNT, is_demo: 1 };
    expect(paymentInstructions(demoAccount, "HKD", demo)).toMatchObject({ kind: "fps", demo: true });
    expect(paymentInstructions(demoAccount, "GBP", demo)).toMatchObject({ kind: "international", demo: true });
    for (const currency of ["HKD", "GBP"] as Currency[]) {
      expect(paymentInstructions(demoAccount, currency, live)).toEqual({ kind: "closed", supportEmail: SUPPORT });
      expect(paymentInstructions(undefined, currency, live)).toEqual({ kind: "closed", supportEmail: SUPPORT });
    }
    expect(paymentInstructions(undefined, "HKD", demo)).toEqual({ kind: "contact", supportEmail: SUPPORT });
  });
});

/* ------------------------------------------------------------------------------------------
 * The order e-mail and the payment page on a real database.
 * ------------------------------------------------------------------------------------------ */

const CUSTOMER: CheckoutInput = {
  firstName: "Chan",
  lastName: "Tai Man",
  email: "chan@example.com",
  phone: undefined,
  address: "Flat A, 12/F, 1 Nathan Road",
  city: "Tsim Sha Tsui",
  postalCode: undefined,
  country: "Hong Kong",
  notes: undefined,
};

async function addAccount(db: DB, fields: Partial<PaymentAccountRow>) {
  const at = now();
  await db.deleteFrom("bank_accounts").execute();
  await db
    .insertInto("bank_accounts")
    .values({ ...ACCOUNT, ...fields, is_primary: 1, created_at: at, updated_at: at })
    .execute();
}

async function makeProduct(db: DB): Promise<number> {
  const product = await createProduct(db, {
    name_en: `Payment test ${uniqueTag()}`,
    name_zh: "付款測試",
    description_en: "",
    description_zh: "",
    price_hkd_cents: 800_00,
    price_gbp_cents: 80_00,
    price_eur_cents: 90_00,
    price_usd_cents: 100_00,
    variants: [["Black", 100]],
  });
  return product.id;
}

async function customerWithCart(db: DB, productId: number): Promise<{ user: CurrentUser; cartId: string }> {
  const row = await createCustomer(db, { email: `pay-${crypto.randomUUID()}@example.com`, password: "secret12" });
  const cartId = await cartIdForUser(db, row.id);
  await addToCart(db, cartId, { productId, color: "Black", quantity: 1 });
  return { user: { id: row.id, email: row.email, isAdmin: false, role: null }, cartId };
}

describe("the order-placed e-mail", () => {
  it("gives the transfer details of the order's currency and promises nothing that has not happened", async () => {
    const { db } = await createTestServices();
    const productId = await makeProduct(db);
    await addAccount(db, { is_demo: 0 });
    const texts: Record<string, string> = {};
    const numbers: Record<string, string> = {};
    for (const [currency, locale] of [
      ["HKD", "en"],
      ["GBP", "en"],
      ["GBP", "zh"],
    ] as const) {
      const { user, cartId } = await customerWithCart(db, productId);
      const { order } = await placeOrder(db, TEST_CONFIG, {
        userId: user.id,
        cartId,
        currency,
        locale,
        customer: CUSTOMER,
        receiptPath: "receipts/x.jpg",
        submissionKey: crypto.randomUUID(),
      });
      const [received] = await queuedEmails(db, { orderId: order.id, event: "order.placed" });
      texts[`${currency}-${locale}`] = received?.text ?? "";
      numbers[`${currency}-${locale}`] = order.order_number;
    }
    const hkd = texts["HKD-en"] ?? "";
    expect(hkd).toContain("FPS ID: 1648203");
    expect(hkd).toContain("Account number: 848-302915-838");
    // The reference the transfer carries: the order number, as on the payment page.
    expect(hkd).toContain(`Transfer reference: ${numbers["HKD-en"]}`);
    expect(texts["GBP-zh"]).toContain(`轉帳參考編號: ${numbers["GBP-zh"]}`);
    expect(hkd).not.toContain("SWIFT");
    const gbp = texts["GBP-en"] ?? "";
    expect(gbp).toContain("international bank transfer in GBP");
    expect(gbp).toContain("SWIFT/BIC code: HSBCHKHHHKH");
    expect(gbp).toContain("Bank address: 1 Queen's Road Central, Hong Kong");
    expect(gbp).toContain("£80.00");
    expect(gbp).not.toContain("1648203");
    expect(gbp).not.toContain("FPS ID");
    const gbpZh = texts["GBP-zh"] ?? "";
    expect(gbpZh).toContain("國際銀行電匯");
    expect(gbpZh).toContain("SWIFT/BIC 代碼: HSBCHKHHHKH");
    expect(gbpZh).not.toContain("1648203");
    for (const text of Object.values(texts)) {
      // Nothing is paid or confirmed yet: the shop checks the transfer and writes again.
      expect(text).not.toMatch(/Paid to|付款帳戶：|in a few minutes|幾分鐘內/);
    }
    expect(hkd).toContain("e-mail you when your payment is confirmed");
    expect(gbpZh).toContain("確認收款後會再以電郵通知你");
  });

  it("marks the demo account in demo mode and leaves it out of a live shop's e-mail", async () => {
    const { db } = await createTestServices();
    const productId = await makeProduct(db);
    await addAccount(db, { is_demo: 1 });
    const received = async (demoMode: boolean) => {
      const { user, cartId } = await customerWithCart(db, productId);
      const { order } = await placeOrder(
        db,
        { publicUrl: "https://shop.example", demoMode },
        {
          userId: user.id,
          cartId,
          currency: "HKD",
          locale: "en",
          customer: CUSTOMER,
          receiptPath: "receipts/x.jpg",
          submissionKey: crypto.randomUUID(),
        },
      );
      return (await queuedEmails(db, { orderId: order.id, event: "order.placed" }))[0]?.text ?? "";
    };
    const demo = await received(true);
    expect(demo).toContain("FPS ID: 1648203");
    expect(demo).toContain("demo account");
    const live = await received(false);
    expect(live).not.toContain("1648203");
    expect(live).not.toContain("848-302915-838");
  });
});

describe("the payment page", () => {
  async function jpeg(): Promise<File> {
    const data = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#1d4ed8" } })
      .jpeg()
      .toBuffer();
    return new File([new Uint8Array(data)], "receipt.jpg", { type: "image/jpeg" });
  }

  async function pay(demoMode: boolean, currency: Currency = "HKD", mailer?: Mailer) {
    const base = await createTestServices({ demoMode });
    const svc = { ...base, mailer: mailer ?? base.mailer };
    const productId = await makeProduct(svc.db);
    await addAccount(svc.db, { is_demo: 1 });
    const { user } = await customerWithCart(svc.db, productId);
    const ctx = routeContext(svc, user);
    ctx.set(currencyContext, currency);
    const { submissionKey } = saveCheckout(ctx, CUSTOMER, newOrderNumber());
    const page = await runRoute(svc, paymentLoader as never, new Request("http://localhost/payment"), user, {}, ctx);
    const form = formOf({ submissionKey, receipt: await jpeg() });
    const request = new Request("http://localhost/payment", { method: "POST", body: form });
    const answer = await runRoute(svc, paymentAction as never, request, user, {}, ctx);
    const orders = await svc.db.selectFrom("orders").select("id").execute();
    return { svc, page: page.result as Record<string, unknown>, answer, orders };
  }

  it("refuses, outside demo mode, to show the demo account or to take an order (409, nothing stored)", async () => {
    const { svc, page, answer, orders } = await pay(false);
    expect(page.instructions).toEqual({ kind: "closed", supportEmail: DEFAULT_SHOP.supportEmail });
    expect(JSON.stringify(page)).not.toContain("848-302915-838");
    const refused = answer.result as { init: { status: number }; data: { problem: { key: string } } };
    expect(refused.init.status).toBe(409);
    expect(refused.data.problem).toMatchObject({
      key: "payment.closedText",
      params: { email: DEFAULT_SHOP.supportEmail },
    });
    expect(orders).toHaveLength(0);
    expect(svc.storage.files.size).toBe(0);
    expect(await queuedEmails(svc.db)).toHaveLength(0);
  });

  it("takes the order while the mail server is down: its e-mails wait in the outbox and go out later", async () => {
    const down: Mailer = { send: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:587")) };
    const { svc, answer, orders } = await pay(true, "HKD", down);
    expect((answer.result as Response).status).toBe(302);
    expect((answer.result as Response).headers.get("Location")).toMatch(/^\/payment-success\?order=ORD-/);
    expect(orders).toHaveLength(1);
    const waiting = await svc.db.selectFrom("outbox_messages").select(["event", "status", "attempts"]).execute();
    expect(waiting.map((row) => row.event).sort()).toEqual(["alert.order.placed", "order.placed"]);
    expect(waiting.every((row) => row.status === "pending" && row.attempts === 0)).toBe(true);
    // The mail server is back.
    const back = new MemoryMailer();
    expect(await deliverDueMessages({ ...svc, mailer: back })).toMatchObject({ sent: 2 });
    expect(back.sent.map((mail) => mail.to).sort()).toEqual([CUSTOMER.email, DEFAULT_SHOP.supportEmail].sort());
  });

  it("shows the demo account in demo mode, marked, and takes the order", async () => {
    const { svc, page, answer, orders } = await pay(true, "GBP");
    expect(page.instructions).toMatchObject({ kind: "international", demo: true, swift: "HSBCHKHHHKH" });
    expect(answer.thrown).toBeUndefined();
    expect(orders).toHaveLength(1);
    // The customer's e-mail (with the marked demo account) and the shop's alert, queued with the order.
    const queued = await queuedEmails(svc.db, { orderId: orders[0]?.id });
    expect(queued.map((mail) => [mail.event, mail.to]).sort()).toEqual([
      ["alert.order.placed", DEFAULT_SHOP.supportEmail],
      ["order.placed", CUSTOMER.email],
    ]);
    const received = queued.find((mail) => mail.event === "order.placed");
    expect(received?.text).toContain("SWIFT/BIC code: HSBCHKHHHKH");
    expect(received?.text).toContain("demo account");
  });
});
