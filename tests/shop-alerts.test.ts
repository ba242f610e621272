import crypto from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { DB } from "#db/connect.server";
import type { OrderRow } from "#db/schema";
import { logger } from "~/lib/log.server";
import type { Mailer } from "~/lib/mail.server";
import { fieldMessage } from "~/lib/problem";
import type { Language } from "~/locales";
import { addToCart } from "~/models/cart.server";
import { transitionOrder } from "~/models/orders/desk.server";
import { expireOrder, extendPaymentDeadline } from "~/models/orders/payment-deadlines.server";
import { placeOrder } from "~/models/orders/place.server";
import { replaceReceipt } from "~/models/orders/receipts.server";
import { deliverDueMessages } from "~/models/outbox/deliver.server";
import { recordShopEvent } from "~/models/outbox/events.server";
import { queueEmail } from "~/models/outbox/queue.server";
import {
  alertAddresses,
  DEFAULT_SHOP,
  loadShop,
  type ShopAlertSettings,
  saveShopDetails,
  shopDetailsFormValues,
} from "~/models/settings/shop.server";
import type { CurrentUser } from "~/request/auth.server";
import { action, loader } from "~/routes/admin/shop-details";
import type { AlertEvent } from "~/schemas/shop";
import { createProduct, createShopper, createSignedIn, placeTestOrder } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { queuedEmails } from "./setup/outbox";
import { formOf, runRoute } from "./setup/route";

/*
 * The shop's own alerts (issue 26) on a real database — SQLite, and PostgreSQL in the `postgres`
 * project: each event the owner chose (Settings → Shop details) queues, in its own transaction,
 * one e-mail to each notification address, in the language chosen there, with the order's number,
 * customer, amount and currency, and a link to the order in the admin.
 */

const ADDRESSES = ["owner@lionrock.example", "desk@lionrock.example"];
const ALL_ON: Record<AlertEvent, boolean> = {
  "order.placed": true,
  "order.receipt_uploaded": true,
  "order.expired": true,
  "order.deadline_extended": true,
  "message.failed": true,
};
const HOUR = 3_600_000;

let svc: TestServices;
let db: DB;
let admin: CurrentUser;
beforeEach(async () => {
  svc = await freshTestServices();
  ({ db } = svc);
  admin = await createSignedIn(db, { admin: true });
});

async function setAlerts(alerts: Partial<ShopAlertSettings>): Promise<void> {
  const shop = await loadShop(db);
  await saveShopDetails(db, { ...shop, alerts: { ...shop.alerts, ...alerts } }, { actorUserId: null });
}

/** The alerts queued so far, for one order or event when given. */
function alerts(filter: { orderId?: string; event?: string } = {}) {
  return queuedEmails(db, { ...filter, audience: "shop" });
}

/** An order of 2 × HK$80.00 (HK$160.00, delivery free): with its receipt, or to pay later. */
async function order(options: { receipt?: boolean; locale?: Language } = {}): Promise<OrderRow> {
  const product = await createProduct(db, {
    name_en: "Alert Rifle",
    name_zh: "警報步槍",
    price_hkd_cents: 80_00,
    variants: [["Black", 9]],
  });
  const { order: placed } = await placeTestOrder(db, {
    lines: [{ productId: product.id, color: "Black", quantity: 2 }],
    customer: { firstName: "Tai Man", lastName: "Chan" },
    receiptPath: options.receipt === false ? null : "receipts/r.webp",
    locale: options.locale,
  });
  return placed;
}

/** The words each alert has in each language, and what every order alert carries. */
const WORDS = {
  en: {
    placed: (n: string) => `New order ${n}: HK$160.00 HKD`,
    receipt: (n: string) => `Receipt to check: order ${n}`,
    replaced: (n: string) => `New receipt to check: order ${n}`,
    expired: (n: string) => `Order ${n} expired unpaid`,
    extended: (n: string) => `Payment deadline extended: order ${n}`,
    failed: (subject: string) => `Not sent: ${subject}`,
    customer: (email: string) => `Customer: Tai Man Chan <${email}>`,
    amount: "Amount: HK$160.00 HKD",
    line: "Alert Rifle (Black) × 2: HK$160.00",
    withReceipt: "it is waiting for your review",
    payLater: "The customer will pay later",
    open: "Open the order",
  },
  zh: {
    placed: (n: string) => `新訂單 ${n}：HK$160.00 HKD`,
    receipt: (n: string) => `待審核收據：訂單 ${n}`,
    replaced: (n: string) => `待審核的新收據：訂單 ${n}`,
    expired: (n: string) => `訂單 ${n} 逾期未付款`,
    extended: (n: string) => `付款期限已延長：訂單 ${n}`,
    failed: (subject: string) => `未能寄出：${subject}`,
    customer: (email: string) => `顧客：Tai Man Chan <${email}>`,
    amount: "金額：HK$160.00 HKD",
    line: "警報步槍 (Black) × 2: HK$160.00",
    withReceipt: "正等待你審核",
    payLater: "顧客選擇稍後付款",
    open: "打開訂單",
  },
} as const;

