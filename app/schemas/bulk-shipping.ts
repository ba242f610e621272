import { z } from "zod";
import { carrierField, expectedStatusField } from "./order-status";

/** How many orders one "mark shipped" form may carry: four pages of the orders list. */
export const MAX_BULK_ORDERS = 100;

/** The longest tracking number, as on the order page's own form. */
export const TRACKING_MAX = 100;

const ORDER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The orders chosen on the list (`?id=…&id=…`, the checkboxes' values): order ids only, each
 * once, in the order they came, at most MAX_BULK_ORDERS. Anything else is dropped, so a
 * hand-made query string shows fewer rows, never an error.
 */
export function parseOrderIds(values: readonly unknown[]): string[] {
  const ids = values.flatMap((value) =>
    typeof value === "string" && ORDER_ID.test(value.trim()) ? [value.trim()] : [],
  );
  return [...new Set(ids)].slice(0, MAX_BULK_ORDERS);
}

/**
 * One order of the "mark shipped" form (docs/decisions/061): the order, the status the admin saw
 * (the compare-and-set key), the carrier (optional, free text) and the tracking number, which
 * this form requires: shipping many at once is for parcels with one, and an e-mail without it
 * cannot be taken back. An order shipped without a number is marked from its own page.
 */
export const bulkShipRowSchema = z.object({
  id: z.string({ error: "bulkShipping.errors.notFound" }).regex(ORDER_ID, { error: "bulkShipping.errors.notFound" }),
  expected: expectedStatusField,
  carrier: carrierField,
  tracking: z
    .string({ error: "bulkShipping.errors.trackingRequired" })
    .trim()
    .min(1, { error: "bulkShipping.errors.trackingRequired" })
    .max(TRACKING_MAX, { error: "adminOrders.errors.trackingTooLong" }),
});

export type BulkShipRow = z.infer<typeof bulkShipRowSchema>;

/** The whole form as the browser checks it (Conform) before sending: every row valid. */
export const bulkShipSchema = z.object({
  orders: z
    .array(bulkShipRowSchema)
    .min(1, { error: "bulkShipping.errors.noneSelected" })
    .max(MAX_BULK_ORDERS, { error: "bulkShipping.errors.tooMany" }),
});

const text = z.string().optional();

/**
 * The form as the server reads it: rows of text, each then checked on its own with
 * `bulkShipRowSchema`, so one row's bad input keeps that order back and lets the others ship.
 */
export const bulkShipRowsSchema = z.object({
  orders: z
    .array(z.object({ id: text, expected: text, carrier: text, tracking: text }))
    .max(MAX_BULK_ORDERS, { error: "bulkShipping.errors.tooMany" })
    .default([]),
});
