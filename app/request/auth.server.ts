import { createContext, data, type RouterContextProvider, redirect } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { DB } from "#db/connect.server";
import type { AdminRole, UserRow } from "#db/schema";
import { requestInfoContext, services } from "~/context";
import { countryForIp } from "~/lib/geoip.server";
import { hashPassword, verifyPassword } from "~/lib/password.server";
import { HTML_LANG } from "~/locales";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { markLastLogin, recordSignIn } from "~/models/sign-ins.server";
import { adminRole, findUserByEmail } from "~/models/user.server";
import { getSession, rotateSession, type Session } from "./session.server";

/** The signed-in user of this request, or null. Set by the visitor middleware (app/middleware/visitor.ts). */
export interface CurrentUser {
  id: string;
  email: string;
  /** Any admin role (owner or staff): `role !== null`. */
  isAdmin: boolean;
  /** The admin role: owner (everything), staff (no settings, staff or customer export), null (not an admin). */
  role: AdminRole | null;
}

export const userContext = createContext<CurrentUser | null>(null);

export function getUser(context: Readonly<RouterContextProvider>): CurrentUser | null {
  return context.get(userContext);
}

export class LoginError extends Error {
  constructor(readonly reason: "invalid" | "unverified") {
    super(`login failed: ${reason}`);
    this.name = "LoginError";
  }
}

/**
 * A hash to verify against when the e-mail is unknown, so an unknown account and a wrong
 * password take the same time and get the same answer.
 */
let dummyHash: Promise<string> | undefined;
function timingDummy(): Promise<string> {
  dummyHash ??= hashPassword("timing-equaliser-not-a-password");
  return dummyHash;
}

/** remix-auth with the form strategy: e-mail and password checked against the argon2id hash. */
export function createAuthenticator(db: DB, options: { requireVerifiedEmail: boolean }): Authenticator<UserRow> {
  const authenticator = new Authenticator<UserRow>();
  authenticator.use(
    new FormStrategy(async ({ form }) => {
      const email = String(form.get("email") ?? "");
      const password = String(form.get("password") ?? "");
      const user = await findUserByEmail(db, email);
      const ok = await verifyPassword(user?.password_hash ?? (await timingDummy()), password);
      if (!user || !ok || user.status === "blocked") throw new LoginError("invalid");
      if (options.requireVerifiedEmail && !user.email_verified_at) throw new LoginError("unverified");
      return user;
    }),
    "password",
  );
  return authenticator;
}

/** Checks e-mail and password; throws LoginError. */
export async function authenticate(
  context: Readonly<RouterContextProvider>,
  fields: { email: string; password: string },
): Promise<UserRow> {
  const { db, config } = services(context);
  const body = new URLSearchParams({ email: fields.email, password: fields.password });
  const request = new Request("http://localhost/login", { method: "POST", body });
  try {
    return await createAuthenticator(db, { requireVerifiedEmail: config.emailVerification }).authenticate(
      "password",
      request,
    );
  } catch (error) {
    if (error instanceof LoginError) throw error;
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof LoginError) throw cause;
    throw error;
  }
}

/**
 * Where the client is: the trusted proxy's country header when one is configured, else the
 * offline GeoIP database. No city database ships with the shop, so the city stays unknown.
 */
function clientCountry(context: Readonly<RouterContextProvider>, ip: string | null): string | null {
  let proxyCountry: string | null = null;
  try {
    proxyCountry = context.get(requestInfoContext).proxyCountry;
  } catch {
    // no request information (a command-line caller)
  }
  return proxyCountry ?? countryForIp(ip);
}

async function recordSignInEvent(
  context: Readonly<RouterContextProvider>,
  event: { userId: string | null; email: string; success: boolean },
  client: { ip: string | null; userAgent: string | null },
): Promise<{ country: string | null; timestamp: string }> {
  const country = clientCountry(context, client.ip);
  const timestamp = await recordSignIn(services(context).db, { ...event, ...client, country });
  return { country, timestamp };
}

/** Starts a signed-in session under a new id (the pre-login id stops working) and records it. */
export async function signIn(
  context: Readonly<RouterContextProvider>,
  user: Pick<UserRow, "id" | "email">,
  client: { ip: string | null; userAgent: string | null },
): Promise<void> {
  const { db } = services(context);
  const session = getSession(context);
  rotateSession(session);
  session.userId = user.id;
  const { country, timestamp } = await recordSignInEvent(
    context,
    { userId: user.id, email: user.email, success: true },
    client,
  );
  await markLastLogin(db, user.id, { timestamp, ip: client.ip, country });
}

