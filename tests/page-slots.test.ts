import crypto from "node:crypto";
import zlib from "node:zlib";
import { createElement } from "react";
import {
  createRequestHandler,
  UNSAFE_decodeViaTurboStream as decodeViaTurboStream,
  type LoaderFunctionArgs,
  RouterContextProvider,
  UNSAFE_withComponentProps,
} from "react-router";
import { describe, expect, test } from "vitest";
import { StoreShell } from "~/components/layout/store-shell";
import { requestInfoContext } from "~/context";
import * as entry from "~/entry.server";
import { cacheRenderContext, SLOT_PREFIX, type VisitorView, visitorJson } from "~/lib/root-data";
import * as root from "~/root";
import { crc32Combine } from "../server/crc32";
import { PageCache, type PendingStore } from "../server/page-cache";
import { assemble, cutPage, fillFor, gzipPage, type Joint, renderToken, zipPage } from "../server/page-slots";
import { testServerBuild } from "./setup/server-build";

/**
 * The visitor's parts spliced into a cached page (server/page-slots.ts, docs/decisions/067),
 * checked against React Router's own render: the real root layout and app/entry.server.tsx
 * behind React Router's request handler (production mode), with the real storefront shell (its
 * header holds the VisitorSlot) and a root loader shaped like the app's. A page rendered for the
 * cache (the token) and put together for a visitor must be the page React Router renders for
 * that visitor, byte for byte, and decode to the same data.
 */

const view = (email: string | null, admin: boolean, cartCount: number): VisitorView => ({ email, admin, cartCount });

const state: { view: VisitorView; supportEmail: string } = {
  view: view(null, false, 0),
  supportEmail: "help@shop.test",
};

function rootLoader({ context, request }: LoaderFunctionArgs) {
  const slot = context.get(cacheRenderContext);
  const language = new URL(request.url).searchParams.get("lng") === "zh" ? "zh" : "en";
  return {
    language,
    // The dedup hazard of turbo-stream: the support address may be a visitor's own.
    shop: { name: "Cache Shop", blurb: "", address: "", supportEmail: state.supportEmail, supportedBy: null },
    currency: "HKD",
    flash: null,
    year: 2026,
    visitor: slot ? `${SLOT_PREFIX}${slot}` : visitorJson(state.view),
    seo: { canonical: "https://shop.test/page", alternates: [] },
    translations: `/translations/${language}.json`,
    categories: [{ id: 1, slug: "rifles", name_en: "Rifles", name_zh: "步槍" }],
  };
}

const build = testServerBuild(
  { default: entry.default, handleError: entry.handleError, streamTimeout: entry.streamTimeout },
  [
    {
      id: "root",
      path: "",
      module: {
        default: UNSAFE_withComponentProps(root.default as unknown as Parameters<typeof UNSAFE_withComponentProps>[0]),
        Layout: root.Layout,
        loader: rootLoader,
      },
    },
    {
      id: "page",
      parentId: "root",
      path: "page",
      module: {
        default: () => createElement(StoreShell, null, createElement("p", null, "A catalogue page")),
        loader: () => ({ title: "page" }),
      },
    },
  ],
);
const handle = createRequestHandler(build, "production");

async function render(path: string, nonce: string, token: string | null): Promise<Buffer> {
  const context = new RouterContextProvider();
  context.set(requestInfoContext, { nonce, ip: null, proxyCountry: null });
  if (token) context.set(cacheRenderContext, token);
  const response = await handle(new Request(`http://shop.test${path}`), context);
  expect(response.status, path).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

/** The page for `visitor` as React Router renders it, and as the cache puts it together. */
async function bothWays(path: string, visitor: VisitorView, language: "en" | "zh" = "en") {
  const nonce = crypto.randomBytes(16).toString("base64");
  const token = renderToken();
  const document = !path.includes(".data");
  const routes = new URL(path, "http://x").searchParams.get("_routes");
  const withRoot = document || routes === null || routes.split(",").includes("root");
  state.view = view(null, false, 0);
  const forCache = await render(path, nonce, token);
  expect(forCache.includes(token), "rendered with the token").toBe(withRoot);
  state.view = visitor;
  const normal = await render(path, nonce, null);
  const page = cutPage(forCache, { nonce, token, document, withRoot });
  expect(page, "the tokens are where a page has them").not.toBeNull();
  const fill = fillFor(nonce, language, visitor, document);
  return { normal, assembled: assemble(page!, fill), page: page!, fill, forCache };
}

/** The root data's `visitor` as the browser decodes it (turbo-stream), from a document or a `.data` answer. */
async function decodedVisitor(body: Buffer, document: boolean): Promise<unknown> {
  let text = body.toString();
  if (document) {
    const chunks = [...text.matchAll(/streamController\.enqueue\(("(?:[^"\\]|\\.)*")\);/g)].map(
      (match) => JSON.parse(match[1] as string) as string,
    );
    text = chunks.join("");
  }
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
  });
  const decoded = await decodeViaTurboStream(stream, globalThis);
  await decoded.done;
  const value = decoded.value as Record<string, unknown>;
  const rootData = document
    ? ((value.loaderData as Record<string, unknown>).root as Record<string, unknown>)
    : ((value.root as { data: Record<string, unknown> }).data as Record<string, unknown>);
  return rootData.visitor;
}

