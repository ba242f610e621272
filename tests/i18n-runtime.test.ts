import { createInstance, type i18n as I18next } from "i18next";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { createTranslator, I18nProvider, type Messages, mergeTranslations, useTranslation } from "~/lib/i18n";
import resources, { LANGUAGES } from "~/locales";

/**
 * The pages translate with our own runtime (~/lib/i18n), the loaders and e-mails with i18next:
 * for every key of both languages, the runtime must say exactly what i18next says.
 */

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(full, value);
    else for (const [k, v] of leaves(value, full)) out.set(k, v);
  }
  return out;
}

const PLURAL = /_(zero|one|two|few|many|other)$/;

/** The keys code calls: every leaf, and the base key of each plural group (`x` for `x_one`). */
function callableKeys(messages: Map<string, string>): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  for (const [key, text] of messages) {
    keys.set(key, [text]);
    if (PLURAL.test(key)) {
      const base = key.replace(PLURAL, "");
      keys.set(base, [...(keys.get(base) ?? []), text]);
    }
  }
  return keys;
}

function variablesOf(texts: string[]): string[] {
  return [...new Set(texts.flatMap((text) => [...text.matchAll(/\{\{(.+?)\}\}/g)].map((m) => (m[1] ?? "").trim())))];
}

/** The same configuration as the server's i18next instances (app/middleware/i18next.ts) and the old browser entry. */
async function i18nextFor(language: string, translation: Messages): Promise<I18next> {
  const instance = createInstance();
  await instance.init({
    resources: { [language]: { translation } },
    lng: language,
    interpolation: { escapeValue: false },
  });
  return instance;
}

// Values that would show a difference: markup (no escaping either side), a placeholder (never
// interpolated twice), a number, and each plural count.
function optionSets(variables: string[]): Record<string, unknown>[] {
  const values = (value: (name: string) => unknown) => Object.fromEntries(variables.map((name) => [name, value(name)]));
  const sets: Record<string, unknown>[] = [
    {},
    values((name) => `<b>${name} & "co"</b>`),
    values((name) => `{{${name}}}`),
    values(() => 1234.5),
  ];
  for (const count of [0, 1, 2, 21]) sets.push({ ...values((name) => `v-${name}`), count });
  // One variable left out: i18next leaves it as written.
  if (variables.length > 1) sets.push({ ...values((name) => `v-${name}`), [variables[0] as string]: undefined });
  return sets;
}

describe("translation runtime", () => {
  for (const language of LANGUAGES) {
    it(`says what i18next says for every ${language} key`, async () => {
      const messages = resources[language].translation as unknown as Messages;
      const i18n = await i18nextFor(language, messages);
      const t = createTranslator(language, messages);
      const keys = callableKeys(leaves(messages as Tree));
      expect(keys.size).toBeGreaterThan(500);
      let compared = 0;
      for (const [key, texts] of keys) {
        for (const options of optionSets(variablesOf(texts))) {
          // biome-ignore lint/suspicious/noExplicitAny: every key, as data
          const expected = i18n.t(key as any, options as any);
          // biome-ignore lint/suspicious/noExplicitAny: every key, as data
          expect(t(key as any, options as any), `${language} ${key} ${JSON.stringify(options)}`).toBe(expected);
          compared += 1;
        }
      }
      expect(compared).toBeGreaterThan(keys.size * 4);
    });
  }

  it("handles missing keys, defaults, zero forms and empty values as i18next does", async () => {
    const messages: Messages = {
      items_zero: "No items",
      items_one: "{{count}} item",
      items_other: "{{count}} items",
      apples_one: "{{count}} apple",
      apples_other: "{{count}} apples",
      only: "Only {{count}}",
      nested: { deep: { text: "Hi {{name}}, {{- raw}}" } },
      blank: "",
      greeting: "Hello {{name}}",
    };
    const cases: [string, Record<string, unknown>?][] = [
      ["items", { count: 0 }],
      ["items", { count: 1 }],
      ["items", { count: 5 }],
      ["items", { count: "0" }],
      ["apples", { count: 0 }],
      ["only", { count: 3 }],
      ["nested.deep.text", { name: "Ada", raw: "<i>x</i>" }],
      ["nested.deep", {}],
      ["nested.deep.text.more", {}],
      ["nested.missing", { defaultValue: "Fallback {{name}}", name: "Bo" }],
      ["missing.key", undefined],
      ["constructor", undefined],
      ["blank", undefined],
      ["greeting", { name: null }],
      ["greeting", { name: undefined }],
      ["greeting", { other: 1 }],
      ["greeting", { name: 0 }],
      ["greeting", { defaultValue: "unused", name: "Cy" }],
    ];
    for (const language of ["en", "zh"]) {
      const i18n = await i18nextFor(language, messages);
      const t = createTranslator(language, messages);
      for (const [key, options] of cases) {
        // The object case: i18next explains itself, the runtime shows the key; code never asks.
        if (key === "nested.deep") {
          expect(t(key as never)).toBe(key);
          continue;
        }
        // biome-ignore lint/suspicious/noExplicitAny: synthetic keys
        const expected = i18n.t(key as any, options as any);
        // biome-ignore lint/suspicious/noExplicitAny: synthetic keys
        expect(t(key as any, options as any), `${language} ${key} ${JSON.stringify(options)}`).toBe(expected);
      }
    }
  });

  it("renders through the provider on the server, in the provider's language", () => {
    function Probe() {
      const { t, language } = useTranslation();
      return createElement("p", null, `${language}: ${t("nav.home")} / ${t("nav.cartItems", { count: 2 })}`);
    }
    const html = (language: "en" | "zh") =>
      renderToString(
        createElement(I18nProvider, { language, messages: resources[language].translation }, createElement(Probe)),
      );
    expect(html("en")).toBe("<p>en: Home / Cart, 2 items</p>");
    expect(html("zh")).toBe(`<p>zh: ${resources.zh.translation.nav.home} / 購物車，2 件貨品</p>`);
    expect(() => renderToString(createElement(Probe))).toThrow(/I18nProvider/);
  });

  it("adds another part of the same language, replaces the text of another language", () => {
    const store = { nav: { home: "Home" } };
    const admin = { admin: { title: "Admin" } };
    expect(mergeTranslations({ language: "en", messages: store }, "en", admin)).toEqual({
      language: "en",
      messages: { nav: { home: "Home" }, admin: { title: "Admin" } },
    });
    expect(mergeTranslations({ language: "en", messages: store }, "zh", { nav: { home: "首頁" } })).toEqual({
      language: "zh",
      messages: { nav: { home: "首頁" } },
    });
  });
});
