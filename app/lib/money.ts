import type { Currency } from "#db/schema";

export const CURRENCY_SYMBOLS: Record<Currency, string> = {
  HKD: "HK$",
  GBP: "£",
  EUR: "€",
  USD: "$",
};

/** The one money formatter: symbol, thousands separators, two decimals. `cents` is an integer. */
export function formatMoney(cents: number, currency: Currency): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(cents));
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const fraction = (abs % 100).toString().padStart(2, "0");
  return `${sign}${CURRENCY_SYMBOLS[currency]}${whole}.${fraction}`;
}

/** Whole amounts without the cents (".00" dropped): price bands, "free above HK$100". */
export function formatMoneyShort(cents: number, currency: Currency): string {
  const full = formatMoney(cents, currency);
  return full.endsWith(".00") ? full.slice(0, -3) : full;
}

export interface Priced {
  price_hkd_cents: number;
  price_gbp_cents: number;
  price_eur_cents: number;
  price_usd_cents: number;
}

/**
 * A product's price in the shopper's currency. Each currency has its own stored price: typed by
 * the operator, or derived from the HKD price at the shop's exchange rate and kept up to date
 * (see `convertFromHkd` and app/models/settings/shop.server.ts).
 */
export function priceIn(product: Priced, currency: Currency): number {
  switch (currency) {
    case "GBP":
      return product.price_gbp_cents;
    case "EUR":
      return product.price_eur_cents;
    case "USD":
      return product.price_usd_cents;
    default:
      return product.price_hkd_cents;
  }
}

/** A product's sale (docs/decisions/053): its price in each currency while it lasts, and its end. */
export interface SalePriced extends Priced {
  sale_price_hkd_cents: number | null;
  sale_price_gbp_cents: number | null;
  sale_price_eur_cents: number | null;
  sale_price_usd_cents: number | null;
  /** ISO-8601 UTC; null: no end. */
  sale_ends_at: string | null;
}

/** What a shopper pays for a product at one moment, and the regular price it replaces. */
export interface PriceNow {
  /** The price paid now: the sale price while the sale lasts, else the regular price. */
  cents: number;
  /** The regular price: more than `cents` exactly when the product is on sale now. */
  regularCents: number;
  /** When the sale ends (ISO-8601 UTC), while one is on; else null. */
  saleEndsAt: string | null;
}

function salePriceIn(product: SalePriced, currency: Currency): number | null {
  switch (currency) {
    case "GBP":
      return product.sale_price_gbp_cents;
    case "EUR":
      return product.sale_price_eur_cents;
    case "USD":
      return product.sale_price_usd_cents;
    default:
      return product.sale_price_hkd_cents;
  }
}

/**
 * The price in effect at `at` (docs/decisions/053): a product is on sale while it has an HKD
 * sale price and its end (if any) is still ahead; it then pays its sale price in `currency` if
 * that is below the regular one. Nothing is written when a sale ends: the price returns by
 * itself. The listing's SQL says the same (app/models/products/sale-prices.server.ts).
 */
export function priceNow(product: SalePriced, currency: Currency, at: Date = new Date()): PriceNow {
  const regularCents = priceIn(product, currency);
  const sale = salePriceIn(product, currency);
  const on =
    product.sale_price_hkd_cents !== null &&
    sale !== null &&
    sale < regularCents &&
    (product.sale_ends_at === null || product.sale_ends_at > at.toISOString());
  return on
    ? { cents: sale, regularCents, saleEndsAt: product.sale_ends_at }
    : { cents: regularCents, regularCents, saleEndsAt: null };
}

/** The currencies whose prices can be derived from HKD. */
export const DERIVED_CURRENCIES = ["GBP", "EUR", "USD"] as const;
export type DerivedCurrency = (typeof DERIVED_CURRENCIES)[number];

/** Exchange rates as millionths of a unit of each currency per 1 HKD (0.1 GBP per HKD = 100000). */
export type ExchangeRates = Record<DerivedCurrency, number>;

export const PPM = 1_000_000;

/**
 * HKD cents at a rate in millionths, rounded half up to whole cents, in integer arithmetic (the
 * same formula as the SQL that recomputes every derived price when a rate changes).
 */
export function convertFromHkd(hkdCents: number, ratePpm: number): number {
  return Number((BigInt(Math.trunc(hkdCents)) * BigInt(Math.trunc(ratePpm)) + BigInt(PPM / 2)) / BigInt(PPM));
}

/** A rate in millionths as the decimal the operator types: 118000 → "0.118". */
export function rateToText(ratePpm: number): string {
  const whole = Math.floor(ratePpm / PPM);
  const fraction = String(ratePpm % PPM)
    .padStart(6, "0")
    .replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** "0.118" → 118000; more than six decimals, negative or not a number → null. */
export function parseRate(text: string): number | null {
  const value = text.trim();
  if (!/^\d{1,4}(?:\.\d{1,6})?$/.test(value)) return null;
  const [whole = "0", fraction = ""] = value.split(".");
  return Number.parseInt(whole, 10) * PPM + Number.parseInt(fraction.padEnd(6, "0"), 10);
}
