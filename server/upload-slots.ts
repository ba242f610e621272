import type { NextFunction, Request, Response } from "express";
import { withUploadSlot } from "~/lib/upload-slot.server";

/** Uploads handled at once; more would only queue for the same two cores and four image threads. */
export const UPLOAD_SLOTS = 4;
/** Time an upload has, once it holds a slot, to send its whole body (10 MB at 1 Mbit/s takes 80 s). */
const UPLOAD_DEADLINE_MS = 120_000;
/** A body larger than this (or one of unknown length) is an upload. */
const UPLOAD_MIN_BYTES = 256 * 1024;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Uploads (large or chunked request bodies) are handled a few at a time: each is held in memory
 * whole while its form is parsed and its image re-encoded, so 50 at once would hold 50 copies.
 * The others wait with their bytes still in the network (TCP backpressure), not in the server's
 * memory. A slot is held from the first byte read until the code serving the request says its
 * upload is done with (`releaseUploadSlot`, app/lib/upload-slot.server.ts: a receipt once
 * re-encoded and stored, before its order is placed), else to the last byte of the answer.
 */
export function limitConcurrentUploads(slots: number) {
  let active = 0;
  const queue: (() => void)[] = [];
  return (req: Request, res: Response, next: NextFunction) => {
    const length = Number(req.get("Content-Length") ?? "0");
    const upload = !SAFE_METHODS.has(req.method) && (length > UPLOAD_MIN_BYTES || req.get("Transfer-Encoding"));
    if (!upload) return next();
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const waiting = queue.shift();
      if (waiting) waiting();
      else active--;
    };
    const start = () => {
      res.once("finish", release);
      res.once("close", release);
      // A client trickling its body must not hold a slot for ever: it gets a fixed time once in.
      const deadline = setTimeout(() => {
        if (!req.complete) req.destroy();
      }, UPLOAD_DEADLINE_MS);
      res.once("close", () => clearTimeout(deadline));
      withUploadSlot(release, next);
    };
    if (active < slots) {
      active++;
      start();
      return;
    }
    queue.push(start);
    // A client that gives up while waiting leaves the queue.
    res.once("close", () => {
      const index = queue.indexOf(start);
      if (index >= 0) queue.splice(index, 1);
    });
  };
}
