import type { DB } from "#db/connect.server";
import type { OrderRow, OrderStatus } from "#db/schema";
import type { Config } from "~/lib/config.server";
import { type Problem, UserError } from "~/lib/problem";
import { ORDER_TRANSITIONS, transitionOrder } from "./desk.server";
import { type ShownOrderStatus, shownStatus } from "./status";

/*
 * Bulk shipping (issue 29 item 4, docs/decisions/061): the orders chosen on the admin list,
 * marked shipped from one form with a carrier and a tracking number each. Each order is the
 * order page's own change (transitionOrder: compare-and-set on its status, audit entry, the
 * shipped e-mail in the order's language through the outbox) in its own transaction, so one
 * that cannot move leaves the others moved.
 */

/** Why a chosen order offers no shipping: still unpaid, shipped (or delivered) already, cancelled. */
export type ShipBlocker = "notPaid" | "alreadyShipped" | "cancelled";

export interface ShipmentCandidate {
  id: string;
  order_number: string;
  first_name: string;
  last_name: string;
  email: string;
  /** The destination as typed at checkout, and its ISO code when the order has one. */
  country: string;
  country_code: string | null;
  status: OrderStatus;
  shown_status: ShownOrderStatus;
  carrier: string | null;
  tracking_number: string | null;
  /** Null when the order can be marked shipped now. */
  blocker: ShipBlocker | null;
}

/** Why an order in `status` cannot be marked shipped, or null when it can. */
export function shipBlocker(status: OrderStatus): ShipBlocker | null {
  if (ORDER_TRANSITIONS.markShipped.from.includes(status)) return null;
  if (status === "pending_payment") return "notPaid";
  return status === "cancelled" ? "cancelled" : "alreadyShipped";
}

/**
 * The chosen orders as the "mark shipped" form lists them, in the order given, each with what
 * stands in its way; `missing` the ids no order has (deleted, or never an order).
 */
export async function listShipmentCandidates(
  db: DB,
  ids: readonly string[],
): Promise<{ orders: ShipmentCandidate[]; missing: string[] }> {
  if (ids.length === 0) return { orders: [], missing: [] };
  const rows = await db
    .selectFrom("orders")
    .select([
      "id",
      "order_number",
      "first_name",
      "last_name",
      "email",
      "country",
      "country_code",
      "status",
      "carrier",
      "tracking_number",
      "receipt_path",
      "receipt_rejected_reason",
    ])
    .where("id", "in", [...ids])
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const orders = ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const { receipt_path, receipt_rejected_reason, ...order } = row;
    return [
      {
        ...order,
        shown_status: shownStatus({ status: row.status, receipt_path, receipt_rejected_reason }),
        blocker: shipBlocker(row.status),
      },
    ];
  });
  return { orders, missing: ids.filter((id) => !byId.has(id)) };
}

export interface ShipmentInput {
  orderId: string;
  /** The status the admin saw: the order moves only while it is still in it. */
  expected: OrderStatus;
  carrier: string | null;
  trackingNumber: string | null;
}

export type ShipmentOutcome =
  | { orderId: string; shipped: true; order: OrderRow }
  | { orderId: string; shipped: false; problem: Problem; status: number };

/**
 * Marks each order shipped with its carrier and tracking number, one after the other, each its
 * own compare-and-set in its own transaction (transitionOrder): its audit entry, its shipped
 * e-mail and the shop's event commit with it. An order that cannot move — gone (404), changed
 * meanwhile or not paid (409, with its status now), listed twice — is an outcome with the
 * refusal, and the others go on; anything else thrown is a bug and stops the rest.
 */
export async function shipOrders(
  db: DB,
  config: Pick<Config, "publicUrl">,
  actor: { id: string },
  inputs: readonly ShipmentInput[],
): Promise<ShipmentOutcome[]> {
  const seen = new Set<string>();
  const outcomes: ShipmentOutcome[] = [];
  for (const input of inputs) {
    if (seen.has(input.orderId)) {
      outcomes.push({
        orderId: input.orderId,
        shipped: false,
        problem: { key: "bulkShipping.errors.listedTwice" },
        status: 400,
      });
      continue;
    }
    seen.add(input.orderId);
    try {
      const order = await transitionOrder(db, config, actor, {
        orderId: input.orderId,
        transition: "markShipped",
        expected: input.expected,
        trackingNumber: input.trackingNumber,
        carrier: input.carrier,
      });
      outcomes.push({ orderId: input.orderId, shipped: true, order });
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      outcomes.push({ orderId: input.orderId, shipped: false, problem: error.problem, status: error.status });
    }
  }
  return outcomes;
}
