/**
 * Global Trade Item Numbers (the number under a barcode): GTIN-8, GTIN-12 (UPC-A), GTIN-13
 * (EAN) or GTIN-14, digits only. The last digit is a check digit (GS1's modulo-10: from the
 * right, the digits before it weigh 3, 1, 3, …), so a typo is almost always caught.
 * Shared by the product form (browser and server) and the CSV import (docs/decisions/056).
 */

export const GTIN_LENGTHS = [8, 12, 13, 14] as const;

/** The check digit GS1 computes for `body` (every digit of a GTIN but its last). */
export function gtinCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** The number as it is stored: spaces and hyphens people type between groups removed. */
export function normalizeGtin(text: string): string {
  return text.replace(/[\s-]+/g, "");
}

/** True for 8, 12, 13 or 14 digits whose last is the right check digit. */
export function isValidGtin(gtin: string): boolean {
  if (!/^\d+$/.test(gtin) || !(GTIN_LENGTHS as readonly number[]).includes(gtin.length)) return false;
  return gtinCheckDigit(gtin.slice(0, -1)) === Number(gtin.at(-1));
}
