import { z } from "zod";

/** The lengths an admin picks from when extending a payment deadline, in hours. */
export const EXTEND_CHOICES = [24, 48, 72, 168] as const;

/**
 * Extending an unpaid order's payment deadline (admin order page). `expectedDueAt` is the
 * deadline the admin saw ("" for none): the extension applies only while it is still that.
 */
export const extendDeadlineSchema = z.object({
  intent: z.literal("extendDeadline"),
  expectedDueAt: z.string().max(40).default(""),
  hours: z.coerce
    .number({ error: "adminOrders.deadline.hoursInvalid" })
    .int({ error: "adminOrders.deadline.hoursInvalid" })
    .min(1, { error: "adminOrders.deadline.hoursInvalid" })
    .max(720, { error: "adminOrders.deadline.hoursInvalid" }),
});
