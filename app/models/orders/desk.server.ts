import { type SelectQueryBuilder, sql, type Updateable } from "kysely";
import { type DB, now } from "#db/connect.server";
import {
  type Database,
  ORDER_STATUSES,
  type OrderLineRow,
  type OrderRow,
  type OrderStatus,
  type OrdersTable,
} from "#db/schema";
import type { Config } from "~/lib/config.server";
import { fromHongKongInput } from "~/lib/dates";
import type { ListSort, OrderSortKey } from "~/lib/list-sort";
import { countOrderPaid } from "~/lib/metrics.server";
import { UserError } from "~/lib/problem";
import { auditAction } from "../audit.server";
import { releaseDiscountUse } from "../discounts/uses.server";
import { recordShopEvent, type ShopEventType } from "../outbox/events.server";
import { mailsCustomer, queueOrderStatusEmail } from "./emails.server";
import { allowTimeAfterRejection } from "./payment-deadlines.server";
import { awaitingReceipt } from "./receipts.server";
import { type ShownOrderStatus, shownStatus } from "./status";
import { restockOrderLines } from "./stock.server";

export const ORDERS_PER_PAGE = 25;

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === "string" && (ORDER_STATUSES as readonly string[]).includes(value);
}

/**
 * What the orders list can be filtered by, in the statuses' one vocabulary (./status.ts): a
 * stored status, where `pending_payment` ("Awaiting payment") is an unpaid order waiting for the
 * shopper — no receipt yet, or its receipt rejected; `review` ("Receipt in review", oldest
 * receipt first); `rejected` ("Receipt rejected" only); `overdue` (awaiting payment past the
 * deadline, oldest deadline first).
 */
export type AdminOrderListStatus = OrderStatus | "review" | "rejected" | "overdue";

export function parseOrderListStatus(value: unknown): AdminOrderListStatus | null {
  return value === "review" || value === "rejected" || value === "overdue" || isOrderStatus(value) ? value : null;
}

export interface AdminOrderFilter {
  status: AdminOrderListStatus | null;
  /** Order number, the first characters of the order id, or the customer's e-mail (all as prefixes). */
  q: string;
  page: number;
  /** A column's order; without one, newest first (a queue: its own order). */
  sort?: ListSort<OrderSortKey>;
  /** Placed on or after this Hong Kong date (YYYY-MM-DD), on or before `to` (both optional). */
  from?: string | null;
  to?: string | null;
}

/** The list's filters without its page: what the orders export selects too (issue 29). */
export type AdminOrderSelection = Omit<AdminOrderFilter, "page">;

const HONG_KONG_DAY = /^(19|20)\d{2}-\d{2}-\d{2}$/;

/** A Hong Kong date from a query string or form ("2026-11-27"), null when it is not a real one. */
export function parseOrderListDate(value: unknown): string | null {
  if (typeof value !== "string" || !HONG_KONG_DAY.test(value.trim())) return null;
  return fromHongKongInput(`${value.trim()} 00:00`) ? value.trim() : null;
}

/**
 * The list's filters as a query string or a form sends them (`status`, `q`, `from`, `to`), read
 * the one way the list and the export both use: an unknown status or a date that is not one is
 * no filter, the search is trimmed to 200 characters.
 */
export function parseAdminOrderSelection(read: (name: string) => unknown): AdminOrderSelection {
  const q = read("q");
  return {
    status: parseOrderListStatus(read("status")),
    q: (typeof q === "string" ? q : "").trim().slice(0, 200),
    from: parseOrderListDate(read("from")),
    to: parseOrderListDate(read("to")),
  };
}

/** The column each sortable header of the orders list sorts by. */
const ORDER_SORT_COLUMNS = {
  number: "order_number",
  customer: "email",
  total: "total_cents",
  status: "status",
  date: "created_at",
} as const satisfies Record<OrderSortKey, string>;

export interface AdminOrderListRow {
  id: string;
  order_number: string;
  first_name: string;
  last_name: string;
  email: string;
  user_id: string | null;
  status: OrderStatus;
  /** The status as every page names it (shownStatus). */
  shown_status: ShownOrderStatus;
  currency: OrderRow["currency"];
  total_cents: number;
  /** What refunds gave back (RefundBadge tells "refunded" from "partially refunded", docs/decisions/057). */
  refunded_cents: number;
  has_receipt: boolean;
  receipt_rejected: boolean;
  created_at: string;
  receipt_uploaded_at: string | null;
  payment_due_at: string | null;
  items: number;
  /** The status changes this order offers (see transitionsFor). */
  actions: OrderTransition[];
}

