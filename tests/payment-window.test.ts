import jsQR from "jsqr";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { CurrentUser } from "~/request/auth.server";
import { action as adminOrderAction } from "~/routes/admin/order";
import { action as orderPageAction, loader as orderPageLoader } from "~/routes/store/account-order";
import { action as paymentAction, loader as paymentLoader } from "~/routes/store/payment";
import { loader as successLoader } from "~/routes/store/payment-success";
import { shopDetailsSchema } from "~/schemas/shop";
import { addPrimaryBankAccount, createSignedIn, placeTestOrder, variantStock } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { formOf, runRoute, shopperAtPayment } from "./setup/route";

/*
 * The payment window through the real routes (issue 18): the payment page says the deadline and
 * places an order to pay later; the success and order pages show the deadline; the order page
 * takes the receipt later; an admin extends the deadline (and bad or stale extensions are 4xx).
 */

const HOUR = 60 * 60 * 1000;

function post(path: string, fields: Record<string, string | Blob>) {
  return new Request(`http://localhost${path}`, { method: "POST", body: formOf(fields) });
}

async function jpeg(): Promise<File> {
  const bytes = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#246" } })
    .jpeg()
    .toBuffer();
  return new File([new Uint8Array(bytes)], "receipt.jpg", { type: "image/jpeg" });
}

describe("the payment page", () => {
  it("says the deadline an order placed now gets, from PAYMENT_WINDOW_HOURS", async () => {
    const svc = await freshTestServices({ paymentWindowHours: 36, demoMode: true });
    const { user, ctx } = await shopperAtPayment(svc);
    const before = Date.now();
    const { result } = await runRoute(svc, paymentLoader, new Request("http://localhost/payment"), user, {}, ctx);
    const page = result as { ready: true; paymentWindow: { hours: number; deadline: string } };
    expect(page.paymentWindow.hours).toBe(36);
    const due = new Date(page.paymentWindow.deadline).getTime();
    expect(due).toBeGreaterThanOrEqual(before + 36 * HOUR);
    expect(due).toBeLessThan(before + 36 * HOUR + 60_000);
  });

  it("places an order to pay later without a receipt; the success page shows its deadline", async () => {
    const svc = await freshTestServices({ demoMode: true });
    const { user, ctx, submissionKey, product } = await shopperAtPayment(svc);
    const { result, flash } = await runRoute(
      svc,
      paymentAction,
      post("/payment", { submissionKey, intent: "later" }),
      user,
      {},
      ctx,
    );
    expect((result as Response).status).toBe(302);
    expect(flash).toMatchObject({ key: "payment.placedUnpaid", detailKey: "payment.placedUnpaidDetail" });
    const order = await svc.db
      .selectFrom("orders")
      .selectAll()
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(order.receipt_path).toBeNull();
    expect(order.payment_due_at).toBe(new Date(new Date(order.created_at).getTime() + 48 * HOUR).toISOString());
    expect(await variantStock(svc.db, product.id)).toBe(3);
    expect((result as Response).headers.get("Location")).toBe(`/payment-success?order=${order.order_number}`);

    const success = await runRoute(
      svc,
      successLoader,
      new Request(`http://localhost/payment-success?order=${order.order_number}`),
      user,
    );
    expect((success.result as { deadline: unknown }).deadline).toEqual({
      dueAt: order.payment_due_at,
      running: true,
      overdue: false,
    });
  });

  it("still wants the receipt from Submit Payment: no file is a 400 and no order", async () => {
    const svc = await freshTestServices({ demoMode: true });
    const { user, ctx, submissionKey, product } = await shopperAtPayment(svc);
    const { result } = await runRoute(svc, paymentAction, post("/payment", { submissionKey }), user, {}, ctx);
    const answer = result as unknown as { init: { status: number }; data: { problem: { key: string } } };
    expect(answer.init.status).toBe(400);
    expect(answer.data.problem.key).toBe("payment.required");
    expect(await svc.db.selectFrom("orders").select("id").where("user_id", "=", user.id).execute()).toHaveLength(0);
    expect(await variantStock(svc.db, product.id)).toBe(4);
  });
});

describe("the order page of an order placed to pay later", () => {
  it("shows the running deadline and how to pay, takes the receipt once, then says the clock is paused", async () => {
    const svc = await freshTestServices({ demoMode: true });
    const { order, user: row } = await placeTestOrder(svc.db, { receiptPath: null });
    const user: CurrentUser = { id: row.id, email: row.email, isAdmin: false, role: null };
    const path = `/account/orders/${order.id}`;
    const page = await runRoute(svc, orderPageLoader, new Request(`http://localhost${path}`), user, { id: order.id });
    expect(page.result).toMatchObject({
      deadline: { dueAt: order.payment_due_at, running: true, overdue: false },
      instructions: { kind: expect.any(String) },
    });

    const sent = await runRoute(svc, orderPageAction, post(path, { receipt: await jpeg() }), user, { id: order.id });
    expect((sent.result as Response).status).toBe(302);
    const after = await svc.db.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(after.receipt_path).toMatch(new RegExp(`^receipts/${user.id}/`));
    expect(after.receipt_uploaded_at).not.toBeNull();

    // A receipt waiting for review: no second upload, and the page says the clock is paused.
    const again = await runRoute(svc, orderPageAction, post(path, { receipt: await jpeg() }), user, { id: order.id });
    expect((again.result as unknown as { init: { status: number } }).init.status).toBe(409);
    const paused = await runRoute(svc, orderPageLoader, new Request(`http://localhost${path}`), user, {
      id: order.id,
    });
    expect(paused.result).toMatchObject({ deadline: { running: false }, instructions: null });
  });
});

