import type { Messages } from "./i18n";

/**
 * Fetches a language's interface text (JSON) for the page's translation runtime (`./i18n`).
 * Each try is bounded (a stalled request must not hold the page back for ever); after three
 * failures it throws, and the caller leaves the server-rendered page as plain HTML.
 */
export async function loadTranslations(url: string): Promise<Messages> {
  // Same credentials mode as the page's <link rel="preload" crossorigin="use-credentials">, so the
  // preloaded response is the one used.
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(url, { credentials: "include", signal: AbortSignal.timeout(8_000) });
      if (!response.ok) throw new Error(`translations ${url}: ${response.status}`);
      return (await response.json()) as Messages;
    } catch (error) {
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
    }
  }
}
