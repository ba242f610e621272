import { isbot } from "isbot";
import { createCookie, type MiddlewareFunction } from "react-router";
import { services } from "~/context";
import { getUser } from "~/lib/auth.server";
import { recordPageView } from "~/models/analytics.server";

/** A visit: 30 minutes, renewed with each page. */
const visitCookie = createCookie("visit", { path: "/", httpOnly: true, sameSite: "lax", maxAge: 30 * 60 });

/** Referrers of the site-builder tool the spec excludes from analytics. */
const EXCLUDED_REFERRERS = ["lovable.dev", "lovable.app", "lovableproject.com"];

/**
 * Records a page view for each storefront document request (not data requests, assets,
 * /admin, resources or bots). Recording never slows or breaks the page: it happens after the
 * response is made and its errors are only logged.
 */
export const pageViewMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const response = await next();
  try {
    const url = new URL(request.url);
    const path = url.pathname;
    const referrer = request.headers.get("Referer");
    const userAgent = request.headers.get("User-Agent") ?? "";
    const isDocument =
      request.method === "GET" &&
      !path.endsWith(".data") &&
      (response.headers.get("Content-Type") ?? "").startsWith("text/html");
    if (
      !isDocument ||
      response.status >= 400 ||
      /^\/(admin|resources|assets|uploads)(\/|$)/.test(path) ||
      isbot(userAgent) ||
      (referrer && EXCLUDED_REFERRERS.some((host) => referrer.includes(host)))
    ) {
      return response;
    }
    let visit = await visitCookie.parse(request.headers.get("Cookie"));
    if (typeof visit !== "string" || !/^[A-Za-z0-9_-]{16,64}$/.test(visit))
      visit = crypto.randomUUID().replaceAll("-", "");
    response.headers.append("Set-Cookie", await visitCookie.serialize(visit));
    const { db } = services(context);
    void recordPageView(db, {
      path,
      sessionId: visit,
      userId: getUser(context)?.id ?? null,
      userAgent: userAgent.slice(0, 500) || null,
      referrer: referrer?.slice(0, 500) ?? null,
    }).catch((error) => console.error("page view not recorded", error));
  } catch (error) {
    console.error("page view not recorded", error);
  }
  return response;
};
