import { isbot } from "isbot";
import { createCookie } from "react-router";
import type { DB } from "#db/connect.server";
import { logger } from "~/lib/log.server";
import { type PageView, writePageViews } from "~/models/analytics.server";
import { rawCookieValue } from "./cookies";

/**
 * Page views, counted off the request path (docs/decisions/030-page-view-buffer.md): a request
 * only decides whether it counts and queues the view in memory; the views of each database are
 * written together, in one transaction, every FLUSH_INTERVAL_MS or as soon as FLUSH_AT are
 * waiting. A crash loses at most the views of one interval, which analytics can afford.
 */

/** What a storefront response tells about a visit; plain values, so the page cache can call this too. */
export interface PageVisit {
  method: string;
  path: string;
  status: number;
  contentType: string | null;
  cookieHeader: string | null;
  userAgent: string | null;
  /** Whether `userAgent` is a crawler, when the caller has already asked isbot (a hot path). */
  bot?: boolean;
  referrer: string | null;
  /** The signed-in user's id (users.id is text), or null. */
  userId: string | null;
}

/** How long a view waits, at most, before its batch is written. */
export const FLUSH_INTERVAL_MS = 2_000;
/** A batch this large is written at once, without waiting for the interval. */
export const FLUSH_AT = 500;
/**
 * Views written per transaction: a batch goes in slices, the event loop free between them, so
 * requests wait at most one slice's work (~2 ms) rather than a whole batch's (decision 074).
 */
export const VIEWS_PER_TRANSACTION = 100;
/**
 * Views kept waiting for one database, at most: while it is stuck (a long lock, a lost server)
 * views beyond this are dropped (and counted in the log) rather than held in memory.
 */
export const MAX_QUEUED = 10_000;

/** A visit: 30 minutes, renewed with each page. */
const VISIT_SECONDS = 30 * 60;
export const visitCookie = createCookie("visit", { path: "/", httpOnly: true, sameSite: "lax", maxAge: VISIT_SECONDS });

