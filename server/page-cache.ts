import zlib from "node:zlib";
import type { NextFunction, Request, Response } from "express";
import { isbot } from "isbot";
import type { DB } from "#db/connect.server";
import { isDatabaseUnavailable } from "#db/errors";
import type { Services } from "~/context";
import { countPageCache } from "~/lib/metrics.server";
import { languageCookie } from "~/middleware/i18next";
import { countCartLines, findAnonymousCart } from "~/models/cart.server";
import { nextSaleEnd } from "~/models/products/sale-prices.server";
import { rawCookieValue } from "~/request/cookies";
import { resolveCurrency } from "~/request/currency.server";
import { countPageVisit } from "~/request/page-views.server";
import { readSession, sessionCookie } from "~/request/session.server";
import { type CrcTemplate, crcTemplate, crcWithJoint } from "./crc32";
import { proxyCountry } from "./request-origin";
import { traceOf } from "./request-trace";

/**
 * The rendered-page cache (docs/decisions/032): anonymous visitors' catalogue pages — home,
 * categories, products, search results, blog, information pages, as documents and as the `.data`
 * answers of client-side navigation — kept in this process's memory and answered without
 * entering React Router.
 *
 * - **Key**: the path and query, and every request input those pages read for an anonymous
 *   visitor: the language cookie and Accept-Language, the resolved currency (cookie, else the
 *   visitor's country), the cart badge count, and whether the visitor is a crawler (crawlers get
 *   the whole page at once). Signed-in visitors, a pending flash message, a session due to be
 *   renewed, and anything but GET are never cached nor answered from the cache.
 * - **Freshness**: every entry is filed under the catalogue version it was rendered at
 *   (`page_cache_version`, raised by database triggers in the same transaction as any change to
 *   products, colours, stock, images, categories, blog or settings). Each lookup reads the
 *   version — one indexed row — so a page rendered before a change is never served after the
 *   change commits, whichever process made it. Entries also expire after `ttlMs`.
 * - **CSP**: the stored page is cut at each occurrence of the nonce it was rendered with; a hit
 *   is put back together around the nonce of its own response, so the strict policy holds.
 * - **Compression**: each cut piece is deflated once when stored; a gzip hit is those pieces with
 *   the new nonce as a stored block between them, a gzip header and a CRC worked out from the
 *   stored page's (server/crc32.ts): no compression and no pass over the page per request. Clients that do not take gzip get the plain bytes.
 * - **Memory**: bounded by `maxBytes` (plain + compressed bytes), least recently used out first.
 */

export interface PageCacheOptions {
  /** Bytes the cache may hold (plain and compressed); 0 turns it off. */
  maxBytes: number;
  /** Age after which an entry is rendered again even if nothing changed. */
  ttlMs: number;
}

/** The catalogue pages an anonymous visitor may be served from the cache. */
const CACHED_PATHS =
  /^\/(?:|category\/[^/]+|product\/[^/]+|search|blog|blog\/[^/]+|shipping|returns|faq|contact|privacy|terms)$/;

/** Headers of the rendered answer that are not stored (each answer makes its own). */
const NOT_STORED = new Set(["set-cookie", "content-length", "transfer-encoding", "date", "connection", "keep-alive"]);

/** The cookie a page view sets; any other Set-Cookie means the answer was personal. */
const VISIT_COOKIE = "visit=";

interface Entry {
  key: string;
  version: number;
  storedAt: number;
  /** No later than the next sale end after it was rendered: its prices change then (decision 053). */
  expiresAt: number;
  headers: [string, string][];
  /** The page cut at each occurrence of its render's nonce. */
  pieces: Buffer[];
  /** Each piece raw-deflated and sync-flushed (byte-aligned, no reference to another piece). */
  deflated: Buffer[];
  /** The CRC-32 of the page with zeros for its nonces, and how to put a nonce in. */
  crc: CrcTemplate;
  /** What the entry holds in memory, roughly. */
  bytes: number;
}

