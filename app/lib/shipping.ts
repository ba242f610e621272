import type { Currency } from "#db/schema";
import { convertFromHkd } from "./money";

/** How an order in one currency pays for delivery: a flat fee, free above a subtotal (or never). */
export interface ShippingRule {
  feeCents: number;
  /** Free when the subtotal is above this; null: never free. */
  freeAboveCents: number | null;
}

export type ShippingRules = Record<Currency, ShippingRule>;

/**
 * The spec's rule, before the owner sets their own: free above 100, otherwise 10 — in HKD. The
 * other currencies follow it at the exchange rates until the owner sets theirs (`ruleFromHkd`).
 */
export const DEFAULT_SHIPPING_RULE: ShippingRule = { feeCents: 10_00, freeAboveCents: 100_00 };

/**
 * An HKD rule in another currency, each amount converted at `ratePpm` (millionths per HKD) the
 * way derived prices are (`convertFromHkd`): HK$10 / free above HK$100 at 0.1 is £1 / £10.
 */
export function ruleFromHkd(rule: ShippingRule, ratePpm: number): ShippingRule {
  return {
    feeCents: convertFromHkd(rule.feeCents, ratePpm),
    freeAboveCents: rule.freeAboveCents === null ? null : convertFromHkd(rule.freeAboveCents, ratePpm),
  };
}

/**
 * Shipping for a subtotal in the order's currency under the shop's rule for that currency:
 * nothing for an empty cart, free when the subtotal is above the threshold, else the flat fee.
 */
export function shippingFor(subtotalCents: number, rule: ShippingRule = DEFAULT_SHIPPING_RULE): number {
  if (subtotalCents <= 0) return 0;
  if (rule.freeAboveCents !== null && subtotalCents > rule.freeAboveCents) return 0;
  return rule.feeCents;
}