/** A visit id as this server makes them (a UUID's hex digits; older ones were up to 64 of these characters). */
const VISIT_ID = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * The visit id in a Cookie header, or null: what `visitCookie.parse` reads (the cookie's value is
 * the base64 of the id's JSON string, URI-encoded), without its promise and whole-header parse —
 * every counted page asks (decision 078). Anything else is no id.
 */
export function visitIdOf(cookieHeader: string | null): string | null {
  const raw = rawCookieValue(cookieHeader, visitCookie.name);
  if (!raw) return null;
  try {
    const id: unknown = JSON.parse(Buffer.from(decodeURIComponent(raw), "base64").toString("utf8"));
    return typeof id === "string" && VISIT_ID.test(id) ? id : null;
  } catch {
    return null;
  }
}

/** The visit cookie's Set-Cookie for `id`, exactly as `visitCookie.serialize` writes it (tests/page-views.test.ts). */
export function visitSetCookie(id: string, secure: boolean): string {
  const value = encodeURIComponent(Buffer.from(JSON.stringify(id)).toString("base64"));
  return `${visitCookie.name}=${value}; Max-Age=${VISIT_SECONDS}; Path=/; HttpOnly;${secure ? " Secure;" : ""} SameSite=Lax`;
}

/** Referrers of the site-builder tool the spec excludes from analytics. */
const EXCLUDED_REFERRERS = ["lovable.dev", "lovable.app", "lovableproject.com"];

const NOT_STOREFRONT = /^\/(admin|resources|assets|uploads)(\/|$)/;

/**
 * What counts as a page view: a storefront document (a GET answered with HTML, not a `.data`
 * request) that succeeded, outside /admin, resources and static files, not fetched by a bot nor
 * reached from the spec's site-builder.
 */
function counts(visit: PageVisit): boolean {
  const referrer = visit.referrer;
  return (
    visit.method === "GET" &&
    !visit.path.endsWith(".data") &&
    (visit.contentType ?? "").startsWith("text/html") &&
    visit.status < 400 &&
    !NOT_STOREFRONT.test(visit.path) &&
    !(visit.bot ?? isbot(visit.userAgent ?? "")) &&
    !(referrer && EXCLUDED_REFERRERS.some((host) => referrer.includes(host)))
  );
}

/**
 * Decides whether the visit counts; if so queues it for the next batch and returns the visit
 * cookie's Set-Cookie value to send (`secure`: Secure, when the shop is served over HTTPS —
 * config.secureCookies), else null. Never throws (errors are logged).
 */
export async function countPageVisit(
  db: DB,
  visit: PageVisit,
  options: { secure?: boolean } = {},
): Promise<string | null> {
  try {
    if (!counts(visit)) return null;
    let session = visitIdOf(visit.cookieHeader);
    if (session === null) session = crypto.randomUUID().replaceAll("-", "");
    enqueue(db, {
      path: visit.path,
      sessionId: session,
      userId: visit.userId,
      userAgent: visit.userAgent?.slice(0, 500) || null,
      referrer: visit.referrer?.slice(0, 500) ?? null,
      at: Date.now(),
    });
    return visitSetCookie(session, options.secure ?? false);
  } catch (error) {
    logger.error({ err: error }, "page view not recorded");
    return null;
  }
}

/** Writes every queued view now (all databases with a queue). Called on shutdown and by tests. */
export async function flushPageViews(): Promise<void> {
  await Promise.all([...queues].map(([db, queue]) => drain(db, queue)));
}

/* ------------------------------------------------------------------------------------------ */

interface Queue {
  views: PageView[];
  /** The batch being written, if any: one at a time per database. */
  writing: Promise<void> | null;
  timer: ReturnType<typeof setTimeout> | null;
  /** Views dropped since the last log line about them. */
  dropped: number;
}

/** One queue per database (tests open several); removed once empty, so a closed database is let go. */
const queues = new Map<DB, Queue>();

function enqueue(db: DB, view: PageView): void {
  let queue = queues.get(db);
  if (!queue) {
    queue = { views: [], writing: null, timer: null, dropped: 0 };
    queues.set(db, queue);
  }
  if (queue.views.length >= MAX_QUEUED) {
    if (queue.dropped++ === 0) logger.warn(`page views: ${MAX_QUEUED} waiting for the database, dropping new ones`);
    return;
  }
  queue.views.push(view);
  if (queue.views.length >= FLUSH_AT) void writeBatch(db, queue);
  else schedule(db, queue);
}

function schedule(db: DB, queue: Queue): void {
  if (queue.timer || queue.writing) return;
  queue.timer = setTimeout(() => {
    queue.timer = null;
    void writeBatch(db, queue);
  }, FLUSH_INTERVAL_MS);
  // A process with nothing else to do exits; shutdown flushes what waits.
  queue.timer.unref();
}

/** Writes what is queued in one transaction, unless a batch is already being written. */
function writeBatch(db: DB, queue: Queue): Promise<void> {
  if (queue.writing) return queue.writing;
  if (queue.timer) {
    clearTimeout(queue.timer);
    queue.timer = null;
  }
  const batch = queue.views;
  queue.views = [];
  if (batch.length === 0) {
    if (queues.get(db) === queue) queues.delete(db);
    return Promise.resolve();
  }
  queue.writing = (async () => {
    for (let from = 0; from < batch.length; from += VIEWS_PER_TRANSACTION) {
      // The requests that came meanwhile go first.
      if (from > 0) await new Promise((resolve) => setImmediate(resolve));
      const slice = batch.slice(from, from + VIEWS_PER_TRANSACTION);
      try {
        await writePageViews(db, slice);
      } catch (error) {
        // Analytics, not orders: a slice the database refused is logged and let go.
        logger.error({ err: error }, `page views: ${slice.length} not recorded`);
      }
    }
    if (queue.dropped > 0) {
      logger.warn(`page views: ${queue.dropped} dropped while the database was slow`);
      queue.dropped = 0;
    }
    queue.writing = null;
    if (queue.views.length >= FLUSH_AT) void writeBatch(db, queue);
    else if (queue.views.length > 0) schedule(db, queue);
    else if (queues.get(db) === queue) queues.delete(db);
  })();
  return queue.writing;
}

/** Waits for the batch being written, then writes the rest, until nothing waits. */
async function drain(db: DB, queue: Queue): Promise<void> {
  while (queue.writing || queue.views.length > 0) await writeBatch(db, queue);
  if (queue.timer) {
    clearTimeout(queue.timer);
    queue.timer = null;
  }
  if (queues.get(db) === queue && queue.views.length === 0) queues.delete(db);
}
