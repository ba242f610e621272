import { Writable } from "node:stream";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type { NextFunction, Request, Response } from "express";
import {
  createRequestHandler as createRouterHandler,
  type RouterContextProvider,
  type ServerBuild,
} from "react-router";
import { logger } from "~/lib/log.server";
import { pipeToNode } from "~/lib/node-body.server";
import { cacheRenderContext } from "~/lib/root-data";
import { cutFor, isStorable, type PendingStore, setsOnlyVisitCookie, storedHeaders } from "./page-cache";
import { assemble, fillFor } from "./page-slots";

/**
 * Express -> React Router, as @react-router/express does, with one difference: a document body
 * made by app/entry.server.tsx is React's pipe writing straight into the Node response, instead
 * of React -> Node stream -> web stream -> Node response (two copies of every chunk and the
 * web-stream machinery on the hottest path: every page view).
 */
export function createRequestHandler(options: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  getLoadContext: (req: Request, res: Response) => RouterContextProvider;
  mode?: string;
}) {
  const handle = createRouterHandler(options.build, options.mode ?? process.env.NODE_ENV);
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const pending = res.locals.pageCacheStore as PendingStore | undefined;
      const context = options.getLoadContext(req, res);
      // A cacheable miss is rendered for nobody: a token in the visitor's place (server/page-slots.ts).
      if (pending) context.set(cacheRenderContext, pending.token);
      const response = await handle(toWebRequest(req, res), context);
      setCachePolicy(response.headers);
      if (!pending) return await send(res, response);
      if (await answerRenderForCache(res, response, pending)) return;
      // The tokens were not where a page has them: that render is sent to no one. Rendered again,
      // for this visitor, and not stored.
      logger.warn({ path: req.path }, "page cache: a render for the cache was refused; rendered again");
      const again = await handle(toWebRequest(req, res), options.getLoadContext(req, res));
      setCachePolicy(again.headers);
      await send(res, again);
    } catch (error) {
      next(error);
    }
  };
}

function toWebRequest(req: Request, res: Response): globalThis.Request {
  const forwarded = req.app.enabled("trust proxy") ? req.get("X-Forwarded-Host")?.split(":")[1] : undefined;
  const port = Number.parseInt(forwarded ?? req.get("host")?.split(":")[1] ?? "", 10);
  const host = `${req.hostname.split(/[\\/?#@]/)[0] || "localhost"}${Number.isSafeInteger(port) ? `:${port}` : ""}`;
  const controller = new AbortController();
  let finished = false;
  res.on("finish", () => {
    finished = true;
  });
  res.on("close", () => {
    if (!finished) controller.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  // An unreadable path, escaped (escapeUnreadablePath in server/app.ts).
  const url = (res.locals.escapedUrl as string | undefined) ?? req.originalUrl;
  return new globalThis.Request(`${req.protocol}://${host}${url}`, init);
}

/**
 * Pages and their `.data` answers depend on the visitor's cookies (session, cart, language,
 * currency) and Accept-Language: a shared cache (a CDN) must not keep them, a browser must ask
 * again each time. A route that sets its own Cache-Control (sitemap, receipts) keeps it.
 */
function setCachePolicy(headers: Headers): void {
  const type = headers.get("Content-Type") ?? "";
  if (!type.startsWith("text/html") && !type.startsWith("text/x-script")) return;
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "private, no-cache");
  headers.append("Vary", "Cookie, Accept-Language");
}

/**
 * A cacheable miss rendered with a token (server/page-cache.ts): the whole answer is read, a page
 * is stored, and the visitor gets it put together with their own parts, as a hit would be. An
 * answer that is not a page to keep (a 404, a redirect) is put together the same way and not
 * stored; one without the token is sent as it is. False when it must not be sent: the tokens were
 * not exactly where a page has them, or it set a cookie of its own (it was personal after all).
 */
async function answerRenderForCache(
  res: Response,
  response: globalThis.Response,
  pending: PendingStore,
): Promise<boolean> {
  const body = await readBody(response);
  if (res.destroyed || res.writableEnded) return true;
  let answer = body;
  if (body.includes(pending.token)) {
    const storable = isStorable(response);
    if (!storable && !setsOnlyVisitCookie(response)) return false;
    const page = storable ? pending.cache.store(pending, storedHeaders(response), body) : cutFor(pending, body);
    if (!page) return false;
    answer = assemble(page, fillFor(pending.nonce, pending.language, pending.view, pending.document));
    res.setHeader("X-Page-Cache", "miss");
  }
  setHead(res, response);
  res.removeHeader("Content-Length");
  res.end(answer);
  return true;
}

async function readBody(response: globalThis.Response): Promise<Buffer> {
  if (!response.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  const collector = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  const piped = pipeToNode(response.body, collector);
  if (piped) await piped;
  else chunks.push(Buffer.from(await response.arrayBuffer()));
  return Buffer.concat(chunks);
}

function setHead(res: Response, response: globalThis.Response): void {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) {
    // A header the server already set to the same value (X-Content-Type-Options: nosniff on a
    // CSV download) is sent once, not twice.
    if (name !== "set-cookie" && res.getHeader(name) === value) continue;
    res.append(name, value);
  }
}

async function send(res: Response, response: globalThis.Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  setHead(res, response);
  if (!response.body) {
    res.end();
    return;
  }
  const piped = pipeToNode(response.body, res);
  if (piped) return piped;
  if (response.headers.get("Content-Type")?.match(/text\/event-stream/i)) res.flushHeaders();
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}
