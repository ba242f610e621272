import { createInstance, type i18n } from "i18next";
import { createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import resources, { LANGUAGES, type Language } from "~/locales";
import { detectLanguage } from "~/request/language.server";

export { languageCookie } from "~/request/language.server";

/** The request's language; set by the visitor middleware (app/middleware/visitor.ts). Unset (reading throws) before it ran. */
export const languageContext = createContext<Language>();

/**
 * One server-side i18next per language, made once at start: loaders, actions and e-mails translate
 * with `getInstance(context).t`. Pages render with the runtime of ~/lib/i18n (entry.server.tsx),
 * the same one the browser runs (docs/decisions/015).
 */
const instances = new Map<Language, i18n>(
  LANGUAGES.map((language) => {
    const instance = createInstance({
      resources,
      lng: language,
      fallbackLng: "en",
      supportedLngs: [...LANGUAGES],
      interpolation: { escapeValue: false },
      initAsync: false,
    });
    void instance.init();
    return [language, instance];
  }),
);

export function getLanguage(context: Readonly<RouterContextProvider>): Language {
  return context.get(languageContext);
}

/** Kept under remix-i18next's name: the request's language. */
export const getLocale = getLanguage;

export function getInstance(context: Readonly<RouterContextProvider>): i18n {
  return instanceFor(getLanguage(context));
}

export function instanceFor(language: Language): i18n {
  return instances.get(language) ?? (instances.get("en") as i18n);
}

/**
 * Sets the language from the request alone: for route tests and any code path that runs a loader
 * without the visitor middleware. In the app the visitor middleware sets it.
 */
export const i18nextMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  context.set(languageContext, await requestLanguage(request));
  return next();
};

/**
 * The language of a request from the request alone (the rule of app/request/language.server.ts),
 * for a page rendered when the middleware did not run (an error before it).
 */
export function requestLanguage(request: Request): Promise<Language> {
  return detectLanguage(new URL(request.url), request.headers.get("Cookie"), request.headers.get("Accept-Language"));
}

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "translation";
    resources: (typeof resources)["en"];
  }
}
