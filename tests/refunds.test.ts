import { describe, expect, test } from "vitest";
import type { DB } from "#db/connect.server";
import { readFieldMessage, UserError } from "~/lib/problem";
import { getBusinessMetrics } from "~/models/analytics.server";
import { findCustomer } from "~/models/customers.server";
import { transitionOrder } from "~/models/orders/desk.server";
import { canRefund, listOrderRefunds, refundOrder, refundState, unitsPutBack } from "~/models/orders/refunds.server";
import { action, loader } from "~/routes/admin/order";
import { loader as shopperLoader } from "~/routes/store/account-order";
import { createProduct, createSignedIn, placeTestOrder, TEST_CONFIG, variantStock } from "./factories";
import { freshTestServices } from "./setup/db";
import { adminAccount, dataOf, formOf, runRoute, statusOf } from "./setup/route";

/*
 * Refunds (issue 29 item 1, docs/decisions/057) on a real database — SQLite, and PostgreSQL in
 * the `postgres` project.
 */

async function orderRow(db: DB, id: string) {
  return db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

/** A paid order: 3 Black (HK$100.00 each) and 2 Red (HK$50.00 each) of one product, stock 5 each before. */
async function paidOrder(db: DB, options: { locale?: "en" | "zh"; status?: "pending" | "paid" } = {}) {
  const admin = await createSignedIn(db, { admin: true });
  const product = await createProduct(db, {
    price_hkd_cents: 100_00,
    variants: [
      ["Black", 5],
      ["Red", 5],
    ],
  });
  const { order } = await placeTestOrder(db, {
    lines: [
      { productId: product.id, color: "Black", quantity: 3 },
      { productId: product.id, color: "Red", quantity: 2 },
    ],
    locale: options.locale,
  });
  const paid =
    options.status === "pending"
      ? order
      : await transitionOrder(db, TEST_CONFIG, admin, {
          orderId: order.id,
          transition: "markPaid",
          expected: "pending_payment",
        });
  const lines = await db
    .selectFrom("order_lines")
    .select(["id", "color", "quantity"])
    .where("order_id", "=", order.id)
    .orderBy("id")
    .execute();
  return { admin, product, order: paid, lines };
}

/** The refusal a promise ends in, its key without the parameters a field message carries. */
async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UserError);
  const refused = error as UserError;
  return {
    status: refused.status,
    problem: refused.problem,
    params: refused.params,
    key: readFieldMessage(refused.key).key,
  };
}

