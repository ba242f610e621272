import os from "node:os";
import { encodeUpload, IMAGE_PRESETS, type ProcessedImage, putEncoded } from "./images.server";
import type { Storage } from "./storage.server";
import { releaseUploadSlot } from "./upload-slot.server";

/**
 * Receipts re-encoded at once in this process. sharp decodes and encodes on libuv's thread pool
 * (4 threads unless UV_THREADPOOL_SIZE says otherwise), the same threads that write files and
 * gzip responses: fifty payments at once would queue fifty images there, and every file write and
 * compressed page of every other request behind them. One receipt per core (at most the pool
 * size less one) keeps the cores busy and a thread free; the rest wait their turn here, in order.
 */
export const RECEIPT_SLOTS = Math.max(
  1,
  Math.min(os.availableParallelism(), (Number(process.env.UV_THREADPOOL_SIZE) || 4) - 1),
);

/** A counting semaphore: at most `slots` callers run at once, the others wait first come, first served. */
export function limiter(slots: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active < slots) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

const receiptSlot = limiter(RECEIPT_SLOTS);

export interface ReceiptOptions {
  /**
   * Runs when the receipt's turn comes, before it is decoded: a payment that can no longer
   * succeed (the colour sold out while it waited) throws here, and no CPU goes to its receipt.
   */
  beforeEncode?: () => Promise<void>;
}

/**
 * A receipt re-encoded, at most RECEIPT_SLOTS at once (see above), then stored in private
 * storage: its key. The slot covers the CPU work only (reading the upload, decoding, encoding):
 * the write and its two fsyncs (DiskStorage.put) wait on the disk, not on a core, so they run
 * after the slot is handed on (decision 069: held through the write, the slot was half idle and
 * 50 payments at once queued twice as long).
 */
export async function storeReceiptImage(
  storage: Storage,
  file: File,
  folder: string,
  options: ReceiptOptions = {},
): Promise<string> {
  const encode = async (): Promise<ProcessedImage> => {
    await options.beforeEncode?.();
    return encodeUpload(file, "receipt");
  };
  // A file over the limit is refused at once (encodeUpload reads nothing of it): no slot needed.
  const image =
    file.size > IMAGE_PRESETS.receipt.maxBytes ? await encodeUpload(file, "receipt") : await receiptSlot(encode);
  const key = await putEncoded(storage, image, "receipt", { area: "private", folder });
  // The upload is read, re-encoded and stored: its upload slot (if it took one) goes to the next.
  releaseUploadSlot();
  return key;
}