const HOSTILE = [
  `"</script><!--\u2028&'@x.hk`,
  "顧客.測試@例子.香港",
  "a\u2029b<!--<script>&amp;@x.test",
  "back\\slash\"quote'@x.test",
];

describe("a page put together for a visitor", () => {
  test("is React Router's own render of it, byte for byte: kinds × cart counts × languages", async () => {
    for (const language of ["en", "zh"] as const) {
      for (const count of [0, 1, 7]) {
        for (const visitor of [
          view(null, false, count),
          view("shopper@example.com", false, count),
          view("owner@example.com", true, count),
        ]) {
          const { normal, assembled } = await bothWays(`/page${language === "zh" ? "?lng=zh" : ""}`, visitor, language);
          expect(assembled.toString(), `${language} ${JSON.stringify(visitor)}`).toBe(normal.toString());
        }
      }
    }
  });

  test("holds hostile and Chinese e-mails escaped exactly as React and React Router do, and decodes to them", async () => {
    for (const email of HOSTILE) {
      for (const admin of [false, true]) {
        const visitor = view(email, admin, 2);
        const { normal, assembled } = await bothWays("/page", visitor);
        expect(assembled.toString(), email).toBe(normal.toString());
        expect(await decodedVisitor(assembled, true)).toBe(visitorJson(visitor));
        // Nothing broke out of the inline script or the header.
        expect(assembled.toString()).not.toContain(`</script><!--\u2028`);
      }
    }
  });

  test("an e-mail equal to another string of the page (the support address) stays the visitor's own value", async () => {
    state.supportEmail = "owner@example.com";
    try {
      const visitor = view("owner@example.com", true, 1);
      const { normal, assembled } = await bothWays("/page", visitor);
      expect(assembled.toString()).toBe(normal.toString());
      expect(await decodedVisitor(assembled, true)).toBe(visitorJson(visitor));
      // And an anonymous visitor's page from the same store holds no one's address but the shop's.
      const anonymous = await bothWays("/page", view(null, false, 0));
      expect(anonymous.assembled.toString().match(/owner@example\.com/g)?.length).toBe(
        anonymous.normal.toString().match(/owner@example\.com/g)?.length,
      );
    } finally {
      state.supportEmail = "help@shop.test";
    }
  });

  test("`.data` answers: spliced with the root's data, untouched without", async () => {
    for (const path of ["/page.data", "/page.data?_routes=root,page"]) {
      for (const email of ["shopper@example.com", ...HOSTILE]) {
        const visitor = view(email, false, 3);
        const { normal, assembled, page } = await bothWays(path, visitor);
        expect(page.joints.filter((joint) => joint === "data")).toHaveLength(1);
        expect(assembled.toString(), `${path} ${email}`).toBe(normal.toString());
        expect(await decodedVisitor(assembled, false)).toBe(visitorJson(visitor));
      }
    }
    const without = await bothWays("/page.data?_routes=page", view("shopper@example.com", false, 3));
    expect(without.page.joints).toEqual([]);
    expect(without.assembled.toString()).toBe(without.normal.toString());
  });

  test("gzip: the deflated pieces with the joints as stored blocks gunzip to the plain page", async () => {
    for (const visitor of [view(null, false, 0), view(HOSTILE[0] as string, true, 7)]) {
      const { page, fill, normal } = await bothWays("/page", visitor);
      const zipped = gzipPage(zipPage(page), fill);
      expect(zlib.gunzipSync(zipped).toString()).toBe(normal.toString());
    }
    // Each answer writes its own nonce into the stored segments: whatever the nonce (the page's
    // text full of look-alikes of it), the answer gunzips to the page with that nonce.
    const signedIn = await bothWays("/page", view("a@b.hk", false, 2));
    const zippedOnce = zipPage(signedIn.page);
    for (let i = 0; i < 200; i++) {
      const nonce = crypto.randomBytes(16).toString("base64");
      const own = { ...signedIn.fill, nonce: Buffer.from(nonce) };
      expect(zlib.gunzipSync(gzipPage(zippedOnce, own)).equals(assemble(signedIn.page, own)), nonce).toBe(true);
    }
    const lookAlike = {
      pieces: ["<p>", 'nonce="', '" x nonce="', '"AAAA</p>'].map((text) => Buffer.from(text)),
      joints: ["nonce", "slot", "nonce"] as Joint[],
    };
    for (const nonce of ["AAAAAAAAAAAAAAAAAAAAAA==", 'nonce="nonce="nonce="x', "<p><p><p><p><p><p><p><p>"]) {
      const own = { nonce: Buffer.from(nonce), slot: Buffer.from("<i>slot</i>"), data: Buffer.alloc(0) };
      expect(zlib.gunzipSync(gzipPage(zipPage(lookAlike), own)).toString()).toBe(assemble(lookAlike, own).toString());
    }
    // A nonce of another length than the page's (never from this server) still makes a valid answer.
    const odd = { ...signedIn.fill, nonce: Buffer.from("short") };
    expect(zlib.gunzipSync(gzipPage(zippedOnce, odd)).equals(assemble(signedIn.page, odd))).toBe(true);
    // A joint longer than one stored block holds (65,535 bytes).
    const long = { pieces: [Buffer.from("a"), Buffer.from("b")], joints: ["slot" as const] };
    const big = crypto.randomBytes(70_000);
    const fill = { nonce: Buffer.alloc(0), slot: big, data: Buffer.alloc(0) };
    expect(zlib.gunzipSync(gzipPage(zipPage(long), fill))).toEqual(
      Buffer.concat([Buffer.from("a"), big, Buffer.from("b")]),
    );
  });
});

