import type { ExpressionBuilder } from "kysely";
import { data } from "react-router";
import { type DB, now } from "#db/connect.server";
import type { Database, OrderRow } from "#db/schema";
import type { Config } from "~/lib/config.server";
import { IMAGE_PRESETS, ImageError } from "~/lib/images.server";
import { type Problem, type UnreadBodyProblems, UserError } from "~/lib/problem";
import { type ReceiptOptions, storeReceiptImage } from "~/lib/receipt-images.server";
import { removeFilesQuietly, type Storage } from "~/lib/storage.server";
import { auditAction } from "../audit.server";
import { recordShopEvent } from "../outbox/events.server";

/** Room for the multipart envelope and the small fields around the 5 MB receipt. */
export const RECEIPT_FORM_LIMIT = IMAGE_PRESETS.receipt.maxBytes + 256 * 1024;

/** A receipt too large to be read is the same refusal as one the pipeline finds too large. */
const RECEIPT_TOO_LARGE: Problem = { key: "payment.tooLarge", detailKey: "payment.tooLargeDetail" };

/** What the receipt forms (payment, replacing a receipt) call a body refused before it was read. */
export const RECEIPT_UNREAD: UnreadBodyProblems = { tooLarge: RECEIPT_TOO_LARGE };

/**
 * Stores a shopper's receipt, re-encoded, in private storage under their folder. No file is a
 * refusal (400); a file over the receipt limit is 413, anything that is not an image 400: the
 * same answers on the payment page and when a rejected receipt is replaced.
 */
export async function storeReceipt(
  storage: Storage,
  file: File | undefined,
  userId: string,
  options: ReceiptOptions = {},
): Promise<string> {
  if (!(file instanceof File) || file.size === 0) {
    throw new UserError("payment.required", { detailKey: "payment.requiredDetail" });
  }
  try {
    // A few at a time (receipt-images.server.ts); nothing else of the payment waits on it.
    return await storeReceiptImage(storage, file, `receipts/${userId}`, options);
  } catch (error) {
    if (!(error instanceof ImageError)) throw error;
    if (error.code === "tooLarge") {
      throw new UserError(RECEIPT_TOO_LARGE.key, { detailKey: RECEIPT_TOO_LARGE.detailKey, status: 413 });
    }
    if (error.code === "tooManyPixels") {
      throw new UserError("payment.invalidType", { detailKey: error.messageKey, params: error.params });
    }
    throw new UserError("payment.invalidType", { detailKey: "payment.invalidTypeDetail" });
  }
}

/**
 * A payment receipt as a response: private, never cached by shared caches, an image that cannot
 * be sniffed into anything else (nosniff comes with every response from the web server) and
 * sandboxed if opened on its own. `download` asks the browser to save it instead of showing it.
 */
export async function receiptResponse(
  storage: Storage,
  order: Pick<OrderRow, "order_number" | "receipt_path">,
  options: { download?: boolean } = {},
): Promise<Response> {
  if (!order.receipt_path) throw data("Not found", { status: 404 });
  const file = await storage.get("private", order.receipt_path);
  if (!file) throw data("Not found", { status: 404 });
  const extension =
    order.receipt_path
      .split(".")
      .pop()
      ?.replace(/[^a-z0-9]/gi, "") || "webp";
  const filename = `receipt-${order.order_number.replace(/[^A-Za-z0-9-]/g, "")}.${extension}`;
  return new Response(new Uint8Array(file.data), {
    headers: {
      "Content-Type": file.contentType.startsWith("image/") ? file.contentType : "application/octet-stream",
      "Content-Length": String(file.data.byteLength),
      "Content-Disposition": `${options.download ? "attachment" : "inline"}; filename="${filename}"`,
      "Content-Security-Policy": "default-src 'none'; img-src 'self'; sandbox",
      "Cache-Control": "private, no-store",
    },
  });
}

type ReceiptState = Pick<OrderRow, "status" | "receipt_path" | "receipt_rejected_reason">;

