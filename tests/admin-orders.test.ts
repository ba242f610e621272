import crypto from "node:crypto";
import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import type { OrderRow } from "#db/schema";
import { formatAge } from "~/components/admin/unpaid-summary";
import type { MemoryMailer } from "~/lib/mail.server";
import { UserError } from "~/lib/problem";
import {
  type AdminOrderListStatus,
  findAdminOrder,
  listAdminOrders,
  receiptQueueSummary,
  transitionOrder,
  transitionsFor,
  unpaidByAge,
} from "~/models/orders/desk.server";
import { deliverDueMessages } from "~/models/outbox/deliver.server";
import type { CurrentUser } from "~/request/auth.server";
import { loader as dashboardLoader } from "~/routes/admin/dashboard";
import { action, loader } from "~/routes/admin/order";
import { action as listAction, loader as listLoader } from "~/routes/admin/orders";
import { orderStatusSchema } from "~/schemas/order-status";
import { createCustomer, createProduct, createSignedIn, placeTestOrder, uniqueTag, variantStock } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { formOf, runRoute } from "./setup/route";

/**
 * The admin's order desk against a real SQLite file: compare-and-set status changes, stock put
 * back exactly once on cancel, the list's filters and searches, e-mails in the customer's
 * language, and the admin right on every request.
 */

let svc: TestServices;
let db: DB;
let mailer: MemoryMailer;
let ADMIN: CurrentUser;
beforeEach(async () => {
  svc = await freshTestServices();
  ({ db, mailer } = svc);
  ADMIN = await createSignedIn(db, { email: "orders-boss@shop.hk", admin: true });
});

const OTHER_ADMIN: CurrentUser = { id: crypto.randomUUID(), email: "second@shop.hk", isAdmin: true, role: "owner" };

async function makeProduct(variants: [string, number][]): Promise<number> {
  const product = await createProduct(db, {
    name_en: `Admin order rifle ${uniqueTag()}`,
    name_zh: "管理訂單步槍",
    description_en: "Test",
    description_zh: "測試",
    price_hkd_cents: 100_00,
    price_gbp_cents: 10_00,
    price_eur_cents: 11_00,
    price_usd_cents: 12_00,
    variants,
  });
  return product.id;
}

function stockOf(productId: number, color: string): Promise<number> {
  return variantStock(db, productId, color);
}

/** A shopper who orders `lines` of products through the real placeOrder. */
async function order(
  lines: [number, string, number][],
  options: { locale?: "en" | "zh"; email?: string } = {},
): Promise<OrderRow> {
  const user = await createCustomer(db, { email: options.email });
  const { order } = await placeTestOrder(db, {
    user,
    lines: lines.map(([productId, color, quantity]) => ({ productId, color, quantity })),
    locale: options.locale ?? "en",
    customer: { lastName: "Siu Ming" },
    receiptPath: `receipts/${user.id}/receipt.webp`,
  });
  return order;
}

/** What `to` was sent once the outbox has delivered what is due, oldest first. */
async function mailsTo(to: string) {
  await deliverDueMessages(svc);
  return mailer.sent.filter((mail) => mail.to === to);
}

/** Delivers what is waiting (the order's own e-mails), then forgets it: what comes after is the test's. */
async function deliverAndForget(): Promise<void> {
  await deliverDueMessages(svc);
  mailer.sent.length = 0;
}

async function transitionError(run: () => Promise<unknown>): Promise<UserError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return error as UserError;
  }
  throw new Error("expected a UserError");
}

