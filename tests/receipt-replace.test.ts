import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import { IMAGE_PRESETS } from "~/lib/images.server";
import { transitionOrder } from "~/models/orders/desk.server";
import type { CurrentUser } from "~/request/auth.server";
import { loader as adminOrderLoader } from "~/routes/admin/order";
import { action } from "~/routes/store/account-order";
import { createSignedIn, placeOrderWithReceipt } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { formOf, runRoute } from "./setup/route";

/**
 * A shopper replaces a rejected receipt through the account order page: the order desk's history
 * (read from the audit log) shows it, and a file too large is refused as on the payment page (413).
 */

let svc: TestServices;
let db: DB;
let ADMIN: CurrentUser;
beforeEach(async () => {
  svc = await freshTestServices();
  db = svc.db;
  ADMIN = await createSignedIn(db, { email: "replace-desk@shop.hk", admin: true });
});

async function jpeg(): Promise<File> {
  const bytes = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 20, g: 60, b: 140 } } })
    .jpeg()
    .toBuffer();
  return new File([new Uint8Array(bytes)], "receipt.jpg", { type: "image/jpeg" });
}

async function rejectedOrder() {
  const { order, customer } = await placeOrderWithReceipt(db);
  await transitionOrder(db, svc.config, ADMIN, {
    orderId: order.id,
    transition: "rejectReceipt",
    expected: "pending_payment",
    reason: "Wrong amount",
  });
  return { order, customer };
}

function upload(orderId: string, file: File, customer: CurrentUser) {
  const form = formOf({ receipt: file });
  const request = new Request(`http://localhost/account/orders/${orderId}`, { method: "POST", body: form });
  return runRoute(svc, action, request, customer, { id: orderId });
}

describe("replacing a rejected receipt", () => {
  it("shows in the order desk's history, by the customer", async () => {
    const { order, customer } = await rejectedOrder();
    const { result, flash } = await upload(order.id, await jpeg(), customer);
    expect((result as Response).status).toBe(302);
    expect((result as Response).headers.get("Location")).toBe(`/account/orders/${order.id}`);
    expect(flash).toMatchObject({ type: "success", key: "orders.receiptReplaced" });

    const page = await runRoute(
      svc,
      adminOrderLoader,
      new Request(`http://localhost/admin/orders/${order.id}`),
      ADMIN,
      {
        id: order.id,
      },
    );
    const history = (page.result as { history: { action: string; actor: string | null }[] }).history;
    expect(history.map((entry) => entry.action)).toEqual([
      "order.placed",
      "order.rejectReceipt",
      "order.receiptReplaced",
    ]);
    expect(history.at(-1)?.actor).toBe(customer.email);
    const after = await db.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(after.receipt_rejected_reason).toBeNull();
    expect(after.receipt_path).toMatch(new RegExp(`^receipts/${customer.id}/`));
  });

  it("refuses a file too large with 413, as the payment page does, changing nothing", async () => {
    const { order, customer } = await rejectedOrder();
    const big = new File([new Uint8Array(IMAGE_PRESETS.receipt.maxBytes + 1)], "big.jpg", { type: "image/jpeg" });
    const { result } = await upload(order.id, big, customer);
    const answer = result as unknown as { init: { status: number }; data: { problem: { key: string } } };
    expect(answer.init.status).toBe(413);
    expect(answer.data.problem.key).toBe("payment.tooLarge");
    const after = await db.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(after.receipt_rejected_reason).toBe("Wrong amount");
  });

  it("is not found for another customer's order", async () => {
    const { order } = await rejectedOrder();
    const other = await createSignedIn(db);
    const { thrown } = await upload(order.id, await jpeg(), other);
    expect((thrown as { init: { status: number } }).init.status).toBe(404);
  });
});
