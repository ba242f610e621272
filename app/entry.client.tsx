import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { I18nProvider } from "./lib/i18n";
import { BrowserRequestIdProvider, watchFailedRequests } from "./lib/request-id";
import { loadTranslations } from "./lib/translations";
import { translationsPath } from "./locales/parts";

async function main() {
  // Before hydration: the error page's request id, and the ids of the requests that fail later.
  watchFailedRequests(window);
  // The server chose the language (<html lang>) and links the page's text (preloaded JSON), so
  // the interface text of both languages stays out of the JavaScript bundle.
  const lang = document.documentElement.lang.startsWith("zh") ? "zh" : "en";
  const link = document.getElementById("translations");
  const url = link?.getAttribute("href") ?? translationsPath(lang, "store");
  const messages = await loadTranslations(url);
  startTransition(() => {
    hydrateRoot(
      document,
      <BrowserRequestIdProvider>
        <I18nProvider language={lang} messages={messages}>
          <StrictMode>
            <HydratedRouter />
          </StrictMode>
        </I18nProvider>
      </BrowserRequestIdProvider>,
    );
  });
}

main().catch(console.error);