/** The text between `from` and the next string that sorts after every string starting with it. */
function prefixRange(prefix: string): [string, string] {
  return [prefix, `${prefix}\uffff`];
}

/**
 * The orders the list's filters select (status, search, placed between two Hong Kong dates),
 * the one condition the list (listAdminOrders) and the export (./export.server.ts) share. The
 * search is a prefix of the order number (with or without `ORD-`), of the order id (the 8
 * characters the dashboard shows) or of the e-mail; the dates a range on `created_at`.
 */
export function selectAdminOrders(query: OrdersQuery, filter: AdminOrderSelection, at: Date = new Date()): OrdersQuery {
  const q = filter.q.trim();
  let base = query;
  const status = filter.status;
  if (status === "review") {
    base = waitingForReview(base, at);
  } else if (status === "overdue") {
    base = overdue(base, at);
  } else if (status) {
    // With a search, the search's prefix ranges find few orders through their own indexes;
    // SQLite, with no statistics, would rather walk every order in the status (tens of
    // thousands once the shop is busy). Compared as an expression no index serves, the status
    // only filters.
    const stored = status === "rejected" ? "pending_payment" : status;
    base = q
      ? base.where((eb) => eb(sql<string>`${sql.ref("status")} || ''`, "=", stored))
      : base.where("status", "=", stored);
    // Awaiting payment: not one whose receipt is in review. Receipt rejected: only those.
    if (status === "pending_payment") {
      base = base.where((eb) => eb.or([eb("receipt_path", "is", null), eb("receipt_rejected_reason", "is not", null)]));
    }
    if (status === "rejected") base = base.where("receipt_rejected_reason", "is not", null);
  }
  if (q) {
    const lower = q.toLowerCase();
    const upper = q.toUpperCase();
    const number = upper.startsWith("ORD-") ? upper : `ORD-${upper}`;
    base = base.where((eb) => {
      const ranges = [
        ["order_number", prefixRange(number)],
        ["email", prefixRange(lower)],
      ] as const;
      const clauses = ranges.map(([column, [from, to]]) => eb.and([eb(column, ">=", from), eb(column, "<", to)]));
      if (/^[0-9a-f-]{4,36}$/.test(lower)) {
        const [from, to] = prefixRange(lower);
        clauses.push(eb.and([eb("id", ">=", from), eb("id", "<", to)]));
      }
      return eb.or(clauses);
    });
  }
  // The dates are Hong Kong days: from its midnight, to the next day's midnight (exclusive).
  const from = parseOrderListDate(filter.from);
  const to = parseOrderListDate(filter.to);
  if (from) base = base.where("created_at", ">=", fromHongKongInput(`${from} 00:00`) as string);
  if (to) {
    const end = new Date(Date.parse(fromHongKongInput(`${to} 00:00`) as string) + 86_400_000);
    base = base.where("created_at", "<", now(end));
  }
  return base;
}

/**
 * Orders newest first (the review queue oldest receipt first, overdue orders oldest deadline
 * first), filtered by status, by a search that is a prefix of the order number
 * (with or without `ORD-`), of the order id (the 8 characters the dashboard shows), or of the
 * e-mail, and by the days they were placed (selectAdminOrders). Prefixes keep every search on an index with 50,000 orders; item counts are one
 * grouped query for the page's orders.
 */
