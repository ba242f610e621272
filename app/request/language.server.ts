import { createCookie } from "react-router";
import { isLanguage, type Language } from "~/locales";

/** The shopper's language choice; set by the POST form of the language toggle. */
export const languageCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

/** `zh-HK`, `ZH`, `zh_TW` → zh; `en-GB` → en; anything else → null. */
function languageOf(tag: string | null | undefined): Language | null {
  const primary = tag?.trim().split(/[-_]/)[0]?.toLowerCase();
  return isLanguage(primary) ? primary : null;
}

/**
 * The first language of an Accept-Language header that the shop has, by quality (`q=`, highest
 * first, the header's order among equals; `q=0` means "not this one" and a `*` names none).
 */
export function headerLanguage(acceptLanguage: string | null | undefined): Language | null {
  if (!acceptLanguage) return null;
  const ranked: { language: Language; q: number; at: number }[] = [];
  acceptLanguage.split(",").forEach((part, at) => {
    const [tag, ...parameters] = part.split(";");
    const language = languageOf(tag);
    if (!language) return;
    let q = 1;
    for (const parameter of parameters) {
      const match = /^\s*q\s*=\s*([01](?:\.\d+)?)\s*$/.exec(parameter);
      if (match) q = Number(match[1]);
    }
    if (q > 0) ranked.push({ language, q, at });
  });
  ranked.sort((a, b) => b.q - a.q || a.at - b.at);
  return ranked[0]?.language ?? null;
}

/**
 * The language of a request: `?lng=` first (the hreflang alternates of every page point at it,
 * so crawlers see both languages), then the toggle's cookie, then Accept-Language, then English.
 * A value the shop does not have passes to the next source.
 */
export async function detectLanguage(
  url: URL,
  cookieHeader: string | null,
  acceptLanguage: string | null,
): Promise<Language> {
  const fromQuery = languageOf(url.searchParams.get("lng"));
  if (fromQuery) return fromQuery;
  if (cookieHeader?.includes(`${languageCookie.name}=`)) {
    try {
      const chosen: unknown = await languageCookie.parse(cookieHeader);
      const fromCookie = typeof chosen === "string" ? languageOf(chosen) : null;
      if (fromCookie) return fromCookie;
    } catch {
      // An unreadable cookie: the header decides.
    }
  }
  return languageOfHeader(acceptLanguage);
}

/** headerLanguage's answers by Accept-Language value (browsers send a few dozen distinct ones): every page asks. */
const byHeader = new Map<string, Language>();
const HEADERS_KEPT = 1_000;

function languageOfHeader(acceptLanguage: string | null): Language {
  if (!acceptLanguage) return "en";
  let language = byHeader.get(acceptLanguage);
  if (language === undefined) {
    language = headerLanguage(acceptLanguage) ?? "en";
    if (byHeader.size >= HEADERS_KEPT) byHeader.delete(byHeader.keys().next().value as string);
    byHeader.set(acceptLanguage, language);
  }
  return language;
}