/** Exactly one alert of `event` to each notification address, in `language`; the first one. */
async function oneEach(event: string, orderId: string | null, language: Language) {
  const found = await alerts({ event, ...(orderId ? { orderId } : {}) });
  expect(found.map((mail) => mail.to).sort(), event).toEqual([...ADDRESSES].sort());
  for (const mail of found) {
    expect(mail).toMatchObject({ audience: "shop", language, orderId });
    expect(mail.subject).toBe(found[0]?.subject);
  }
  return found[0] as NonNullable<(typeof found)[number]>;
}

describe("each event the owner chose", () => {
  for (const language of ["en", "zh"] as const) {
    it(`alerts every notification address once, in ${language}, with number, customer, amount and link`, async () => {
      const words = WORDS[language];
      const link = (id: string) => `${svc.config.publicUrl}/admin/orders/${id}`;
      await setAlerts({ emails: ADDRESSES, events: ALL_ON, language });

      // A new order with its receipt: the customer, the amount, what was ordered, the receipt to review.
      const paid = await order({ locale: language === "en" ? "zh" : "en" });
      const placed = await oneEach("alert.order.placed", paid.id, language);
      expect(placed.subject).toBe(words.placed(paid.order_number));
      for (const text of [words.customer(paid.email), words.amount, words.line, words.withReceipt, link(paid.id)]) {
        expect(placed.text).toContain(text);
      }
      expect(placed.html).toContain(`href="${link(paid.id)}"`);
      expect(placed.html).toContain(words.open);

      // A new order to pay later: no receipt yet, its deadline.
      const later = await order({ receipt: false });
      const unpaid = await oneEach("alert.order.placed", later.id, language);
      expect(unpaid.text).toContain(words.payLater);
      expect(unpaid.text).not.toContain(words.withReceipt);

      // Its first receipt, then (rejected) a new one in its place.
      const customer = { orderId: later.id, userId: later.user_id ?? "" };
      await replaceReceipt(db, svc.config, { ...customer, receiptPath: "receipts/first.webp" });
      const uploaded = await oneEach("alert.order.receipt_uploaded", later.id, language);
      expect(uploaded.subject).toBe(words.receipt(later.order_number));
      expect(uploaded.text).toContain(words.customer(later.email));
      expect(uploaded.text).toContain(words.amount);
      expect(uploaded.text).toContain(link(later.id));
      await transitionOrder(db, svc.config, admin, {
        orderId: later.id,
        transition: "rejectReceipt",
        expected: "pending_payment",
        reason: "blurred",
      });
      await replaceReceipt(db, svc.config, { ...customer, receiptPath: "receipts/second.webp" });
      const receipts = await alerts({ event: "alert.order.receipt_uploaded", orderId: later.id });
      expect(receipts).toHaveLength(2 * ADDRESSES.length);
      expect(receipts.filter((mail) => mail.subject === words.replaced(later.order_number))).toHaveLength(2);

      // An order left unpaid: its deadline extended by an admin, then passed.
      const late = await order({ receipt: false });
      const extended = await extendPaymentDeadline(db, svc.config, admin, {
        orderId: late.id,
        hours: 24,
        expectedDueAt: late.payment_due_at ?? "",
      });
      const extension = await oneEach("alert.order.deadline_extended", late.id, language);
      expect(extension.subject).toBe(words.extended(late.order_number));
      expect(extension.text).toContain(words.amount);
      expect(extension.text).toContain(link(late.id));
      const pastDue = new Date(Date.parse(extended.payment_due_at ?? "") + HOUR);
      expect(await expireOrder(db, svc.config, late.id, pastDue)).not.toBeNull();
      const expired = await oneEach("alert.order.expired", late.id, language);
      expect(expired.subject).toBe(words.expired(late.order_number));
      expect(expired.text).toContain(words.customer(late.email));
      expect(expired.text).toContain(link(late.id));

      // A customer's e-mail that could not be sent for 24 hours: which one, to whom, why, where to act.
      await deliverDueMessages(svc); // everything so far goes out
      const failingId = await queueEmail(
        db,
        {
          to: paid.email,
          subject: `Payment confirmed for order ${paid.order_number}`,
          text: "Paid.",
          html: "<p>Paid.</p>",
        },
        { event: "order.paid", audience: "customer", language: "en", orderId: paid.id },
        new Date(Date.now() - 25 * HOUR),
      );
      const failing: Mailer = {
        send: async () => {
          throw new Error("550 mailbox unavailable");
        },
      };
      vi.spyOn(logger, "error").mockImplementation(() => {});
      vi.spyOn(logger, "warn").mockImplementation(() => {});
      expect(await deliverDueMessages({ ...svc, mailer: failing })).toMatchObject({ failed: 1 });
      vi.restoreAllMocks();
      const failed = await oneEach("alert.message.failed", paid.id, language);
      expect(failed.subject).toBe(words.failed(`Payment confirmed for order ${paid.order_number}`));
      expect(failed.text).toContain(paid.email);
      expect(failed.text).toContain("550 mailbox unavailable");
      expect(failed.text).toContain(`${svc.config.publicUrl}/admin/messages/${failingId}`);
      expect(failed.html).toContain(`href="${svc.config.publicUrl}/admin/messages/${failingId}"`);
      expect(failed.text).toContain(link(paid.id));

      // The changes no alert is for (paid, shipped, delivered, cancelled, receipt rejected) queue none.
      const before = (await alerts()).length;
      for (const [transition, expected] of [
        ["markPaid", "pending_payment"],
        ["markShipped", "paid"],
        ["markDelivered", "shipped"],
      ] as const) {
        await transitionOrder(db, svc.config, admin, { orderId: later.id, transition, expected });
      }
      const cancelled = (await alerts()).length;
      const other = await order();
      await transitionOrder(db, svc.config, admin, {
        orderId: other.id,
        transition: "cancel",
        expected: "pending_payment",
      });
      expect((await alerts()).length).toBe(cancelled + ADDRESSES.length); // only the new order's
      expect(before).toBe(cancelled);
    });
  }

  it("are sent to each address by the outbox, like any e-mail", async () => {
    await setAlerts({ emails: ADDRESSES, events: ALL_ON, language: "en" });
    const placed = await order();
    await deliverDueMessages(svc);
    const sent = svc.mailer.sent.filter((mail) => ADDRESSES.includes(mail.to));
    expect(sent.map((mail) => mail.to).sort()).toEqual([...ADDRESSES].sort());
    expect(sent[0]?.subject).toBe(WORDS.en.placed(placed.order_number));
    expect(sent[0]?.messageId).toMatch(/^<[0-9a-f-]{36}@/);
  });
});

