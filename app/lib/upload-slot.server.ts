import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The upload slot a request holds (server/upload-slots.ts), as the code serving it sees it: an
 * upload's slot bounds the memory its bytes take (read whole, then re-encoded), so whoever is done
 * with those bytes hands the slot on at once, rather than at the end of the answer: the order a
 * receipt is for, its session and its page take no slot (decision 069).
 */
const slot = new AsyncLocalStorage<() => void>();

/** Runs `next` (the rest of the request) with `release` as its upload slot's release. */
export function withUploadSlot(release: () => void, next: () => void): void {
  slot.run(release, next);
}

/** The request's upload is read and re-encoded: its slot goes to the next upload (no-op without one). */
export function releaseUploadSlot(): void {
  slot.getStore()?.();
}
