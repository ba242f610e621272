import type { NextFunction, Request, Response } from "express";
import { outageHeaders, outageStatus } from "~/lib/outage.server";

const TEXT: Record<number, string> = {
  503: "Service briefly unavailable: please try again in a minute.",
  504: "The storage took too long to answer: please try again in a minute.",
  507: "The shop cannot save anything right now: its disk is full.",
};

/**
 * The last Express error handler: an error that escaped React Router (the page cache, an image
 * from the bucket, the request handler) because a dependency failed answers 503/504/507 with
 * Retry-After, not Express's 500 (decision 065). Anything else goes on to Express.
 */
export function answerOutages(error: unknown, req: Request, res: Response, next: NextFunction): void {
  const status = outageStatus(error);
  if (!status || res.headersSent) {
    next(error);
    return;
  }
  console.error(
    `${req.method} ${req.path.slice(0, 200)}: answered ${status}, a dependency failed (${(error as Error).message})`,
  );
  res.status(status).set(outageHeaders()).type("text/plain").send(TEXT[status]);
}
