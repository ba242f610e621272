import type { NextFunction, Request, Response } from "express";
import { loggablePath, logger } from "~/lib/log.server";
import { outageHeaders, outageStatus } from "~/lib/outage.server";
import { traceOf } from "./request-trace";

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
  logger.warn(
    {
      reqId: traceOf(res)?.id,
      method: req.method,
      path: loggablePath(req.path),
      status,
      err: (error as Error).message,
    },
    `answered ${status}: a dependency failed`,
  );
  res.status(status).set(outageHeaders()).type("text/plain").send(TEXT[status]);
}