/** What a request that missed leaves for the request handler, to store the rendered answer. */
export interface PendingStore {
  cache: PageCache;
  key: string;
  version: number;
  nonce: string;
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
   * database is down): an anonymous page a little out of date beats a 503 (decision 065).
   */
  peek(key: string): Entry | undefined {
    return this.#entries.get(key);
  }

  /** Stores a rendered 200 answer; `nonce` is the one it was rendered with. */
  store(pending: PendingStore, headers: [string, string][], body: Buffer, now = Date.now()): void {
    const pieces = splitAt(body, pending.nonce);
    // zlib answers each piece in a buffer of its own chunk size (16 KB and up, however small the
    // piece): copied into one buffer of the exact total, so memory is what `bytes` counts.
    const zipped = pieces.map((piece) =>
      zlib.deflateRawSync(piece, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH }),
    );
    const all = Buffer.concat(zipped);
    const deflated: Buffer[] = [];
    let offset = 0;
    for (const part of zipped) {
      deflated.push(all.subarray(offset, offset + part.length));
      offset += part.length;
    }
    const bytes = [...pieces, ...deflated].reduce((sum, piece) => sum + piece.length, 0) + 512;
    if (bytes > this.options.maxBytes / 4) return; // one page must not push out everything else
    const old = this.#entries.get(pending.key);
    if (old) {
      this.#entries.delete(pending.key);
      this.#bytes -= old.bytes;
    }
    const entry: Entry = {
      key: pending.key,
      version: pending.version,
      storedAt: now,
      expiresAt: pending.nextSaleEnd ?? Number.POSITIVE_INFINITY,
      headers,
      pieces,
      deflated,
      crc: crcTemplate(pieces, Buffer.byteLength(pending.nonce)),
      bytes,
    };
    this.#entries.set(pending.key, entry);
    this.#bytes += bytes;
    for (const [key, oldest] of this.#entries) {
      if (this.#bytes <= this.options.maxBytes) break;
      this.#entries.delete(key);
      this.#bytes -= oldest.bytes;
    }
  }
}

/** The catalogue's version: one primary-key read (migration 0011). */
export async function catalogueVersion(db: DB): Promise<number> {
  const row = await db.selectFrom("page_cache_version").select("version").where("id", "=", 1).executeTakeFirst();
  return Number(row?.version ?? 0);
}

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

/**
 * The Express middleware in front of React Router: answers a hit, or marks a cacheable miss
 * (`res.locals.pageCacheStore`) so the request handler stores what React Router renders.
 */
export function servePageCache(svc: Services, cache: PageCache) {
  const cookie = sessionCookie(svc.config.sessionSecret, svc.config.secureCookies);
  const cookieName = cookie.name;
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!cache.enabled || req.method !== "GET" || !CACHED_PATHS.test(pagePath(req.path))) return next();
    const cookies = req.headers.cookie ?? null;
    let key: string | null = null;
    try {
      let cartCount = 0;
      if (cookies?.includes(`${cookieName}=`)) {
        const session = await readSession(svc.db, cookie, cookies);
        // Signed in, a message to show once, or a session to renew: React Router answers.
        if (session.userId !== null || session.dirty || session.data.flash !== undefined) return next();
        const stored = typeof session.data.cartId === "string" ? session.data.cartId : null;
        cartCount = await countCartLines(svc.db, await findAnonymousCart(svc.db, stored));
      }
      const currency = await resolveCurrency(cookies, {
        ip: req.ip ?? null,
        proxyCountry: svc.config.trustProxy ? proxyCountry(req) : null,
      });
      const userAgent = req.get("User-Agent") ?? "";
      const bot = isbot(userAgent);
      key = [
        req.originalUrl,
        rawCookieValue(cookies, languageCookie.name) ?? "",
        req.get("Accept-Language") ?? "",
        currency,
        cartCount,
        bot ? "bot" : "",
      ].join("\n");
      const version = await catalogueVersion(svc.db);
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
          nextSaleEnd: saleEnd === null ? null : Date.parse(saleEnd),
        };
        res.locals.pageCacheStore = pending;
        return next();
      }
      countPageCache(true);
      // Counted under the route pattern React Router would have matched (the request's metrics).
      const trace = traceOf(res);
      if (trace) trace.route = cachedRoutePattern(req.path);
      const isDocument = !req.path.endsWith(".data");
      const visit = isDocument
        ? await countPageVisit(
            svc.db,
            {
              method: req.method,
              path: req.path,
              status: 200,
              contentType: "text/html",
              cookieHeader: cookies,
              userAgent: userAgent || null,
              bot,
              referrer: req.get("Referer") ?? null,
              userId: null,
            },
            { secure: svc.config.secureCookies },
          )
        : null;
      sendEntry(req, res, entry, res.locals.nonce as string, visit);
    } catch (error) {
      // The database cannot say which version is current: an anonymous visitor whose page is held
      // gets it as it was (not counted: the count is the database's too). Without one, React
      // Router answers, and meeting the same outage that is the 503 page.
      if (!isDatabaseUnavailable(error)) return next(error);
      const held = key === null ? undefined : cache.peek(key);
      if (!held) return next();
      res.setHeader("X-Page-Cache", "stale");
      sendEntry(req, res, held, res.locals.nonce as string, null);
    }
  };
}

