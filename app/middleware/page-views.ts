import type { MiddlewareFunction } from "react-router";
import { services } from "~/context";
import { getUser } from "~/request/auth.server";
import { countPageVisit } from "~/request/page-views.server";

/**
 * Counts a page view for each storefront document request (countPageVisit decides what counts
 * and queues it; the views are written in batches, off the request path). Counting never slows
 * or breaks the page: its errors are only logged.
 */
export const pageViewMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const response = await next();
  const { db, config } = services(context);
  const setCookie = await countPageVisit(
    db,
    {
      method: request.method,
      path: new URL(request.url).pathname,
      status: response.status,
      contentType: response.headers.get("Content-Type"),
      cookieHeader: request.headers.get("Cookie"),
      userAgent: request.headers.get("User-Agent"),
      referrer: request.headers.get("Referer"),
      userId: getUser(context)?.id ?? null,
    },
    { secure: config.secureCookies },
  );
  if (setCookie) response.headers.append("Set-Cookie", setCookie);
  return response;
};
