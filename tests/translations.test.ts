import { describe, expect, it } from "vitest";
import { createTranslator, type Messages } from "~/lib/i18n";
import { translationsJson, translationsUrl } from "~/lib/translations.server";
import resources, { LANGUAGES } from "~/locales";
import { ADMIN_ONLY_KEYS, partForPath } from "~/locales/parts";
import { loader } from "~/routes/resources/locales";

/** The browser gets one language's text as cached JSON: the storefront never downloads admin text. */
describe("translations for the browser", () => {
  it("keeps admin and e-mail text out of the storefront part, and all of it under /admin", () => {
    const store = JSON.parse(translationsJson("zh", "store").json) as Record<string, unknown>;
    const all = JSON.parse(translationsJson("zh", "all").json) as Record<string, unknown>;
    for (const key of ADMIN_ONLY_KEYS) {
      expect(store, key).not.toHaveProperty(key);
      expect(all, key).toHaveProperty(key);
    }
    expect(store).toHaveProperty("cart.checkout");
    expect((store.nav as Record<string, string>).home).toBe(((all.nav as Record<string, string>).home as string) ?? "");
    expect(partForPath("/admin")).toBe("all");
    expect(partForPath("/admin/orders/1")).toBe("all");
    expect(partForPath("/administrator")).toBe("store");
    expect(partForPath("/cart")).toBe("store");
  });

  it("gives the browser the same storefront text the server renders with (hydration matches)", () => {
    const leafKeys = (tree: Messages, prefix = ""): string[] =>
      Object.entries(tree).flatMap(([key, value]) =>
        typeof value === "string" ? [`${prefix}${key}`] : leafKeys(value as Messages, `${prefix}${key}.`),
      );
    for (const language of LANGUAGES) {
      const full = resources[language].translation as unknown as Messages;
      const server = createTranslator(language, full);
      const browser = createTranslator(language, JSON.parse(translationsJson(language, "store").json) as Messages);
      const storefront = leafKeys(full).filter(
        (key) => !(ADMIN_ONLY_KEYS as readonly string[]).includes(key.split(".")[0] as string),
      );
      expect(storefront.length).toBeGreaterThan(300);
      for (const key of storefront) expect(browser(key as never), `${language} ${key}`).toBe(server(key as never));
    }
  });

  it("serves the versioned URL as immutable and refuses anything else", async () => {
    const url = translationsUrl("en", "store");
    const [path, query] = url.split("?");
    const call = (href: string, params: Record<string, string>) =>
      loader({ request: new Request(`http://localhost${href}`), params } as never) as Promise<Response>;
    const fresh = await call(url, { lng: "en", part: "store" });
    expect(fresh.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(JSON.parse(await fresh.text())).toHaveProperty("nav");
    const stale = await call(`${path}?v=old`, { lng: "en", part: "store" });
    expect(stale.headers.get("Cache-Control")).toBe("public, max-age=300");
    expect(query).toMatch(/^v=[0-9a-f]{12}$/);
    for (const params of [
      { lng: "fr", part: "store" },
      { lng: "en", part: "secrets" },
    ]) {
      const refused = await call("/resources/locales/x/y", params).catch((error: unknown) => error);
      expect((refused as { init?: { status: number } }).init?.status).toBe(404);
    }
  });
});
