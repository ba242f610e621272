import type { OrderRow } from "#db/schema";

/**
 * How an order's refunds stand, shown next to its status on the admin's and the shopper's pages
 * (docs/decisions/057): derived from the refunded total against the order's total, not a status
 * of its own, so a refunded order still says where it went (paid, shipped, cancelled…).
 */
export type RefundState = "none" | "partial" | "full";

export function refundState(order: Pick<OrderRow, "total_cents" | "refunded_cents">): RefundState {
  if (order.refunded_cents <= 0) return "none";
  return order.refunded_cents >= order.total_cents ? "full" : "partial";
}
