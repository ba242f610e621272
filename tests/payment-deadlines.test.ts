import { sql } from "kysely";
import { describe, expect, test, vi } from "vitest";
import { type DB, openDatabase } from "#db/connect.server";
import type { OrderRow } from "#db/schema";
import { logger } from "~/lib/log.server";
import type { MailMessage } from "~/lib/mail.server";
import { MemoryStorage } from "~/lib/storage.server";
import { transitionOrder } from "~/models/orders/desk.server";
import {
  expireOverdueOrders,
  extendPaymentDeadline,
  REJECTION_GRACE_HOURS,
  runPaymentDeadlines,
} from "~/models/orders/payment-deadlines.server";
import { uploadReplacementReceipt } from "~/models/orders/receipts.server";
import { deliverDueMessages } from "~/models/outbox/deliver.server";
import { loadShop, saveShopDetails } from "~/models/settings/shop.server";
import { claimJob, runJobsOnce } from "../server/scheduled-jobs";
import { createCustomer, createProduct, createSignedIn, placeTestOrder, variantStock } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";

/*
 * Payment deadlines (issue 18, docs/decisions/034) on a real database — SQLite, and PostgreSQL in
 * the `postgres` project. Time is moved by passing `at`, never by sleeping.
 */

const HOUR = 60 * 60 * 1000;
const config = { publicUrl: "https://shop.example" };

function later(from: string, hours: number): Date {
  return new Date(new Date(from).getTime() + hours * HOUR);
}

