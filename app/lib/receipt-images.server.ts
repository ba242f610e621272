import os from "node:os";
import { IMAGE_PRESETS, storeImage } from "./images.server";
import type { Storage } from "./storage.server";

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

/** storeImage for a receipt, at most RECEIPT_SLOTS at once (see above): its private storage key. */
export function storeReceiptImage(storage: Storage, file: File, folder: string): Promise<string> {
  if (file.size > IMAGE_PRESETS.receipt.maxBytes)
    return storeImage(storage, file, "receipt", { area: "private", folder });
  return receiptSlot(() => storeImage(storage, file, "receipt", { area: "private", folder }));
}
