import crypto from "node:crypto";
import { type Cookie, createContext, createCookie, type RouterContextProvider } from "react-router";
import { type DB, now, relaxedTransaction } from "#db/connect.server";
import {
  deleteSessionRecord,
  findSessionRecord,
  insertSessionRecord,
  type SessionRecord,
  updateSessionRecord,
} from "~/models/sessions.server";
import { rawCookieValue } from "./cookies";

/**
 * Sessions live in the database so they can be revoked. The cookie carries a random 256-bit
 * token (signed with SESSION_SECRET); the table stores only its SHA-256, so a leaked database
 * holds no live session. A row is written only when there is something to keep (a signed-in
 * user, a flash message...), so anonymous browsing and bots create nothing.
 */

export const SESSION_IDLE_MS = 14 * 24 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, so reads stay reads. */
const TOUCH_EVERY_MS = 5 * 60 * 1000;

export type SessionData = Record<string, unknown>;

export interface Session {
  /** Token from the cookie; null until the session is first saved. */
  token: string | null;
  userId: string | null;
  data: SessionData;
  createdAt: string | null;
  lastSeenAt: string | null;
  dirty: boolean;
  /** Set by `rotateSession`: the old row is deleted and a new token issued. */
  rotate: boolean;
}

export const sessionContext = createContext<Session>();

export function getSession(context: Readonly<RouterContextProvider>): Session {
  return context.get(sessionContext);
}

const cookies = new Map<string, Cookie>();

export function sessionCookie(secret: string, secure: boolean): Cookie {
  const cacheKey = `${secure}:${secret}`;
  let cookie = cookies.get(cacheKey);
  if (!cookie) {
    cookie = createCookie(secure ? "__Host-sid" : "sid", {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure,
      secrets: [secret],
      maxAge: SESSION_ABSOLUTE_MS / 1000,
    });
    cookies.set(cacheKey, cookie);
  }
  return cookie;
}

export function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/** Session ids of verified tokens (a SHA-256 per signed-in page was ~2% of a cached answer). */
const ids = new Map<string, string>();
const IDS_KEPT = 10_000;

function sessionId(token: string): string {
  let id = ids.get(token);
  if (id === undefined) {
    id = hashToken(token);
    if (ids.size >= IDS_KEPT) ids.delete(ids.keys().next().value as string);
    ids.set(token, id);
  }
  return id;
}

export function emptySession(): Session {
  return { token: null, userId: null, data: {}, createdAt: null, lastSeenAt: null, dirty: false, rotate: false };
}

/** Signed cookie values already verified, per cookie (its secret): raw value -> token. */
const verified = new WeakMap<Cookie, Map<string, unknown>>();
const VERIFIED_KEPT = 10_000;

/**
 * The session token from the Cookie header. Checking the signature (HMAC through WebCrypto)
 * costs about a millisecond; a value already checked with the same secret gives the same
 * answer, so the answer is remembered (at most VERIFIED_KEPT values, oldest out first).
 */
async function sessionToken(cookie: Cookie, cookieHeader: string | null): Promise<unknown> {
  const raw = rawCookieValue(cookieHeader, cookie.name);
  if (!raw) return cookie.parse(cookieHeader);
  let known = verified.get(cookie);
  if (!known) {
    known = new Map();
    verified.set(cookie, known);
  }
  if (known.has(raw)) return known.get(raw);
  const token = await cookie.parse(cookieHeader);
  known.set(raw, token);
  if (known.size > VERIFIED_KEPT) known.delete(known.keys().next().value as string);
  return token;
}

export async function readSession(db: DB, cookie: Cookie, cookieHeader: string | null): Promise<Session> {
  return (await readSessionAndUser(db, cookie, cookieHeader)).session;
}

/** The signed-in user as the session's statement read them (app/request/visitor.server.ts makes the user). */
export interface SessionUser {
  email: string;
  adminRole: SessionRecord["admin_role"];
  /** Their cart (null: none) and its number of lines, read in the same statement. */
  cart: { id: string; lines: number } | null;
}

/**
 * The session of a Cookie header and, when signed in, its user's e-mail, admin role and cart, in
 * one statement. An expired, idle or blocked user's session is deleted: the answer is an empty session
 * marked dirty, so its commit clears the cookie.
 */
