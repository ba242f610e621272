import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONTENT_PAGES, defaultContentPage, PAGE_PLACEHOLDERS } from "~/content/pages";
import resources from "~/locales";

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(full, value);
    else for (const [k, v] of flatten(value, full)) out.set(k, v);
  }
  return out;
}

const en = flatten(resources.en.translation as unknown as Tree);
const zh = flatten(resources.zh.translation as unknown as Tree);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "locales" ? [] : sourceFiles(full);
    return /\.(tsx?|mjs)$/.test(entry.name) ? [full] : [];
  });
}

describe("translations", () => {
  it("has every key in both languages", () => {
    expect([...en.keys()].filter((key) => !zh.has(key))).toEqual([]);
    expect([...zh.keys()].filter((key) => !en.has(key))).toEqual([]);
  });

  it("has no empty text and keeps the same interpolation variables", () => {
    for (const [key, text] of en) {
      const other = zh.get(key) ?? "";
      expect(text.trim(), key).not.toBe("");
      expect(other.trim(), key).not.toBe("");
      const vars = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
      expect(vars(other), key).toEqual(vars(text));
    }
  });

  it("has Chinese text in the Chinese interface (no English left behind)", () => {
    const latinOnly = [...zh].filter(([key, text]) => {
      // Proper nouns, e-mail addresses and currency codes may stay Latin.
      if (/email$|\.supporterName$|^nav\.switchLanguage|\.setupCommand$/.test(key)) return false;
      // Text with no words (only placeholders, numbers and signs) needs no translation.
      if (!/[A-Za-z]/.test(text.replace(/\{\{\w+\}\}/g, ""))) return false;
      return !/[\u3400-\u9fff]/.test(text);
    });
    expect(latinOnly.map(([key]) => key)).toEqual([]);
  });

  it("defines every key the code uses", () => {
    const used = new Set<string>();
    for (const file of sourceFiles(path.resolve("app")).concat(sourceFiles(path.resolve("server")))) {
      const text = fs.readFileSync(file, "utf8");
      for (const match of text.matchAll(/\bt\(\s*["'`]([a-zA-Z]+(?:\.[a-zA-Z]+)+)["'`]/g)) used.add(match[1] as string);
      for (const match of text.matchAll(/\bkey:\s*["']([a-zA-Z]+(?:\.[a-zA-Z]+)+)["']/g)) used.add(match[1] as string);
    }
    expect(used.size).toBeGreaterThan(20);
    const plural = (key: string) => en.has(`${key}_one`) && en.has(`${key}_other`);
    expect([...used].filter((key) => !en.has(key) && !plural(key))).toEqual([]);
  });

  it("has every content page in both languages with the same structure", () => {
    const outline = (markdown: string) =>
      markdown
        .split("\n")
        .map((line) => /^(#+|-) /.exec(line)?.[1])
        .filter(Boolean);
    const placeholders = (markdown: string) => [...markdown.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const slug of CONTENT_PAGES) {
      const a = defaultContentPage(slug, "en");
      const b = defaultContentPage(slug, "zh");
      // The same headings and list items in the same order, and the same shop details filled in.
      expect(outline(b.body), slug).toEqual(outline(a.body));
      expect(new Set(placeholders(b.body)), slug).toEqual(new Set(placeholders(a.body)));
      expect(b.title).toMatch(/[\u3400-\u9fff]/);
      for (const name of placeholders(`${a.body}${b.body}${a.description}${b.description}`)) {
        expect(PAGE_PLACEHOLDERS as readonly string[], `${slug}: {{${name}}}`).toContain(name);
      }
      // No shop identity written out: it comes from the shop's details.
      expect(`${a.body}${b.body}`).not.toMatch(/Harbour Tactical|港灣戰術|harbourtactical/);
    }
  });
});
