import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { createRequestHandler, data, RouterContextProvider, UNSAFE_withErrorBoundaryProps } from "react-router";
import { afterEach, describe, expect, test, vi } from "vitest";
import { requestInfoContext } from "~/context";
import * as entry from "~/entry.server";
import { logger } from "~/lib/log.server";
import { RETRY_AFTER_SECONDS } from "~/lib/outage.server";
import { retryAfterMiddleware } from "~/middleware/outage";
import * as root from "~/root";
import { createRequestHandler as createServerRequestHandler } from "../server/request-handler";
import { testServerBuild } from "./setup/server-build";

/**
 * The error pages as the server renders them: the real root route (its layout, error boundary
 * and `headers`) and app/entry.server.tsx behind React Router's own request handler in
 * production mode, with one tiny page whose loader throws what a failing page throws. The root
 * loader and middleware are left out: the page is rendered as when they failed too (no root
 * data), the harder case for the language and the request id.
 */

const thrown: { value: unknown } = { value: null };

const build = testServerBuild(
  { default: entry.default, handleError: entry.handleError, streamTimeout: entry.streamTimeout },
  [
    {
      id: "root",
      path: "",
      // As the framework's build hands them over: the boundary gets its `error` as a prop.
      module: {
        // Not rendered: the page below failed, so the root's boundary shows instead.
        default: () => null,
        // The outermost of the root's middleware (the others need the shop's services).
        middleware: [retryAfterMiddleware],
        Layout: root.Layout,
        ErrorBoundary: UNSAFE_withErrorBoundaryProps(root.ErrorBoundary),
        headers: root.headers,
      },
    },
    {
      id: "guarded",
      parentId: "root",
      path: "guarded",
      module: {
        default: () => null,
        // A middleware meeting a database that is down, as the session's does (decision 065).
        middleware: [
          () => {
            throw data(null, { status: 503, headers: { "Retry-After": "30" } });
          },
        ],
      },
    },
    {
      id: "page",
      parentId: "root",
      path: "page",
      module: {
        default: () => null,
        loader: () => {
          throw thrown.value;
        },
      },
    },
  ],
);

const handle = createRequestHandler(build, "production");

function loadContext(): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(requestInfoContext, {
    nonce: "",
    ip: null,
    proxyCountry: null,
    trace: { id: "req-7f3a9c21-test", route: null, userId: null },
  });
  return context;
}

async function render(error: unknown, query = "", headers: Record<string, string> = {}) {
  thrown.value = error;
  const response = await handle(new Request(`http://shop.test/page${query}`, { headers }), loadContext());
  return { response, html: await response.text() };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the error pages", () => {
  test("a thrown Error: a 500 with the request id to quote and nothing internal; the log has the error with the id", async () => {
    const logged = vi.spyOn(logger, "error").mockImplementation(() => undefined);
    const { response, html } = await render(new Error("database file /srv/shop/data/shop.db is locked (secret)"));
    expect(response.status).toBe(500);
    expect(html).toContain("Something went wrong on our side.");
    expect(html).toContain("If you write to us, quote this reference:");
    expect(html).toContain("req-7f3a9c21-test");
    expect(html).toContain('<meta name="request-id" content="req-7f3a9c21-test"/>');
    expect(html).not.toContain("shop.db");
    expect(html).not.toContain("secret");
    expect(html).not.toMatch(/\bat .*\.ts:\d+/);
    // What React Router hands the browser instead (production mode): its sanitised stand-in.
    expect(html).toContain("Unexpected Server Error");
    const [fields, message] = logged.mock.calls[0] as unknown as [Record<string, unknown>, string];
    expect(fields).toMatchObject({ reqId: "req-7f3a9c21-test", method: "GET", path: "/page" });
    expect(fields.err).toBeInstanceOf(Error);
    expect(message).toContain("is locked");
  });

  test("a thrown 503 keeps its status and Retry-After, and says so in Chinese with the request id", async () => {
    const { response, html } = await render(data(null, { status: 503, headers: { "Retry-After": "30" } }), "?lng=zh");
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("30");
    expect(html).toContain('<html lang="zh-Hant-HK"');
    expect(html).toContain("商店暫時無法使用");
    expect(html).toContain("請於一分鐘後再試");
    expect(html).toContain("如需聯絡我們，請提供此參考編號：");
    expect(html).toContain("req-7f3a9c21-test");
  });

  test("a thrown 503 Response, in English from Accept-Language", async () => {
    const thrownResponse = new Response(null, { status: 503, headers: { "Retry-After": "5" } });
    const { response, html } = await render(thrownResponse, "", { "Accept-Language": "en-GB,en;q=0.9" });
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("5");
    expect(html).toContain("The shop is briefly unavailable");
    expect(html).toContain("Please try again in a minute.");
    expect(html).toContain("req-7f3a9c21-test");
  });

  test("a thrown 507: nothing was saved, in both languages", async () => {
    const en = await render(data(null, { status: 507 }));
    expect(en.response.status).toBe(507);
    expect(en.html).toContain("The shop cannot save anything right now");
    expect(en.html).toContain("Nothing you sent was saved.");
    expect(en.html).toContain("req-7f3a9c21-test");
    const zh = await render(data(null, { status: 507 }), "", { "Accept-Language": "zh-HK,zh;q=0.9" });
    expect(zh.response.status).toBe(507);
    expect(zh.html).toContain("商店暫時無法儲存資料");
    expect(zh.html).toContain("你剛才提交的內容並未儲存");
  });

  test("React Router's own refusal (a POST where no action is) is logged as a warning with its status, not an error", async () => {
    const warned = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    const failed = vi.spyOn(logger, "error").mockImplementation(() => undefined);
    const response = await handle(new Request("http://shop.test/page", { method: "POST", body: "" }), loadContext());
    expect(response.status).toBe(405);
    expect(failed).not.toHaveBeenCalled();
    expect(warned.mock.calls[0]?.[0]).toMatchObject({ status: 405, reqId: "req-7f3a9c21-test", method: "POST" });
  });

  test("a 404 names no request: there is nothing for the shop to look up", async () => {
    const { response, html } = await render(data(null, { status: 404 }));
    expect(response.status).toBe(404);
    expect(html).not.toContain("req-7f3a9c21-test");
    expect(html).not.toContain("quote this reference");
  });

  test("a 503 thrown by a middleware loses its headers inside React Router: the root's outermost middleware gives it Retry-After all the same", async () => {
    const app = express();
    app.use(createServerRequestHandler({ build, getLoadContext: () => loadContext(), mode: "production" }));
    const server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/guarded?lng=zh`);
      expect(response.status).toBe(503);
      expect(response.headers.get("Retry-After")).toBe(String(RETRY_AFTER_SECONDS));
      const html = await response.text();
      expect(html).toContain("商店暫時無法使用");
      expect(html).toContain("req-7f3a9c21-test");
    } finally {
      server.close();
    }
  });
});
