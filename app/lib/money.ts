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

export interface Priced {
  price_hkd_cents: number;
  price_gbp_cents: number;
  price_eur_cents: number;
  price_usd_cents: number;
}

/** A product's price in the shopper's currency (each currency is priced by the shop, not converted). */
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
