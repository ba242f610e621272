import type { NextFunction, Request, Response } from "express";
import { type DB, preparedRead } from "#db/connect.server";
import { isDatabaseUnavailable } from "#db/errors";
import type { Services } from "~/context";
import { countPageCache } from "~/lib/metrics.server";
import { HTML_LANG, type Language } from "~/locales";
import { nextSaleEnd } from "~/models/products/sale-prices.server";
import { countPageVisit } from "~/request/page-views.server";
import {
  cacheRefusal,
  hasSessionCookie,
  pageKey,
  readVisitor,
  type VisitorView,
  visitorView,
} from "~/request/visitor.server";
import {
  assemble,
  type CutPage,
  cutPage,
  fillFor,
  gzipPage,
  ownBuffer,
  renderToken,
  type ZippedPage,
  zipPage,
} from "./page-slots";
import { requestInput } from "./request-origin";
import { traceOf } from "./request-trace";

/**
 * The rendered-page cache (docs/decisions/032, 067): catalogue pages — home, categories,
 * products, search results, blog, information pages, as documents and as the `.data` answers of
 * client-side navigation — kept in this process's memory and answered without entering React
 * Router, to anonymous visitors and signed-in shoppers and admins alike.
 *
 * - **Key**: the path and query, the language, the currency and whether the visitor is a crawler
 *   (crawlers get the whole page at once): `pageKey` of the visitor (app/request/visitor.server.ts).
 *   Nothing else of the visitor is in a stored page.
 * - **The visitor's parts**: the header's cart link and account menu and the root data's
 *   `visitor` string are put in at serve time (server/page-slots.ts): a page is rendered for the
 *   cache with a random token in their place and stored only if the tokens are exactly where a
 *   page has them. The miss is answered by the same assembly as a hit.
 * - **Not from the cache** (React Router renders, nothing stored): a message to show once, a
 *   session to write (renewed, rotated, or an expired or blocked user's cleared), anything but
 *   GET, every path not listed here, and an answer that sets a cookie other than the visit's.
 * - **Freshness**: every entry is filed under the catalogue version it was rendered at
 *   (`page_cache_version`, raised by database triggers in the same transaction as any change to
 *   products, colours, stock, images, categories, blog or settings). Each lookup reads the
 *   version — one indexed row — so a page rendered before a change is never served after the
 *   change commits, whichever process made it. Entries also expire after `ttlMs`.
 * - **CSP**: the stored page is cut at each occurrence of the nonce it was rendered with; an
 *   answer is put back together around the nonce of its own response, so the strict policy holds.
 * - **Compression**: each cut piece is deflated once when stored; a gzip answer is those pieces
 *   with the joints as stored blocks between them, a gzip header and a CRC combined from the
 *   pieces' (server/crc32.ts): no compression and no pass over the page per request. Clients
 *   that do not take gzip get the plain bytes.
 * - **Memory**: bounded by `maxBytes` (plain + compressed bytes), least recently used out first.
 */

export interface PageCacheOptions {
  /** Bytes the cache may hold (plain and compressed); 0 turns it off. */
  maxBytes: number;
  /** Age after which an entry is rendered again even if nothing changed. */
  ttlMs: number;
}

/** The catalogue pages served from the cache. */
const CACHED_PATHS =
  /^\/(?:|category\/[^/]+|product\/[^/]+|search|blog|blog\/[^/]+|shipping|returns|faq|contact|privacy|terms)$/;

/** Headers of the rendered answer that are not stored (each answer makes its own). */
const NOT_STORED = new Set(["set-cookie", "content-length", "transfer-encoding", "date", "connection", "keep-alive"]);

/** The cookie a page view sets; any other Set-Cookie means the answer was personal. */
const VISIT_COOKIE = "visit=";

interface Entry extends ZippedPage {
  key: string;
  version: number;
  storedAt: number;
  /** No later than the next sale end after it was rendered: its prices change then (decision 053). */
  expiresAt: number;
  headers: [string, string][];
  /** The page's language (its header fragment's) and kind. */
  language: Language;
  document: boolean;
  /** What the entry holds in memory, roughly. */
  bytes: number;
}

/** What a request that missed leaves for the request handler, to store the rendered answer. */
export interface PendingStore {
  cache: PageCache;
  key: string;
  version: number;
  nonce: string;
  /** The random token the page is rendered with in place of the visitor (server/page-slots.ts). */
  token: string;
  language: Language;
  /** A document, or a `.data` answer (`withRoot`: with the root route's data). */
  document: boolean;
  withRoot: boolean;
  /** The visitor's own parts, for the answer to this request. */
  view: VisitorView;
  /** The next sale end (epoch ms) when the page was looked up; null: none ahead. */
  nextSaleEnd?: number | null;
}

export class PageCache {
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;

  constructor(readonly options: PageCacheOptions) {}

