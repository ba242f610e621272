import crypto from "node:crypto";
import resources, { type Language } from "~/locales";
import { ADMIN_ONLY_KEYS, type TranslationPart, translationsPath } from "~/locales/parts";

const cache = new Map<string, { json: string; version: string }>();

/** One language's interface text for the browser, as JSON, with a content hash as its version. */
export function translationsJson(language: Language, part: TranslationPart): { json: string; version: string } {
  const key = `${language}/${part}`;
  let entry = cache.get(key);
  if (!entry) {
    const all = resources[language].translation as Record<string, unknown>;
    const chosen =
      part === "all"
        ? all
        : Object.fromEntries(
            Object.entries(all).filter(([name]) => !(ADMIN_ONLY_KEYS as readonly string[]).includes(name)),
          );
    const json = JSON.stringify(chosen);
    entry = { json, version: crypto.createHash("sha256").update(json).digest("hex").slice(0, 12) };
    cache.set(key, entry);
  }
  return entry;
}

/** The versioned URL the page preloads and the browser caches for a year. */
export function translationsUrl(language: Language, part: TranslationPart): string {
  return `${translationsPath(language, part)}?v=${translationsJson(language, part).version}`;
}
