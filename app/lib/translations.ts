import type { i18n as I18n } from "i18next";

/**
 * Fetches a language's interface text (JSON) and makes it the current language's resources.
 * Each try is bounded (a stalled request must not hold the page back for ever); after three
 * failures it throws, and the caller leaves the server-rendered page as plain HTML.
 */
export async function loadTranslations(i18n: I18n, language: string, url: string): Promise<void> {
  // Same credentials mode as the page's <link rel="preload" crossorigin="use-credentials">, so the
  // preloaded response is the one used.
  let resources: unknown;
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(url, { credentials: "include", signal: AbortSignal.timeout(8_000) });
      if (!response.ok) throw new Error(`translations ${url}: ${response.status}`);
      resources = await response.json();
      break;
    } catch (error) {
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
    }
  }
  i18n.addResourceBundle(language, "translation", resources, true, true);
  if (i18n.language !== language) await i18n.changeLanguage(language);
}
