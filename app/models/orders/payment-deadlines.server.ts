import type { Transaction } from "kysely";
import { type DB, now } from "#db/connect.server";
import type { Database, OrderRow } from "#db/schema";
import { type Config, MAX_PAYMENT_WINDOW_HOURS } from "~/lib/config.server";
import { logger } from "~/lib/log.server";
import { UserError } from "~/lib/problem";
import { auditAction } from "../audit.server";
import { releaseDiscountUse } from "../discounts/uses.server";
import { recordShopEvent } from "../outbox/events.server";
import { queueDeadlineEmail } from "./emails.server";
import { awaitingReceipt, awaitsReceipt } from "./receipts.server";
import { restockOrderLines } from "./stock.server";

/*
 * The payment window of an order paid by bank transfer (docs/decisions/034):
 * - placed: due at placing + the window (PAYMENT_WINDOW_HOURS or the owner's setting), one
 *   reminder due halfway; the order keeps these whatever the setting becomes later;
 * - the clock runs only while the order awaits a receipt (receipts.server.ts: none sent yet, or
 *   the last one rejected): a receipt waiting for review is the admin's to decide, never expired;
 * - a rejected receipt leaves at least REJECTION_GRACE_HOURS to send a new one;
 * - an admin may extend the deadline of an unpaid order;
 * - at the deadline the order is cancelled by the system with its stock put back, once;
 * - each e-mail (reminder, cancellation) is queued in the transaction that decides it
 *   (docs/decisions/044), so it is sent exactly when its decision stands.
 * Time is always passed in (`at`), so tests move the clock instead of sleeping.
 */

const HOUR_MS = 60 * 60 * 1000;

/** After a rejected receipt the shopper has at least this long to send a new one. */
export const REJECTION_GRACE_HOURS = 24;

/** How many orders one run handles per step; a run repeats the step until nothing is left. */
const BATCH = 100;

function plusHours(at: Date, hours: number): string {
  return now(new Date(at.getTime() + hours * HOUR_MS));
}

/** The deadline and the reminder time of an order placed at `placedAt` with a window of `hours`. */
export function paymentDeadlines(placedAt: Date, hours: number) {
  return { payment_due_at: plusHours(placedAt, hours), payment_reminder_due_at: plusHours(placedAt, hours / 2) };
}

/** Halfway between `from` and the deadline `due`. */
function halfwayTo(from: Date, due: string): string {
  return now(new Date((from.getTime() + new Date(due).getTime()) / 2));
}

/** What a page says about an order's deadline; null when it has none or it no longer applies. */
export function deadlineState(
  order: Pick<OrderRow, "status" | "payment_due_at" | "receipt_path" | "receipt_rejected_reason">,
  at: Date = new Date(),
): { dueAt: string; running: boolean; overdue: boolean } | null {
  if (order.status !== "pending_payment" || !order.payment_due_at) return null;
  return { dueAt: order.payment_due_at, running: awaitsReceipt(order), overdue: new Date(order.payment_due_at) <= at };
}

/**
 * Called in the transaction of a receipt's rejection: the shopper gets at least
 * REJECTION_GRACE_HOURS from now to send a new receipt, and a reminder not yet sent falls
 * halfway through what is left (the rejection e-mail itself is the first notice).
 */
export async function allowTimeAfterRejection(trx: Transaction<Database>, orderId: string, at: Date): Promise<void> {
  const order = await trx
    .selectFrom("orders")
    .select(["payment_due_at", "payment_reminder_due_at", "payment_reminded_at"])
    .where("id", "=", orderId)
    .executeTakeFirst();
  if (!order?.payment_due_at) return; // placed before deadlines existed: none is given now
  const earliest = plusHours(at, REJECTION_GRACE_HOURS);
  const due = order.payment_due_at < earliest ? earliest : order.payment_due_at;
  const remind = halfwayTo(at, due);
  await trx
    .updateTable("orders")
    .set({
      payment_due_at: due,
      payment_reminder_due_at:
        order.payment_reminded_at === null && (order.payment_reminder_due_at ?? "") < remind
          ? remind
          : order.payment_reminder_due_at,
    })
    .where("id", "=", orderId)
    .execute();
}

