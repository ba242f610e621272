import type { MiddlewareFunction } from "react-router";
import { requestInfoContext } from "~/context";
import { userContext } from "~/request/auth.server";

/**
 * Tells the request's trace (server/request-trace.ts) which route answered and who asked, for
 * the log line and the metrics written when the response ends. Runs after the user middleware.
 */
export const traceMiddleware: MiddlewareFunction<Response> = ({ context, pattern }, next) => {
  const trace = context.get(requestInfoContext).trace;
  if (trace) {
    // React Router joins the matched paths without the root's slash (`product/:id`): said as
    // the contract of RequestTrace has it (`/product/:id`), as the page cache names its hits.
    trace.route = pattern.startsWith("/") ? pattern : `/${pattern}`;
    trace.userId = context.get(userContext)?.id ?? null;
  }
  return next();
};