export async function readSessionAndUser(
  db: DB,
  cookie: Cookie,
  cookieHeader: string | null,
  /** `visitor_version` just read by the caller (the page cache reads it with the catalogue's). */
  visitorVersion?: number,
): Promise<{ session: Session; user: SessionUser | null }> {
  const token = await sessionToken(cookie, cookieHeader);
  if (typeof token !== "string" || token.length < 32) return { session: emptySession(), user: null };
  const row = await findSessionRecord(db, sessionId(token), visitorVersion);
  if (!row) return { session: emptySession(), user: null };
  const nowMs = Date.now();
  const idleExpired = Date.parse(row.last_seen_at) + SESSION_IDLE_MS < nowMs;
  const blocked = row.user_id !== null && row.user_status === "blocked";
  if (Date.parse(row.expires_at) < nowMs || idleExpired || blocked) {
    await deleteSessionRecord(db, hashToken(token));
    return { session: { ...emptySession(), dirty: true }, user: null }; // clears the cookie
  }
  let data: SessionData = {};
  try {
    data = JSON.parse(row.data) as SessionData;
  } catch {
    data = {};
  }
  const session: Session = {
    token,
    userId: row.user_id,
    data,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    dirty: nowMs - Date.parse(row.last_seen_at) > TOUCH_EVERY_MS,
    rotate: false,
  };
  const user =
    row.user_id !== null && row.user_email !== null
      ? {
          email: row.user_email,
          adminRole: row.admin_role,
          cart: row.user_cart_id === null ? null : { id: row.user_cart_id, lines: Number(row.user_cart_lines ?? 0) },
        }
      : null;
  return { session, user };
}

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/**
 * Saves the session if it changed and returns the Set-Cookie header to send, or null.
 * An empty anonymous session is deleted rather than stored.
 */
export async function commitSession(
  db: DB,
  cookie: Cookie,
  session: Session,
  client: ClientInfo,
): Promise<string | null> {
  if (!session.dirty && !session.rotate) return null;
  const isEmpty = session.userId === null && Object.keys(session.data).length === 0;

  if (session.token && (session.rotate || isEmpty)) {
    await deleteSessionRecord(db, hashToken(session.token));
    session.token = null;
    session.createdAt = null;
  }
  if (isEmpty) {
    return cookie.serialize("", { maxAge: 0, expires: new Date(0) });
  }

  const timestamp = now();
  const data = JSON.stringify(session.data);
  if (session.token) {
    await updateSessionRecord(db, hashToken(session.token), { userId: session.userId, data, timestamp });
    return null;
  }
  const token = crypto.randomBytes(32).toString("base64url");
  const expires = new Date(Date.now() + SESSION_ABSOLUTE_MS);
  await insertSessionRecord(db, {
    id: hashToken(token),
    userId: session.userId,
    data,
    ip: client.ip,
    userAgent: client.userAgent,
    timestamp,
    expiresAt: now(expires),
  });
  session.token = token;
  return cookie.serialize(token, { expires });
}

/**
 * Saves a changed session in the caller's transaction (the order it goes with), so that both are
 * one commit; the request's own commit then has nothing left to write. Only a stored session
 * keeping its token: a new, emptied or rotated one changes the cookie, which commitSession sets.
 */
export async function saveSessionIn(trx: DB, session: Session): Promise<void> {
  if (!session.dirty || !session.token || session.rotate) return;
  if (session.userId === null && Object.keys(session.data).length === 0) return;
  const data = JSON.stringify(session.data);
  await updateSessionRecord(trx, hashToken(session.token), { userId: session.userId, data, timestamp: now() });
  session.dirty = false;
}

/**
 * Saves a changed session whose change a power cut may lose (a refusal's flash message: the
 * shopper is shown the reason at once anyway) without waiting for the disk: its own commit with
 * relaxed durability (relaxedTransaction, decision 074), never half-applied. The request's own
 * commit then has nothing left to write.
 */
export async function saveSessionRelaxed(db: DB, session: Session): Promise<void> {
  if (!session.dirty || !session.token || session.rotate) return;
  await relaxedTransaction(db, (trx) => saveSessionIn(trx, session));
}

/** Issue a new session id (at sign-in, sign-out): the old token stops working. */
export function rotateSession(session: Session): void {
  session.rotate = true;
  session.dirty = true;
}

export function setSessionValue(session: Session, key: string, value: unknown): void {
  if (value === undefined) delete session.data[key];
  else session.data[key] = value;
  session.dirty = true;
}