async function orderRow(db: DB, id: string) {
  return db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

/**
 * What the customer at `email` was sent once the outbox has delivered what is due at `at`, after
 * their 'Order received' e-mail (the first, queued when the order was placed).
 */
async function sentAfterReceived(svc: TestServices, email: string, at: Date): Promise<MailMessage[]> {
  await deliverDueMessages(svc, at);
  return svc.mailer.sent.filter((mail) => mail.to === email).slice(1);
}

async function auditActions(db: DB, id: string) {
  return db
    .selectFrom("audit_log")
    .select(["action", "actor_user_id", "details"])
    .where("entity_type", "=", "order")
    .where("entity_id", "=", id)
    .orderBy("id")
    .execute();
}

/** An unpaid order placed to pay later: 2 of a product with 5 in stock (3 left). */
async function unpaidOrder(svc: TestServices, options: { locale?: "en" | "zh"; hours?: number } = {}) {
  const product = await createProduct(svc.db, { price_hkd_cents: 125_50, variants: [["Black", 5]] });
  const { order, user } = await placeTestOrder(svc.db, {
    lines: [{ productId: product.id, color: "Black", quantity: 2 }],
    receiptPath: null,
    locale: options.locale,
    paymentWindowHours: options.hours,
  });
  return { order, user, product };
}

describe("the payment window", () => {
  test("an order gets its deadline and reminder time when placed, and keeps them when the setting changes", async () => {
    const svc = await freshTestServices();
    const { order } = await unpaidOrder(svc);
    expect(order.payment_due_at).toBe(later(order.created_at, 48).toISOString());
    expect(order.payment_reminder_due_at).toBe(later(order.created_at, 24).toISOString());
    expect(order.receipt_path).toBeNull();
    expect(order.receipt_uploaded_at).toBeNull();

    await saveShopDetails(svc.db, { ...(await loadShop(svc.db)), paymentWindowHours: 6 }, { actorUserId: null });
    const { order: next } = await unpaidOrder(svc, { hours: 48 });
    expect(next.payment_due_at).toBe(later(next.created_at, 6).toISOString());
    expect((await orderRow(svc.db, order.id)).payment_due_at).toBe(order.payment_due_at);
  });

  test("PAYMENT_WINDOW_HOURS sets the window when the owner set none", async () => {
    const svc = await freshTestServices();
    const { order } = await unpaidOrder(svc, { hours: 12 });
    expect(order.payment_due_at).toBe(later(order.created_at, 12).toISOString());
  });
});

describe("reminder, then expiry", () => {
  test("walks an unpaid order through one reminder and one expiry, with the stock back once", async () => {
    const svc = await freshTestServices();
    const { order, product } = await unpaidOrder(svc, { locale: "zh" });
    expect(await variantStock(svc.db, product.id)).toBe(3);

    // Before halfway: nothing.
    expect(await runPaymentDeadlines(svc.db, config, later(order.created_at, 23))).toEqual({
      reminded: 0,
      expired: 0,
    });
    expect(await sentAfterReceived(svc, order.email, later(order.created_at, 23))).toHaveLength(0);

    // Halfway: one reminder, in the order's language, with the deadline and the upload link.
    expect(await runPaymentDeadlines(svc.db, config, later(order.created_at, 25))).toEqual({
      reminded: 1,
      expired: 0,
    });
    const sent = await sentAfterReceived(svc, order.email, later(order.created_at, 25));
    expect(sent).toHaveLength(1);
    const [reminder] = sent as [MailMessage];
    expect(reminder.to).toBe(order.email);
    expect(reminder.subject).toContain("提醒");
    expect(reminder.text).toContain(order.order_number);
    expect(reminder.text).toContain(`https://shop.example/account/orders/${order.id}`);
    // 48 hours after placing, in Hong Kong time, in Chinese.
    expect(reminder.text).toMatch(/\d{4}年\d{1,2}月\d{1,2}日/);
    expect((await orderRow(svc.db, order.id)).payment_reminded_at).toBe(later(order.created_at, 25).toISOString());

    // A second run at the same time, and later before the deadline: no second reminder.
    await runPaymentDeadlines(svc.db, config, later(order.created_at, 25));
    await runPaymentDeadlines(svc.db, config, later(order.created_at, 47));
    expect(await sentAfterReceived(svc, order.email, later(order.created_at, 47))).toHaveLength(1);
    expect((await orderRow(svc.db, order.id)).status).toBe("pending_payment");

    // At the deadline: cancelled by the system, stock back, a cancellation e-mail.
    const at = later(order.created_at, 48);
    expect(await runPaymentDeadlines(svc.db, config, at)).toEqual({ reminded: 0, expired: 1 });
    const cancelled = await orderRow(svc.db, order.id);
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.cancelled_at).toBe(at.toISOString());
    expect(cancelled.payment_expired_at).toBe(at.toISOString());
    expect(await variantStock(svc.db, product.id)).toBe(5);
    const withCancellation = await sentAfterReceived(svc, order.email, at);
    expect(withCancellation).toHaveLength(2);
    const cancellation = withCancellation[1] as MailMessage;
    expect(cancellation.subject).toContain(order.order_number);
    expect(cancellation.subject).toContain("取消");

    const expired = (await auditActions(svc.db, order.id)).filter((entry) => entry.action === "order.expired");
    expect(expired).toHaveLength(1);
    expect(expired[0]?.actor_user_id).toBeNull();
    expect(JSON.parse(expired[0]?.details ?? "{}").after).toMatchObject({
      status: "cancelled",
      by: "system",
      restocked: [{ product_id: product.id, color: "Black", quantity: 2, restored: true }],
    });

    // Running again, even much later, changes nothing.
    expect(await runPaymentDeadlines(svc.db, config, later(order.created_at, 200))).toEqual({
      reminded: 0,
      expired: 0,
    });
    expect(await variantStock(svc.db, product.id)).toBe(5);
    expect(await sentAfterReceived(svc, order.email, later(order.created_at, 200))).toHaveLength(2);
  });

  test("a reminder is claimed only with its e-mail, an expiry only with its cancellation e-mail", async () => {
    const svc = await freshTestServices();
    const { order, product } = await unpaidOrder(svc);
    // The outbox cannot be written (as if its table were gone): the e-mails cannot be queued.
    await sql`DROP TABLE outbox_attempts`.execute(svc.db);
    await sql`DROP TABLE outbox_messages`.execute(svc.db);
    const logged = vi.spyOn(logger, "error").mockImplementation(() => {});
    expect(await runPaymentDeadlines(svc.db, config, later(order.created_at, 25))).toEqual({ reminded: 0, expired: 0 });
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
    // Not claimed: the next run (with the outbox back) sends it.
    expect((await orderRow(svc.db, order.id)).payment_reminded_at).toBeNull();
    await expect(runPaymentDeadlines(svc.db, config, later(order.created_at, 49))).rejects.toThrow();
    const after = await orderRow(svc.db, order.id);
    expect(after.status).toBe("pending_payment");
    expect(after.payment_expired_at).toBeNull();
    expect(await variantStock(svc.db, product.id)).toBe(3);
  });

  test("a shop that was down catches up: one run sends no stale reminder and expires what fell due", async () => {
    const svc = await freshTestServices();
    const { order: old, product } = await unpaidOrder(svc);
    const { order: recent } = await unpaidOrder(svc, { hours: 100 });
    // The first run after three days down.
    const result = await runPaymentDeadlines(svc.db, config, later(old.created_at, 72));
    expect(result).toEqual({ reminded: 1, expired: 1 });
    expect((await orderRow(svc.db, old.id)).status).toBe("cancelled");
    expect((await orderRow(svc.db, old.id)).payment_reminded_at).toBeNull();
    expect((await orderRow(svc.db, recent.id)).payment_reminded_at).not.toBeNull();
    expect(await variantStock(svc.db, product.id)).toBe(5);
  });

  test("an order with a receipt waiting for review is never reminded nor expired", async () => {
    const svc = await freshTestServices();
    const product = await createProduct(svc.db, { variants: [["Black", 5]] });
    const { order } = await placeTestOrder(svc.db, {
      lines: [{ productId: product.id, color: "Black", quantity: 1 }],
    });
    expect(order.receipt_path).not.toBeNull();
    expect(await runPaymentDeadlines(svc.db, config, later(order.created_at, 500))).toEqual({
      reminded: 0,
      expired: 0,
    });
    expect((await orderRow(svc.db, order.id)).status).toBe("pending_payment");
    expect(await variantStock(svc.db, product.id)).toBe(4);
  });

  test("a receipt uploaded before the deadline stops the clock; a rejection gives at least a day more", async () => {
    const svc = await freshTestServices();
    const storage = new MemoryStorage();
    const { order, user, product } = await unpaidOrder(svc);
    const png = await import("sharp").then(({ default: sharp }) =>
      sharp({ create: { width: 8, height: 8, channels: 3, background: "#fff" } })
        .png()
        .toBuffer(),
    );
    await uploadReplacementReceipt(svc.db, storage, config, {
      order,
      userId: user.id,
      file: new File([new Uint8Array(png)], "receipt.png", { type: "image/png" }),
    });
    expect(await expireOverdueOrders(svc.db, config, later(order.created_at, 60))).toBe(0);

    // Rejected 47 hours in: the deadline moves to 24 hours after the rejection.
    const admin = await createSignedIn(svc.db, { admin: true });
    const rejectedAt = Date.now();
    await transitionOrder(svc.db, config, admin, {
      orderId: order.id,
      transition: "rejectReceipt",
      expected: "pending_payment",
      reason: "blurred",
    });
    const rejected = await orderRow(svc.db, order.id);
    const due = new Date(rejected.payment_due_at ?? "").getTime();
    expect(due).toBeGreaterThanOrEqual(rejectedAt + REJECTION_GRACE_HOURS * HOUR - 1000);
    expect(due).toBeGreaterThanOrEqual(new Date(order.payment_due_at ?? "").getTime());
    // Now the clock runs again against that deadline.
    expect(await expireOverdueOrders(svc.db, config, new Date(due - 60_000))).toBe(0);
    expect(await expireOverdueOrders(svc.db, config, new Date(due))).toBe(1);
    expect(await variantStock(svc.db, product.id)).toBe(5);
  });

  test("a paid order is never expired", async () => {
    const svc = await freshTestServices();
    const { order, product } = await unpaidOrder(svc);
    const admin = await createSignedIn(svc.db, { admin: true });
    await transitionOrder(svc.db, config, admin, {
      orderId: order.id,
      transition: "markPaid",
      expected: "pending_payment",
    });
    expect(await expireOverdueOrders(svc.db, config, later(order.created_at, 100))).toBe(0);
    expect((await orderRow(svc.db, order.id)).status).toBe("paid");
    expect(await variantStock(svc.db, product.id)).toBe(3);
  });
});