  get enabled(): boolean {
    return this.options.maxBytes > 0;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The entry for `key` rendered at `version` and still young enough; refreshes its recency. */
  find(key: string, version: number, now = Date.now()): Entry | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.version !== version || now - entry.storedAt > this.options.ttlMs || now >= entry.expiresAt) {
      this.#bytes -= entry.bytes;
      return undefined;
    }
    this.#entries.set(key, entry);
    return entry;
  }

  /**
   * The entry for `key` whatever its version or age, for when the version cannot be read (the
   * database is down): a page a little out of date beats a 503 (decision 065).
   */
  peek(key: string): Entry | undefined {
    return this.#entries.get(key);
  }

  /**
   * Cuts a rendered 200 answer at its nonce and tokens (server/page-slots.ts) and stores it;
   * null, nothing stored, when the tokens are not exactly where a page has them (the answer must
   * then not be sent: it was rendered for nobody). `body` was rendered with `pending`'s nonce
   * and token.
   */
  store(pending: PendingStore, headers: [string, string][], body: Buffer, now = Date.now()): Entry | null {
    // The pieces are slices of the body: a body in a slab of Node's buffer pool is copied out of
    // it first, so the entry holds its own bytes and not the slab (server/page-slots.ts, ownBuffer).
    const whole = body.byteOffset === 0 && body.buffer.byteLength === body.length;
    const cut = cutFor(pending, whole ? body : ownBuffer([body]));
    if (!cut) return null;
    const entry: Entry = {
      ...zipPage(cut),
      key: pending.key,
      version: pending.version,
      storedAt: now,
      expiresAt: pending.nextSaleEnd ?? Number.POSITIVE_INFINITY,
      headers,
      language: pending.language,
      document: pending.document,
      bytes: 0,
    };
    entry.bytes =
      [...entry.pieces, ...entry.segments.map((segment) => segment.deflated)].reduce(
        (sum, piece) => sum + piece.length,
        0,
      ) + 512;
    // One page must not push out everything else: answered, not kept.
    if (entry.bytes > this.options.maxBytes / 4) return entry;
    const old = this.#entries.get(pending.key);
    if (old) {
      this.#entries.delete(pending.key);
      this.#bytes -= old.bytes;
    }
    this.#entries.set(pending.key, entry);
    this.#bytes += entry.bytes;
    for (const [key, oldest] of this.#entries) {
      if (this.#bytes <= this.options.maxBytes) break;
      this.#entries.delete(key);
      this.#bytes -= oldest.bytes;
    }
    return entry;
  }
}

/**
 * A render for the cache cut at its nonce and tokens, or null: wrong token counts, or (a
 * document) not in the language its key says, whose header fragment it would get.
 */
export function cutFor(pending: PendingStore, body: Buffer): CutPage | null {
  if (pending.document && !body.includes(`<html lang="${HTML_LANG[pending.language]}"`)) return null;
  return cutPage(body, {
    nonce: pending.nonce,
    token: pending.token,
    document: pending.document,
    withRoot: pending.withRoot,
  });
}

/** The catalogue's version: one primary-key read (migration 0011). */
export async function catalogueVersion(db: DB): Promise<number> {
  const [row] = await versionRow(db);
  return Number(row?.version ?? 0);
}
/** Prepared once: every cached answer reads it (db/connect.server.ts `preparedRead`). */
const versionRow = preparedRead((db: DB) => db.selectFrom("page_cache_version").select("version").where("id", "=", 1));

/**
 * The catalogue's version, and with a session `visitor_version` too (what the session memo is
 * filed under, migration 0032), in one statement: read before the visitor, so a page and a
 * session kept under these versions are what the database held at this point.
 */
export async function readPageVersions(
  db: DB,
  withVisitor: boolean,
): Promise<{ catalogue: number; visitor: number | null }> {
  if (!withVisitor) return { catalogue: await catalogueVersion(db), visitor: null };
  const [row] = await bothVersions(db);
  return { catalogue: Number(row?.version ?? 0), visitor: Number(row?.visitor ?? 0) };
}
const bothVersions = preparedRead((db: DB) =>
  db
    .selectFrom("page_cache_version")
    .select((eb) => [
      "page_cache_version.version",
      eb
        .selectFrom("visitor_version")
        .select("visitor_version.version")
        .where("visitor_version.id", "=", 1)
        .as("visitor"),
    ])
    .where("page_cache_version.id", "=", 1),
);

/**
 * The route pattern of a cacheable page path (one CACHED_PATHS matches), as React Router names
 * it (`/category/:slug`), with no routing: a hit is counted with the misses of the same page.
 */
export function cachedRoutePattern(path: string): string {
  const page = pagePath(path);
  if (page.startsWith("/category/")) return "/category/:slug";
  if (page.startsWith("/product/")) return "/product/:id";
  if (page.startsWith("/blog/")) return "/blog/:id";
  return page;
}

/** The page path a request asks for: `/category/all.data` and `/_root.data` are pages too. */
function pagePath(path: string): string {
  if (path === "/_root.data") return "/";
  return path.endsWith(".data") ? path.slice(0, -5) : path;
}

/** Whether a `.data` request asks for the root route's data (no `_routes`: every route's). */
export function asksForRoot(req: Pick<Request, "query">): boolean {
  const routes = req.query._routes;
  if (routes === undefined) return true;
  return typeof routes === "string" && routes.split(",").includes("root");
}