/**
 * Unpaid and waiting for a receipt: none sent yet (paid later) or the last one not accepted. The
 * shopper may upload one, and the payment deadline runs (docs/decisions/034); otherwise a
 * receipt waits for the admin's review, or the order is past payment.
 */
export function awaitsReceipt(order: ReceiptState): boolean {
  return order.status === "pending_payment" && (order.receipt_path === null || order.receipt_rejected_reason !== null);
}

/** `awaitsReceipt` as a condition on `orders`, for the compare-and-sets that depend on it. */
export function awaitingReceipt(eb: ExpressionBuilder<Database, "orders">) {
  return eb.and([
    eb("status", "=", "pending_payment"),
    eb.or([eb("receipt_path", "is", null), eb("receipt_rejected_reason", "is not", null)]),
  ]);
}

/**
 * A new receipt for an order whose receipt the shop did not accept, or the first one of an order
 * placed to pay later. Only the order's customer,
 * only while the order is still pending payment with its receipt rejected (compare-and-set, so
 * two uploads at once cannot both win); the rejection is cleared, the new receipt goes into the
 * order's history (audit log) and the shop's event is recorded (its alert: a receipt to review).
 * Returns the storage key of the receipt it replaced (for the caller to delete), or null when the
 * order is not waiting for a new receipt.
 */
export async function replaceReceipt(
  db: DB,
  config: Pick<Config, "publicUrl">,
  input: { orderId: string; userId: string; receiptPath: string },
): Promise<{ previous: string | null } | null> {
  return db.transaction().execute(async (trx) => {
    const order = await trx
      .selectFrom("orders")
      .select(["receipt_path", "receipt_rejected_reason"])
      .where("id", "=", input.orderId)
      .where("user_id", "=", input.userId)
      .where("status", "=", "pending_payment")
      .where(awaitingReceipt)
      .executeTakeFirst();
    if (!order) return null;
    const at = new Date();
    const timestamp = now(at);
    const updated = await trx
      .updateTable("orders")
      .set({
        receipt_path: input.receiptPath,
        receipt_uploaded_at: timestamp,
        receipt_rejected_reason: null,
        updated_at: timestamp,
      })
      .where("id", "=", input.orderId)
      .where("status", "=", "pending_payment")
      .where(awaitingReceipt)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return null;
    await auditAction(trx, input.userId, "order.receiptReplaced", input.orderId, {
      before: { receipt_rejected_reason: order.receipt_rejected_reason },
      after: { receipt_uploaded_at: timestamp },
    });
    await recordShopEvent(trx, {
      type: "order.receipt_uploaded",
      at,
      publicUrl: config.publicUrl,
      orderId: input.orderId,
      replaced: order.receipt_path !== null,
    });
    return { previous: order.receipt_path };
  });
}

/**
 * The owner of an order whose receipt was rejected uploads a new one: the file is stored, the
 * order takes it (replaceReceipt: one transaction with its audit entry, so the order desk's
 * history shows it) and the receipt it replaced is removed. An order not waiting for a new
 * receipt is a 409 and the new file is removed again.
 */
export async function uploadReplacementReceipt(
  db: DB,
  storage: Storage,
  config: Pick<Config, "publicUrl">,
  input: { order: ReceiptState & Pick<OrderRow, "id">; userId: string; file: File | undefined },
): Promise<void> {
  const { order, userId } = input;
  if (!awaitsReceipt(order)) {
    throw new UserError("error.badRequest", { status: 409 });
  }
  const path = await storeReceipt(storage, input.file, userId);
  const replaced = await replaceReceipt(db, config, { orderId: order.id, userId, receiptPath: path });
  if (!replaced) {
    await removeFilesQuietly(storage, "private", [path]);
    throw new UserError("error.badRequest", { status: 409 });
  }
  if (replaced.previous) await removeFilesQuietly(storage, "private", [replaced.previous]);
}
