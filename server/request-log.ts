import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";
import { loggablePath, logger, requestLogger } from "~/lib/log.server";
import { traceOf } from "./request-trace";

/** Answers nobody needs a line for: hashed assets, probes and the metrics scrape. */
function quiet(path: string): boolean {
  return path.startsWith("/assets/") || path === "/healthz" || path === "/readyz" || path === "/metrics";
}

/**
 * One line per request, when its answer is sent (or the client goes away first): the request id,
 * method, path without its query string (reset, join, verify and stock-alert links carry their
 * token there), the route pattern, status, duration, user and the page cache's answer. Never a
 * header, cookie or body. A 5xx is a warning (the error itself is logged where it was caught,
 * with the same `reqId`).
 */
export function logRequests(log: Logger = requestLogger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const start = process.hrtime.bigint();
    let done = false;
    const finish = (aborted: boolean) => {
      if (done) return;
      done = true;
      const path = loggablePath(req.originalUrl);
      if (quiet(path)) return;
      const trace = traceOf(res);
      const ms = Math.round(Number(process.hrtime.bigint() - start) / 1e5) / 10;
      const status = aborted ? null : res.statusCode;
      const cache = res.getHeader("X-Page-Cache");
      const line = {
        reqId: trace?.id,
        method: req.method,
        path,
        route: trace?.route ?? null,
        status,
        ms,
        userId: trace?.userId ?? null,
        ...(typeof cache === "string" ? { cache } : {}),
        ...(aborted ? { aborted: true } : {}),
      };
      const msg = `${req.method} ${path} ${aborted ? "aborted" : status} ${ms}ms`;
      if (status !== null && status >= 500) log.warn(line, msg);
      else log.info(line, msg);
    };
    res.once("finish", () => finish(false));
    res.once("close", () => finish(!res.writableFinished));
    next();
  };
}

/**
 * The last handler: an error no route caught (a failing middleware, a broken stream). Logged
 * with the request id and its stack; the visitor gets a short page with the id to quote and
 * nothing internal.
 */
export function handleUncaughtError(log: Logger = logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const reqId = traceOf(res)?.id;
    log.error({ err: error, reqId, method: req.method, path: loggablePath(req.originalUrl) }, "request failed");
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res
      .status(500)
      .type("text/plain")
      .set("Cache-Control", "no-store")
      .send(
        `Something went wrong on our side. If you write to us, quote this reference: ${reqId ?? "-"}\n` +
          `我們這邊出了問題。如需聯絡我們，請提供此參考編號：${reqId ?? "-"}\n`,
      );
  };
}
