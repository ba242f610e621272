import crypto from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { RequestTrace } from "~/context";

/** A request id a proxy may hand us: short, and nothing a log line or a page could be fooled by. */
const FORWARDED_ID = /^[A-Za-z0-9._:@-]{8,128}$/;

/**
 * A request id generated here: UUID-shaped (36 hex digits and dashes), random per process in its
 * first 80 bits and a counter in the last 48, so ids never repeat across processes and restarts
 * while costing a counter increment, not a random UUID, per request (decision 069: a tenth of
 * a cached page's own CPU went to randomness).
 */
const ID_PREFIX = (() => {
  const hex = crypto.randomBytes(10).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-`;
})();
let idCounter = 0;

export function newRequestId(): string {
  idCounter = (idCounter + 1) % 0x1000000000000;
  return ID_PREFIX + idCounter.toString(16).padStart(12, "0");
}

/**
 * Gives every request its trace (`res.locals.trace`): the request id — the proxy's
 * `X-Request-Id` when TRUST_PROXY is on and it looks like an id, generated otherwise — sent back
 * in the `X-Request-Id` header, so a shopper quoting the id on an error page and the operator's
 * log line meet. Mounted first, before the page cache and /healthz.
 */
export function assignRequestTrace(trustProxy: boolean) {
  return (req: Request, res: Response, next: NextFunction) => {
    const forwarded = trustProxy ? req.get("X-Request-Id") : undefined;
    const id = forwarded && FORWARDED_ID.test(forwarded) ? forwarded : newRequestId();
    const trace: RequestTrace = { id, route: null, userId: null };
    res.locals.trace = trace;
    res.setHeader("X-Request-Id", id);
    next();
  };
}

export function traceOf(res: Response): RequestTrace | undefined {
  return res.locals.trace as RequestTrace | undefined;
}
