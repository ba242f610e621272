import { createCookie } from "react-router";
import { CURRENCIES, type Currency } from "#db/schema";
import { countryForIp } from "~/lib/geoip.server";

/**
 * The euro area: the 20 members of 2025 (Croatia since 2023) and Bulgaria since 1 January 2026.
 * Shoppers there are shown euros.
 */
export const EURO_ZONE = new Set([
  "AT",
  "BE",
  "BG",
  "CY",
  "DE",
  "EE",
  "ES",
  "FI",
  "FR",
  "GR",
  "HR",
  "IE",
  "IT",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "PT",
  "SI",
  "SK",
]);

export const currencyCookie = createCookie("currency", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

export function isCurrency(value: unknown): value is Currency {
  return typeof value === "string" && (CURRENCIES as readonly string[]).includes(value);
}

export function currencyForCountry(country: string | null | undefined): Currency {
  const code = country?.toUpperCase();
  if (code === "GB") return "GBP";
  if (code && EURO_ZONE.has(code)) return "EUR";
  return "HKD";
}

export interface RequestOrigin {
  /** The client's address as the server sees it (already resolved through a trusted proxy). */
  ip: string | null;
  /** A trusted proxy's country header; only set when TRUST_PROXY is on. */
  proxyCountry: string | null;
}

/** The shopper's choice (cookie) first, else their country (proxy header, else GeoIP), else HKD. */
export async function resolveCurrency(cookieHeader: string | null, origin: RequestOrigin): Promise<Currency> {
  // Parsed only when there is one (every page asks: a header of other cookies is not read twice).
  const chosen = cookieHeader?.includes(`${currencyCookie.name}=`) ? await currencyCookie.parse(cookieHeader) : null;
  if (isCurrency(chosen)) return chosen;
  return currencyForCountry(origin.proxyCountry ?? countryForIp(origin.ip));
}
