import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import { transitionOrder } from "~/models/orders/desk.server";
import { replaceReceipt } from "~/models/orders/receipts.server";
import { listOrderHistory, listOrdersForUser } from "~/models/orders/shopper.server";
import { shownStatus } from "~/models/orders/status";
import type { CurrentUser } from "~/request/auth.server";
import { loader as orderLoader } from "~/routes/store/account-order";
import { loader as ordersLoader } from "~/routes/store/account-orders";
import { createSignedIn, placeOrderWithReceipt, placeTestOrder } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { runRoute } from "./setup/route";

/**
 * What the customer is told about their payment: after the receipt upload the order says
 * "Receipt in review" (not "Awaiting payment") and its history shows the receipt sent with the
 * order; after the shop rejects the receipt, the order says so and its history shows the
 * rejection with the reason; a new receipt puts it back in review and is in the history too.
 */

let svc: TestServices;
let db: DB;
let ADMIN: CurrentUser;
beforeEach(async () => {
  svc = await freshTestServices();
  db = svc.db;
  ADMIN = await createSignedIn(db, { email: "desk@shop.hk", admin: true });
});

const placedOrder = () => placeOrderWithReceipt(db);

describe("shownStatus", () => {
  it("says where the receipt stands while payment is pending, else the status", () => {
    const pending = { status: "pending_payment" as const, receipt_path: "r.jpg", receipt_rejected_reason: null };
    expect(shownStatus(pending)).toBe("receipt_checking");
    expect(shownStatus({ ...pending, receipt_rejected_reason: "Wrong amount" })).toBe("receipt_rejected");
    expect(shownStatus({ ...pending, receipt_path: null })).toBe("pending_payment");
    expect(shownStatus({ ...pending, status: "paid" })).toBe("paid");
    expect(shownStatus({ ...pending, status: "cancelled", receipt_rejected_reason: "x" })).toBe("cancelled");
  });
});