function sendEntry(req: Request, res: Response, entry: Entry, nonce: string, visitCookie: string | null) {
  for (const [name, value] of entry.headers) res.setHeader(name, value);
  res.setHeader("Vary", "Accept-Encoding, Cookie, Accept-Language");
  if (visitCookie) res.append("Set-Cookie", visitCookie);
  if (!res.hasHeader("X-Page-Cache")) res.setHeader("X-Page-Cache", "hit");
  const gzip = req.acceptsEncodings("gzip", "identity") === "gzip";
  const body = gzip ? gzipped(entry, nonce) : plain(entry, nonce);
  if (gzip) res.setHeader("Content-Encoding", "gzip");
  res.setHeader("Content-Length", String(body.length));
  res.status(200).end(body);
}

function plain(entry: Entry, nonce: string): Buffer {
  const joint = Buffer.from(nonce);
  const parts: Buffer[] = [];
  entry.pieces.forEach((piece, i) => {
    if (i > 0) parts.push(joint);
    parts.push(piece);
  });
  return Buffer.concat(parts);
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
/** The last, empty deflate block (final bit set, fixed Huffman codes, end of block). */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/**
 * A gzip member made of the stored pieces' deflated bytes with the nonce between them as a
 * stored (uncompressed) block: valid because each piece was deflated on its own and
 * sync-flushed, so it ends on a byte boundary and refers to nothing outside itself.
 */
export function gzipped(entry: Pick<Entry, "pieces" | "deflated" | "crc">, nonce: string): Buffer {
  const joint = Buffer.from(nonce);
  const stored = Buffer.alloc(5);
  stored.writeUInt8(0, 0); // not final, stored block; the rest of the byte is padding
  stored.writeUInt16LE(joint.length, 1);
  stored.writeUInt16LE(~joint.length & 0xffff, 3);
  const parts: Buffer[] = [GZIP_HEADER];
  let size = 0;
  entry.pieces.forEach((piece, i) => {
    if (i > 0) {
      parts.push(stored, joint);
      size += joint.length;
    }
    parts.push(entry.deflated[i] as Buffer);
    size += piece.length;
  });
  // The page's CRC from its template (server/crc32.ts), unless the nonce is of another length.
  const crc =
    joint.length === entry.crc.jointLength
      ? crcWithJoint(entry.crc, joint)
      : entry.pieces.reduce((sum, piece, i) => zlib.crc32(piece, i > 0 ? zlib.crc32(joint, sum) : sum), 0);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  parts.push(FINAL_BLOCK, trailer);
  return Buffer.concat(parts);
}

/** `body` cut at every occurrence of `separator` (the separators themselves dropped). */
export function splitAt(body: Buffer, separator: string): Buffer[] {
  if (!separator) return [body];
  const needle = Buffer.from(separator);
  const pieces: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(needle, from); at >= 0; at = body.indexOf(needle, from)) {
    pieces.push(body.subarray(from, at));
    from = at + needle.length;
  }
  pieces.push(body.subarray(from));
  return pieces;
}

/** Called by the request handler with React Router's answer to a cacheable miss. */
export function isStorable(response: globalThis.Response): boolean {
  if (response.status !== 200) return false;
  const type = response.headers.get("Content-Type") ?? "";
  if (!type.startsWith("text/html") && !type.startsWith("text/x-script")) return false;
  // A session, language or currency cookie set by the answer means it was not anonymous after all.
  return response.headers.getSetCookie().every((value) => value.startsWith(VISIT_COOKIE));
}

/** The headers of an answer worth storing. */
export function storedHeaders(response: globalThis.Response): [string, string][] {
  return [...response.headers.entries()].filter(([name]) => !NOT_STORED.has(name.toLowerCase()));
}
