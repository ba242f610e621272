import path from "node:path";
import { FileSystemConfigLoader, HtmlValidate } from "html-validate";
import { describe, expect, it } from "vitest";
import { dlContentProblems } from "./html-structure";

/**
 * The project's html-validate configuration (.htmlvalidate.json, docs/decisions/022), which the
 * end-to-end sweep (tests/e2e/a11y.spec.ts) applies to every page's server HTML: what React
 * writes passes, and the mistakes issue 14 found are still errors.
 */

const validator = new HtmlValidate(new FileSystemConfigLoader());
const ROOT_FILE = path.join(process.cwd(), "page.html");

/** A page shaped like the shop's: React's head, a nav, a main landmark with `body`. */
function page(body: string, head = ""): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><meta name="viewport" content="width=device-width,initial-scale=1"/><title>Shop</title>${head}</head><body><nav aria-label="Main"><a href="/">Home</a></nav><main id="main"><h1>Page</h1>${body}</main></body></html>`;
}

async function errorRules(html: string): Promise<string[]> {
  const report = await validator.validateString(html, ROOT_FILE);
  return report.results.flatMap((result) =>
    result.messages.filter((message) => message.severity === 2).map((message) => message.ruleId),
  );
}

describe(".htmlvalidate.json", () => {
  it("accepts how React serializes a page", async () => {
    const html = page(
      // camelCase attribute names, self-closed void elements, `=""` booleans, useId's ids.
      `<label for="_R_1l5_-email">E-mail</label><input id="_R_1l5_-email" type="email" name="email" autoComplete="email" required=""/>` +
        `<select aria-label="Currency" name="currency"><option value="HKD" selected="">HKD</option><option value="GBP">GBP</option></select>` +
        `<a href="/admin/orders/1/receipt?download=1" download="">Download receipt</a>` +
        `<script type="module" async="">import("/assets/entry.js");</script>`,
      `<link rel="preload" as="image" href="/hero.webp" fetchPriority="high"/><link rel="alternate" hrefLang="zh-Hant-HK" href="/?lng=zh"/>`,
    );
    expect(await errorRules(html)).toEqual([]);
  });

  it("refuses a multi-line address autocomplete on a single-line input", async () => {
    const html = page(
      `<label for="address">Address</label><input id="address" type="text" name="address" autocomplete="street-address"/>`,
    );
    expect(await errorRules(html)).toContain("valid-autocomplete");
    const textarea = page(
      `<label for="address">Address</label><textarea id="address" name="address" autocomplete="street-address"></textarea>`,
    );
    expect(await errorRules(textarea)).toEqual([]);
  });

  it("refuses two navigation landmarks without names of their own", async () => {
    const html = page(`<nav><a href="/admin">Dashboard</a></nav><nav><a href="/admin/orders">Orders</a></nav>`);
    expect(await errorRules(html)).toContain("unique-landmark");
  });

  it("refuses an input without a type and an aria-label on a list item", async () => {
    const html = page(
      `<label for="name">Name</label><input id="name" name="name"/><ul><li aria-label="Rifles"><h2>Rifles</h2></li></ul>`,
    );
    expect(await errorRules(html)).toEqual(expect.arrayContaining(["no-implicit-input-type", "aria-label-misuse"]));
  });
});

describe("dlContentProblems (what html-validate does not check; the e2e sweep adds it)", () => {
  it("accepts div groups or bare dt/dd groups, and refuses a mix of both", () => {
    const grouped = `<dl><div class="contents"><dt>Name</dt><dd>Chan</dd></div><div><dt>Phone</dt><dd>9123</dd></div></dl>`;
    const bare = `<dl><dt>Stock</dt><dd>3</dd><dt>Colours</dt><dt>顏色</dt><dd>Black</dd><dd>Tan</dd></dl>`;
    expect(dlContentProblems(page(grouped + bare))).toEqual([]);
    // The admin order page's customer details before issue 25: div groups, then a bare pair.
    const mixed = `<dl class="grid"><div class="contents"><dt>Name</dt><dd>Chan</dd></div><dt>Account</dt><dd><a href="/x">x</a></dd></dl>`;
    expect(dlContentProblems(page(mixed))).toEqual([
      { rule: "dl-content", message: "a <dl> mixes <div> groups with bare <dt> children", at: '<dl class="grid">' },
    ]);
    expect(dlContentProblems(page(`<dl><dd>Orphan</dd><dt>Late</dt></dl>`))).toHaveLength(1);
    expect(dlContentProblems(page(`<dl><div><dt>Only a name</dt></div></dl>`))).toHaveLength(1);
  });
});
