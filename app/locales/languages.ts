/**
 * The shop's languages, without their texts: safe to import from browser code (importing
 * `~/locales` itself would bundle every translation into the page).
 */
export const LANGUAGES = ["en", "zh"] as const;
export type Language = (typeof LANGUAGES)[number];

/** The `<html lang>` value of each language. */
export const HTML_LANG: Record<Language, string> = { en: "en", zh: "zh-Hant-HK" };

export function isLanguage(value: unknown): value is Language {
  return value === "en" || value === "zh";
}