it("an order placed before deadlines with a rejected receipt still takes a new one", async () => {
  const svc = await freshTestServices({ demoMode: true });
  const { order, user: row } = await placeTestOrder(svc.db);
  await svc.db
    .updateTable("orders")
    .set({ payment_due_at: null, payment_reminder_due_at: null, receipt_rejected_reason: "Blurred" })
    .where("id", "=", order.id)
    .execute();
  const user: CurrentUser = { id: row.id, email: row.email, isAdmin: false, role: null };
  const page = await runRoute(svc, orderPageLoader, new Request(`http://localhost/account/orders/${order.id}`), user, {
    id: order.id,
  });
  expect(page.result).toMatchObject({ deadline: null, awaitingReceipt: true });
});

it("the order page's FPS QR code carries the order's total and its number as the bill number", async () => {
  const svc = await freshTestServices({ demoMode: false });
  await addPrimaryBankAccount(svc.db, { swift_code: null });
  const { order, user: row } = await placeTestOrder(svc.db, { receiptPath: null });
  const user: CurrentUser = { id: row.id, email: row.email, isAdmin: false, role: null };
  const page = await runRoute(svc, orderPageLoader, new Request(`http://localhost/account/orders/${order.id}`), user, {
    id: order.id,
  });
  const svg = (page.result as { fpsQr: { svg: string } | null }).fpsQr?.svg ?? "";
  const { data, info } = await sharp(Buffer.from(svg)).resize(400).ensureAlpha().raw().toBuffer({
    resolveWithObject: true,
  });
  const payload = jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data ?? "";
  const amount = (order.total_cents / 100).toFixed(2);
  expect(payload).toContain(`54${String(amount.length).padStart(2, "0")}${amount}`);
  expect(payload).toContain(`01${String(order.order_number.length).padStart(2, "0")}${order.order_number}`);
  expect(payload).toContain("1648203");
});

describe("an admin extends a deadline from the order page", () => {
  async function unpaid(svc: TestServices) {
    const { order } = await placeTestOrder(svc.db, { receiptPath: null });
    const admin = await createSignedIn(svc.db, { admin: true });
    const path = `/admin/orders/${order.id}`;
    const extend = (fields: Record<string, string>, who: CurrentUser = admin) =>
      runRoute(svc, adminOrderAction, post(path, { intent: "extendDeadline", ...fields }), who, { id: order.id });
    return { order, extend };
  }

  it("moves the deadline by the chosen hours, with a flash naming the new one", async () => {
    const svc = await freshTestServices();
    const { order, extend } = await unpaid(svc);
    const { result, flash } = await extend({ hours: "72", expectedDueAt: order.payment_due_at ?? "" });
    expect((result as Response).status).toBe(302);
    expect((result as Response).headers.get("Location")).toBe(`/admin/orders/${order.id}`);
    expect(flash).toMatchObject({ key: "adminOrders.deadline.extended" });
    const after = await svc.db.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(new Date(after.payment_due_at ?? "").getTime() - new Date(order.payment_due_at ?? "").getTime()).toBe(
      72 * HOUR,
    );
  });

  it("answers bad hours with 400 at the field, a stale deadline with 409, a customer with 403: nothing changes", async () => {
    const svc = await freshTestServices();
    const { order, extend } = await unpaid(svc);
    const bad = await extend({ hours: "abc", expectedDueAt: order.payment_due_at ?? "" });
    const badAnswer = bad.result as unknown as {
      init: { status: number };
      data: { result: { error: Record<string, string[]> } };
    };
    expect(badAnswer.init.status).toBe(400);
    expect(badAnswer.data.result.error.hours).toEqual(["adminOrders.deadline.hoursInvalid"]);

    const stale = await extend({ hours: "24", expectedDueAt: "2026-01-01T00:00:00.000Z" });
    const staleAnswer = stale.result as unknown as { init: { status: number }; data: { problem: { key: string } } };
    expect(staleAnswer.init.status).toBe(409);
    expect(staleAnswer.data.problem.key).toBe("adminOrders.deadline.changedMeanwhile");

    const customer = await createSignedIn(svc.db);
    const refused = await extend({ hours: "24", expectedDueAt: order.payment_due_at ?? "" }, customer);
    expect((refused.thrown as Response).status).toBe(403);

    const after = await svc.db.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(after.payment_due_at).toBe(order.payment_due_at);
  });
});

describe("the owner's payment window setting", () => {
  it("is empty (the server's setting) or whole hours from 1 to 720", () => {
    const field = shopDetailsSchema.shape.payment_window_hours;
    expect(field.parse("")).toBeNull();
    expect(field.parse(" 72 ")).toBe(72);
    for (const bad of ["0", "721", "1.5", "-3", "two days"]) expect(field.safeParse(bad).success).toBe(false);
  });
});