describe("refund limits", () => {
  test("more than paid minus refunded, zero, negative or fractional amounts are refused at the amount", async () => {
    const { db } = await freshTestServices();
    const { admin, order } = await paidOrder(db);
    const base = { orderId: order.id, reason: "Damaged", expectedRefundedCents: 0, restock: [] };
    for (const amountCents of [0, -100, 1.5]) {
      const error = await refusal(refundOrder(db, TEST_CONFIG, admin, { ...base, amountCents }));
      expect([error.status, error.problem.field, error.key]).toEqual([400, "amount", "refunds.errors.amountInvalid"]);
    }
    const tooMuch = await refusal(refundOrder(db, TEST_CONFIG, admin, { ...base, amountCents: order.total_cents + 1 }));
    expect([tooMuch.status, tooMuch.problem.field, tooMuch.key]).toEqual([
      400,
      "amount",
      "refunds.errors.amountTooHigh",
    ]);
    const noReason = await refusal(refundOrder(db, TEST_CONFIG, admin, { ...base, amountCents: 100, reason: " " }));
    expect(noReason.problem.field).toBe("reason");
    expect((await orderRow(db, order.id)).refunded_cents).toBe(0);
    expect(await listOrderRefunds(db, order.id)).toEqual([]);
  });

  test("an unpaid order, or one cancelled before it was paid, cannot be refunded (409)", async () => {
    const { db } = await freshTestServices();
    const { admin, order } = await paidOrder(db, { status: "pending" });
    const input = { orderId: order.id, amountCents: 100, reason: "x", expectedRefundedCents: 0, restock: [] };
    const unpaid = await refusal(refundOrder(db, TEST_CONFIG, admin, input));
    expect([unpaid.status, unpaid.key]).toEqual([409, "refunds.errors.notPaid"]);
    expect(canRefund(order)).toBe(false);
    const cancelled = await transitionOrder(db, TEST_CONFIG, admin, {
      orderId: order.id,
      transition: "cancel",
      expected: "pending_payment",
    });
    expect(canRefund(cancelled)).toBe(false);
    expect((await refusal(refundOrder(db, TEST_CONFIG, admin, input))).status).toBe(409);
  });

  test("partial then full: the running total, the state, and nothing more once all is refunded", async () => {
    const { db } = await freshTestServices();
    const { admin, order } = await paidOrder(db);
    expect(order.total_cents).toBeGreaterThan(400_00);
    const first = await refundOrder(db, TEST_CONFIG, admin, {
      orderId: order.id,
      amountCents: 120_00,
      reason: "One sight was scratched",
      expectedRefundedCents: 0,
      restock: [],
    });
    expect(first.order.refunded_cents).toBe(120_00);
    expect(refundState(first.order)).toBe("partial");
    const rest = order.total_cents - 120_00;
    // A stale form (it saw 0 refunded) is refused: the order changed.
    const stale = await refusal(
      refundOrder(db, TEST_CONFIG, admin, {
        orderId: order.id,
        amountCents: rest,
        reason: "All",
        expectedRefundedCents: 0,
        restock: [],
      }),
    );
    expect([stale.status, stale.key]).toEqual([409, "refunds.errors.changedMeanwhile"]);
    const second = await refundOrder(db, TEST_CONFIG, admin, {
      orderId: order.id,
      amountCents: rest,
      reason: "Gun could not be sent",
      expectedRefundedCents: 120_00,
      restock: [],
    });
    expect(second.order.refunded_cents).toBe(order.total_cents);
    expect(refundState(second.order)).toBe("full");
    expect(canRefund(second.order)).toBe(false);
    const more = await refusal(
      refundOrder(db, TEST_CONFIG, admin, {
        orderId: order.id,
        amountCents: 1,
        reason: "x",
        expectedRefundedCents: order.total_cents,
        restock: [],
      }),
    );
    expect([more.problem.field, more.key]).toEqual(["amount", "refunds.errors.amountTooHigh"]);
    const refunds = await listOrderRefunds(db, order.id);
    expect(refunds.map((refund) => [refund.amount_cents, refund.reason, refund.actor, refund.currency])).toEqual([
      [120_00, "One sight was scratched", admin.email, "HKD"],
      [rest, "Gun could not be sent", admin.email, "HKD"],
    ]);
  });

  test("two admins refunding at once: exactly one succeeds, the other gets 409", async () => {
    const { db } = await freshTestServices();
    const { admin, order } = await paidOrder(db);
    const other = await createSignedIn(db, { admin: true });
    const input = {
      orderId: order.id,
      amountCents: order.total_cents,
      reason: "Out of stock at the supplier",
      expectedRefundedCents: 0,
      restock: [],
    };
    const results = await Promise.allSettled([
      refundOrder(db, TEST_CONFIG, admin, input),
      refundOrder(db, TEST_CONFIG, other, input),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((result) => result.status === "rejected");
    expect(rejected?.status === "rejected" && rejected.reason).toBeInstanceOf(UserError);
    expect(rejected?.status === "rejected" && (rejected.reason as UserError).status).toBe(409);
    expect((await orderRow(db, order.id)).refunded_cents).toBe(order.total_cents);
    expect(await listOrderRefunds(db, order.id)).toHaveLength(1);
  });
});

// PostgreSQL runs the two transactions side by side (read committed): the second admin's refund
// reads the order before the first commits, so only the compare-and-set can stop it. SQLite runs
// write transactions one at a time (the test above covers it there).
test.runIf(process.env.SHOP_TEST_DATABASE === "postgres")(
  "PostgreSQL: a refund that read the order before another committed is stopped by the compare-and-set",
  async () => {
    const { db } = await freshTestServices();
    const { admin, order } = await paidOrder(db);
    const first = await db.startTransaction().execute();
    await first
      .updateTable("orders")
      .set((eb) => ({ refunded_cents: eb("refunded_cents", "+", 100_00) }))
      .where("id", "=", order.id)
      .execute();
    const second = refundOrder(db, TEST_CONFIG, admin, {
      orderId: order.id,
      amountCents: order.total_cents,
      reason: "All of it",
      expectedRefundedCents: 0,
      restock: [],
    }).then(
      () => null,
      (error: unknown) => error,
    );
    // The second refund has read 0 refunded and waits on the row's lock.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await first.commit().execute();
    const error = await second;
    expect(error).toBeInstanceOf(UserError);
    expect([(error as UserError).status, (error as UserError).key]).toEqual([409, "refunds.errors.changedMeanwhile"]);
    expect((await orderRow(db, order.id)).refunded_cents).toBe(100_00);
  },
);

describe("stock back per line", () => {
  test("units go back to their line's variant once: a second refund cannot put back more than was sold", async () => {
    const { db } = await freshTestServices();
    const { admin, product, order, lines } = await paidOrder(db);
    const [black, red] = lines;
    if (!black || !red) throw new Error("two lines expected");
    expect([await variantStock(db, product.id, "Black"), await variantStock(db, product.id, "Red")]).toEqual([2, 3]);
    await refundOrder(db, TEST_CONFIG, admin, {
      orderId: order.id,
      amountCents: 100_00,
      reason: "Returned one",
      expectedRefundedCents: 0,
      restock: [
        { lineId: black.id, quantity: 2 },
        { lineId: red.id, quantity: 0 },
      ],
    });
    expect([await variantStock(db, product.id, "Black"), await variantStock(db, product.id, "Red")]).toEqual([4, 3]);
    expect(Object.fromEntries(await unitsPutBack(db, order.id))).toEqual({ [black.id]: 2 });
    // One Black left to put back: two more are refused, on that line's field, and nothing changes.
    const tooMany = await refusal(
      refundOrder(db, TEST_CONFIG, admin, {
        orderId: order.id,
        amountCents: 100_00,
        reason: "Returned more",
        expectedRefundedCents: 100_00,
        restock: [
          { lineId: red.id, quantity: 1 },
          { lineId: black.id, quantity: 2 },
        ],
      }),
    );
    expect([tooMany.status, tooMany.problem.field, tooMany.key, tooMany.params.max]).toEqual([
      400,
      "restock[1].quantity",
      "refunds.errors.restockTooMany",
      1,
    ]);
    expect([await variantStock(db, product.id, "Black"), await variantStock(db, product.id, "Red")]).toEqual([4, 3]);
    expect((await orderRow(db, order.id)).refunded_cents).toBe(100_00);
    await refundOrder(db, TEST_CONFIG, admin, {
      orderId: order.id,
      amountCents: 100_00,
      reason: "Returned more",
      expectedRefundedCents: 100_00,
      restock: [
        { lineId: red.id, quantity: 2 },
        { lineId: black.id, quantity: 1 },
      ],
    });
    expect([await variantStock(db, product.id, "Black"), await variantStock(db, product.id, "Red")]).toEqual([5, 5]);
    const refunds = await listOrderRefunds(db, order.id);
    expect(refunds[1]?.lines).toEqual(
      [
        { order_line_id: black.id, quantity: 1 },
        { order_line_id: red.id, quantity: 2 },
      ].sort((a, b) => a.order_line_id - b.order_line_id),
    );
  });

  test("cancelling after a refund put units back restocks only the rest; refunding a cancelled paid order puts nothing back", async () => {
    const { db } = await freshTestServices();
    const { admin, product, order, lines } = await paidOrder(db);
    const [black] = lines;
    if (!black) throw new Error("a line expected");
    await refundOrder(db, TEST_CONFIG, admin, {
      orderId: order.id,
      amountCents: 100_00,
      reason: "One came back",
      expectedRefundedCents: 0,
      restock: [{ lineId: black.id, quantity: 1 }],
    });
    expect(await variantStock(db, product.id, "Black")).toBe(3);
    const cancelled = await transitionOrder(db, TEST_CONFIG, admin, {
      orderId: order.id,
      transition: "cancel",
      expected: "paid",
    });
    // 3 sold, 1 already back: the cancel puts back 2, never 3.
    expect([await variantStock(db, product.id, "Black"), await variantStock(db, product.id, "Red")]).toEqual([5, 5]);
    expect(canRefund(cancelled)).toBe(true);
    const restock = await refusal(
      refundOrder(db, TEST_CONFIG, admin, {
        orderId: order.id,
        amountCents: 100_00,
        reason: "Cancelled",
        expectedRefundedCents: 100_00,
        restock: [{ lineId: black.id, quantity: 1 }],
      }),
    );
    expect([restock.problem.field, restock.key]).toEqual(["restock[0].quantity", "refunds.errors.restockCancelled"]);
    const rest = await refundOrder(db, TEST_CONFIG, admin, {
      orderId: order.id,
      amountCents: order.total_cents - 100_00,
      reason: "Cancelled: the rest",
      expectedRefundedCents: 100_00,
      restock: [{ lineId: black.id, quantity: 0 }],
    });
    expect(refundState(rest.order)).toBe("full");
    expect(await variantStock(db, product.id, "Black")).toBe(5);
  });
});

describe("what a refund leaves behind", () => {
  test("the audit entry and the shopper's e-mail in the order's language, queued in the outbox", async () => {
    const { db } = await freshTestServices();
    const { admin, order } = await paidOrder(db, { locale: "zh" });
    await refundOrder(db, TEST_CONFIG, admin, {
      orderId: order.id,
      amountCents: 50_00,
      reason: "瞄準鏡刮花",
      expectedRefundedCents: 0,
      restock: [],
    });
    const audit = await db
      .selectFrom("audit_log")
      .select(["actor_user_id", "details"])
      .where("entity_type", "=", "order")
      .where("entity_id", "=", order.id)
      .where("action", "=", "order.refunded")
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actor_user_id).toBe(admin.id);
    expect(JSON.parse(audit[0]?.details ?? "{}")).toMatchObject({
      before: { refunded_cents: 0 },
      after: { refunded_cents: 50_00, amount_cents: 50_00, reason: "瞄準鏡刮花" },
    });
    const mails = await db
      .selectFrom("outbox_messages")
      .select(["recipient", "language", "subject", "payload"])
      .where("order_id", "=", order.id)
      .where("event", "=", "order.refunded")
      .execute();
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail?.recipient).toBe(order.email);
    expect(mail?.language).toBe("zh");
    expect(mail?.subject).toBe(`你的訂單 ${order.order_number} 已部分退款`);
    const text = (JSON.parse(mail?.payload ?? "{}") as { text: string }).text;
    expect(text).toContain("HK$50.00");
    expect(text).toContain("瞄準鏡刮花");
  });

  test("a webhook subscribed to order.refunded is told the refund and the order's refunded total, in the refund's transaction", async () => {
    const { db } = await freshTestServices();
    const { admin, order } = await paidOrder(db);
    const at = new Date().toISOString();
    await db
      .insertInto("webhooks")
      .values({
        id: crypto.randomUUID(),
        url: "https://books.example.com/hook",
        secret: "whsec_refunds",
        events: JSON.stringify(["order.refunded"]),
        created_at: at,
        updated_at: at,
        secret_created_at: at,
      })
      .execute();
    const deliveries = () =>
      db
        .selectFrom("outbox_messages")
        .select(["payload"])
        .where("channel", "=", "webhook")
        .where("event", "=", "order.refunded")
        .execute();
    // A refused refund tells nobody.
    await refusal(
      refundOrder(db, TEST_CONFIG, admin, {
        orderId: order.id,
        amountCents: order.total_cents + 1,
        reason: "Too much",
        expectedRefundedCents: 0,
        restock: [],
      }),
    );
    expect(await deliveries()).toHaveLength(0);
    const { refundId } = await refundOrder(db, TEST_CONFIG, admin, {
      orderId: order.id,
      amountCents: 30_00,
      reason: "Scratched scope",
      expectedRefundedCents: 0,
      restock: [],
    });
    const sent = await deliveries();
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]?.payload ?? "{}")).toMatchObject({
      event: "order.refunded",
      refund: { id: refundId, amount_cents: 30_00, currency: "HKD", reason: "Scratched scope" },
      order: { number: order.order_number, amount_cents: order.total_cents, refunded_cents: 30_00 },
    });
  });

  test("dashboard revenue and the customer's total spent are net of refunds", async () => {
    const { db } = await freshTestServices();
    const { admin, order } = await paidOrder(db);
    const revenue = async () => (await getBusinessMetrics(db)).revenue.find((row) => row.currency === "HKD")?.cents;
    const spent = async () =>
      (await findCustomer(db, order.user_id ?? ""))?.customer.totals.find((row) => row.currency === "HKD")?.cents;
    expect(await revenue()).toBe(order.total_cents);
    expect(await spent()).toBe(order.total_cents);
    await refundOrder(db, TEST_CONFIG, admin, {
      orderId: order.id,
      amountCents: 75_00,
      reason: "Late delivery",
      expectedRefundedCents: 0,
      restock: [],
    });
    expect(await revenue()).toBe(order.total_cents - 75_00);
    expect(await spent()).toBe(order.total_cents - 75_00);
  });
});

