import type { Request } from "express";
import type { RequestInput } from "~/request/visitor.server";

/** The visitor's country as the proxy in front says it (Cloudflare, Vercel, or a plain header); read only with TRUST_PROXY. */
export function proxyCountry(req: Request): string | null {
  const value = req.get("CF-IPCountry") ?? req.get("X-Country-Code") ?? req.get("X-Vercel-IP-Country");
  return value && /^[A-Za-z]{2}$/.test(value) ? value.toUpperCase() : null;
}

/**
 * What an Express request says about its visitor, for `readVisitor` (app/request/visitor.server.ts):
 * the same inputs the visitor middleware takes from React Router's request, so the page cache and
 * the app read one visitor the same way.
 */
export function requestInput(req: Request, trustProxy: boolean): RequestInput {
  return {
    url: new URL(req.originalUrl, "http://localhost"),
    cookie: req.headers.cookie ?? null,
    acceptLanguage: req.get("Accept-Language") ?? null,
    userAgent: req.get("User-Agent") ?? null,
    ip: req.ip ?? null,
    proxyCountry: trustProxy ? proxyCountry(req) : null,
  };
}
