import crypto from "node:crypto";
import { describe, expect, test } from "vitest";
import type { DB } from "#db/connect.server";
import { transitionOrder } from "~/models/orders/desk.server";
import type { CurrentUser } from "~/request/auth.server";
import { action as orderAction } from "~/routes/admin/order";
import { action, loader } from "~/routes/admin/orders-ship";
import { createSignedIn, placeTestOrder, TEST_CONFIG } from "./factories";
import { freshTestServices } from "./setup/db";
import { queuedEmails } from "./setup/outbox";
import { adminAccount, dataOf, formOf, runRoute, statusOf } from "./setup/route";

/*
 * Bulk shipping from the orders list (issue 29 item 4, docs/decisions/061) on a real database —
 * SQLite, and PostgreSQL in the `postgres` project: each chosen order its own compare-and-set,
 * audit entry and shipped e-mail; a partial failure names the orders that did not move.
 */

const URL_BASE = "http://localhost/admin/orders/ship";

async function orderRow(db: DB, id: string) {
  return db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

/** `count` orders marked paid by an admin, the last one in Chinese when `zh`. */
async function paidOrders(db: DB, count: number, options: { zh?: boolean } = {}) {
  const owner = await createSignedIn(db, { admin: true });
  const orders = [];
  for (let index = 0; index < count; index += 1) {
    const locale = options.zh && index === count - 1 ? "zh" : "en";
    const { order } = await placeTestOrder(db, { locale, customer: { country: "Hong Kong" } });
    orders.push(
      await transitionOrder(db, TEST_CONFIG, owner, {
        orderId: order.id,
        transition: "markPaid",
        expected: "pending_payment",
      }),
    );
  }
  return { owner, orders };
}

/** The form's body: one row per order (`orders[i].…`), in the order given. */
function shipBody(rows: { id: string; expected?: string; carrier?: string; tracking?: string }[]) {
  const fields: Record<string, string> = {};
  rows.forEach((row, index) => {
    fields[`orders[${index}].id`] = row.id;
    fields[`orders[${index}].expected`] = row.expected ?? "paid";
    if (row.carrier !== undefined) fields[`orders[${index}].carrier`] = row.carrier;
    if (row.tracking !== undefined) fields[`orders[${index}].tracking`] = row.tracking;
  });
  return formOf(fields);
}

function post(
  svc: Awaited<ReturnType<typeof freshTestServices>>,
  user: CurrentUser | null,
  body: FormData,
  ids: string[],
) {
  const query = ids.map((id) => `id=${id}`).join("&");
  return runRoute(svc, action, new Request(`${URL_BASE}?${query}`, { method: "POST", body }), user);
}

interface Answer {
  shipped: { id: string; number: string; carrier: string | null; tracking: string | null }[];
  kept: Record<
    string,
    {
      carrier: string;
      tracking: string;
      errors: Record<string, string[]>;
      problem: { key: string; params?: object } | null;
    }
  >;
}

describe("marking several orders shipped at once", () => {
  test("three orders in one post: each its carrier and tracking number, its audit entry and one shipped e-mail in its language", async () => {
    const svc = await freshTestServices();
    const { orders } = await paidOrders(svc.db, 3, { zh: true });
    const staff = await adminAccount(svc, "staff");
    const rows = orders.map((order, index) => ({
      id: order.id,
      carrier: ["SF Express", "Hongkong Post", "DHL Express"][index],
      tracking: `TRK-${index}-${order.order_number}`,
    }));
    const done = await post(
      svc,
      staff,
      shipBody(rows),
      orders.map((order) => order.id),
    );
    expect((done.result as Response).status).toBe(302);
    expect((done.result as Response).headers.get("Location")).toBe("/admin/orders");
    expect(done.flash).toMatchObject({ type: "success", key: "bulkShipping.done", params: { count: 3 } });

    for (const [index, order] of orders.entries()) {
      const row = await orderRow(svc.db, order.id);
      expect(row).toMatchObject({
        status: "shipped",
        carrier: rows[index]?.carrier,
        tracking_number: rows[index]?.tracking,
      });
      expect(row.shipped_at).not.toBeNull();
      const mails = await queuedEmails(svc.db, { orderId: order.id, event: "order.shipped" });
      expect(mails).toHaveLength(1);
      expect(mails[0]?.to).toBe(order.email);
      expect(mails[0]?.text).toContain(rows[index]?.tracking);
      expect(mails[0]?.text).toContain(rows[index]?.carrier);
      const audit = await svc.db
        .selectFrom("audit_log")
        .select(["actor_user_id", "details"])
        .where("entity_id", "=", order.id)
        .where("action", "=", "order.markShipped")
        .execute();
      expect(audit).toHaveLength(1);
      expect(audit[0]?.actor_user_id).toBe(staff.id);
      expect(JSON.parse(audit[0]?.details ?? "{}").after).toEqual({
        status: "shipped",
        tracking_number: rows[index]?.tracking,
        carrier: rows[index]?.carrier,
      });
    }
    // The Chinese shopper's e-mail is in Chinese, carrier included.
    const [zhMail] = await queuedEmails(svc.db, { orderId: orders[2]?.id, event: "order.shipped" });
    expect(zhMail?.language).toBe("zh");
    expect(zhMail?.text).toContain("物流公司：DHL Express");
  });

  test("one cancelled meanwhile and one gone are refused by name, with the values kept; the others move (409)", async () => {
    const svc = await freshTestServices();
    const { owner, orders } = await paidOrders(svc.db, 3);
    const [first, changed, third] = orders;
    if (!first || !changed || !third) throw new Error("three orders expected");
    // Another admin cancels the second while this one types the tracking numbers.
    await transitionOrder(svc.db, TEST_CONFIG, owner, { orderId: changed.id, transition: "cancel", expected: "paid" });
    const gone = crypto.randomUUID();
    const rows = [
      { id: first.id, carrier: "UPS", tracking: "1Z999" },
      { id: changed.id, carrier: "FedEx", tracking: "FX-CHANGED" },
      { id: gone, carrier: "DHL Express", tracking: "DHL-GONE" },
      { id: third.id, tracking: "NO-CARRIER-3" },
    ];
    const answer = await post(svc, owner, shipBody(rows), [first.id, changed.id, gone, third.id]);
    expect(statusOf(answer.result)).toBe(409);
    const body = dataOf<Answer>(answer.result);
    expect(body.shipped.map((row) => row.number)).toEqual([first.order_number, third.order_number]);
    expect(body.kept[changed.id]).toMatchObject({
      carrier: "FedEx",
      tracking: "FX-CHANGED",
      problem: { key: "adminOrders.errors.changedMeanwhile", params: { status: "cancelled" } },
    });
    expect(body.kept[gone]).toMatchObject({ tracking: "DHL-GONE", problem: { key: "adminOrders.errors.notFound" } });
    expect(Object.keys(body.kept)).toHaveLength(2);

    expect(await orderRow(svc.db, first.id)).toMatchObject({
      status: "shipped",
      carrier: "UPS",
      tracking_number: "1Z999",
    });
    expect(await orderRow(svc.db, third.id)).toMatchObject({
      status: "shipped",
      carrier: null,
      tracking_number: "NO-CARRIER-3",
    });
    expect(await orderRow(svc.db, changed.id)).toMatchObject({
      status: "cancelled",
      tracking_number: null,
      carrier: null,
    });
    expect(await queuedEmails(svc.db, { orderId: changed.id, event: "order.shipped" })).toEqual([]);
    expect(await queuedEmails(svc.db, { event: "order.shipped" })).toHaveLength(2);

    // The page read again lists the moved ones as shipped and the cancelled one as such, with no inputs.
    const page = await runRoute(
      svc,
      loader,
      new Request(`${URL_BASE}?id=${first.id}&id=${changed.id}&id=${gone}`),
      owner,
    );
    const shown = page.result as Awaited<ReturnType<typeof loader>>;
    expect(shown.orders.map((order) => [order.order_number, order.blocker])).toEqual([
      [first.order_number, "alreadyShipped"],
      [changed.order_number, "cancelled"],
    ]);
    expect(shown.missing).toBe(1);
  });

  test("bad input (no tracking number, one too long, a carrier too long) is 400 with the values kept; the good row ships", async () => {
    const svc = await freshTestServices();
    const { owner, orders } = await paidOrders(svc.db, 3);
    const [good, blank, long] = orders;
    if (!good || !blank || !long) throw new Error("three orders expected");
    const rows = [
      { id: good.id, carrier: "SF Express", tracking: "SF100" },
      { id: blank.id, carrier: "Kerry Express", tracking: "   " },
      { id: long.id, carrier: "x".repeat(61), tracking: "T".repeat(101) },
    ];
    const answer = await post(
      svc,
      owner,
      shipBody(rows),
      orders.map((order) => order.id),
    );
    expect(statusOf(answer.result)).toBe(400);
    const body = dataOf<Answer>(answer.result);
    expect(body.shipped.map((row) => row.id)).toEqual([good.id]);
    expect(body.kept[blank.id]).toMatchObject({
      carrier: "Kerry Express",
      errors: { tracking: ["bulkShipping.errors.trackingRequired"] },
    });
    expect(body.kept[long.id]).toMatchObject({
      carrier: "x".repeat(61),
      tracking: "T".repeat(101),
      errors: { carrier: ["adminOrders.errors.carrierTooLong"], tracking: ["adminOrders.errors.trackingTooLong"] },
    });
    expect((await orderRow(svc.db, good.id)).status).toBe("shipped");
    expect((await orderRow(svc.db, blank.id)).status).toBe("paid");
    expect((await orderRow(svc.db, long.id)).status).toBe("paid");
    expect(await queuedEmails(svc.db, { event: "order.shipped" })).toHaveLength(1);
  });

  test("nothing selected: the page goes back to the list with a message; an empty post is 400, never 500", async () => {
    const svc = await freshTestServices();
    const owner = await adminAccount(svc, "owner");
    for (const query of ["", "?id=", "?id=not-an-order&id=../x"]) {
      const page = await runRoute(svc, loader, new Request(`${URL_BASE}${query}`), owner);
      expect((page.thrown as Response).status).toBe(302);
      expect((page.thrown as Response).headers.get("Location")).toBe("/admin/orders");
      expect(page.flash).toMatchObject({ type: "error", key: "bulkShipping.noneSelected" });
    }
    const empty = await post(svc, owner, formOf({}), []);
    expect(statusOf(empty.result)).toBe(400);
    expect(dataOf<{ problem: { key: string } }>(empty.result).problem.key).toBe("bulkShipping.errors.noneSelected");
  });

  test("the page lists each chosen order with its status and why it cannot ship; customers and visitors are refused", async () => {
    const svc = await freshTestServices();
    const { owner, orders } = await paidOrders(svc.db, 2);
    const [paid, shipped] = orders;
    if (!paid || !shipped) throw new Error("two orders expected");
    await transitionOrder(svc.db, TEST_CONFIG, owner, {
      orderId: shipped.id,
      transition: "markShipped",
      expected: "paid",
      trackingNumber: "EARLIER",
    });
    const { order: unpaid } = await placeTestOrder(svc.db, {
      customer: { country: "Macau", country_code: "MO" } as never,
    });
    const url = `${URL_BASE}?id=${paid.id}&id=${unpaid.id}&id=${shipped.id}&id=${paid.id}`;
    const staff = await adminAccount(svc, "staff");
    const page = await runRoute(svc, loader, new Request(url), staff);
    const shown = page.result as Awaited<ReturnType<typeof loader>>;
    expect(shown.orders.map((order) => [order.id, order.status, order.blocker])).toEqual([
      [paid.id, "paid", null],
      [unpaid.id, "pending_payment", "notPaid"],
      [shipped.id, "shipped", "alreadyShipped"],
    ]);
    expect(shown.orders[0]?.ship_to).toBe("Hong Kong");

    const customer: CurrentUser = { id: paid.user_id ?? "", email: paid.email, isAdmin: false, role: null };
    const rows = [{ id: paid.id, tracking: "FORGED" }];
    const asCustomer = await post(svc, customer, shipBody(rows), [paid.id]);
    expect((asCustomer.thrown as Response).status).toBe(403);
    const signedOut = await post(svc, null, shipBody(rows), [paid.id]);
    expect((signedOut.thrown as Response).status).toBe(403);
    expect((await runRoute(svc, loader, new Request(url), customer)).thrown).toBeInstanceOf(Response);
    expect((await orderRow(svc.db, paid.id)).status).toBe("paid");
    expect(await queuedEmails(svc.db, { orderId: paid.id, event: "order.shipped" })).toEqual([]);
  });
});

describe("the carrier on the order page's own form", () => {
  test("mark shipped with a carrier beside the tracking number: stored, in the e-mail; too long is 400 kept", async () => {
    const svc = await freshTestServices();
    const { owner, orders } = await paidOrders(svc.db, 1);
    const [order] = orders;
    if (!order) throw new Error("an order expected");
    const url = `http://localhost/admin/orders/${order.id}`;
    const send = (carrier: string) =>
      runRoute(
        svc,
        orderAction,
        new Request(url, {
          method: "POST",
          body: formOf({ intent: "markShipped", expected: "paid", tracking: "HK123", carrier }),
        }),
        owner,
        { id: order.id },
      );
    const tooLong = await send("c".repeat(61));
    expect(statusOf(tooLong.result)).toBe(400);
    const reply = dataOf<{ result: { initialValue: Record<string, string>; error: Record<string, string[]> } }>(
      tooLong.result,
    );
    expect(reply.result.initialValue.carrier).toBe("c".repeat(61));
    expect(reply.result.error.carrier).toEqual(["adminOrders.errors.carrierTooLong"]);
    expect((await orderRow(svc.db, order.id)).status).toBe("paid");

    const done = await send("Hongkong Post");
    expect((done.result as Response).status).toBe(302);
    expect(await orderRow(svc.db, order.id)).toMatchObject({ status: "shipped", carrier: "Hongkong Post" });
    const [mail] = await queuedEmails(svc.db, { orderId: order.id, event: "order.shipped" });
    expect(mail?.text).toContain("Carrier: Hongkong Post");
    expect(mail?.text).toContain("Tracking number: HK123");
  });
});