describe("a render for the cache is refused unless its tokens are exactly where a page has them", () => {
  test("a document: one marker and one data token; `.data`: no marker, one data token iff the root's data is in it", async () => {
    const nonce = crypto.randomBytes(16).toString("base64");
    const token = renderToken();
    state.view = view(null, false, 0);
    const body = await render("/page", nonce, token);
    const spec = { nonce, token, document: true, withRoot: true };
    expect(cutPage(body, spec)).not.toBeNull();
    const text = body.toString();
    const marker = `<b hidden="" data-vs="${token}"></b>`;
    const data = `${SLOT_PREFIX}${token}`;
    const twice = (what: string) => Buffer.from(text.replace(what, `${what}${what}`));
    const without = (what: string) => Buffer.from(text.replace(what, ""));
    expect(cutPage(twice(marker), spec), "two markers").toBeNull();
    expect(cutPage(without(marker), spec), "no marker").toBeNull();
    expect(cutPage(twice(data), spec), "two data tokens").toBeNull();
    expect(cutPage(without(data), spec), "no data token").toBeNull();
    expect(cutPage(Buffer.from(`${text}<i>${token}</i>`), spec), "the token anywhere else").toBeNull();
    expect(cutPage(body, { ...spec, token: renderToken() }), "another render's token").toBeNull();
    expect(cutPage(body, { ...spec, document: false }), "a document taken for `.data`").toBeNull();

    const dataBody = await render("/page.data", nonce, token);
    const dataSpec = { nonce, token, document: false, withRoot: true };
    expect(cutPage(dataBody, dataSpec)).not.toBeNull();
    expect(cutPage(dataBody, { ...dataSpec, withRoot: false }), "root data not expected").toBeNull();
    expect(cutPage(dataBody, { ...dataSpec, document: true }), "`.data` taken for a document").toBeNull();
    const noRoot = await render("/page.data?_routes=page", nonce, token);
    expect(cutPage(noRoot, dataSpec), "root data expected, absent").toBeNull();
    expect(cutPage(noRoot, { ...dataSpec, withRoot: false })).not.toBeNull();
  });

  test("the cache stores nothing it refused, nor a page in another language than its key's", async () => {
    const cache = new PageCache({ maxBytes: 10_000_000, ttlMs: 60_000 });
    const nonce = crypto.randomBytes(16).toString("base64");
    const token = renderToken();
    const pending = (key: string, language: "en" | "zh"): PendingStore => ({
      cache,
      key,
      version: 1,
      nonce,
      token,
      language,
      document: true,
      withRoot: true,
      view: view(null, false, 0),
    });
    const body = await render("/page", nonce, token);
    expect(cache.store(pending("en", "en"), [], body)).not.toBeNull();
    expect(cache.store(pending("zh", "zh"), [], body), "an English page under a Chinese key").toBeNull();
    expect(
      cache.store(pending("bad", "en"), [], Buffer.from(body.toString().replace(token, ""))),
      "a token short",
    ).toBeNull();
    expect(cache.find("en", 1)).toBeDefined();
    expect(cache.find("zh", 1)).toBeUndefined();
    expect(cache.find("bad", 1)).toBeUndefined();
  });
});

