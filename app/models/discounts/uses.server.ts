import type { Transaction } from "kysely";
import { now } from "#db/connect.server";
import type { Database, OrderRow } from "#db/schema";
import { type ShippingRule, shippingFor } from "~/lib/shipping";
import {
  type CheckDiscountInput,
  checkWindow,
  type DiscountQuote,
  findCodeRow,
  normaliseCode,
  priceDiscount,
  refuseCode,
  usesByShopper,
} from "./rules.server";

/*
 * A code's uses are counted in the transaction that places the order (docs/decisions/048): a
 * conditional update raises `uses_count` only while it is below `max_uses`, so a code with N uses
 * left is used exactly N times however many orders are placed at once. On PostgreSQL a second
 * order waits on the code's row lock, then re-checks the condition against the committed count;
 * on SQLite write transactions run one at a time. A cancelled or expired order gives its use
 * back once: `releaseDiscountUse` runs in the transaction whose compare-and-set cancelled it, and
 * its own conditional update on `released_at` stays the last word.
 */

/**
 * Takes one use of the code for an order being placed (inside its transaction), after checking
 * every rule again; refuses (a `UserError` on `code`) with the reason it no longer applies.
 */
export async function takeDiscountUse(trx: Transaction<Database>, input: CheckDiscountInput): Promise<DiscountQuote> {
  const row = await findCodeRow(trx, input.code);
  if (!row) return refuseCode("unknown", { code: normaliseCode(input.code) });
  checkWindow(row, input.at);
  const taken = await trx
    .updateTable("discount_codes")
    .set((eb) => ({ uses_count: eb("uses_count", "+", 1) }))
    .where("id", "=", row.id)
    .where("active", "=", 1)
    .where((eb) => eb.or([eb("max_uses", "is", null), eb("uses_count", "<", eb.ref("max_uses"))]))
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) return refuseCode("usedUp", { code: row.code });
  // Counted after the update above: on PostgreSQL this transaction now holds the code's row
  // lock, so two orders of one shopper at once count each other's use.
  if (row.max_uses_per_customer !== null) {
    const used = await usesByShopper(trx, row.id, input.shopper);
    if (used >= row.max_uses_per_customer) return refuseCode("alreadyUsed", { code: row.code });
  }
  return priceDiscount(trx, row, input);
}

/** The use's row, written once the order exists (same transaction as `takeDiscountUse`). */
export async function recordDiscountUse(
  trx: Transaction<Database>,
  quote: DiscountQuote,
  order: Pick<OrderRow, "id" | "user_id" | "email" | "currency">,
  at: Date,
): Promise<void> {
  await trx
    .insertInto("discount_uses")
    .values({
      discount_id: quote.id,
      order_id: order.id,
      user_id: order.user_id,
      email: order.email.toLowerCase(),
      currency: order.currency,
      amount_cents: quote.discountCents,
      created_at: now(at),
    })
    .execute();
}

/**
 * Gives an order's use of its code back: call it only inside the transaction that moved the
 * order to cancelled. Idempotent: the use is released by a conditional update on `released_at`,
 * and only the call that released it lowers the count. True when a use was given back.
 */
export async function releaseDiscountUse(trx: Transaction<Database>, orderId: string, at: Date): Promise<boolean> {
  const use = await trx
    .selectFrom("discount_uses")
    .select(["id", "discount_id"])
    .where("order_id", "=", orderId)
    .executeTakeFirst();
  if (!use) return false;
  const released = await trx
    .updateTable("discount_uses")
    .set({ released_at: now(at) })
    .where("id", "=", use.id)
    .where("released_at", "is", null)
    .executeTakeFirst();
  if (Number(released.numUpdatedRows) !== 1) return false;
  await trx
    .updateTable("discount_codes")
    .set((eb) => ({ uses_count: eb("uses_count", "-", 1) }))
    .where("id", "=", use.discount_id)
    .where("uses_count", ">", 0)
    .execute();
  return true;
}

/**
 * Shipping after the discount (the order of money of issue 27): free with a free-shipping code;
 * otherwise the shop's rule on the discounted subtotal. A cart discounted to nothing still pays
 * for delivery (the rule's "nothing for an empty cart" is for a cart without lines).
 */
export function shippingAfterDiscount(
  discountedSubtotalCents: number,
  hasLines: boolean,
  rule: ShippingRule,
  quote: Pick<DiscountQuote, "freeShipping"> | null,
): number {
  if (!hasLines || quote?.freeShipping) return 0;
  return shippingFor(Math.max(discountedSubtotalCents, 1), rule);
}
