import crypto from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { RequestTrace } from "~/context";

/** A request id a proxy may hand us: short, and nothing a log line or a page could be fooled by. */
const FORWARDED_ID = /^[A-Za-z0-9._:@-]{8,128}$/;

/**
 * Gives every request its trace (`res.locals.trace`): the request id — the proxy's
 * `X-Request-Id` when TRUST_PROXY is on and it looks like an id, generated otherwise — sent back
 * in the `X-Request-Id` header, so a shopper quoting the id on an error page and the operator's
 * log line meet. Mounted first, before the page cache and /healthz.
 */
export function assignRequestTrace(trustProxy: boolean) {
  return (req: Request, res: Response, next: NextFunction) => {
    const forwarded = trustProxy ? req.get("X-Request-Id") : undefined;
    const id = forwarded && FORWARDED_ID.test(forwarded) ? forwarded : crypto.randomUUID();
    const trace: RequestTrace = { id, route: null, userId: null };
    res.locals.trace = trace;
    res.setHeader("X-Request-Id", id);
    next();
  };
}

export function traceOf(res: Response): RequestTrace | undefined {
  return res.locals.trace as RequestTrace | undefined;
}
