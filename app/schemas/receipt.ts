import { z } from "zod";

/**
 * A receipt upload. The file is optional here on purpose: a missing receipt is refused by the
 * model (storeReceipt) with the payment page's own message, not as a field error.
 */
const receiptFile = z.instanceof(File).optional();

/** The payment form: the receipt and the form's one-time key (the same form sent twice makes one order). */
export const paymentSchema = z.object({
  submissionKey: z.string().default(""),
  receipt: receiptFile,
});

/** A new receipt for an order whose receipt the shop did not accept. */
export const replaceReceiptSchema = z.object({ receipt: receiptFile });