/**
 * The Express middleware in front of React Router: answers a hit, or marks a cacheable miss
 * (`res.locals.pageCacheStore`) so the request handler renders it for the cache, stores it and
 * answers with the same assembly.
 */
export function servePageCache(svc: Services, cache: PageCache) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!cache.enabled || req.method !== "GET" || !CACHED_PATHS.test(pagePath(req.path))) return next();
    let key: string | null = null;
    let view: VisitorView | null = null;
    try {
      const input = requestInput(req, Boolean(svc.config.trustProxy));
      // With a session, both versions first in one statement: its memo needs its own (decision
      // 077). Without one the visitor takes no statement, so a page held through an outage can
      // still be answered (below).
      const versions = hasSessionCookie(svc.config, input.cookie) ? await readPageVersions(svc.db, true) : null;
      const visitor = await readVisitor(svc, input, versions?.visitor ?? undefined);
      // Read once: the request's middleware takes it from here (getLoadContext).
      res.locals.visitor = visitor;
      // A message to show once, or a session to write (renewed, rotated, cleared): React Router answers.
      if (cacheRefusal(visitor) !== null) return next();
      key = pageKey(req.originalUrl, visitor);
      view = visitorView(visitor);
      const document = !req.path.endsWith(".data");
      const version = versions?.catalogue ?? (await catalogueVersion(svc.db));
      const entry = cache.find(key, version);
      if (!entry) {
        countPageCache(false);
        // A sale ending changes prices with no write (no new version): the page must not outlive it.
        const saleEnd = await nextSaleEnd(svc.db);
        const pending: PendingStore = {
          cache,
          key,
          version,
          nonce: res.locals.nonce as string,
          token: renderToken(),
          language: visitor.language,
          document,
          withRoot: document || asksForRoot(req),
          view,
          nextSaleEnd: saleEnd === null ? null : Date.parse(saleEnd),
        };
        res.locals.pageCacheStore = pending;
        return next();
      }
      countPageCache(true);
      // Counted under the route pattern React Router would have matched (the request's metrics).
      const trace = traceOf(res);
      if (trace) {
        trace.route = cachedRoutePattern(req.path);
        trace.userId = visitor.user?.id ?? null;
      }
      const visit = document
        ? await countPageVisit(
            svc.db,
            {
              method: req.method,
              path: req.path,
              status: 200,
              contentType: "text/html",
              cookieHeader: req.headers.cookie ?? null,
              userAgent: req.get("User-Agent") || null,
              bot: visitor.bot,
              referrer: req.get("Referer") ?? null,
              userId: visitor.user?.id ?? null,
            },
            { secure: svc.config.secureCookies },
          )
        : null;
      sendEntry(req, res, entry, view, visit);
    } catch (error) {
      // The database cannot say which version is current: a visitor whose page is held gets it
      // as it was, with their own parts as read (not counted: the count is the database's too).
      // Without one (or the visitor unread), React Router answers, and meeting the same outage
      // that is the 503 page.
      if (!isDatabaseUnavailable(error)) return next(error);
      const held = key === null || view === null ? undefined : cache.peek(key);
      if (!held || !view) return next();
      res.setHeader("X-Page-Cache", "stale");
      sendEntry(req, res, held, view, null);
    }
  };
}

/** An entry answered to one visitor: the stored headers, the page with this answer's joints. */
export function sendEntry(req: Request, res: Response, entry: Entry, view: VisitorView, visitCookie: string | null) {
  for (const [name, value] of entry.headers) res.setHeader(name, value);
  res.setHeader("Vary", "Accept-Encoding, Cookie, Accept-Language");
  if (visitCookie) res.append("Set-Cookie", visitCookie);
  if (!res.hasHeader("X-Page-Cache")) res.setHeader("X-Page-Cache", "hit");
  const fill = fillFor(res.locals.nonce as string, entry.language, view, entry.document);
  const gzip = req.acceptsEncodings("gzip", "identity") === "gzip";
  const body = gzip ? gzipPage(entry, fill) : assemble(entry, fill);
  if (gzip) res.setHeader("Content-Encoding", "gzip");
  res.setHeader("Content-Length", String(body.length));
  res.status(200).end(body);
}

/** Called by the request handler with React Router's answer to a cacheable miss. */
export function isStorable(response: globalThis.Response): boolean {
  if (response.status !== 200) return false;
  const type = response.headers.get("Content-Type") ?? "";
  if (!type.startsWith("text/html") && !type.startsWith("text/x-script")) return false;
  // A session, language or currency cookie set by the answer means it was personal after all.
  return setsOnlyVisitCookie(response);
}

/** Whether the answer sets no cookie but the page view's. */
export function setsOnlyVisitCookie(response: globalThis.Response): boolean {
  return response.headers.getSetCookie().every((value) => value.startsWith(VISIT_COOKIE));
}

/** The headers of an answer worth storing. */
export function storedHeaders(response: globalThis.Response): [string, string][] {
  return [...response.headers.entries()].filter(([name]) => !NOT_STORED.has(name.toLowerCase()));
}
