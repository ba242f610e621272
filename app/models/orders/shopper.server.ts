/** Orders as their customer sees them: the account's list, one order, its history. */

import type { DB } from "#db/connect.server";
import type { OrderLineRow, OrderRow } from "#db/schema";
import { shownStatus } from "./status";

/** A customer's orders, newest first, each with its status as every page names it (shownStatus). */
export async function listOrdersForUser(db: DB, userId: string) {
  const rows = await db
    .selectFrom("orders")
    .leftJoin("order_lines", "order_lines.order_id", "orders.id")
    .select((eb) => [
      "orders.id",
      "orders.order_number",
      "orders.status",
      "orders.currency",
      "orders.total_cents",
      "orders.created_at",
      "orders.receipt_path",
      "orders.receipt_rejected_reason",
      eb.fn.coalesce(eb.fn.sum<number>("order_lines.quantity"), eb.lit(0)).as("items"),
    ])
    .where("orders.user_id", "=", userId)
    .groupBy("orders.id")
    .orderBy("orders.created_at", "desc")
    .execute();
  // The receipt's storage key and the reason stay on the server: the list shows the status.
  return rows.map(({ receipt_path, receipt_rejected_reason, ...row }) => ({
    ...row,
    shown_status: shownStatus({ status: row.status, receipt_path, receipt_rejected_reason }),
  }));
}

export type OrderHistoryEntry =
  | {
      kind: "placed" | "receiptSent" | "paid" | "shipped" | "delivered" | "cancelled" | "expired" | "receiptReplaced";
      at: string;
    }
  | { kind: "receiptRejected"; at: string; reason: string }
  | { kind: "deadlineExtended"; at: string; deadline: string };

/** One side (`before` or `after`) of an audit entry's details, or {} when the entry cannot be read. */
function sideOf(details: string | null, side: "before" | "after"): Record<string, unknown> {
  try {
    const parsed = JSON.parse(details ?? "null") as Record<string, unknown> | null;
    const value = parsed?.[side];
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const afterOf = (details: string | null) => sideOf(details, "after");
const beforeOf = (details: string | null) => sideOf(details, "before");

/**
 * The order's history as its customer sees it, oldest first: placed, the receipt they sent (with
 * the order, or later from the order page for an order placed to pay later), each receipt the
 * shop did not accept with the reason given, each new receipt, then paid, shipped, delivered or
 * cancelled. Rejections and receipts sent later come from the audit log, where the order desk
 * and replaceReceipt record them; a receipt sent with the order is the order's own.
 */
export async function listOrderHistory(db: DB, order: OrderRow): Promise<OrderHistoryEntry[]> {
  const audited = await db
    .selectFrom("audit_log")
    .select(["action", "details", "created_at"])
    .where("entity_type", "=", "order")
    .where("entity_id", "=", order.id)
    .where("action", "in", ["order.rejectReceipt", "order.receiptReplaced", "order.deadlineExtended"])
    .orderBy("id")
    .execute();
  const entries: OrderHistoryEntry[] = [{ kind: "placed", at: order.created_at }];
  // An order placed to pay later gets its first receipt from the order page: an upload with no
  // rejected receipt before it. Any other receipt on record came with the order.
  const firstUpload = audited.find(
    (row) => row.action === "order.receiptReplaced" && beforeOf(row.details).receipt_rejected_reason == null,
  );
  const receiptWithOrder =
    !firstUpload && (order.receipt_path !== null || audited.some((row) => row.action === "order.rejectReceipt"));
  if (receiptWithOrder) entries.push({ kind: "receiptSent", at: order.created_at });
  for (const row of audited) {
    if (row.action === "order.receiptReplaced") {
      entries.push({ kind: row === firstUpload ? "receiptSent" : "receiptReplaced", at: row.created_at });
      continue;
    }
    const after = afterOf(row.details);
    if (row.action === "order.deadlineExtended") {
      if (typeof after.payment_due_at === "string") {
        entries.push({ kind: "deadlineExtended", at: row.created_at, deadline: after.payment_due_at });
      }
      continue;
    }
    // An unreadable entry still shows that the receipt was not accepted.
    const reason = typeof after.reason === "string" ? after.reason : "";
    entries.push({ kind: "receiptRejected", at: row.created_at, reason });
  }
  const steps = [
    ["paid", order.paid_at],
    ["shipped", order.shipped_at],
    ["delivered", order.delivered_at],
    [order.payment_expired_at ? "expired" : "cancelled", order.cancelled_at],
  ] as const;
  for (const [kind, at] of steps) if (at) entries.push({ kind, at });
  // Stable: entries of the same moment keep the order above.
  return entries.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** An order with its lines, only for its owner (or any order when `userId` is null: admins). */
export async function findOrder(
  db: DB,
  id: string,
  userId: string | null,
): Promise<{ order: OrderRow; lines: OrderLineRow[] } | null> {
  if (!/^[0-9a-f-]{36}$/.test(id)) return null;
  let query = db.selectFrom("orders").selectAll().where("id", "=", id);
  if (userId !== null) query = query.where("user_id", "=", userId);
  const order = await query.executeTakeFirst();
  if (!order) return null;
  const lines = await db.selectFrom("order_lines").selectAll().where("order_id", "=", id).orderBy("id").execute();
  return { order, lines };
}

/** One of the user's own orders, by its order number or by the payment form's one-time key that made it. */
export async function findOwnOrder(
  db: DB,
  userId: string,
  by: "order_number" | "submission_key",
  value: string,
): Promise<OrderRow | undefined> {
  return db.selectFrom("orders").selectAll().where(by, "=", value).where("user_id", "=", userId).executeTakeFirst();
}

export async function findOrderByNumber(db: DB, orderNumber: string, userId: string): Promise<OrderRow | undefined> {
  return findOwnOrder(db, userId, "order_number", orderNumber);
}
