import { z } from "zod";

/**
 * A receipt upload. The file is optional here on purpose: a missing receipt is refused by the
 * model (storeReceipt) with the payment page's own message, not as a field error.
 */
const receiptFile = z.preprocess(
  // Several files under the one name (a hostile or broken client): the first is the receipt, as a
  // plain form read would take it, and the pipeline refuses it with its own message if it is no image.
  (value) => (Array.isArray(value) ? value[0] : value),
  z.instanceof(File).optional(),
);

/** The payment form: the receipt and the form's one-time key (the same form sent twice makes one order). */
export const paymentSchema = z.object({
  submissionKey: z.string().default(""),
  receipt: receiptFile,
  /** The button pressed: "later" places the order without a receipt (uploaded from the order page). */
  intent: z.enum(["pay", "later"]).catch("pay"),
});

/** A receipt for an order still waiting for one: paid later, or the shop did not accept the last. */
export const replaceReceiptSchema = z.object({ receipt: receiptFile });