describe("order status changes", () => {
  it("marks paid, then shipped with a tracking number, then delivered, each stamped and audited", async () => {
    const product = await makeProduct([["Black", 5]]);
    const placed = await order([[product, "Black", 2]]);
    const paid = await transitionOrder(db, svc.config, ADMIN, {
      orderId: placed.id,
      transition: "markPaid",
      expected: "pending_payment",
    });
    expect(paid.status).toBe("paid");
    expect(paid.paid_at).not.toBeNull();
    expect(paid.updated_at >= placed.updated_at).toBe(true);
    const shipped = await transitionOrder(db, svc.config, ADMIN, {
      orderId: placed.id,
      transition: "markShipped",
      expected: "paid",
      trackingNumber: "SF1234567890",
    });
    expect(shipped).toMatchObject({ status: "shipped", tracking_number: "SF1234567890" });
    const delivered = await transitionOrder(db, svc.config, ADMIN, {
      orderId: placed.id,
      transition: "markDelivered",
      expected: "shipped",
    });
    expect(delivered.status).toBe("delivered");
    expect(delivered.delivered_at).not.toBeNull();
    // Stock taken at order time stays taken.
    expect(await stockOf(product, "Black")).toBe(3);

    const audit = await db
      .selectFrom("audit_log")
      .select(["action", "actor_user_id", "details"])
      .where("entity_id", "=", placed.id)
      .orderBy("id")
      .execute();
    expect(audit.map((row) => row.action)).toEqual([
      "order.placed",
      "order.markPaid",
      "order.markShipped",
      "order.markDelivered",
    ]);
    expect(audit[1]?.actor_user_id).toBe(ADMIN.id);
    expect(JSON.parse(audit[2]?.details ?? "{}")).toEqual({
      before: { status: "paid" },
      after: { status: "shipped", tracking_number: "SF1234567890" },
    });
  });

  it("applies a change only while the order is in the status the admin saw", async () => {
    const product = await makeProduct([["Tan", 5]]);
    const placed = await order([[product, "Tan", 1]]);
    await transitionOrder(db, svc.config, ADMIN, {
      orderId: placed.id,
      transition: "markPaid",
      expected: "pending_payment",
    });
    const again = await transitionError(() =>
      transitionOrder(db, svc.config, OTHER_ADMIN, {
        orderId: placed.id,
        transition: "markPaid",
        expected: "pending_payment",
      }),
    );
    expect(again.key).toBe("adminOrders.errors.changedMeanwhile");
    expect(again.params.status).toBe("paid");
    // Shipping straight from pending is not a transition at all.
    const skip = await transitionError(() =>
      transitionOrder(db, svc.config, ADMIN, {
        orderId: placed.id,
        transition: "markShipped",
        expected: "pending_payment",
      }),
    );
    expect(skip.key).toBe("adminOrders.errors.notAllowed");
    const missing = await transitionError(() =>
      transitionOrder(db, svc.config, ADMIN, {
        orderId: crypto.randomUUID(),
        transition: "markPaid",
        expected: "pending_payment",
      }),
    );
    expect(missing.key).toBe("adminOrders.errors.notFound");
  });

  it("cancelling puts every line's stock back exactly once, even when two admins cancel at once", async () => {
    const product = await makeProduct([
      ["Black", 10],
      ["Tan", 4],
    ]);
    const placed = await order([
      [product, "Black", 3],
      [product, "Tan", 4],
    ]);
    expect([await stockOf(product, "Black"), await stockOf(product, "Tan")]).toEqual([7, 0]);
    const results = await Promise.allSettled([
      transitionOrder(db, svc.config, ADMIN, { orderId: placed.id, transition: "cancel", expected: "pending_payment" }),
      transitionOrder(db, svc.config, OTHER_ADMIN, {
        orderId: placed.id,
        transition: "cancel",
        expected: "pending_payment",
      }),
      transitionOrder(db, svc.config, OTHER_ADMIN, {
        orderId: placed.id,
        transition: "markPaid",
        expected: "pending_payment",
      }),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const won = (results.find((result) => result.status === "fulfilled") as PromiseFulfilledResult<OrderRow>).value;
    if (won.status === "cancelled") {
      expect([await stockOf(product, "Black"), await stockOf(product, "Tan")]).toEqual([10, 4]);
    } else {
      expect(won.status).toBe("paid");
      expect([await stockOf(product, "Black"), await stockOf(product, "Tan")]).toEqual([7, 0]);
    }
    // Cancelled is final: no second restock from a later attempt.
    const current = await db
      .selectFrom("orders")
      .select("status")
      .where("id", "=", placed.id)
      .executeTakeFirstOrThrow();
    if (current.status === "paid") {
      await transitionOrder(db, svc.config, ADMIN, { orderId: placed.id, transition: "cancel", expected: "paid" });
    }
    const before = [await stockOf(product, "Black"), await stockOf(product, "Tan")];
    expect(before).toEqual([10, 4]);
    await transitionError(() =>
      transitionOrder(db, svc.config, ADMIN, { orderId: placed.id, transition: "cancel", expected: "paid" }),
    );
    expect([await stockOf(product, "Black"), await stockOf(product, "Tan")]).toEqual([10, 4]);
  });

  it("cancelling an order whose product was deleted since keeps the order and skips that line", async () => {
    const product = await makeProduct([["Black", 2]]);
    const placed = await order([[product, "Black", 1]]);
    await db.deleteFrom("products").where("id", "=", product).execute();
    const cancelled = await transitionOrder(db, svc.config, ADMIN, {
      orderId: placed.id,
      transition: "cancel",
      expected: "pending_payment",
    });
    expect(cancelled.status).toBe("cancelled");
    expect((await findAdminOrder(db, placed.id))?.lines).toHaveLength(1);
  });

  it("rejecting a receipt keeps the order pending with the reason, once per uploaded receipt", async () => {
    const product = await makeProduct([["Black", 2]]);
    const placed = await order([[product, "Black", 1]]);
    const rejected = await transitionOrder(db, svc.config, ADMIN, {
      orderId: placed.id,
      transition: "rejectReceipt",
      expected: "pending_payment",
      reason: "The amount does not match",
    });
    expect(rejected).toMatchObject({ status: "pending_payment", receipt_rejected_reason: "The amount does not match" });
    expect(transitionsFor(rejected)).not.toContain("rejectReceipt");
    const twice = await transitionError(() =>
      transitionOrder(db, svc.config, ADMIN, {
        orderId: placed.id,
        transition: "rejectReceipt",
        expected: "pending_payment",
        reason: "x",
      }),
    );
    expect(twice.key).toBe("adminOrders.errors.receiptChanged");
    // Marking paid after all clears the rejection.
    const paid = await transitionOrder(db, svc.config, ADMIN, {
      orderId: placed.id,
      transition: "markPaid",
      expected: "pending_payment",
    });
    expect(paid.receipt_rejected_reason).toBeNull();
  });

  it("offers only the changes that fit the status", () => {
    const base = { receipt_path: "r.webp", receipt_rejected_reason: null };
    expect(transitionsFor({ ...base, status: "pending_payment" })).toEqual(["markPaid", "rejectReceipt", "cancel"]);
    expect(transitionsFor({ ...base, status: "paid" })).toEqual(["markShipped", "cancel"]);
    expect(transitionsFor({ ...base, status: "shipped" })).toEqual(["markDelivered"]);
    expect(transitionsFor({ ...base, status: "delivered" })).toEqual([]);
    expect(transitionsFor({ ...base, status: "cancelled" })).toEqual([]);
    expect(transitionsFor({ ...base, receipt_path: null, status: "pending_payment" })).toEqual(["markPaid", "cancel"]);
  });
});

describe("order e-mails", () => {
  it("writes to the customer in the language they ordered in, queued with the change", async () => {
    const product = await makeProduct([["Black", 5]]);
    const zh = await order([[product, "Black", 1]], { locale: "zh" });
    await transitionOrder(db, svc.config, ADMIN, {
      orderId: zh.id,
      transition: "rejectReceipt",
      expected: "pending_payment",
      reason: "金額不符",
    });
    const [received, mail] = await mailsTo(zh.email);
    expect(received?.subject).toBe(`我們已收到你的訂單 ${zh.order_number}`);
    expect(mail?.subject).toBe(`請為訂單 ${zh.order_number} 重新上傳收據`);
    expect(mail?.text).toContain("原因：金額不符");
    expect(mail?.text).toContain(`/account/orders/${zh.id}`);

    const en = await order([[product, "Black", 1]]);
    await transitionOrder(db, svc.config, ADMIN, {
      orderId: en.id,
      transition: "markPaid",
      expected: "pending_payment",
    });
    await transitionOrder(db, svc.config, ADMIN, {
      orderId: en.id,
      transition: "markShipped",
      expected: "paid",
      trackingNumber: "HK-TRACK-1",
    });
    await transitionOrder(db, svc.config, ADMIN, { orderId: en.id, transition: "markDelivered", expected: "shipped" });
    const mails = await mailsTo(en.email);
    // Received, paid, shipped: delivered is not mailed.
    expect(mails.map((sent) => sent.subject)).toEqual([
      `We received your order ${en.order_number}`,
      `Payment confirmed for order ${en.order_number}`,
      `Your order ${en.order_number} is on its way`,
    ]);
    expect(mails[2]?.text).toContain("Tracking number: HK-TRACK-1");
    const queued = await db
      .selectFrom("outbox_messages")
      .select(["event", "audience", "language"])
      .where("order_id", "=", en.id)
      .where("audience", "=", "customer")
      .orderBy("created_at")
      .execute();
    expect(queued).toEqual([
      { event: "order.placed", audience: "customer", language: "en" },
      { event: "order.paid", audience: "customer", language: "en" },
      { event: "order.shipped", audience: "customer", language: "en" },
    ]);
  });

  it("a change refused by its compare-and-set queues no e-mail", async () => {
    const product = await makeProduct([["Black", 5]]);
    const placed = await order([[product, "Black", 1]]);
    await transitionOrder(db, svc.config, ADMIN, {
      orderId: placed.id,
      transition: "markPaid",
      expected: "pending_payment",
    });
    await expect(
      transitionOrder(db, svc.config, OTHER_ADMIN, {
        orderId: placed.id,
        transition: "cancel",
        expected: "pending_payment",
      }),
    ).rejects.toThrow(UserError);
    const events = await db.selectFrom("outbox_messages").select("event").where("order_id", "=", placed.id).execute();
    expect(events.map((row) => row.event)).not.toContain("order.cancelled");
  });
});

describe("the orders list", () => {
  it("filters by status and finds orders by number, id or e-mail prefix, with item counts", async () => {
    const product = await makeProduct([["Black", 50]]);
    const a = await order(
      [
        [product, "Black", 2],
        [product, "Black", 1],
      ],
      { email: "list-alpha@example.com" },
    );
    const b = await order([[product, "Black", 1]], { email: "list-beta@example.com" });
    await transitionOrder(db, svc.config, ADMIN, {
      orderId: b.id,
      transition: "markPaid",
      expected: "pending_payment",
    });

    const byEmail = await listAdminOrders(db, { status: null, q: "LIST-ALPHA", page: 1 });
    expect(byEmail.orders.map((row) => row.id)).toEqual([a.id]);
    expect(byEmail.orders[0]?.items).toBe(3);
    expect(byEmail.orders[0]?.has_receipt).toBe(true);
    const byNumber = await listAdminOrders(db, { status: null, q: b.order_number.slice(4), page: 1 });
    expect(byNumber.orders.map((row) => row.id)).toEqual([b.id]);
    const byId = await listAdminOrders(db, { status: null, q: a.id.slice(0, 8), page: 1 });
    expect(byId.orders.map((row) => row.id)).toEqual([a.id]);
    const paid = await listAdminOrders(db, { status: "paid", q: "list-", page: 1 });
    expect(paid.orders.map((row) => row.id)).toEqual([b.id]);
    const none = await listAdminOrders(db, { status: "shipped", q: "list-", page: 1 });
    expect(none).toMatchObject({ orders: [], total: 0, page: 1, pages: 1 });
  });

  it("pages 25 at a time, newest first, and clamps a page out of range", async () => {
    const product = await makeProduct([["Black", 100]]);
    for (let i = 0; i < 27; i++) await order([[product, "Black", 1]], { email: `pager-${i}@example.com` });
    const first = await listAdminOrders(db, { status: null, q: "pager-", page: 1 });
    expect(first).toMatchObject({ total: 27, pages: 2, page: 1 });
    expect(first.orders).toHaveLength(25);
    const dates = first.orders.map((row) => row.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    const last = await listAdminOrders(db, { status: null, q: "pager-", page: 99 });
    expect(last.page).toBe(2);
    expect(last.orders).toHaveLength(2);
  });
});

describe("the order routes", () => {
  const url = (id: string) => `http://localhost/admin/orders/${id}`;
  const post = (id: string, fields: Record<string, string>, user: CurrentUser | null) =>
    runRoute(svc, action, new Request(url(id), { method: "POST", body: formOf(fields) }), user, { id });

  it("refuses anyone but an admin with 403 (writes) or the admin login (pages), changing nothing", async () => {
    const product = await makeProduct([["Black", 3]]);
    const placed = await order([[product, "Black", 1]]);
    const customer: CurrentUser = { id: placed.user_id ?? "", email: placed.email, isAdmin: false, role: null };
    for (const user of [customer, null]) {
      for (const intent of ["markPaid", "cancel", "rejectReceipt"]) {
        const { thrown } = await post(placed.id, { intent, expected: "pending_payment", reason: "x" }, user);
        expect((thrown as Response).status).toBe(403);
      }
      const page = await runRoute(svc, loader, new Request(url(placed.id)), user, { id: placed.id });
      expect((page.thrown as Response).headers.get("Location")).toBe("/admin/login");
      const list = await runRoute(svc, listLoader, new Request("http://localhost/admin/orders"), user);
      expect((list.thrown as Response).headers.get("Location")).toBe("/admin/login");
    }
    const after = await db.selectFrom("orders").selectAll().where("id", "=", placed.id).executeTakeFirstOrThrow();
    expect(after).toEqual(placed);
    expect(await stockOf(product, "Black")).toBe(2);
  });

  it("marks paid from the list, returns to the list with its filters and e-mails the customer", async () => {
    const product = await makeProduct([["Black", 3]]);
    const placed = await order([[product, "Black", 1]]);
    await deliverAndForget();
    const { result, flash } = await post(
      placed.id,
      { intent: "markPaid", expected: "pending_payment", returnTo: "/admin/orders?status=pending_payment&page=2" },
      ADMIN,
    );
    expect((result as Response).status).toBe(302);
    expect((result as Response).headers.get("Location")).toBe("/admin/orders?status=pending_payment&page=2");
    expect(flash).toMatchObject({
      type: "success",
      key: "adminOrders.updated",
      detailKey: "adminOrders.updatedDetail",
    });
    expect((await mailsTo(placed.email)).map((mail) => mail.subject)).toEqual([
      `Payment confirmed for order ${placed.order_number}`,
    ]);
    // A return path elsewhere is ignored.
    const shipped = await post(
      placed.id,
      { intent: "markShipped", expected: "paid", returnTo: "https://evil.example/" },
      ADMIN,
    );
    expect((shipped.result as Response).headers.get("Location")).toBe(`/admin/orders/${placed.id}`);
  });

  it("answers bad input with 400 next to the field, and a stale status with 409, changing nothing", async () => {
    const product = await makeProduct([["Black", 3]]);
    const placed = await order([[product, "Black", 1]]);
    const noReason = await post(
      placed.id,
      { intent: "rejectReceipt", expected: "pending_payment", reason: "  " },
      ADMIN,
    );
    const reply = noReason.result as unknown as {
      init: { status: number };
      data: { result: { error: Record<string, string[]> } };
    };
    expect(reply.init.status).toBe(400);
    expect(reply.data.result.error.reason).toEqual(["adminOrders.errors.reasonRequired"]);
    const tooLong = await post(
      placed.id,
      { intent: "markShipped", expected: "paid", tracking: "x".repeat(101) },
      ADMIN,
    );
    expect((tooLong.result as unknown as { init: { status: number } }).init.status).toBe(400);
    const bogus = await post(placed.id, { intent: "makeFree", expected: "pending_payment", total_cents: "0" }, ADMIN);
    expect((bogus.result as unknown as { init: { status: number } }).init.status).toBe(400);
    const stale = await post(placed.id, { intent: "markShipped", expected: "paid" }, ADMIN);
    expect((stale.result as unknown as { init: { status: number } }).init.status).toBe(409);
    const after = await db.selectFrom("orders").selectAll().where("id", "=", placed.id).executeTakeFirstOrThrow();
    expect(after).toEqual(placed);
  });

  it("parses each form with one schema", () => {
    expect(orderStatusSchema.safeParse({ intent: "markShipped", expected: "paid", tracking: " " }).data).toEqual({
      intent: "markShipped",
      expected: "paid",
      tracking: null,
      carrier: null,
    });
    expect(orderStatusSchema.safeParse({ intent: "markPaid", expected: "teleported" }).success).toBe(false);
  });
});

describe("the receipt review queue and unpaid orders by age", () => {
  const T = new Date("2026-11-20T12:00:00.000Z");
  const hoursBefore = (hours: number, at = T) => new Date(at.getTime() - hours * 3_600_000).toISOString();

  /**
   * placeOrder stamps the real clock and always takes a receipt; the queue is about orders of
   * other ages and states, so the test moves their timestamps (and removes a receipt) by hand.
   */
  async function backdate(
    id: string,
    {
      created_at,
      ...set
    }: {
      created_at?: string;
      receipt_uploaded_at?: string | null;
      payment_due_at?: string | null;
      receipt_path?: null;
      receipt_rejected_reason?: string;
    },
  ) {
    // created_at is never updated by the app (its type forbids it): only a test backdates a row.
    if (created_at) await sql`update orders set created_at = ${created_at} where id = ${id}`.execute(db);
    if (Object.keys(set).length > 0) await db.updateTable("orders").set(set).where("id", "=", id).execute();
  }

  async function orderAt(createdHoursAgo: number, set: Parameters<typeof backdate>[1] = {}) {
    const product = await makeProduct([["Black", 5]]);
    const placed = await order([[product, "Black", 1]]);
    await backdate(placed.id, {
      created_at: hoursBefore(createdHoursAgo),
      receipt_uploaded_at: hoursBefore(createdHoursAgo),
      ...set,
    });
    return placed;
  }

  it("counts the receipts waiting and the oldest one's age, as the clock moves", async () => {
    const oldest = await orderAt(30);
    await orderAt(5);
    const rejected = await orderAt(40);
    await transitionOrder(db, svc.config, ADMIN, {
      orderId: rejected.id,
      transition: "rejectReceipt",
      expected: "pending_payment",
      reason: "Unreadable",
    });
    const paid = await orderAt(50);
    await transitionOrder(db, svc.config, ADMIN, {
      orderId: paid.id,
      transition: "markPaid",
      expected: "pending_payment",
    });
    await orderAt(2, { receipt_path: null, receipt_uploaded_at: null });

    const now = await receiptQueueSummary(db, T);
    expect(now).toEqual({ waiting: 2, oldestUploadedAt: hoursBefore(30) });
    expect(formatAge(now.oldestUploadedAt ?? "", T.toISOString(), "en")).toBe("30 hours ago");
    expect(formatAge(now.oldestUploadedAt ?? "", T.toISOString(), "zh")).toBe("30 小時前");
    // Three days on, the same receipt is three days and six hours old.
    const later = new Date(T.getTime() + 3 * 86_400_000);
    expect(formatAge(now.oldestUploadedAt ?? "", later.toISOString(), "en")).toBe("4 days ago");
    // Six hours earlier, the 5-hour-old receipt was not uploaded yet.
    expect(await receiptQueueSummary(db, new Date(T.getTime() - 6 * 3_600_000))).toEqual({
      waiting: 1,
      oldestUploadedAt: hoursBefore(30),
    });
    // Marking the oldest paid leaves the newer one.
    await transitionOrder(db, svc.config, ADMIN, {
      orderId: oldest.id,
      transition: "markPaid",
      expected: "pending_payment",
    });
    expect(await receiptQueueSummary(db, T)).toEqual({ waiting: 1, oldestUploadedAt: hoursBefore(5) });
  });

  it("lists receipts waiting oldest first, without rejected, paid or receiptless orders", async () => {
    const middle = await orderAt(10);
    const newest = await orderAt(1);
    const oldest = await orderAt(20);
    const rejected = await orderAt(30);
    await transitionOrder(db, svc.config, ADMIN, {
      orderId: rejected.id,
      transition: "rejectReceipt",
      expected: "pending_payment",
      reason: "Wrong amount",
    });
    const paid = await orderAt(40);
    await transitionOrder(db, svc.config, ADMIN, {
      orderId: paid.id,
      transition: "markPaid",
      expected: "pending_payment",
    });
    await orderAt(50, { receipt_path: null, receipt_uploaded_at: null });

    const review = await listAdminOrders(db, { status: "review", q: "", page: 1 }, T);
    expect(review.orders.map((row) => row.id)).toEqual([oldest.id, middle.id, newest.id]);
    expect(review.total).toBe(3);
    expect(review.orders[0]?.receipt_uploaded_at).toBe(hoursBefore(20));
    // The search narrows the queue too.
    const one = await listAdminOrders(db, { status: "review", q: middle.order_number, page: 1 }, T);
    expect(one.orders.map((row) => row.id)).toEqual([middle.id]);
  });

  it("lists orders awaiting payment past their deadline, oldest deadline first; a receipt in review is not overdue", async () => {
    // Receipt rejected: awaiting a new one, so awaiting payment (its deadline set by hand).
    const late = await orderAt(60, { payment_due_at: hoursBefore(12), receipt_rejected_reason: "Blurred" });
    const later = await orderAt(50, { payment_due_at: hoursBefore(2), receipt_path: null, receipt_uploaded_at: null });
    const inReview = await orderAt(55, { payment_due_at: hoursBefore(5) });
    await orderAt(10, { payment_due_at: hoursBefore(-38), receipt_path: null, receipt_uploaded_at: null });
    const paidLate = await orderAt(70, { payment_due_at: hoursBefore(22) });
    await transitionOrder(db, svc.config, ADMIN, {
      orderId: paidLate.id,
      transition: "markPaid",
      expected: "pending_payment",
    });
    await orderAt(100, { payment_due_at: null, receipt_path: null, receipt_uploaded_at: null });

    const overdue = await listAdminOrders(db, { status: "overdue", q: "", page: 1 }, T);
    expect(overdue.orders.map((row) => row.id)).toEqual([late.id, later.id]);
    expect(overdue.orders.map((row) => row.shown_status)).toEqual(["receipt_rejected", "pending_payment"]);
    expect(overdue.orders[0]?.payment_due_at).toBe(hoursBefore(12));
    // An hour before the second deadline only the first was overdue.
    const earlier = await listAdminOrders(
      db,
      { status: "overdue", q: "", page: 1 },
      new Date(T.getTime() - 3 * 3_600_000),
    );
    expect(earlier.orders.map((row) => row.id)).toEqual([late.id]);
    // The receipt in review is the review queue's, whatever its deadline.
    const review = await listAdminOrders(db, { status: "review", q: "", page: 1 }, T);
    expect(review.orders.map((row) => [row.id, row.shown_status])).toEqual([[inReview.id, "receipt_checking"]]);
  });

  it("filters by the statuses every page shows: awaiting payment, receipt in review, receipt rejected", async () => {
    const awaiting = await orderAt(5, { receipt_path: null, receipt_uploaded_at: null });
    const rejected = await orderAt(4, { receipt_rejected_reason: "Blurred" });
    const inReview = await orderAt(3);
    const paid = await orderAt(2);
    await transitionOrder(db, svc.config, ADMIN, {
      orderId: paid.id,
      transition: "markPaid",
      expected: "pending_payment",
    });
    const list = async (status: AdminOrderListStatus, q = "") =>
      (await listAdminOrders(db, { status, q, page: 1 }, T)).orders.map((row) => [row.id, row.shown_status]);
    expect(await list("pending_payment")).toEqual([
      [rejected.id, "receipt_rejected"],
      [awaiting.id, "pending_payment"],
    ]);
    expect(await list("review")).toEqual([[inReview.id, "receipt_checking"]]);
    expect(await list("rejected")).toEqual([[rejected.id, "receipt_rejected"]]);
    expect(await list("paid")).toEqual([[paid.id, "paid"]]);
    // With a search too.
    expect(await list("pending_payment", inReview.order_number)).toEqual([]);
    expect(await list("pending_payment", awaiting.order_number)).toEqual([[awaiting.id, "pending_payment"]]);
    expect(await list("rejected", rejected.order_number)).toEqual([[rejected.id, "receipt_rejected"]]);
  });

  it("puts orders awaiting payment into under 24 h, 24 h or more, and overdue; a receipt in review into none", async () => {
    const none = { receipt_path: null, receipt_uploaded_at: null } as const;
    await orderAt(23, { ...none, payment_due_at: hoursBefore(-25) });
    await orderAt(25, { ...none, payment_due_at: hoursBefore(-23) });
    // An order from before deadlines has none: it only ages.
    await orderAt(100, { ...none, payment_due_at: null });
    await orderAt(49, { ...none, payment_due_at: hoursBefore(1) });
    // Its receipt rejected: awaiting payment again.
    await orderAt(47, { payment_due_at: T.toISOString(), receipt_rejected_reason: "Wrong amount" });
    // Receipts in review, one of them past its deadline: the review queue's, not awaiting payment
    // (issue 25: they were counted twice).
    await orderAt(2, { payment_due_at: hoursBefore(-46) });
    await orderAt(50, { payment_due_at: hoursBefore(2) });
    const paid = await orderAt(1);
    await transitionOrder(db, svc.config, ADMIN, {
      orderId: paid.id,
      transition: "markPaid",
      expected: "pending_payment",
    });

    expect(await unpaidByAge(db, T)).toEqual({ under24h: 1, from24hTo48h: 2, overdue: 2 });
    expect((await receiptQueueSummary(db, T)).waiting).toBe(2);
    // Two hours later the 23-hour-old order is 25 hours old.
    expect(await unpaidByAge(db, new Date(T.getTime() + 2 * 3_600_000))).toEqual({
      under24h: 0,
      from24hTo48h: 3,
      overdue: 2,
    });
    // And once past their deadlines, both are overdue.
    expect(await unpaidByAge(db, new Date(T.getTime() + 26 * 3_600_000))).toEqual({
      under24h: 0,
      from24hTo48h: 1,
      overdue: 4,
    });
  });

  describe("deciding from the list", () => {
    const listUrl = "http://localhost/admin/orders?status=review&q=";
    const post = (fields: Record<string, string>, user: CurrentUser | null) =>
      runRoute(svc, listAction, new Request(listUrl, { method: "POST", body: formOf(fields) }), user);

    it("marks paid, back to the same filtered list with a flash, stock untouched, customer e-mailed", async () => {
      const product = await makeProduct([["Black", 5]]);
      const placed = await order([[product, "Black", 2]]);
      await deliverAndForget();
      const { result, flash } = await post(
        { intent: "markPaid", orderId: placed.id, expected: "pending_payment" },
        ADMIN,
      );
      expect((result as Response).status).toBe(302);
      expect((result as Response).headers.get("Location")).toBe("/admin/orders?status=review&q=");
      expect(flash).toMatchObject({ type: "success", key: "adminOrders.updated" });
      const after = await db.selectFrom("orders").selectAll().where("id", "=", placed.id).executeTakeFirstOrThrow();
      expect(after.status).toBe("paid");
      expect(after.paid_at).not.toBeNull();
      expect(await stockOf(product, "Black")).toBe(3);
      expect((await mailsTo(placed.email)).map((mail) => mail.subject)).toEqual([
        `Payment confirmed for order ${placed.order_number}`,
      ]);
      expect((await receiptQueueSummary(db)).waiting).toBe(0);
    });

    it("answers a fetcher with the decision for its row", async () => {
      const placed = await orderAt(3);
      const { result } = await post(
        {
          intent: "rejectReceipt",
          orderId: placed.id,
          expected: "pending_payment",
          reason: "Wrong amount",
          _fetcher: "1",
        },
        ADMIN,
      );
      const reply = result as unknown as { data: { decided: unknown; problem: unknown } };
      expect(reply.data).toMatchObject({
        problem: null,
        decided: {
          id: placed.id,
          number: placed.order_number,
          transition: "rejectReceipt",
          status: "receipt_rejected",
        },
      });
      const after = await db.selectFrom("orders").selectAll().where("id", "=", placed.id).executeTakeFirstOrThrow();
      expect(after.receipt_rejected_reason).toBe("Wrong amount");
    });

    it("refuses a rejection without a reason with 400 on that row's field, changing nothing", async () => {
      const placed = await orderAt(3);
      const before = await db.selectFrom("orders").selectAll().where("id", "=", placed.id).executeTakeFirstOrThrow();
      await deliverAndForget();
      const { result } = await post(
        { intent: "rejectReceipt", orderId: placed.id, expected: "pending_payment", reason: "   " },
        ADMIN,
      );
      const reply = result as unknown as {
        init: { status: number };
        data: { result: { error: Record<string, string[]>; initialValue: Record<string, string> } };
      };
      expect(reply.init.status).toBe(400);
      expect(reply.data.result.error.reason).toEqual(["adminOrders.errors.reasonRequired"]);
      // The row is named, and what was typed comes back.
      expect(reply.data.result.initialValue).toMatchObject({ orderId: placed.id, reason: "   " });
      const stale = await post({ intent: "markShipped", orderId: placed.id, expected: "paid" }, ADMIN);
      expect((stale.result as unknown as { init: { status: number } }).init.status).toBe(400);
      const after = await db.selectFrom("orders").selectAll().where("id", "=", placed.id).executeTakeFirstOrThrow();
      expect(after).toEqual(before);
      await deliverDueMessages(svc);
      expect(mailer.sent).toEqual([]);
    });

    it("refuses a customer or a visitor with 403, and shows the summary only to an admin", async () => {
      const placed = await orderAt(3);
      const before = await db.selectFrom("orders").selectAll().where("id", "=", placed.id).executeTakeFirstOrThrow();
      const customer: CurrentUser = { id: placed.user_id ?? "", email: placed.email, isAdmin: false, role: null };
      for (const user of [customer, null]) {
        for (const intent of ["markPaid", "rejectReceipt"]) {
          const { thrown } = await post(
            { intent, orderId: placed.id, expected: "pending_payment", reason: "Not yours" },
            user,
          );
          expect((thrown as Response).status).toBe(403);
        }
        const page = await runRoute(svc, dashboardLoader, new Request("http://localhost/admin"), user);
        expect((page.thrown as Response).headers.get("Location")).toBe("/admin/login");
      }
      const after = await db.selectFrom("orders").selectAll().where("id", "=", placed.id).executeTakeFirstOrThrow();
      expect(after).toEqual(before);

      const list = await runRoute(svc, listLoader, new Request(listUrl), ADMIN);
      const listed = list.result as { status: string; queue: { waiting: number }; orders: { id: string }[] };
      expect(listed.status).toBe("review");
      expect(listed.queue.waiting).toBe(1);
      expect(listed.orders.map((row) => row.id)).toEqual([placed.id]);
      const dashboard = await runRoute(svc, dashboardLoader, new Request("http://localhost/admin"), ADMIN);
      // Its receipt is in review: counted there, and not also as awaiting payment.
      expect(dashboard.result).toMatchObject({
        queue: { waiting: 1 },
        unpaid: { under24h: 0, from24hTo48h: 0, overdue: 0 },
      });
    });
  });
});
