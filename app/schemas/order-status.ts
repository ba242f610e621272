import { z } from "zod";
import { ORDER_STATUSES } from "#db/schema";

const expected = z.enum(ORDER_STATUSES, { error: "adminOrders.errors.notAllowed" });

/** Why a receipt is rejected: the customer reads it in the e-mail. Also the review queue's field. */
export const rejectReasonField = z
  .string({ error: "adminOrders.errors.reasonRequired" })
  .trim()
  .min(1, { error: "adminOrders.errors.reasonRequired" })
  .max(500, { error: "adminOrders.errors.reasonTooLong" });

export { expected as expectedStatusField };

/** The longest carrier name ("SF Express", "Hongkong Post"…; docs/decisions/061). */
export const CARRIER_MAX = 60;

/** Who carries the parcel, beside the tracking number when an order is marked shipped: optional. */
export const carrierField = z
  .string()
  .trim()
  .max(CARRIER_MAX, { error: "adminOrders.errors.carrierTooLong" })
  .optional()
  .transform((value) => value || null);

/**
 * The admin's status-change forms, one per action, told apart by `intent`. `expected` is the
 * status the admin saw: the change applies only while the order is still in it.
 */
export const orderStatusSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("markPaid"), expected }),
    z.object({ intent: z.literal("markDelivered"), expected }),
    z.object({
      intent: z.literal("markShipped"),
      expected,
      tracking: z
        .string()
        .trim()
        .max(100, { error: "adminOrders.errors.trackingTooLong" })
        .optional()
        .transform((value) => value || null),
      carrier: carrierField,
    }),
    z.object({
      intent: z.literal("rejectReceipt"),
      expected,
      reason: rejectReasonField,
    }),
    z.object({ intent: z.literal("cancel"), expected }),
  ],
  { error: "adminOrders.errors.notAllowed" },
);

export type OrderStatusInput = z.infer<typeof orderStatusSchema>;
