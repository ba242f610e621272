import type { Transaction } from "kysely";
import { type DB, now } from "#db/connect.server";
import type { Currency, Database, OrderRow, OrderStatus } from "#db/schema";
import type { Config } from "~/lib/config.server";
import { renderLocalizedEmail } from "~/lib/mail.server";
import { formatMoney } from "~/lib/money";
import { fieldMessage, UserError } from "~/lib/problem";
import { REFUND_REASON_MAX } from "~/schemas/refund";
import { auditAction } from "../audit.server";
import { recordShopEvent } from "../outbox/events.server";
import { queueEmail } from "../outbox/queue.server";
import { loadShop } from "../settings/shop.server";
import { orderLanguage } from "./emails.server";
import { refundState } from "./refund-state";
import { putLinesBack, type RestockedLine } from "./stock.server";

/*
 * Refunds (docs/decisions/057). Money given back on an order the shopper paid for: paid,
 * processing, shipped or delivered, or cancelled after it was paid (paid_at set). In full or in
 * part, as many times as needed, never more in all than the order's total; each with a reason
 * the shopper is told, and per line the units that go back on sale.
 */

/** Where the shop holds the shopper's money (and the goods may still be in the shop). */
const REFUNDABLE_STATUSES: readonly OrderStatus[] = ["paid", "processing", "shipped", "delivered", "cancelled"];

/** Whether an order can be refunded at all: paid (a cancelled one too, if it was paid first) with money left to give back. */
export function canRefund(order: Pick<OrderRow, "status" | "paid_at" | "total_cents" | "refunded_cents">): boolean {
  if (!REFUNDABLE_STATUSES.includes(order.status)) return false;
  if (order.status === "cancelled" && order.paid_at === null) return false;
  return order.refunded_cents < order.total_cents;
}

export { type RefundState, refundState } from "./refund-state";

export interface RefundInput {
  orderId: string;
  /** In the order's currency, integer cents, > 0. */
  amountCents: number;
  reason: string;
  /** orders.refunded_cents as the admin saw it: the refund applies only while it is still that. */
  expectedRefundedCents: number;
  /** Per order line (by id), the units going back on sale; absent or 0: none. */
  restock: { lineId: number; quantity: number }[];
}

export interface RefundLineShown {
  order_line_id: number;
  quantity: number;
}

export interface OrderRefundShown {
  id: number;
  amount_cents: number;
  currency: Currency;
  reason: string;
  actor: string | null;
  created_at: string;
  lines: RefundLineShown[];
}

/** An order's refunds, oldest first, each with who recorded it and the units it put back. */
export async function listOrderRefunds(db: DB, orderId: string): Promise<OrderRefundShown[]> {
  const refunds = await db
    .selectFrom("order_refunds")
    .leftJoin("users", "users.id", "order_refunds.actor_user_id")
    .select([
      "order_refunds.id",
      "order_refunds.amount_cents",
      "order_refunds.currency",
      "order_refunds.reason",
      "order_refunds.created_at",
      "users.email as actor",
    ])
    .where("order_refunds.order_id", "=", orderId)
    .orderBy("order_refunds.id")
    .execute();
  if (refunds.length === 0) return [];
  const lines = await db
    .selectFrom("order_refund_lines")
    .select(["refund_id", "order_line_id", "quantity"])
    .where(
      "refund_id",
      "in",
      refunds.map((refund) => refund.id),
    )
    .orderBy("order_line_id")
    .execute();
  return refunds.map((refund) => ({
    ...refund,
    lines: lines
      .filter((line) => line.refund_id === refund.id)
      .map(({ order_line_id, quantity }) => ({ order_line_id, quantity })),
  }));
}

/** Units of each of the order's lines that refunds already put back on sale, by line id. */
export async function unitsPutBack(db: DB, orderId: string): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom("order_refund_lines")
    .innerJoin("order_lines", "order_lines.id", "order_refund_lines.order_line_id")
    .select((eb) => ["order_refund_lines.order_line_id", eb.fn.sum<number>("order_refund_lines.quantity").as("n")])
    .where("order_lines.order_id", "=", orderId)
    .groupBy("order_refund_lines.order_line_id")
    .execute();
  return new Map(rows.map((row) => [row.order_line_id, Number(row.n)]));
}