describe("a receipt from upload to rejection to a new one", () => {
  it("is told to the customer on their order list, order page and its history", async () => {
    const { order, customer } = await placedOrder();
    const list = async () => (await listOrdersForUser(db, customer.id)).map((row) => row.shown_status);
    const page = async () => {
      const { result } = await runRoute(
        svc,
        orderLoader,
        new Request(`http://localhost/account/orders/${order.id}`),
        customer,
        { id: order.id },
      );
      return result as Awaited<ReturnType<typeof orderLoader>>;
    };

    // Just bought: the receipt is in review, and the history shows it was sent with the order.
    expect(await list()).toEqual(["receipt_checking"]);
    expect((await page()).status).toBe("receipt_checking");
    expect((await page()).history).toEqual([
      { kind: "placed", at: order.created_at },
      { kind: "receiptSent", at: order.created_at },
    ]);
    const { result: listed } = await runRoute(
      svc,
      ordersLoader,
      new Request("http://localhost/account/orders"),
      customer,
    );
    expect((listed as Awaited<ReturnType<typeof ordersLoader>>).orders[0]).toMatchObject({
      shown_status: "receipt_checking",
    });
    // The receipt's storage key is not sent to the page with the list.
    expect(Object.keys((listed as Awaited<ReturnType<typeof ordersLoader>>).orders[0] ?? {})).not.toContain(
      "receipt_path",
    );

    // The shop rejects it with a reason.
    await transitionOrder(db, svc.config, ADMIN, {
      orderId: order.id,
      transition: "rejectReceipt",
      expected: "pending_payment",
      reason: "The amount does not match",
    });
    expect(await list()).toEqual(["receipt_rejected"]);
    const rejected = await page();
    expect(rejected.status).toBe("receipt_rejected");
    expect(rejected.history).toEqual([
      { kind: "placed", at: order.created_at },
      { kind: "receiptSent", at: order.created_at },
      { kind: "receiptRejected", at: expect.any(String), reason: "The amount does not match" },
    ]);

    // A new receipt: being checked again; both steps stay in the history.
    const replaced = await replaceReceipt(db, svc.config, {
      orderId: order.id,
      userId: customer.id,
      receiptPath: `receipts/${customer.id}/second.jpg`,
    });
    expect(replaced).toEqual({ previous: `receipts/${customer.id}/first.jpg` });
    expect(await list()).toEqual(["receipt_checking"]);
    expect((await page()).history.map((entry) => entry.kind)).toEqual([
      "placed",
      "receiptSent",
      "receiptRejected",
      "receiptReplaced",
    ]);
    const audit = await db
      .selectFrom("audit_log")
      .select(["action", "actor_user_id"])
      .where("entity_id", "=", order.id)
      .where("action", "=", "order.receiptReplaced")
      .execute();
    expect(audit).toEqual([{ action: "order.receiptReplaced", actor_user_id: customer.id }]);

    // Not waiting for a receipt any more: a second upload is refused and changes nothing.
    expect(
      await replaceReceipt(db, svc.config, {
        orderId: order.id,
        userId: customer.id,
        receiptPath: "receipts/third.jpg",
      }),
    ).toBeNull();

    // Paid: the status says so, and the history goes on.
    await transitionOrder(db, svc.config, ADMIN, {
      orderId: order.id,
      transition: "markPaid",
      expected: "pending_payment",
    });
    expect(await list()).toEqual(["paid"]);
    expect((await page()).history.map((entry) => entry.kind)).toEqual([
      "placed",
      "receiptSent",
      "receiptRejected",
      "receiptReplaced",
      "paid",
    ]);
    expect((await listOrderHistory(db, (await page()).order)).at(-1)?.kind).toBe("paid");
  });

  it("an order placed to pay later shows the receipt when it is sent from the order page", async () => {
    const customer = await createSignedIn(db);
    const { order } = await placeTestOrder(db, {
      user: await db.selectFrom("users").selectAll().where("id", "=", customer.id).executeTakeFirstOrThrow(),
      receiptPath: null,
    });
    const history = async () =>
      listOrderHistory(
        db,
        await db.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow(),
      );
    expect((await history()).map((entry) => entry.kind)).toEqual(["placed"]);
    await replaceReceipt(db, svc.config, { orderId: order.id, userId: customer.id, receiptPath: "receipts/later.jpg" });
    expect((await history()).map((entry) => entry.kind)).toEqual(["placed", "receiptSent"]);
    await transitionOrder(db, svc.config, ADMIN, {
      orderId: order.id,
      transition: "rejectReceipt",
      expected: "pending_payment",
      reason: "Blurred",
    });
    await replaceReceipt(db, svc.config, { orderId: order.id, userId: customer.id, receiptPath: "receipts/again.jpg" });
    expect((await history()).map((entry) => entry.kind)).toEqual([
      "placed",
      "receiptSent",
      "receiptRejected",
      "receiptReplaced",
    ]);
  });

  it("a new receipt is only for the order's customer, after a rejection", async () => {
    const { order, customer } = await placedOrder();
    // Not rejected: nothing to replace.
    expect(
      await replaceReceipt(db, svc.config, { orderId: order.id, userId: customer.id, receiptPath: "x.jpg" }),
    ).toBeNull();
    await transitionOrder(db, svc.config, ADMIN, {
      orderId: order.id,
      transition: "rejectReceipt",
      expected: "pending_payment",
      reason: "Blurred",
    });
    // Someone else's order: refused.
    const { customer: other } = await placedOrder();
    expect(
      await replaceReceipt(db, svc.config, { orderId: order.id, userId: other.id, receiptPath: "x.jpg" }),
    ).toBeNull();
    const row = await db
      .selectFrom("orders")
      .select(["receipt_path", "receipt_rejected_reason"])
      .where("id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ receipt_path: `receipts/${customer.id}/first.jpg`, receipt_rejected_reason: "Blurred" });
  });
});
