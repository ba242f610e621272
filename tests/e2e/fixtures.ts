import { type BrowserContext, test as base, expect } from "@playwright/test";

/**
 * Shared helpers for the end-to-end specs. `jsEnabled` tells a spec which project it runs in,
 * so a step can take the JavaScript path (auto-submit) or the plain-HTML path (a button).
 */
export const test = base.extend<{ jsEnabled: boolean; inChinese: () => Promise<void> }>({
  jsEnabled: async ({ javaScriptEnabled }, use) => {
    await use(javaScriptEnabled !== false);
  },
  /** Sets the language cookie the toggle sets, as if the shopper had chosen Chinese before. */
  inChinese: async ({ context, baseURL }, use) => {
    await use(() => setLanguage(context, baseURL ?? "", "zh"));
  },
});

export async function setLanguage(context: BrowserContext, baseURL: string, language: "en" | "zh"): Promise<void> {
  // The cookie value is what React Router's createCookie writes: base64 of the JSON string.
  await context.addCookies([{ name: "lng", value: btoa(JSON.stringify(language)), url: baseURL }]);
}

export { expect };

export const CJK = /[\u3400-\u9fff]/;