export interface ExtendDeadlineInput {
  orderId: string;
  hours: number;
  /** The deadline the admin saw ("" for none): the extension applies only if it is still that. */
  expectedDueAt: string;
}

/**
 * An admin gives an unpaid order more time: the new deadline is `hours` after the current one,
 * or after now when that has passed (or the order has none). Compare-and-set on the deadline
 * the admin saw, audited with both deadlines, the shop's event recorded. A reminder not yet sent
 * moves halfway to the new deadline. Refusals: 404 gone, 409 no longer unpaid or changed
 * meanwhile, 400 bad hours.
 */
export async function extendPaymentDeadline(
  db: DB,
  config: DeadlineMailConfig,
  actor: { id: string },
  input: ExtendDeadlineInput,
  at: Date = new Date(),
): Promise<OrderRow> {
  if (!Number.isInteger(input.hours) || input.hours < 1 || input.hours > MAX_PAYMENT_WINDOW_HOURS) {
    throw new UserError("adminOrders.deadline.hoursInvalid", { field: "hours" });
  }
  return db.transaction().execute(async (trx) => {
    const order = await trx
      .selectFrom("orders")
      .select(["status", "payment_due_at", "payment_reminded_at"])
      .where("id", "=", input.orderId)
      .executeTakeFirst();
    if (!order) throw new UserError("adminOrders.errors.notFound", { status: 404 });
    if (order.status !== "pending_payment") {
      throw new UserError("adminOrders.errors.changedMeanwhile", { params: { status: order.status }, status: 409 });
    }
    if ((order.payment_due_at ?? "") !== input.expectedDueAt) {
      throw new UserError("adminOrders.deadline.changedMeanwhile", { status: 409 });
    }
    const from = order.payment_due_at && new Date(order.payment_due_at) > at ? new Date(order.payment_due_at) : at;
    const due = plusHours(from, input.hours);
    const timestamp = now(at);
    let update = trx
      .updateTable("orders")
      .set({
        payment_due_at: due,
        updated_at: timestamp,
        ...(order.payment_reminded_at === null ? { payment_reminder_due_at: halfwayTo(at, due) } : {}),
      })
      .where("id", "=", input.orderId)
      .where("status", "=", "pending_payment");
    update = order.payment_due_at
      ? update.where("payment_due_at", "=", order.payment_due_at)
      : update.where("payment_due_at", "is", null);
    const updated = await update.executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) {
      throw new UserError("adminOrders.deadline.changedMeanwhile", { status: 409 });
    }
    await auditAction(trx, actor.id, "order.deadlineExtended", input.orderId, {
      before: { payment_due_at: order.payment_due_at },
      after: { payment_due_at: due, hours: input.hours },
    });
    await recordShopEvent(trx, {
      type: "order.deadline_extended",
      at,
      publicUrl: config.publicUrl,
      orderId: input.orderId,
    });
    return trx.selectFrom("orders").selectAll().where("id", "=", input.orderId).executeTakeFirstOrThrow();
  });
}

type DeadlineMailConfig = Pick<Config, "publicUrl">;

/**
 * The system cancels one overdue order: a compare-and-set that holds only while the order is
 * still unpaid, its clock running and its deadline passed at `at` (a receipt, a payment, an
 * extension or another process's expiry that got there first makes it a no-op), then its stock
 * back, the audit entry with no actor, the customer's e-mail and the shop's event, all in one
 * transaction. Null when nothing was done.
 */
