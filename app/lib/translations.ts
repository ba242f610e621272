import type { i18n as I18n } from "i18next";

/** Fetches a language's interface text (JSON) and makes it the current language's resources. */
export async function loadTranslations(i18n: I18n, language: string, url: string): Promise<void> {
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`translations ${url}: ${response.status}`);
  i18n.addResourceBundle(language, "translation", await response.json(), true, true);
  if (i18n.language !== language) await i18n.changeLanguage(language);
}
