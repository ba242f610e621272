import { createCookie } from "react-router";
import { createI18nextMiddleware } from "remix-i18next";
import resources, { isLanguage, LANGUAGES, type Language } from "~/locales";

/** The shopper's language choice; set by the POST form of the language toggle. */
export const languageCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

// ?lng=, then the cookie, then the browser's Accept-Language, then English.
export const [i18nextMiddleware, getLocale, getInstance] = createI18nextMiddleware({
  detection: {
    supportedLanguages: [...LANGUAGES],
    fallbackLanguage: "en",
    cookie: languageCookie,
    // ?lng= first: the hreflang alternates of every page point at it, so crawlers see both languages.
    searchParamKey: "lng",
    order: ["searchParams", "cookie", "header"],
  },
  // Server-only: loaders, actions and e-mails translate with `getInstance(context).t`. Pages
  // render with the runtime of ~/lib/i18n (entry.server.tsx), the same one the browser runs.
  i18next: { resources, interpolation: { escapeValue: false } },
});

export function getLanguage(context: Parameters<typeof getLocale>[0]): Language {
  return getLocale(context) === "zh" ? "zh" : "en";
}

/**
 * The middleware's choice made from the request alone, for a page rendered when the middleware
 * did not run (an error before it): ?lng=, then the cookie, then the first language of
 * Accept-Language that the shop has.
 */
export async function requestLanguage(request: Request): Promise<Language> {
  const query = new URL(request.url).searchParams.get("lng");
  if (isLanguage(query)) return query;
  try {
    const cookie: unknown = await languageCookie.parse(request.headers.get("Cookie"));
    if (isLanguage(cookie)) return cookie;
  } catch {
    // An unreadable cookie: the header decides.
  }
  for (const part of (request.headers.get("Accept-Language") ?? "").split(",")) {
    const tag = part.split(";")[0]?.trim().toLowerCase() ?? "";
    if (tag.startsWith("zh")) return "zh";
    if (tag.startsWith("en")) return "en";
  }
  return "en";
}

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "translation";
    resources: (typeof resources)["en"];
  }
}
