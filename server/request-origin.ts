import type { Request } from "express";

/** The visitor's country as the proxy in front says it (Cloudflare, Vercel, or a plain header); read only with TRUST_PROXY. */
export function proxyCountry(req: Request): string | null {
  const value = req.get("CF-IPCountry") ?? req.get("X-Country-Code") ?? req.get("X-Vercel-IP-Country");
  return value && /^[A-Za-z]{2}$/.test(value) ? value.toUpperCase() : null;
}
