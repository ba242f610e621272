import { z } from "zod";
import { expectedStatusField, rejectReasonField } from "./order-status";

const orderId = z.string().regex(/^[0-9a-f-]{36}$/, { error: "adminOrders.errors.notFound" });

/**
 * A decision on a receipt from the review queue (the orders list): mark the order paid, or
 * reject its receipt with a reason. The same fields and rules as the order page's forms
 * (`orderStatusSchema`), plus the order the row stands for.
 */
export const receiptReviewSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("markPaid"), orderId, expected: expectedStatusField }),
    z.object({
      intent: z.literal("rejectReceipt"),
      orderId,
      expected: expectedStatusField,
      reason: rejectReasonField,
    }),
  ],
  { error: "adminOrders.errors.notAllowed" },
);

export type ReceiptReviewInput = z.infer<typeof receiptReviewSchema>;