export async function listAdminOrders(
  db: DB,
  filter: AdminOrderFilter,
  at: Date = new Date(),
): Promise<{ orders: AdminOrderListRow[]; total: number; page: number; pages: number }> {
  const status = filter.status;
  const base = selectAdminOrders(db.selectFrom("orders"), filter, at);
  const counted = await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const total = Number(counted.n);
  const pages = Math.max(1, Math.ceil(total / ORDERS_PER_PAGE));
  const page = Number.isInteger(filter.page) ? Math.min(Math.max(filter.page, 1), pages) : 1;
  const rows = await base
    .select([
      "id",
      "order_number",
      "first_name",
      "last_name",
      "email",
      "user_id",
      "status",
      "currency",
      "total_cents",
      "refunded_cents",
      "receipt_path",
      "receipt_rejected_reason",
      "created_at",
      "receipt_uploaded_at",
      "payment_due_at",
    ])
    .$call((query) => {
      const sort = filter.sort;
      // A column's order (list-sort.ts): each walks an index (migrations 0007 and 0030).
      if (sort?.key) {
        const first = ORDER_SORT_COLUMNS[sort.key];
        const ordered = query.orderBy(first, sort.dir);
        return (first === "status" ? ordered.orderBy("created_at", sort.dir) : ordered).orderBy("id", sort.dir);
      }
      return status === "review"
        ? query.orderBy("receipt_uploaded_at", "asc").orderBy("id", "asc")
        : status === "overdue"
          ? query.orderBy("payment_due_at", "asc").orderBy("id", "asc")
          : query.orderBy("created_at", "desc").orderBy("id", "desc");
    })
    .limit(ORDERS_PER_PAGE)
    .offset((page - 1) * ORDERS_PER_PAGE)
    .execute();
  const ids = rows.map((row) => row.id);
  const counts =
    ids.length === 0
      ? []
      : await db
          .selectFrom("order_lines")
          .select((eb) => ["order_id", eb.fn.sum<number>("quantity").as("items")])
          .where("order_id", "in", ids)
          .groupBy("order_id")
          .execute();
  const itemsByOrder = new Map(counts.map((row) => [row.order_id, Number(row.items)]));
  return {
    // The receipt's storage key stays on the server: the page only needs to know there is one.
    orders: rows.map(({ receipt_path, receipt_rejected_reason, ...row }) => ({
      ...row,
      shown_status: shownStatus({ status: row.status, receipt_path, receipt_rejected_reason }),
      has_receipt: receipt_path !== null,
      receipt_rejected: receipt_rejected_reason !== null,
      items: itemsByOrder.get(row.id) ?? 0,
      actions: transitionsFor({ status: row.status, receipt_path, receipt_rejected_reason }),
    })),
    total,
    page,
    pages,
  };
}

/* ------------------------------------------------------------------------------------------
 * The receipt review queue and unpaid orders by age
 * ------------------------------------------------------------------------------------------ */

type OrdersQuery = SelectQueryBuilder<Database, "orders", object>;

/**
 * A receipt waiting for review: the order is unpaid, has a receipt, and that receipt has not
 * been rejected. A range on `orders_status_receipt_uploaded` (status, receipt_uploaded_at).
 */
function waitingForReview(query: OrdersQuery, at?: Date): OrdersQuery {
  let waiting = query
    .where("status", "=", "pending_payment")
    .where("receipt_uploaded_at", "is not", null)
    .where("receipt_path", "is not", null)
    .where("receipt_rejected_reason", "is", null);
  if (at) waiting = waiting.where("receipt_uploaded_at", "<=", now(at));
  return waiting;
}

/**
 * Awaiting payment past its deadline: no receipt, or its receipt rejected. One with a receipt in
 * review is counted there only (its deadline is paused while the admin decides). A range on
 * `orders_status_due` (status, payment_due_at).
 */
function overdue(query: OrdersQuery, at: Date): OrdersQuery {
  return query.where("payment_due_at", "is not", null).where("payment_due_at", "<=", now(at)).where(awaitingReceipt);
}

export interface ReceiptQueueSummary {
  waiting: number;
  /** When the oldest receipt still waiting was uploaded (ISO-8601 UTC), null when none waits. */
  oldestUploadedAt: string | null;
}

/** How many receipts wait for review at `at`, and when the oldest of them was uploaded. */
export async function receiptQueueSummary(db: DB, at: Date = new Date()): Promise<ReceiptQueueSummary> {
  const row = await waitingForReview(db.selectFrom("orders"), at)
    .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.min("receipt_uploaded_at").as("oldest")])
    .executeTakeFirstOrThrow();
  return { waiting: Number(row.n), oldestUploadedAt: (row.oldest as string | null) ?? null };
}

/** Orders awaiting payment (no receipt, or its receipt rejected; never one in review), by age. */
export interface UnpaidByAge {
  /** Placed less than 24 hours ago, deadline not passed. */
  under24h: number;
  /** Placed 24 hours ago or more, deadline not passed (or none: an order from before deadlines). */
  from24hTo48h: number;
  /** Past the payment deadline, still unpaid. */
  overdue: number;
}

