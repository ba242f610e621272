import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "@playwright/test";
import { FileSystemConfigLoader, HtmlValidate } from "html-validate";
import { dlContentProblems } from "../html-structure";

/**
 * Accessibility and markup checks for the end-to-end specs (not a spec: Playwright only runs
 * *.spec.ts): axe-core in the page, and html-validate on a page's server HTML with the
 * project's .htmlvalidate.json (docs/decisions/022).
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Evaluated through the DevTools protocol, so it runs under the shop's CSP. */
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * The serious and critical axe violations of the page (or of `include`, a CSS selector), with
 * the experimental label-in-name rule (WCAG 2.5.3) turned on.
 *
 * axe needs timers, which a page without JavaScript does not run. There the page's document,
 * as the browser without JavaScript parsed it, is shown again (same address, cookies and
 * viewport) in a context of its own that runs JavaScript, under a policy that lets none of
 * the shop's scripts run: axe checks exactly what the JavaScript-free browser shows, without asking
 * the server again (a flash message shown once is still there).
 */
export async function seriousViolations(page: Page, jsEnabled: boolean, include?: string): Promise<AxeViolation[]> {
  return jsEnabled ? runAxe(page, include) : seriousViolationsWithoutScripts(page, include);
}

/**
 * One JavaScript-enabled page per browser (so per worker), kept open for the worker's life:
 * closing it while the test runner wraps up a test races with its tracing, and a warm context
 * and HTTP cache make each check cheap. Nothing of one check survives into the next: cookies
 * and the served document are set per check.
 */
const companions = new WeakMap<Browser, Promise<Page>>();

function companionOf(browser: Browser): Promise<Page> {
  let companion = companions.get(browser);
  if (!companion) {
    companion = (async () => {
      const context = await browser.newContext({ javaScriptEnabled: true });
      // Styles, images and fonts come from the shop; its scripts never run.
      await context.route(/\.m?js(\?.*)?$/, (route) => route.abort());
      return context.newPage();
    })();
    companions.set(browser, companion);
  }
  return companion;
}

/** Checks share the companion page, so they take turns. */
let turn: Promise<unknown> = Promise.resolve();

function seriousViolationsWithoutScripts(page: Page, include?: string): Promise<AxeViolation[]> {
  const run = turn.then(
    () => checkWithoutScripts(page, include),
    () => checkWithoutScripts(page, include),
  );
  turn = run.catch(() => undefined);
  return run;
}

async function checkWithoutScripts(page: Page, include?: string): Promise<AxeViolation[]> {
  const browser = page.context().browser();
  if (!browser) throw new Error("no browser");
  const [companion, html, cookies] = await Promise.all([
    companionOf(browser),
    page.content(),
    page.context().cookies(),
  ]);
  const url = page.url().replace(/#.*$/, "");
  const viewport = page.viewportSize();
  if (viewport) await companion.setViewportSize(viewport);
  await companion.context().clearCookies();
  await companion.context().addCookies(cookies);
  // The document itself is served from here; `script-src 'none'` keeps even inline scripts
  // from running, while axe (evaluated through the DevTools protocol) still can.
  const isDocument = (address: URL) => address.href === url;
  await companion.route(isDocument, (route) =>
    route.fulfill({
      status: 200,
      contentType: "text/html; charset=utf-8",
      headers: { "Content-Security-Policy": "script-src 'none'", "Cache-Control": "no-store" },
      body: html,
    }),
  );
  try {
    // Without the fragment: a fragment-only change would not load the new document.
    await companion.goto(url);
  } finally {
    await companion.unroute(isDocument);
  }
  // A blank or different document would pass axe for nothing.
  const [shown, original] = await Promise.all([companion.title(), page.title()]);
  if (shown !== original) throw new Error(`axe copy of ${url} shows "${shown}", not "${original}"`);
  return runAxe(companion, include);
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

/** The project's html-validate, configured by .htmlvalidate.json at the repository root. */
const htmlValidate = new HtmlValidate(new FileSystemConfigLoader());

export interface HtmlProblem {
  rule: string;
  message: string;
  /** Where in the document: a CSS selector, or line:column. */
  at: string;
}

/**
 * The html-validate errors of a page's HTML, as its server sent it, and the content rules it
 * does not check (tests/html-structure.ts: a <dl>'s children).
 */
export async function htmlErrors(html: string): Promise<HtmlProblem[]> {
  // The file name only places the document in the repository, so the root's config applies.
  const report = await htmlValidate.validateString(html, path.join(ROOT, "page.html"));
  return [
    ...dlContentProblems(html),
    ...report.results.flatMap((result) =>
      result.messages
        .filter((message) => message.severity === 2)
        .map((message) => ({
          rule: message.ruleId,
          message: message.message,
          at: message.selector ?? `${message.line}:${message.column}`,
        })),
    ),
  ];
}
