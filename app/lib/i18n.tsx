import type { i18n as I18next, TFunction } from "i18next";
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";

/**
 * The interface-text runtime of the pages, on the server render and in the browser alike
 * (docs/decisions/015): i18next's `t` for exactly the features our locale files use, without
 * i18next and react-i18next in the browser bundle. `tests/i18n-runtime.test.ts` checks it
 * against i18next for every key of both languages.
 *
 * Supported: nested keys with dots; `{{name}}` interpolation (not escaped: React escapes);
 * plurals by `count` (`key_zero` when the count is 0, then `key_<Intl.PluralRules category>`,
 * then `key`); `defaultValue`; a missing key shows as the key. Not supported (unused):
 * `$t()` nesting, formatters (`{{value, number}}`), context, ordinals, namespaces.
 */

/** One language's interface text: nested objects whose leaves are strings. */
export type Messages = Readonly<Record<string, unknown>>;

type Options = Readonly<Record<string, unknown>>;

const pluralRules = new Map<string, Intl.PluralRules>();
function pluralRulesOf(language: string): Intl.PluralRules {
  let rules = pluralRules.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(language);
    pluralRules.set(language, rules);
  }
  return rules;
}

function lookup(messages: Messages, key: string): string | undefined {
  let node: unknown = messages;
  for (const part of key.split(".")) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === "string" ? node : undefined;
}

// i18next's default delimiters; `{{- name}}` (its unescaped form) is the same here.
const VARIABLE = /\{\{(.+?)\}\}/g;

function interpolate(text: string, options: Options | undefined): string {
  if (!options || !text.includes("{{")) return text;
  return text.replace(VARIABLE, (match, inner: string) => {
    const name = inner.trim().replace(/^-\s*/, "");
    const value = options[name];
    // Like i18next: a variable not passed stays as written; one passed as undefined or null is empty.
    if (value === undefined) return Object.hasOwn(options, name) ? "" : match;
    return value === null ? "" : String(value);
  });
}

/** A `t` for one language's text; the same call signature (and types) as i18next's. */
export function createTranslator(language: string, messages: Messages): TFunction {
  const rules = pluralRulesOf(language);
  const translate = (key: string, options?: Options): string => {
    const count = options?.count;
    let text: string | undefined;
    if (count !== undefined && typeof count !== "string") {
      if (count === 0) text = lookup(messages, `${key}_zero`);
      text ??= lookup(messages, `${key}_${rules.select(Number(count))}`);
    }
    text ??= lookup(messages, key);
    if (text === undefined) {
      const fallback = options?.defaultValue;
      text = typeof fallback === "string" ? fallback : key;
    }
    return interpolate(text, options);
  };
  return translate as unknown as TFunction;
}

// The server renders many pages with the same text objects: one translator each.
const translators = new WeakMap<Messages, Map<string, TFunction>>();
function translatorFor(language: string, messages: Messages): TFunction {
  let byLanguage = translators.get(messages);
  if (!byLanguage) {
    byLanguage = new Map();
    translators.set(messages, byLanguage);
  }
  let t = byLanguage.get(language);
  if (!t) {
    t = createTranslator(language, messages);
    byLanguage.set(language, t);
  }
  return t;
}

interface Translations {
  language: string;
  messages: Messages;
}

/**
 * The text after the browser fetched more: another part of the same language (the parts split
 * at the top-level keys, `~/locales/parts`) is added, another language replaces it.
 */
export function mergeTranslations(previous: Translations, language: string, messages: Messages): Translations {
  return previous.language === language
    ? { language, messages: { ...previous.messages, ...messages } }
    : { language, messages };
}

interface I18nValue {
  t: TFunction;
  language: string;
  setTranslations: (language: string, messages: Messages) => void;
}

const I18nContext = createContext<I18nValue | null>(null);

/**
 * Provides the page's language and text. The browser can swap them later (the root fetches the
 * admin part or the other language): the same language's parts are merged, another replaces.
 */
export function I18nProvider({
  language,
  messages,
  children,
}: {
  language: string;
  messages: Messages;
  children?: ReactNode;
}) {
  const [current, setCurrent] = useState<Translations>({ language, messages });
  const setTranslations = useCallback(
    (nextLanguage: string, nextMessages: Messages) =>
      setCurrent((previous) => mergeTranslations(previous, nextLanguage, nextMessages)),
    [],
  );
  const value = useMemo<I18nValue>(
    () => ({ t: translatorFor(current.language, current.messages), language: current.language, setTranslations }),
    [current, setTranslations],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** Renders with an i18next instance's language and text (route tests build one). */
export function I18nextInstanceProvider({ i18n, children }: { i18n: I18next; children?: ReactNode }) {
  return (
    <I18nProvider language={i18n.language} messages={i18n.getResourceBundle(i18n.language, "translation") as Messages}>
      {children}
    </I18nProvider>
  );
}

function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (!value) throw new Error("useTranslation() needs an <I18nProvider> above it");
  return value;
}

/** The page's `t` (typed as i18next's, so keys are checked) and language. */
export function useTranslation(): { t: TFunction; language: string } {
  const { t, language } = useI18n();
  return { t, language };
}

/** Replaces (another language) or adds to (another part of the same language) the page's text. */
export function useSetTranslations(): I18nValue["setTranslations"] {
  return useI18n().setTranslations;
}
