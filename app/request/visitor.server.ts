import { isbot } from "isbot";
import { createContext, type RouterContextProvider } from "react-router";
import type { Currency } from "#db/schema";
import type { Services } from "~/context";
import type { Language } from "~/locales";
import { findCartWithCount } from "~/models/cart.server";
import { type CurrentUser, signOut } from "./auth.server";
import { resolveCurrency } from "./currency.server";
import { detectLanguage } from "./language.server";
import { emptySession, readSessionAndUser, type Session, sessionCookie } from "./session.server";

/**
 * Who is asking: the one place a request becomes a visitor. The page cache (server/page-cache.ts)
 * reads it to decide whether and under which key a page can be served, and the visitor middleware
 * (app/middleware/visitor.ts) puts the same object into React Router's context, so a cached page and
 * a rendered one are keyed by exactly what the page reads.
 */

/** What a request says about its visitor, as the web server hands it over. */
export interface RequestInput {
  url: URL;
  cookie: string | null;
  acceptLanguage: string | null;
  userAgent: string | null;
  /** Client address (through the proxy only when TRUST_PROXY is on). */
  ip: string | null;
  /** A trusted proxy's country header (TRUST_PROXY on), else null. */
  proxyCountry: string | null;
}

export interface Visitor {
  /** As read: `dirty` when it must be written back (renewed, or an ended session whose cookie is cleared). */
  session: Session;
  /** The signed-in user with the admin right; null when anonymous, blocked or gone. */
  user: CurrentUser | null;
  /** ?lng → lng cookie → Accept-Language → en. */
  language: Language;
  /** currency cookie → trusted proxy country → GeoIP → HKD. */
  currency: Currency;
  /** The user's cart, else the session's anonymous cart; null when there is none. */
  cartId: string | null;
  /** Lines in that cart (the header's badge). */
  cartCount: number;
  /** A crawler by its User-Agent: not counted as a page view. */
  bot: boolean;
  /** A message waits in the session to be shown once (and cleared) by the next rendered page. */
  flashPending: boolean;
}

/**
 * Reads the visitor of a request: no statement without a session cookie; with one, the session
 * with its user's e-mail, admin role and cart in one statement, and for an anonymous session
 * with a cart, that cart's line count in a second.
 */
export async function readVisitor(
  svc: Pick<Services, "db" | "config">,
  input: RequestInput,
  /** `visitor_version` as the caller just read it (server/page-cache.ts `readPageVersions`). */
  visitorVersion?: number,
): Promise<Visitor> {
  const { db, config } = svc;
  const cookie = sessionCookie(config.sessionSecret, config.secureCookies);
  const [read, language, currency] = await Promise.all([
    hasSessionCookie(config, input.cookie)
      ? readSessionAndUser(db, cookie, input.cookie, visitorVersion)
      : { session: emptySession(), user: null },
    detectLanguage(input.url, input.cookie, input.acceptLanguage),
    resolveCurrency(input.cookie, { ip: input.ip, proxyCountry: input.proxyCountry }),
  ]);
  const { session } = read;
  let user: CurrentUser | null = null;
  // A session whose user is gone (its row deleted under it): ended, as signing out does.
  if (session.userId !== null && !read.user) signOut(session);
  if (session.userId !== null && read.user) {
    const owner =
      config.shopOwnerEmail !== null &&
      read.user.email.trim().toLowerCase() === config.shopOwnerEmail.trim().toLowerCase();
    const role = owner ? "owner" : read.user.adminRole;
    user = { id: session.userId, email: read.user.email, isAdmin: role !== null, role };
  }
  const storedCart = typeof session.data.cartId === "string" ? session.data.cartId : null;
  const cart = user
    ? (read.user?.cart ?? null)
    : storedCart
      ? await findCartWithCount(db, { anonymousId: storedCart })
      : null;
  return {
    session,
    user,
    language,
    currency,
    cartId: cart?.id ?? null,
    cartCount: cart?.lines ?? 0,
    bot: isCrawler(input.userAgent),
    flashPending: session.data.flash !== undefined,
  };
}

/** Whether a Cookie header carries the session cookie (else the visitor is read with no statement). */
export function hasSessionCookie(
  config: Pick<Services["config"], "sessionSecret" | "secureCookies">,
  cookieHeader: string | null,
): boolean {
  return cookieHeader?.includes(`${sessionCookie(config.sessionSecret, config.secureCookies).name}=`) ?? false;
}

/** isbot's answers by User-Agent (a regular expression of some hundred names, asked on every page). */
const crawlers = new Map<string, boolean>();
const CRAWLERS_KEPT = 2_000;

function isCrawler(userAgent: string | null): boolean {
  const agent = userAgent ?? "";
  let answer = crawlers.get(agent);
  if (answer === undefined) {
    answer = isbot(agent);
    if (crawlers.size >= CRAWLERS_KEPT) crawlers.delete(crawlers.keys().next().value as string);
    crawlers.set(agent, answer);
  }
  return answer;
}

/** The visitor React Router's middleware read (or took over from the page cache). */
export const visitorContext = createContext<Visitor | null>(null);

export function getVisitor(context: Readonly<RouterContextProvider>): Visitor | null {
  return context.get(visitorContext);
}

/**
 * Why a catalogue page cannot be answered from the cache (nor stored) for this visitor, or null:
 * a message waiting to be shown once must be shown and cleared by a rendered page, and a session
 * that must be written (renewed, rotated, or ended with its cookie cleared) needs its Set-Cookie.
 */
export function cacheRefusal(v: Visitor): null | "flash" | "session-write" {
  if (v.flashPending) return "flash";
  if (v.session.dirty || v.session.rotate) return "session-write";
  return null;
}

/**
 * The page cache's key: the address (path and query) and what the page shows differently by
 * visitor apart from the header slot — language, currency, and a crawler's page. Built only from
 * Visitor fields; tests/page-key.test.ts fails when a field is added that is neither here, in
 * `visitorView` (spliced per request), nor listed there as not shown.
 */
export function pageKey(pathAndQuery: string, v: Visitor): string {
  return `${pathAndQuery}\n${v.language}\n${v.currency}\n${v.bot ? "bot" : ""}`;
}

/** What the header shows of the visitor: spliced into a cached page per request. */
export interface VisitorView {
  email: string | null;
  admin: boolean;
  cartCount: number;
}

export function visitorView(v: Visitor): VisitorView {
  return { email: v.user?.email ?? null, admin: v.user?.isAdmin ?? false, cartCount: v.cartCount };
}
