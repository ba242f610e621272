/**
 * The colour name of a product sold in one colour only. Kept apart from the Zod schemas so
 * storefront pages that show it do not load the validation library (scripts/page-weight.mjs).
 */
export const DEFAULT_COLOR = "Default";