describe("what the owner did not choose", () => {
  it("queues nothing; an order placed with its receipt is alerted when receipts are chosen", async () => {
    await setAlerts({
      emails: ADDRESSES,
      events: { ...ALL_ON, "order.placed": false, "order.deadline_extended": false, "order.expired": false },
    });
    // With its receipt: the receipt wants a review, so the order is alerted (once to each address).
    const withReceipt = await order();
    await oneEach("alert.order.placed", withReceipt.id, "en");
    // To pay later: no alert of its own; its receipt is alerted when it comes.
    const unpaid = await order({ receipt: false });
    expect(await alerts({ orderId: unpaid.id })).toEqual([]);
    const extended = await extendPaymentDeadline(db, svc.config, admin, {
      orderId: unpaid.id,
      hours: 1,
      expectedDueAt: unpaid.payment_due_at ?? "",
    });
    await expireOrder(db, svc.config, unpaid.id, new Date(Date.parse(extended.payment_due_at ?? "") + HOUR));
    expect(await alerts({ orderId: unpaid.id })).toEqual([]);

    await setAlerts({ events: { ...ALL_ON, "order.placed": false, "order.receipt_uploaded": false } });
    expect(await alerts({ orderId: (await order()).id })).toEqual([]);
    const later = await order({ receipt: false });
    await replaceReceipt(db, svc.config, { orderId: later.id, userId: later.user_id ?? "", receiptPath: "r.webp" });
    expect(await alerts({ orderId: later.id })).toEqual([]);

    // Nothing at all: every box unticked.
    await setAlerts({
      events: { ...ALL_ON, "order.placed": false, "order.receipt_uploaded": false, "message.failed": false },
    });
    const before = (await alerts()).length;
    vi.spyOn(logger, "error").mockImplementation(() => {});
    vi.spyOn(logger, "warn").mockImplementation(() => {});
    const failing: Mailer = { send: async () => Promise.reject(new Error("down")) };
    await queueEmail(
      db,
      { to: "someone@example.com", subject: "Hello", text: "Hi", html: "<p>Hi</p>" },
      { event: "account.reset", audience: "customer", language: "en" },
      new Date(Date.now() - 25 * HOUR),
    );
    expect(await deliverDueMessages({ ...svc, mailer: failing })).toMatchObject({ failed: 1 });
    vi.restoreAllMocks();
    expect((await alerts()).length).toBe(before);
  });

  it("until the owner sets them: every event, to the support e-mail, in English", async () => {
    expect(DEFAULT_SHOP.alerts).toEqual({ emails: null, events: ALL_ON, language: "en" });
    expect(alertAddresses(await loadShop(db))).toEqual([DEFAULT_SHOP.supportEmail]);
    const placed = await order({ locale: "zh" });
    const found = await alerts({ orderId: placed.id });
    expect(found.map((mail) => [mail.to, mail.language, mail.subject])).toEqual([
      [DEFAULT_SHOP.supportEmail, "en", WORDS.en.placed(placed.order_number)],
    ]);
    // A support e-mail changed later is where alerts go then.
    await saveShopDetails(
      db,
      { ...(await loadShop(db)), supportEmail: "help@lionrock.example" },
      { actorUserId: null },
    );
    const next = await order();
    expect((await alerts({ orderId: next.id })).map((mail) => mail.to)).toEqual(["help@lionrock.example"]);
  });
});