export async function expireOrder(
  db: DB,
  config: DeadlineMailConfig,
  orderId: string,
  at: Date,
): Promise<OrderRow | null> {
  const timestamp = now(at);
  return db.transaction().execute(async (trx) => {
    // On PostgreSQL (read committed) a second process's update waits on the row's lock, then
    // re-checks the WHERE against the committed row, finds it cancelled and changes nothing; on
    // SQLite the write transactions run one at a time. Either way the stock comes back once.
    const updated = await trx
      .updateTable("orders")
      .set({ status: "cancelled", cancelled_at: timestamp, updated_at: timestamp, payment_expired_at: timestamp })
      .where("id", "=", orderId)
      .where("payment_due_at", "<=", timestamp)
      .where(awaitingReceipt)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return null;
    const restocked = await restockOrderLines(trx, orderId, config);
    const discountReleased = await releaseDiscountUse(trx, orderId, at);
    const order = await trx.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirstOrThrow();
    await auditAction(trx, null, "order.expired", orderId, {
      before: { status: "pending_payment", payment_due_at: order.payment_due_at },
      after: { status: "cancelled", by: "system", restocked, ...(discountReleased ? { discountReleased } : {}) },
    });
    await queueDeadlineEmail(trx, config, order, "expired", at);
    await recordShopEvent(trx, { type: "order.expired", at, publicUrl: config.publicUrl, orderId });
    return order;
  });
}

/**
 * Sends each reminder that fell due: one transaction per order claims it (payment_reminded_at
 * set by a compare-and-set, so two processes never both send it) and queues its e-mail, so the
 * claim stands exactly when the e-mail exists. No reminder once the deadline has passed. An order
 * whose reminder cannot be written (a bug) is left unclaimed for the next run, the others go on.
 */
export async function sendDueReminders(db: DB, config: DeadlineMailConfig, at: Date): Promise<number> {
  const timestamp = now(at);
  let sent = 0;
  const failed = new Set<string>();
  for (;;) {
    const due = await db
      .selectFrom("orders")
      .select("id")
      .where("status", "=", "pending_payment")
      .where("payment_reminder_due_at", "<=", timestamp)
      .where("payment_reminded_at", "is", null)
      .where("payment_due_at", ">", timestamp)
      .where(awaitingReceipt)
      .orderBy("payment_reminder_due_at")
      .limit(BATCH)
      .execute();
    const todo = due.filter((row) => !failed.has(row.id));
    if (todo.length === 0) return sent;
    for (const { id } of todo) {
      const reminded = await db
        .transaction()
        .execute(async (trx) => {
          const claimed = await trx
            .updateTable("orders")
            .set({ payment_reminded_at: timestamp })
            .where("id", "=", id)
            .where("payment_reminded_at", "is", null)
            .where(awaitingReceipt)
            .executeTakeFirst();
          if (Number(claimed.numUpdatedRows) !== 1) return false;
          const order = await trx.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
          await queueDeadlineEmail(trx, config, order, "reminder", at);
          return true;
        })
        .catch((error: unknown) => {
          logger.error({ err: error, orderId: id }, `payment reminder for order ${id} failed; tried again next run`);
          failed.add(id);
          return false;
        });
      if (reminded) sent++;
    }
  }
}

/** Cancels every order whose deadline passed unpaid (expireOrder), mailing each shopper once. */
export async function expireOverdueOrders(db: DB, config: DeadlineMailConfig, at: Date): Promise<number> {
  const timestamp = now(at);
  let expired = 0;
  for (;;) {
    const due = await db
      .selectFrom("orders")
      .select("id")
      .where("status", "=", "pending_payment")
      .where("payment_due_at", "<=", timestamp)
      .where(awaitingReceipt)
      .orderBy("payment_due_at")
      .limit(BATCH)
      .execute();
    let progressed = false;
    for (const { id } of due) {
      const order = await expireOrder(db, config, id, at);
      if (!order) continue;
      progressed = true;
      expired++;
    }
    if (due.length < BATCH || !progressed) return expired;
  }
}

/** One run of the payment-deadline job: reminders that fell due, then orders past their deadline. */
export async function runPaymentDeadlines(
  db: DB,
  config: DeadlineMailConfig,
  at: Date,
): Promise<{ reminded: number; expired: number }> {
  const reminded = await sendDueReminders(db, config, at);
  const expired = await expireOverdueOrders(db, config, at);
  return { reminded, expired };
}