/**
 * Records a refused sign-in (wrong password, unknown or blocked account, unverified e-mail) for
 * the customer page and the IP activity list; tied to the account when the e-mail has one.
 */
export async function recordFailedSignIn(
  context: Readonly<RouterContextProvider>,
  email: string,
  client: { ip: string | null; userAgent: string | null },
): Promise<void> {
  const account = await findUserByEmail(services(context).db, email);
  await recordSignInEvent(
    context,
    { userId: account?.id ?? null, email: account?.email ?? email.trim().toLowerCase(), success: false },
    client,
  );
}

/** Ends the session: its row is deleted, so a replayed cookie is anonymous afterwards. */
export function signOut(session: Session): void {
  session.userId = null;
  session.data = {};
  rotateSession(session);
}

/** Loads the signed-in user (and the admin right) once per request. */
export async function loadCurrentUser(
  context: Readonly<RouterContextProvider>,
  session: Session,
): Promise<CurrentUser | null> {
  if (!session.userId) return null;
  const { db, config } = services(context);
  const user = await db
    .selectFrom("users")
    .select(["id", "email", "status"])
    .where("id", "=", session.userId)
    .executeTakeFirst();
  if (!user || user.status === "blocked") {
    signOut(session);
    return null;
  }
  const role = await adminRole(db, config.shopOwnerEmail, user);
  return { id: user.id, email: user.email, isAdmin: role !== null, role };
}

/** A path to come back to after signing in. */
export function returnPath(request: Request): string {
  const url = new URL(request.url);
  // A client navigation's data request names the routes it wants (`_routes`): not part of the page's address.
  if (url.searchParams.has("_routes")) url.searchParams.delete("_routes");
  return `${url.pathname.replace(/\.data$/, "")}${url.search}`;
}

/** The signed-in user, or a redirect to /login that comes back here afterwards. */
export function requireUser(context: Readonly<RouterContextProvider>, request: Request): CurrentUser {
  const user = getUser(context);
  if (!user) throw redirect(`/login?redirectTo=${encodeURIComponent(returnPath(request))}`);
  return user;
}

/**
 * The admin right, checked in every /admin loader and action: a page request without it goes
 * to /admin/login; any other request gets 403 and changes nothing.
 */
export function requireAdmin(context: Readonly<RouterContextProvider>, request: Request): CurrentUser {
  const user = getUser(context);
  if (user?.isAdmin) return user;
  if (request.method === "GET" || request.method === "HEAD") throw redirect("/admin/login");
  throw new Response("Forbidden", { status: 403 });
}

/**
 * The owner's right (settings, bank accounts, customer export, staff, demo data): as
 * `requireAdmin` for anyone who is not an admin; a member of staff gets 403 ("only the shop
 * owner can use this page" in the admin shell) and nothing runs.
 */
export function requireOwner(context: Readonly<RouterContextProvider>, request: Request): CurrentUser {
  const user = requireAdmin(context, request);
  if (user.role === "owner") return user;
  throw data({ title: "adminStaff.ownerOnlyTitle", text: "adminStaff.ownerOnlyText" }, { status: 403 });
}

/**
 * `requireOwner` for a route with no page of its own (the customer CSV export): a member of staff
 * gets the refusal as plain text in their language, since no error boundary is there to turn the
 * page's translation keys into words.
 */
export function requireOwnerForDownload(context: Readonly<RouterContextProvider>, request: Request): CurrentUser {
  const user = requireAdmin(context, request);
  if (user.role === "owner") return user;
  const { t } = getInstance(context);
  throw new Response(`${t("adminStaff.ownerOnlyTitle")}\n\n${t("adminStaff.ownerOnlyText")}\n`, {
    status: 403,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Language": HTML_LANG[getLanguage(context)],
      "Cache-Control": "no-store",
    },
  });
}

interface RequestArgs {
  context: Readonly<RouterContextProvider>;
  request: Request;
}

/** `formAction`'s `authorize` for an admin form: the admin right, before the body is read. */
export const adminOnly = ({ context, request }: RequestArgs): CurrentUser => requireAdmin(context, request);

/** `formAction`'s `authorize` for an owner-only form: the owner's right, before the body is read. */
export const ownerOnly = ({ context, request }: RequestArgs): CurrentUser => requireOwner(context, request);

/** `formAction`'s `authorize` for a shopper's form: a signed-in account, before the body is read. */
export const signedInOnly = ({ context, request }: RequestArgs): CurrentUser => requireUser(context, request);
