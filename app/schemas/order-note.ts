import { z } from "zod";

/** A staff note is at most this long (docs/decisions/058). */
export const NOTE_MAX = 2000;

/** A staff note on an order (admin order page, `intent=addNote`). */
export const orderNoteSchema = z.object({
  intent: z.literal("addNote"),
  body: z
    .string({ error: "adminOrders.staffNotes.bodyRequired" })
    .trim()
    .min(1, { error: "adminOrders.staffNotes.bodyRequired" })
    .max(NOTE_MAX, { error: "adminOrders.staffNotes.bodyTooLong" }),
});
