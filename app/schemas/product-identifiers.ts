import { z } from "zod";
import { isValidGtin, normalizeGtin } from "~/lib/gtin";

/**
 * The product form's identifiers (docs/decisions/056): GTIN (barcode number) and MPN
 * (manufacturer part number), both optional. Part of the product schema (app/schemas/product.ts).
 */

export const MPN_MAX = 70;

/** Empty: none. Else 8/12/13/14 digits (spaces and hyphens between groups allowed) with a correct check digit. */
export const gtinField = z
  .string()
  .trim()
  .transform(normalizeGtin)
  .refine((value) => value === "" || isValidGtin(value), { error: "adminProductForm.errors.gtinInvalid" })
  .optional();

export const mpnField = z.string().trim().max(MPN_MAX, { error: "adminProductForm.errors.mpnTooLong" }).optional();

/** The identifiers as the model saves them: null when not given. */
export function identifiersOf(value: { gtin?: string; mpn?: string }): { gtin: string | null; mpn: string | null } {
  return { gtin: value.gtin || null, mpn: value.mpn || null };
}