export const UNPAID_AGE_SPLIT_HOURS = 24;

/**
 * Orders awaiting payment in three buckets at `at`: overdue (deadline passed), otherwise by age
 * since the order was placed, under 24 hours or 24 hours and more. An order whose receipt is in
 * review is in none of them: it is the review queue's (receiptQueueSummary), so no order is
 * counted twice. Each count is a range on an index: `orders_status_due` for overdue,
 * `orders_status_created_id` for ages.
 */
export async function unpaidByAge(db: DB, at: Date = new Date()): Promise<UnpaidByAge> {
  const nowText = now(at);
  const split = now(new Date(at.getTime() - UNPAID_AGE_SPLIT_HOURS * 3_600_000));
  const notOverdue = (query: OrdersQuery) =>
    query
      .where(awaitingReceipt)
      .where((eb) => eb.or([eb("payment_due_at", "is", null), eb("payment_due_at", ">", nowText)]));
  const count = async (query: OrdersQuery) =>
    Number((await query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
  const under24h = await count(notOverdue(db.selectFrom("orders")).where("created_at", ">", split));
  const from24hTo48h = await count(notOverdue(db.selectFrom("orders")).where("created_at", "<=", split));
  const late = await count(overdue(db.selectFrom("orders"), at));
  return { under24h, from24hTo48h, overdue: late };
}

export interface AdminOrderDetail {
  order: OrderRow;
  lines: OrderLineRow[];
  customer: { id: string; email: string; status: string } | null;
  history: { action: string; actor: string | null; created_at: string; details: string | null }[];
}

/** One order for the admin: lines, the customer's account and the order's audit trail. */
export async function findAdminOrder(db: DB, id: string): Promise<AdminOrderDetail | null> {
  if (!/^[0-9a-f-]{36}$/.test(id)) return null;
  const order = await db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirst();
  if (!order) return null;
  const [lines, customer, history] = await Promise.all([
    db.selectFrom("order_lines").selectAll().where("order_id", "=", id).orderBy("id").execute(),
    order.user_id
      ? db.selectFrom("users").select(["id", "email", "status"]).where("id", "=", order.user_id).executeTakeFirst()
      : undefined,
    db
      .selectFrom("audit_log")
      .leftJoin("users", "users.id", "audit_log.actor_user_id")
      .select(["audit_log.action", "users.email as actor", "audit_log.created_at", "audit_log.details"])
      .where("audit_log.entity_type", "=", "order")
      .where("audit_log.entity_id", "=", id)
      .orderBy("audit_log.id")
      .execute(),
  ]);
  return { order, lines, customer: customer ?? null, history };
}

/* ------------------------------------------------------------------------------------------
 * Status changes
 * ------------------------------------------------------------------------------------------ */

export type OrderTransition = "markPaid" | "rejectReceipt" | "markShipped" | "markDelivered" | "cancel";

export const ORDER_TRANSITIONS: Record<
  OrderTransition,
  { from: readonly OrderStatus[]; to: OrderStatus; event: ShopEventType }
> = {
  markPaid: { from: ["pending_payment"], to: "paid", event: "order.paid" },
  // The order stays pending: the shopper uploads a new receipt from their account.
  rejectReceipt: { from: ["pending_payment"], to: "pending_payment", event: "order.receipt_rejected" },
  markShipped: { from: ["paid", "processing"], to: "shipped", event: "order.shipped" },
  markDelivered: { from: ["shipped"], to: "delivered", event: "order.delivered" },
  cancel: { from: ["pending_payment", "paid", "processing"], to: "cancelled", event: "order.cancelled" },
};

/** The actions an admin is offered for an order in `status`. */
export function transitionsFor(order: Pick<OrderRow, "status" | "receipt_path" | "receipt_rejected_reason">) {
  return (Object.keys(ORDER_TRANSITIONS) as OrderTransition[]).filter((name) => {
    if (!ORDER_TRANSITIONS[name].from.includes(order.status)) return false;
    if (name === "rejectReceipt") return order.receipt_path !== null && order.receipt_rejected_reason === null;
    return true;
  });
}

export interface TransitionInput {
  orderId: string;
  transition: OrderTransition;
  /** The status the admin saw: the change applies only if the order is still in it. */
  expected: OrderStatus;
  trackingNumber?: string | null;
  /** Who carries the parcel (markShipped only; docs/decisions/061). */
  carrier?: string | null;
  reason?: string | null;
}

/**
 * Changes an order's status as a compare-and-set: the update applies only while the order is
 * still in the status the admin saw, so two admins acting at once cannot both win. Cancelling
 * puts each line's quantity back on its colour in the same transaction, so stock comes back
 * exactly once. Sets updated_at and the step's timestamp, records the change in the audit log
 * with the status before and after, and queues the customer's e-mail (every change but
 * delivered: `mailsCustomer`) and the shop's event, all in the one transaction. A refusal is a
 * `UserError`: 404 when the order is gone, 409 when the change is not allowed or the order
 * changed meanwhile (its `status` param).
 */
export async function transitionOrder(
  db: DB,
  config: Pick<Config, "publicUrl">,
  actor: { id: string },
  input: TransitionInput,
): Promise<OrderRow> {
  const rule = ORDER_TRANSITIONS[input.transition];
  if (!rule.from.includes(input.expected)) throw new UserError("adminOrders.errors.notAllowed", { status: 409 });
  const at = new Date();
  const timestamp = now(at);
  const changed = await db.transaction().execute(async (trx) => {
    const set: Updateable<OrdersTable> = { status: rule.to, updated_at: timestamp };
    if (input.transition === "markPaid") Object.assign(set, { paid_at: timestamp, receipt_rejected_reason: null });
    if (input.transition === "markShipped") {
      Object.assign(set, {
        shipped_at: timestamp,
        tracking_number: input.trackingNumber || null,
        carrier: input.carrier || null,
      });
    }
    if (input.transition === "markDelivered") set.delivered_at = timestamp;
    if (input.transition === "cancel") set.cancelled_at = timestamp;
    if (input.transition === "rejectReceipt") set.receipt_rejected_reason = input.reason ?? "";

    let update = trx
      .updateTable("orders")
      .set(set)
      .where("id", "=", input.orderId)
      .where("status", "=", input.expected);
    if (input.transition === "rejectReceipt") {
      update = update.where("receipt_path", "is not", null).where("receipt_rejected_reason", "is", null);
    }
    const updated = await update.executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) {
      const current = await trx
        .selectFrom("orders")
        .select(["status"])
        .where("id", "=", input.orderId)
        .executeTakeFirst();
      if (!current) throw new UserError("adminOrders.errors.notFound", { status: 404 });
      if (current.status !== input.expected) {
        throw new UserError("adminOrders.errors.changedMeanwhile", { params: { status: current.status }, status: 409 });
      }
      throw new UserError("adminOrders.errors.receiptChanged", { status: 409 });
    }

    const restocked = input.transition === "cancel" ? await restockOrderLines(trx, input.orderId, config) : [];
    // The order's use of a discount code comes back with its stock, once (docs/decisions/048).
    const discountReleased = input.transition === "cancel" && (await releaseDiscountUse(trx, input.orderId, at));
    if (input.transition === "rejectReceipt") await allowTimeAfterRejection(trx, input.orderId, at);

    await auditAction(trx, actor.id, `order.${input.transition}`, input.orderId, {
      before: { status: input.expected },
      after: {
        status: rule.to,
        ...(input.transition === "markShipped" ? { tracking_number: set.tracking_number } : {}),
        ...(input.transition === "markShipped" && set.carrier ? { carrier: set.carrier } : {}),
        ...(input.transition === "rejectReceipt" ? { reason: set.receipt_rejected_reason } : {}),
        ...(input.transition === "cancel" ? { restocked } : {}),
        ...(discountReleased ? { discountReleased } : {}),
      },
    });
    const order = await trx.selectFrom("orders").selectAll().where("id", "=", input.orderId).executeTakeFirstOrThrow();
    if (mailsCustomer(input.transition)) await queueOrderStatusEmail(trx, config, order, input.transition, at);
    await recordShopEvent(trx, { type: rule.event, at, publicUrl: config.publicUrl, orderId: order.id });
    return order;
  });
  if (input.transition === "markPaid") countOrderPaid();
  return changed;
}
