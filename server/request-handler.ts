import { Writable } from "node:stream";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type { NextFunction, Request, Response } from "express";
import {
  createRequestHandler as createRouterHandler,
  type RouterContextProvider,
  type ServerBuild,
} from "react-router";
import { pipeToNode } from "~/lib/node-body.server";
import { isStorable, type PendingStore, storedHeaders } from "./page-cache";

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
      const response = await handle(toWebRequest(req, res), options.getLoadContext(req, res));
      setCachePolicy(response.headers);
      const pending = res.locals.pageCacheStore as PendingStore | undefined;
      if (pending && isStorable(response)) await sendAndStore(res, response, pending);
      else await send(res, response);
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

/** A cacheable miss (server/page-cache.ts): the whole answer is read, stored, then sent. */
async function sendAndStore(res: Response, response: globalThis.Response, pending: PendingStore): Promise<void> {
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
  const body = Buffer.concat(chunks);
  pending.cache.store(pending, storedHeaders(response), body);
  if (res.destroyed || res.writableEnded) return;
  res.setHeader("X-Page-Cache", "miss");
  setHead(res, response);
  res.end(body);
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