/**
 * Records a refund as a compare-and-set on the order's refunded total: `refunded_cents` grows by
 * the amount only while it still holds the value the admin saw (and the order is still in the
 * status read), so two admins refunding at once cannot give the same money back twice: the
 * second gets 409. In the same transaction: the refund and its lines, the units put back on
 * their variants (colour and option value) with the back-in-stock alerts they cause, the audit
 * entry, and the shopper's e-mail in the order's language. A cancelled order put all its stock
 * back when it was cancelled: refunding it puts nothing back.
 *
 * Refusals (`UserError`): 400 on the amount (not a whole number of cents above 0, or more than
 * is left to refund), on the reason (empty, too long) or on a line's units (more than are left
 * to put back); 404 when the order is gone; 409 when it was never paid, or changed meanwhile.
 */
export async function refundOrder(
  db: DB,
  config: Pick<Config, "publicUrl">,
  actor: { id: string },
  input: RefundInput,
  at: Date = new Date(),
): Promise<{ order: OrderRow; refundId: number }> {
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) {
    throw new UserError("refunds.errors.amountInvalid", { field: "amount" });
  }
  const reason = input.reason.trim();
  if (!reason) throw new UserError("refunds.errors.reasonRequired", { field: "reason" });
  if (reason.length > REFUND_REASON_MAX) throw new UserError("refunds.errors.reasonTooLong", { field: "reason" });
  input.restock.forEach((line, index) => {
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 0) {
      throw new UserError("refunds.errors.restockInvalid", { field: `restock[${index}].quantity` });
    }
  });
  const timestamp = now(at);
  return db.transaction().execute(async (trx) => {
    const order = await trx.selectFrom("orders").selectAll().where("id", "=", input.orderId).executeTakeFirst();
    if (!order) throw new UserError("adminOrders.errors.notFound", { status: 404 });
    if (!REFUNDABLE_STATUSES.includes(order.status) || (order.status === "cancelled" && order.paid_at === null)) {
      throw new UserError("refunds.errors.notPaid", { status: 409 });
    }
    if (order.refunded_cents !== input.expectedRefundedCents) {
      throw new UserError("refunds.errors.changedMeanwhile", { status: 409 });
    }
    const left = order.total_cents - order.refunded_cents;
    if (input.amountCents > left) {
      // The limit travels in the field's message (fieldMessage): a field error carries no params of its own.
      const params = { max: formatMoney(left, order.currency) };
      throw new UserError(fieldMessage("refunds.errors.amountTooHigh", params), { field: "amount", params });
    }
    // The compare-and-set. On PostgreSQL a second refund's update waits on the row's lock, then
    // re-checks the WHERE against the committed row and changes nothing; on SQLite the write
    // transactions run one at a time. A cancel in between changes the status: refused too.
    const updated = await trx
      .updateTable("orders")
      .set((eb) => ({ refunded_cents: eb("refunded_cents", "+", input.amountCents), updated_at: timestamp }))
      .where("id", "=", order.id)
      .where("refunded_cents", "=", input.expectedRefundedCents)
      .where("status", "=", order.status)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new UserError("refunds.errors.changedMeanwhile", { status: 409 });

    const restocked = await restockForRefund(trx, order, input.restock, config);
    const refund = await trx
      .insertInto("order_refunds")
      .values({
        order_id: order.id,
        amount_cents: input.amountCents,
        currency: order.currency,
        reason,
        actor_user_id: actor.id,
        created_at: timestamp,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (restocked.lines.length > 0) {
      await trx
        .insertInto("order_refund_lines")
        .values(restocked.lines.map((line) => ({ refund_id: refund.id, ...line })))
        .execute();
    }
    const after = await trx.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
    await auditAction(trx, actor.id, "order.refunded", order.id, {
      before: { refunded_cents: order.refunded_cents },
      after: {
        refunded_cents: after.refunded_cents,
        amount_cents: input.amountCents,
        currency: order.currency,
        reason,
        restocked: restocked.restocked,
      },
    });
    await queueRefundEmail(trx, config, after, input.amountCents, reason, at);
    await recordShopEvent(trx, {
      type: "order.refunded",
      at,
      publicUrl: config.publicUrl,
      orderId: order.id,
      refund: { id: refund.id, amount_cents: input.amountCents, currency: order.currency, reason },
    });
    return { order: after, refundId: refund.id };
  });
}

/**
 * The units of a refund that go back on sale: each at most the line's quantity less what earlier
 * refunds put back (none at all for a cancelled order, whose cancel put everything back). Read
 * after the compare-and-set, so no other refund of this order runs meanwhile.
 */
async function restockForRefund(
  trx: Transaction<Database>,
  order: OrderRow,
  requested: RefundInput["restock"],
  config: Pick<Config, "publicUrl">,
): Promise<{ lines: { order_line_id: number; quantity: number }[]; restocked: RestockedLine[] }> {
  if (requested.every((line) => line.quantity === 0)) return { lines: [], restocked: [] };
  const orderLines = await trx
    .selectFrom("order_lines")
    .select(["id", "product_id", "color", "option_value", "quantity"])
    .where("order_id", "=", order.id)
    .execute();
  const byId = new Map(orderLines.map((line) => [line.id, line]));
  const putBack = await unitsPutBack(trx, order.id);
  const seen = new Set<number>();
  const lines: { order_line_id: number; quantity: number }[] = [];
  const toRestock = [];
  for (const [index, wanted] of requested.entries()) {
    const field = `restock[${index}].quantity`;
    const line = byId.get(wanted.lineId);
    if (!line || seen.has(wanted.lineId)) throw new UserError("refunds.errors.restockInvalid", { field });
    seen.add(wanted.lineId);
    if (wanted.quantity === 0) continue;
    const left = order.status === "cancelled" ? 0 : line.quantity - (putBack.get(line.id) ?? 0);
    if (wanted.quantity > left) {
      throw new UserError(
        order.status === "cancelled" ? "refunds.errors.restockCancelled" : "refunds.errors.restockTooMany",
        {
          field,
          params: { max: Math.max(left, 0) },
        },
      );
    }
    lines.push({ order_line_id: line.id, quantity: wanted.quantity });
    toRestock.push({ ...line, quantity: wanted.quantity });
  }
  const restocked = await putLinesBack(trx, toRestock, config);
  return { lines, restocked };
}

/**
 * The shopper's e-mail, queued in the refund's transaction: how much comes back, why, and
 * whether the order is now refunded in full or in part (with the total refunded so far).
 */
async function queueRefundEmail(
  trx: Transaction<Database>,
  config: Pick<Config, "publicUrl">,
  order: OrderRow,
  amountCents: number,
  reason: string,
  at: Date,
): Promise<void> {
  const language = orderLanguage(order);
  const full = refundState(order) === "full";
  const params = {
    number: order.order_number,
    name: order.first_name,
    amount: formatMoney(amountCents, order.currency),
    refunded: formatMoney(order.refunded_cents, order.currency),
    total: formatMoney(order.total_cents, order.currency),
    reason,
  };
  const message = await renderLocalizedEmail(await loadShop(trx), order.email, language, (t) => ({
    subject: t(full ? "refunds.email.fullSubject" : "refunds.email.partialSubject", params),
    heading: t("orderEmail.statusHeading", params),
    paragraphs: [
      t(full ? "refunds.email.fullText" : "refunds.email.partialText", params),
      t("refunds.email.reason", params),
      t("refunds.email.next"),
    ],
    action: { label: t("orderEmail.viewOrder"), url: `${config.publicUrl}/account/orders/${order.id}` },
  }));
  await queueEmail(trx, message, { event: "order.refunded", audience: "customer", language, orderId: order.id }, at);
}