describe("the refund form (admin order page)", () => {
  const url = (id: string) => `http://localhost/admin/orders/${id}`;

  test("bad input comes back 400 with the input kept and the error on its field; nothing is refunded", async () => {
    const svc = await freshTestServices();
    const { order, lines } = await paidOrder(svc.db);
    const staff = await adminAccount(svc, "staff");
    const [black] = lines;
    if (!black) throw new Error("a line expected");
    const fields = {
      intent: "refund",
      expectedRefunded: "0",
      amount: "99999.99",
      reason: "Scope scratched",
      "restock[0].line": String(black.id),
      "restock[0].quantity": "1",
    };
    const tooMuch = await runRoute(
      svc,
      action,
      new Request(url(order.id), { method: "POST", body: formOf(fields) }),
      staff,
      { id: order.id },
    );
    expect(statusOf(tooMuch.result)).toBe(400);
    const answer = dataOf<{ result: { initialValue: Record<string, unknown>; error: Record<string, string[]> } }>(
      tooMuch.result,
    );
    expect(answer.result.initialValue).toMatchObject({ amount: "99999.99", reason: "Scope scratched" });
    expect(answer.result.error.amount?.[0]).toMatch(/^refunds\.errors\.amountTooHigh\?max=/);
    const blank = await runRoute(
      svc,
      action,
      new Request(url(order.id), { method: "POST", body: formOf({ ...fields, amount: "0", reason: "" }) }),
      staff,
      { id: order.id },
    );
    expect(statusOf(blank.result)).toBe(400);
    const errors = dataOf<{ result: { error: Record<string, string[]> } }>(blank.result).result.error;
    expect(errors.amount).toEqual(["refunds.errors.amountInvalid"]);
    expect(errors.reason).toEqual(["refunds.errors.reasonRequired"]);
    expect((await orderRow(svc.db, order.id)).refunded_cents).toBe(0);
  });

  test("staff may refund (as they may cancel); the page and the shopper's page then show it; a customer gets 403", async () => {
    const svc = await freshTestServices();
    const { order, lines, product } = await paidOrder(svc.db);
    const staff = await adminAccount(svc, "staff");
    const [black] = lines;
    if (!black) throw new Error("a line expected");
    const body = () =>
      formOf({
        intent: "refund",
        expectedRefunded: "0",
        amount: "100.50",
        reason: "Magazine missing",
        "restock[0].line": String(black.id),
        "restock[0].quantity": "1",
      });
    const customer = { id: order.user_id ?? "", email: order.email, isAdmin: false, role: null };
    const refused = await runRoute(
      svc,
      action,
      new Request(url(order.id), { method: "POST", body: body() }),
      customer,
      {
        id: order.id,
      },
    );
    expect((refused.thrown as Response).status).toBe(403);
    expect((await orderRow(svc.db, order.id)).refunded_cents).toBe(0);

    const done = await runRoute(svc, action, new Request(url(order.id), { method: "POST", body: body() }), staff, {
      id: order.id,
    });
    expect((done.result as Response).status).toBe(302);
    expect((done.result as Response).headers.get("Location")).toBe(`/admin/orders/${order.id}`);
    expect(done.flash).toMatchObject({ type: "success", key: "refunds.done" });
    expect((await orderRow(svc.db, order.id)).refunded_cents).toBe(100_50);
    expect(await variantStock(svc.db, product.id, "Black")).toBe(3);

    const page = await runRoute(svc, loader, new Request(url(order.id)), staff, { id: order.id });
    const shown = page.result as Awaited<ReturnType<typeof loader>>;
    expect(shown.refundable).toBe(true);
    expect(shown.putBack).toEqual({ [black.id]: 1 });
    expect(shown.refunds.map((refund) => [refund.amount_cents, refund.reason, refund.actor])).toEqual([
      [100_50, "Magazine missing", staff.email],
    ]);
    const own = await runRoute(
      svc,
      shopperLoader,
      new Request(`http://localhost/account/orders/${order.id}`),
      customer,
      { id: order.id },
    );
    const mine = own.result as Awaited<ReturnType<typeof shopperLoader>>;
    expect(mine.refunds).toEqual([
      expect.objectContaining({ amount_cents: 100_50, reason: "Magazine missing", currency: "HKD" }),
    ]);
    expect(JSON.stringify(mine.refunds)).not.toContain(staff.email);
  });
});
