/** Shipping is free above this subtotal (in the order's currency), otherwise a flat fee. */
export const FREE_SHIPPING_ABOVE_CENTS = 100_00;
export const SHIPPING_FEE_CENTS = 10_00;

/** The spec's rule: free when the subtotal is above 100, otherwise 10 (nothing for an empty cart). */
export function shippingFor(subtotalCents: number): number {
  if (subtotalCents <= 0) return 0;
  return subtotalCents > FREE_SHIPPING_ABOVE_CENTS ? 0 : SHIPPING_FEE_CENTS;
}