describe("an admin extends the deadline", () => {
  test("an extended order is not expired early, and the extension is audited", async () => {
    const svc = await freshTestServices();
    const { order, product } = await unpaidOrder(svc);
    const admin = await createSignedIn(svc.db, { admin: true });
    const at = later(order.created_at, 40);
    const extended = await extendPaymentDeadline(
      svc.db,
      config,
      admin,
      { orderId: order.id, hours: 72, expectedDueAt: order.payment_due_at ?? "" },
      at,
    );
    // 72 hours after the old deadline (it had not passed yet).
    expect(extended.payment_due_at).toBe(later(order.created_at, 120).toISOString());
    expect(await runPaymentDeadlines(svc.db, config, later(order.created_at, 60))).toMatchObject({
      expired: 0,
    });
    expect((await orderRow(svc.db, order.id)).status).toBe("pending_payment");
    expect(await expireOverdueOrders(svc.db, config, later(order.created_at, 120))).toBe(1);
    expect(await variantStock(svc.db, product.id)).toBe(5);

    const audit = (await auditActions(svc.db, order.id)).find((entry) => entry.action === "order.deadlineExtended");
    expect(audit?.actor_user_id).toBe(admin.id);
    expect(JSON.parse(audit?.details ?? "{}")).toMatchObject({
      before: { payment_due_at: order.payment_due_at },
      after: { payment_due_at: later(order.created_at, 120).toISOString(), hours: 72 },
    });
  });

  test("an overdue order is extended from now; a stale or bad extension is refused and changes nothing", async () => {
    const svc = await freshTestServices();
    const { order } = await unpaidOrder(svc);
    const admin = await createSignedIn(svc.db, { admin: true });
    const at = later(order.created_at, 50);
    const extended = await extendPaymentDeadline(
      svc.db,
      config,
      admin,
      { orderId: order.id, hours: 24, expectedDueAt: order.payment_due_at ?? "" },
      at,
    );
    expect(extended.payment_due_at).toBe(later(at.toISOString(), 24).toISOString());
    // The same form sent again: the deadline it names has moved.
    await expect(
      extendPaymentDeadline(svc.db, config, admin, {
        orderId: order.id,
        hours: 24,
        expectedDueAt: order.payment_due_at ?? "",
      }),
    ).rejects.toMatchObject({ key: "adminOrders.deadline.changedMeanwhile", status: 409 });
    await expect(
      extendPaymentDeadline(svc.db, config, admin, {
        orderId: order.id,
        hours: 0,
        expectedDueAt: extended.payment_due_at ?? "",
      }),
    ).rejects.toMatchObject({ key: "adminOrders.deadline.hoursInvalid", status: 400 });
    expect((await orderRow(svc.db, order.id)).payment_due_at).toBe(extended.payment_due_at);

    // A cancelled order cannot be extended.
    await expireOverdueOrders(svc.db, config, later(at.toISOString(), 24));
    await expect(
      extendPaymentDeadline(svc.db, config, admin, {
        orderId: order.id,
        hours: 24,
        expectedDueAt: extended.payment_due_at ?? "",
      }),
    ).rejects.toMatchObject({ status: 409 });
  });
});

