import type { Language } from "~/locales";

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
