import i18next from "i18next";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { loadTranslations } from "./lib/translations";
import { translationsPath } from "./locales/parts";

async function main() {
  // The server chose the language (<html lang>) and links the page's text (preloaded JSON), so
  // the interface text of both languages stays out of the JavaScript bundle.
  const lang = document.documentElement.lang.startsWith("zh") ? "zh" : "en";
  const link = document.getElementById("translations");
  const url = link?.getAttribute("href") ?? translationsPath(lang, "store");
  await i18next.use(initReactI18next).init({
    resources: {},
    lng: lang,
    fallbackLng: false,
    interpolation: { escapeValue: false },
  });
  await loadTranslations(i18next, lang, url);
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

main().catch(console.error);