describe("an event that does not happen", () => {
  it("queues no alert: rolled back, refused by its compare-and-set, or out of stock", async () => {
    await setAlerts({ emails: ADDRESSES, events: ALL_ON });
    const placed = await order({ receipt: false });
    const before = (await alerts()).length;

    await expect(
      db.transaction().execute(async (trx) => {
        await recordShopEvent(trx, {
          type: "order.deadline_extended",
          at: new Date(),
          publicUrl: svc.config.publicUrl,
          orderId: placed.id,
        });
        expect((await queuedEmails(trx, { audience: "shop" })).length).toBe(before + ADDRESSES.length);
        throw new Error("the extension failed");
      }),
    ).rejects.toThrow("the extension failed");
    expect((await alerts()).length).toBe(before);

    // A stale extension, an expiry before the deadline, a receipt for an order not waiting for one.
    await expect(
      extendPaymentDeadline(db, svc.config, admin, { orderId: placed.id, hours: 24, expectedDueAt: "2000-01-01" }),
    ).rejects.toMatchObject({ status: 409 });
    expect(await expireOrder(db, svc.config, placed.id, new Date())).toBeNull();
    const waiting = await order();
    expect(
      await replaceReceipt(db, svc.config, { orderId: waiting.id, userId: waiting.user_id ?? "", receiptPath: "x" }),
    ).toBeNull();
    expect((await alerts()).length).toBe(before + ADDRESSES.length); // the order just placed

    // The last one, in two carts: the second order is refused for want of stock, and e-mails no one.
    const product = await createProduct(db, { variants: [["Black", 1]] });
    const shoppers = [await createShopper(db), await createShopper(db)];
    for (const shopper of shoppers)
      await addToCart(db, shopper.cartId, { productId: product.id, color: "Black", quantity: 1 });
    const place = (shopper: (typeof shoppers)[number]) =>
      placeOrder(db, svc.config, {
        userId: shopper.userId,
        cartId: shopper.cartId,
        currency: "HKD",
        locale: "en",
        customer: {
          firstName: "A",
          lastName: "B",
          email: shopper.user.email,
          address: "1 Road",
          city: "HK",
          country: "Hong Kong",
          phone: undefined,
          postalCode: undefined,
          notes: undefined,
        },
        receiptPath: "receipts/r.webp",
        submissionKey: crypto.randomUUID(),
      });
    await place(shoppers[0] as (typeof shoppers)[number]);
    const count = (await queuedEmails(db)).length;
    await expect(place(shoppers[1] as (typeof shoppers)[number])).rejects.toMatchObject({
      key: "checkout.errors.outOfStock",
    });
    expect((await queuedEmails(db)).length).toBe(count);
  });
});