describe("several processes", () => {
  test("two connections running the job at once cancel each order once and send each e-mail once", async () => {
    const svc = await freshTestServices();
    const product = await createProduct(svc.db, { variants: [["Black", 40]] });
    const orders: OrderRow[] = [];
    for (let i = 0; i < 12; i++) {
      const user = await createCustomer(svc.db);
      const { order } = await placeTestOrder(svc.db, {
        user,
        lines: [{ productId: product.id, color: "Black", quantity: 2 }],
        receiptPath: null,
      });
      orders.push(order);
    }
    expect(await variantStock(svc.db, product.id)).toBe(16);
    // A second process: its own connection (SQLite) or pool (PostgreSQL) to the same database.
    const second = openDatabase(svc.config.databaseUrl);
    try {
      const at = later((orders.at(-1) as OrderRow).created_at, 49);
      // Each process runs the work itself (no job claim): only the per-order claims stand between them.
      const [a, b] = await Promise.all([
        runPaymentDeadlines(svc.db, config, at),
        runPaymentDeadlines(second, config, at),
      ]);
      expect(a.expired + b.expired).toBe(12);
      expect(await variantStock(svc.db, product.id)).toBe(40);
      // One cancellation e-mail queued per order, each with its order's expiry (never a second one).
      const queued = await svc.db
        .selectFrom("outbox_messages")
        .select(["recipient", "order_id"])
        .where("event", "=", "order.expired")
        .execute();
      expect(queued).toHaveLength(12);
      expect(new Set(queued.map((row) => row.order_id))).toEqual(new Set(orders.map((order) => order.id)));
      expect(new Set(queued.map((row) => row.recipient)).size).toBe(12);
      const expiries = await svc.db
        .selectFrom("audit_log")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("action", "=", "order.expired")
        .executeTakeFirstOrThrow();
      expect(Number(expiries.n)).toBe(12);
    } finally {
      await second.destroy();
    }
  });

  test("the job is claimed by one process a minute, and runs again the next minute", async () => {
    const svc = await freshTestServices();
    const second = openDatabase(svc.config.databaseUrl);
    try {
      const at = new Date();
      const claims = await Promise.all([
        claimJob(svc.db, "payment-deadlines", at),
        claimJob(second, "payment-deadlines", at),
        claimJob(svc.db, "payment-deadlines", at),
        claimJob(second, "payment-deadlines", at),
      ]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await claimJob(second, "payment-deadlines", new Date(at.getTime() + 30_000))).toBe(false);
      expect(await claimJob(second, "payment-deadlines", new Date(at.getTime() + 60_000))).toBe(true);
    } finally {
      await second.destroy();
    }
  });

  test("runJobsOnce runs the deadline job in the process that claims it and records its result", async () => {
    const svc = await freshTestServices();
    const { order } = await unpaidOrder(svc);
    const at = later(order.created_at, 49);
    const results = await Promise.all([runJobsOnce(svc, at), runJobsOnce(svc, at)]);
    expect(results.filter((r) => "payment-deadlines" in r)).toHaveLength(1);
    const job = await svc.db
      .selectFrom("scheduled_jobs")
      .selectAll()
      .where("name", "=", "payment-deadlines")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(job.last_result ?? "{}")).toEqual({ reminded: 0, expired: 1 });
    expect((await orderRow(svc.db, order.id)).status).toBe("cancelled");
  });
});