describe("crc32Combine", () => {
  test("equals zlib's CRC-32 of the two parts together, for any lengths", () => {
    for (let run = 0; run < 200; run++) {
      const a = crypto.randomBytes((run * 131) % 5000);
      const b = crypto.randomBytes((run * 977) % 70_000);
      expect(crc32Combine(zlib.crc32(a), zlib.crc32(b), b.length)).toBe(zlib.crc32(Buffer.concat([a, b])) >>> 0);
    }
  });
});

describe("nothing but the VisitorSlot reads the visitor on a cached page", () => {
  /**
   * Every module a cached page is made of (the root, the store layout and the cached routes, and
   * what they import from app/), none of which may read the user, the session or the cart into
   * its markup: the page cache serves that markup to everyone. The VisitorSlot is the one place;
   * the stock-alert form reads the e-mail only for its own page (/stock-alerts, never cached) and
   * after hydration.
   */
  const CACHED_ROUTES = [
    "app/root.tsx",
    "app/routes/store/layout.tsx",
    "app/routes/store/home.tsx",
    "app/routes/store/content-page.tsx",
    "app/routes/store/category.tsx",
    "app/routes/store/product.tsx",
    "app/routes/store/search.tsx",
    "app/routes/store/blog.tsx",
    "app/routes/store/blog-post.tsx",
  ];
  const ALLOWED: Record<string, RegExp> = {
    // The root loader builds the view (the one string the cache replaces).
    "app/root.tsx": /getUser\(context\)|currentCartId\(context\)/,
    "app/components/layout/visitor-slot.tsx": /useVisitor\(\)/,
    "app/components/store/stock-alert-form.tsx": /useVisitor\(\)\.email/,
    "app/lib/root-data.ts": /useVisitor\(\)/,
  };
  const READS = /getUser\(|userContext|useVisitor\(|currentCartId\(|getSession\(|\.user\b/g;

  test("walks the imports of every cached page", async () => {
    const fs = await import("node:fs");
    const path = await import("node:path");
    const seen = new Set<string>();
    const resolve = (from: string, spec: string): string | null => {
      const base = spec.startsWith("~/")
        ? path.join("app", spec.slice(2))
        : spec.startsWith(".")
          ? path.join(path.dirname(from), spec)
          : null;
      if (!base) return null;
      for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`])
        if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
      return null;
    };
    const queue = [...CACHED_ROUTES];
    const offenders: string[] = [];
    while (queue.length > 0) {
      const file = queue.pop() as string;
      if (seen.has(file)) continue;
      seen.add(file);
      const text = fs.readFileSync(file, "utf8");
      // The request room, the models and the middleware make no markup: a loader calling them is checked by name.
      for (const match of text.matchAll(/(?:import|export)[^"']*?from\s+["']([^"']+)["']/g)) {
        const target = resolve(file, match[1] as string);
        if (target && !/^app\/(request|models|middleware)\//.test(target)) queue.push(target);
      }
      const lines = text.split("\n");
      lines.forEach((line, i) => {
        if (!READS.test(line)) return;
        READS.lastIndex = 0;
        if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
        if (ALLOWED[file]?.test(line)) return;
        offenders.push(`${file}:${i + 1}: ${line.trim()}`);
      });
      READS.lastIndex = 0;
    }
    expect(seen.size).toBeGreaterThan(30);
    expect(offenders).toEqual([]);
  });
});
