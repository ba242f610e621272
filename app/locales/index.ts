import type { Resource } from "i18next";
import en from "./en";
import zh from "./zh";

export const LANGUAGES = ["en", "zh"] as const;
export type Language = (typeof LANGUAGES)[number];

/** The `<html lang>` value of each language. */
export const HTML_LANG: Record<Language, string> = { en: "en", zh: "zh-Hant-HK" };

export function isLanguage(value: unknown): value is Language {
  return value === "en" || value === "zh";
}

export default { en, zh } satisfies Resource;