describe("Settings → Shop details: the alerts", () => {
  const post = (fields: Record<string, string>) =>
    new Request("http://shop.test/admin/settings/shop", {
      method: "POST",
      body: formOf({ ...shopDetailsFormValues(DEFAULT_SHOP), ...fields }),
    });
  type Reply = {
    init: { status: number };
    data: { result: { error: Record<string, string[]>; initialValue: Record<string, string> } };
  };

  it("saves the addresses (each once, lower-cased), the events and the language; empty is the support e-mail", async () => {
    const owner = await createSignedIn(db, { admin: true });
    const { result } = await runRoute(
      svc,
      action,
      post({
        alert_emails: "Owner@LionRock.example, desk@lionrock.example\n\n owner@lionrock.example ",
        alert_order_placed: "",
        alert_deadline_extended: "",
        alert_language: "zh",
      }),
      owner,
    );
    expect((result as Response).status).toBe(302);
    const shop = await loadShop(db);
    expect(shop.alerts).toEqual({
      emails: ADDRESSES,
      events: { ...ALL_ON, "order.placed": false, "order.deadline_extended": false },
      language: "zh",
    });
    // The page shows what was saved.
    const page = await runRoute(svc, loader, new Request("http://shop.test/admin/settings/shop"), owner);
    const values = (page.result as { values: Record<string, string> }).values;
    expect(values).toMatchObject({
      alert_emails: ADDRESSES.join("\n"),
      alert_order_placed: "",
      alert_receipt_uploaded: "on",
      alert_language: "zh",
    });

    await runRoute(svc, action, post({ ...values, alert_emails: "  " }), owner);
    expect((await loadShop(db)).alerts.emails).toBeNull();
    expect(alertAddresses(await loadShop(db))).toEqual([DEFAULT_SHOP.supportEmail]);
  });

  it("refuses a bad address with 400, the message naming it at the field, everything typed kept", async () => {
    const owner = await createSignedIn(db, { admin: true });
    const typed = "owner@lionrock.example\nnot-an-address\ndesk@lionrock";
    const { result } = await runRoute(svc, action, post({ alert_emails: typed, name_en: "Kept" }), owner);
    const reply = result as unknown as Reply;
    expect(reply.init.status).toBe(400);
    expect(reply.data.result.error.alert_emails).toEqual([
      fieldMessage("adminShop.errors.alertEmailInvalid", { email: "not-an-address" }),
      fieldMessage("adminShop.errors.alertEmailInvalid", { email: "desk@lionrock" }),
    ]);
    // The textarea's line breaks come back as the form sent them (CRLF).
    expect(reply.data.result.initialValue.alert_emails?.replace(/\r\n/g, "\n")).toBe(typed);
    expect(reply.data.result.initialValue.name_en).toBe("Kept");
    expect((await loadShop(db)).alerts).toEqual(DEFAULT_SHOP.alerts);

    const many = Array.from({ length: 11 }, (_, i) => `a${i}@lionrock.example`).join("\n");
    const tooMany = (await runRoute(svc, action, post({ alert_emails: many }), owner)).result as unknown as Reply;
    expect(tooMany.init.status).toBe(400);
    expect(tooMany.data.result.error.alert_emails).toEqual([
      fieldMessage("adminShop.errors.alertEmailsTooMany", { max: 10 }),
    ]);
    const language = (await runRoute(svc, action, post({ alert_language: "fr" }), owner)).result as unknown as Reply;
    expect(language.init.status).toBe(400);
    expect(language.data.result.error.alert_language).toEqual(["adminShop.errors.alertLanguageInvalid"]);
  });

  it("are the owner's: staff and customers change nothing", async () => {
    const staff = { ...(await createSignedIn(db, { admin: true })), role: "staff" as const };
    const { thrown } = await runRoute(svc, action, post({ alert_emails: "evil@example.com" }), staff);
    expect((thrown as { init: { status: number } }).init.status).toBe(403);
    const visitor = await runRoute(svc, action, post({ alert_emails: "evil@example.com" }), null);
    expect((visitor.thrown as Response).status).toBe(403);
    expect((await loadShop(db)).alerts.emails).toBeNull();
  });
});
