import type { MiddlewareFunction } from "react-router";
import { notedOutage, outageHeaders, outageResponse, outageStatus } from "~/lib/outage.server";

/**
 * A request that met a failed dependency answers 503/504/507 with `Retry-After`, not a 500 page
 * (docs/decisions/065). React Router catches a loader's, action's or middleware's error itself
 * and renders the nearest error boundary with a 500; `handleError` notes the outage on the
 * request's context (app/lib/outage.server.ts). Two root middlewares, outermost first:
 *
 * - `outageMiddleware` sees that 500 come back from `next()` and throws the outage's status
 *   instead: React Router renders the root error boundary again with it (documents and the
 *   `.data` answers of client navigation alike);
 * - `retryAfterMiddleware`, outside it, puts `Retry-After` on that answer (a status thrown from a
 *   middleware loses the headers it was thrown with).
 */
export const retryAfterMiddleware: MiddlewareFunction<Response> = async (_args, next) => {
  const response = await next();
  if (
    (response.status === 503 || response.status === 504 || response.status === 507) &&
    !response.headers.has("Retry-After")
  ) {
    for (const [name, value] of Object.entries(outageHeaders())) response.headers.set(name, value);
  }
  return response;
};

export const outageMiddleware: MiddlewareFunction<Response> = async ({ context }, next) => {
  let response: Response;
  try {
    response = await next();
  } catch (error) {
    // A resource route's middleware error comes back thrown rather than rendered.
    const status = outageStatus(error);
    throw status ? outageResponse(status) : error;
  }
  if (response.status !== 500) return response;
  const status = notedOutage(context);
  if (status) throw outageResponse(status);
  return response;
};
