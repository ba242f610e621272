import { z } from "zod";
import { parseCents } from "./product";

/** The longest reason a refund may give (the shopper reads it in their e-mail). */
export const REFUND_REASON_MAX = 500;

const AMOUNT_INVALID = "refunds.errors.amountInvalid";
const RESTOCK_INVALID = "refunds.errors.restockInvalid";

/** How many lines one refund form may list: far more than any order has. */
export const MAX_REFUND_LINES = 200;

/**
 * A refund on the admin order page (docs/decisions/057): the amount in the order's currency as
 * typed ("120.50", turned into integer cents here), the reason the shopper reads, and per order
 * line the units going back on sale (empty: 0). `expectedRefunded` is the refunded total the
 * admin saw: the refund applies only while it is still that. The limits that need the order
 * (what is left to refund, units left per line) are the model's (refundOrder).
 */
export const refundSchema = z.object({
  intent: z.literal("refund"),
  expectedRefunded: z.coerce
    .number({ error: "refunds.errors.changedMeanwhile" })
    .int({ error: "refunds.errors.changedMeanwhile" })
    .min(0, { error: "refunds.errors.changedMeanwhile" }),
  amount: z
    .string({ error: AMOUNT_INVALID })
    .trim()
    .transform((value, ctx) => {
      const cents = parseCents(value);
      if (cents === null || cents <= 0) {
        ctx.addIssue({ code: "custom", message: AMOUNT_INVALID });
        return z.NEVER;
      }
      return cents;
    }),
  reason: z
    .string({ error: "refunds.errors.reasonRequired" })
    .trim()
    .min(1, { error: "refunds.errors.reasonRequired" })
    .max(REFUND_REASON_MAX, { error: "refunds.errors.reasonTooLong" }),
  restock: z
    .array(
      z.object({
        line: z.coerce.number({ error: RESTOCK_INVALID }).int({ error: RESTOCK_INVALID }).positive(),
        quantity: z.coerce
          .number({ error: RESTOCK_INVALID })
          .int({ error: RESTOCK_INVALID })
          .min(0, { error: RESTOCK_INVALID })
          .max(99_999, { error: RESTOCK_INVALID })
          .default(0),
      }),
    )
    .max(MAX_REFUND_LINES)
    .default([]),
});

export type RefundFormInput = z.infer<typeof refundSchema>;
