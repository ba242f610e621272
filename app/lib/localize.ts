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
