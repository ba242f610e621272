import type { OrderRow, OrderStatus } from "#db/schema";

/**
 * The one vocabulary of an order's status, the same words on the admin's order page, orders list
 * and dashboard and on the shopper's order pages (docs/decisions/041). While payment is pending
 * it says where the payment stands, as the two sides need to know it:
 * - `pending_payment`, "Awaiting payment": no receipt yet (the shopper pays later);
 * - `receipt_checking`, "Receipt in review": a receipt waits for the shop to check it;
 * - `receipt_rejected`, "Receipt rejected": the shop did not accept it, a new one is needed.
 * Then paid, processing, shipped, delivered or cancelled, as stored.
 */
export type ShownOrderStatus = OrderStatus | "receipt_checking" | "receipt_rejected";

export const SHOWN_ORDER_STATUSES = [
  "pending_payment",
  "receipt_checking",
  "receipt_rejected",
  "paid",
  "processing",
  "shipped",
  "delivered",
  "cancelled",
] as const satisfies readonly ShownOrderStatus[];

/** The status an order is shown with, from its stored status and its receipt. */
export function shownStatus(
  order: Pick<OrderRow, "status" | "receipt_path" | "receipt_rejected_reason">,
): ShownOrderStatus {
  if (order.status !== "pending_payment") return order.status;
  if (order.receipt_rejected_reason !== null) return "receipt_rejected";
  if (order.receipt_path !== null) return "receipt_checking";
  return order.status;
}
