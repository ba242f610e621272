import fs from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";

/**
 * axe-core in the page (not a spec: Playwright only runs *.spec.ts). Evaluated through the
 * DevTools protocol, so it runs under the shop's CSP and with JavaScript turned off alike.
 */
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * The serious and critical axe violations of the page (or of `include`, a CSS selector), with
 * the experimental label-in-name rule (WCAG 2.5.3) turned on. axe needs timers, which a page
 * without JavaScript does not run: there the same URL is loaded, with the same cookies and
 * viewport, in a context that runs JavaScript but fetches none of the shop's scripts, so axe
 * checks the server HTML exactly as a browser without JavaScript shows it.
 */
export async function seriousViolations(page: Page, jsEnabled: boolean, include?: string): Promise<AxeViolation[]> {
  return jsEnabled ? runAxe(page, include) : seriousViolationsWithoutScripts(page, include);
}

async function seriousViolationsWithoutScripts(page: Page, include?: string): Promise<AxeViolation[]> {
  const browser = page.context().browser();
  if (!browser) throw new Error("no browser");
  const context = await browser.newContext({
    storageState: await page.context().storageState(),
    viewport: page.viewportSize(),
    javaScriptEnabled: true,
  });
  try {
    await context.route(/\.m?js(\?.*)?$/, (route) => route.abort());
    const copy = await context.newPage();
    await copy.goto(page.url());
    return await runAxe(copy, include);
  } finally {
    await context.close();
  }
}

async function runAxe(page: Page, include?: string): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async (selector) => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is injected above
    const axe = (window as any).axe;
    const result = await axe.run(selector ? { include: [selector] } : document, {
      rules: { "label-content-name-mismatch": { enabled: true } },
      resultTypes: ["violations"],
    });
    return (
      result.violations as {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: string[] }[];
      }[]
    )
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        nodes: violation.nodes.map((node) => node.target.join(" ")),
      }));
  }, include ?? null);
}
