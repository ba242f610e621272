import { z } from "zod";

const BAD_REQUEST = "adminMessages.errors.badRequest";
const RETENTION_RANGE = "adminMessages.retention.range";

/**
 * "Send again" on a message (Admin → Messages, the message page, the admin order page).
 * `expected` is the status the admin saw: a message that has moved on since is not sent again.
 * `returnTo` is the page the button was on (the filtered list, the order page).
 */
export const resendMessageSchema = z.object({
  intent: z.literal("resend", { error: BAD_REQUEST }),
  expected: z.enum(["pending", "failed", "sent"], { error: BAD_REQUEST }),
  returnTo: z.string().max(2000).optional(),
});

/** How long sent messages are kept, in whole days (the owner's setting on Admin → Messages). */
export const retentionSchema = z.object({
  intent: z.literal("retention", { error: BAD_REQUEST }),
  days: z.coerce
    .number({ error: RETENTION_RANGE })
    .int({ error: RETENTION_RANGE })
    .min(1, { error: RETENTION_RANGE })
    .max(3650, { error: RETENTION_RANGE }),
});
