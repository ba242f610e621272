import type { Language } from "~/locales";
import { DEFAULT_COLOR } from "./colors";

/** The `_en` or `_zh` value of a bilingual field, falling back to English when empty. */
export function localized<K extends string>(
  row: { [P in `${K}_en` | `${K}_zh`]: string | null },
  field: K,
  language: Language,
): string {
  const zh = row[`${field}_zh`];
  if (language === "zh" && zh) return zh;
  return row[`${field}_en`] ?? "";
}

/**
 * A colour's name in the reader's language: its Chinese name on Chinese pages when it has one,
 * else the English name it is stored by (the cart and orders refer to a colour by that name).
 */
export function colorName(variant: { color: string; color_zh?: string | null }, language: Language): string {
  if (language === "zh" && variant.color_zh) return variant.color_zh;
  return variant.color;
}

/** A variant's second option value in the reader's language ('' when it has none; docs/decisions/054). */
export function optionValueName(
  variant: { option_value?: string | null; option_value_zh?: string | null },
  language: Language,
): string {
  if (!variant.option_value) return "";
  if (language === "zh" && variant.option_value_zh) return variant.option_value_zh;
  return variant.option_value;
}

/**
 * A variant as one short name in the reader's language: "Black / L", "Black", "L" (a product
 * whose only colour is the default one), or "" (neither).
 */
export function variantName(
  variant: {
    color: string;
    color_zh?: string | null;
    option_value?: string | null;
    option_value_zh?: string | null;
  },
  language: Language,
): string {
  const colour = variant.color === DEFAULT_COLOR ? "" : colorName(variant, language);
  return [colour, optionValueName(variant, language)].filter(Boolean).join(" / ");
}
