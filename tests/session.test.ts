import crypto from "node:crypto";
import { createCookie } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import { now } from "#db/connect.server";
import type { UserStatus } from "#db/schema";
import {
  commitSession,
  emptySession,
  hashToken,
  readSession,
  rotateSession,
  SESSION_ABSOLUTE_MS,
  SESSION_IDLE_MS,
  type Session,
  sessionCookie,
  setSessionValue,
} from "~/request/session.server";
import { createTestDb } from "./setup/db";

const { db } = await createTestDb();
const SECRET = "session-test-secret-0123456789abcdef";
const cookie = sessionCookie(SECRET, false);
const client = { ip: "203.0.113.7", userAgent: "Vitest" };

/** "sid=value" from a Set-Cookie header, as the browser would send it back. */
function cookieHeaderFrom(setCookie: string | null): string {
  expect(setCookie).toBeTruthy();
  return (setCookie ?? "").split(";")[0] ?? "";
}

async function tokenOf(setCookie: string | null): Promise<string> {
  const token = await cookie.parse(cookieHeaderFrom(setCookie));
  expect(typeof token).toBe("string");
  return token as string;
}

async function sessionRows() {
  return db.selectFrom("sessions").selectAll().execute();
}

async function createUser(status: UserStatus = "active"): Promise<string> {
  const id = crypto.randomUUID();
  await db
    .insertInto("users")
    .values({
      id,
      email: `${id}@example.com`,
      password_hash: "x",
      status,
      created_at: now(),
      updated_at: now(),
    })
    .execute();
  return id;
}

/** A saved session holding `data` (and `userId`); returns the Cookie header to send back. */
async function saved(data: Record<string, unknown>, userId: string | null = null): Promise<string> {
  const session = emptySession();
  session.userId = userId;
  for (const [key, value] of Object.entries(data)) setSessionValue(session, key, value);
  if (userId) session.dirty = true;
  return cookieHeaderFrom(await commitSession(db, cookie, session, client));
}

beforeEach(async () => {
  await db.deleteFrom("sessions").execute();
});

describe("commitSession", () => {
  it("stores one row keyed by the sha256 of the token, never the token, and returns a Set-Cookie", async () => {
    const session = emptySession();
    setSessionValue(session, "flash", { type: "success", message: "saved" });
    const setCookie = await commitSession(db, cookie, session, client);

    expect(setCookie).toMatch(/^sid=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/i);

    const token = await tokenOf(setCookie);
    expect(token.length).toBeGreaterThanOrEqual(43); // 256 bits, base64url
    expect(session.token).toBe(token);

    const rows = await sessionRows();
    expect(rows).toHaveLength(1);
    const row = rows[0];
    expect(row?.id).toBe(crypto.createHash("sha256").update(token).digest("hex"));
    expect(row?.id).toBe(hashToken(token));
    expect(row?.id).not.toBe(token);
    // The token appears nowhere in the row.
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.parse(row?.data ?? "{}")).toEqual({ flash: { type: "success", message: "saved" } });
    expect(row?.ip).toBe("203.0.113.7");
    expect(row?.user_agent).toBe("Vitest");
    expect(row?.user_id).toBeNull();
    const expiresIn = Date.parse(row?.expires_at ?? "") - Date.now();
    expect(expiresIn).toBeGreaterThan(SESSION_ABSOLUTE_MS - 60_000);
    expect(expiresIn).toBeLessThanOrEqual(SESSION_ABSOLUTE_MS);
  });

  it("a secure cookie is __Host- prefixed and Secure", async () => {
    const secure = sessionCookie(SECRET, true);
    const session = emptySession();
    setSessionValue(session, "a", 1);
    const setCookie = await commitSession(db, secure, session, client);
    expect(setCookie).toMatch(/^__Host-sid=/);
    expect(setCookie).toMatch(/Secure/);
  });

  it("writes nothing for an empty anonymous session", async () => {
    expect(await commitSession(db, cookie, emptySession(), client)).toBeNull();
    expect(await sessionRows()).toHaveLength(0);

    // Even when marked dirty (a value set then removed), nothing is stored and no token issued.
    const session = emptySession();
    setSessionValue(session, "flash", "x");
    setSessionValue(session, "flash", undefined);
    const setCookie = await commitSession(db, cookie, session, client);
    expect(await sessionRows()).toHaveLength(0);
    expect(session.token).toBeNull();
    if (setCookie !== null) expect(await cookie.parse(cookieHeaderFrom(setCookie))).toBeFalsy();
  });

  it("emptying a stored session deletes its row", async () => {
    const header = await saved({ flash: "hello" });
    const session = await readSession(db, cookie, header);
    setSessionValue(session, "flash", undefined);
    await commitSession(db, cookie, session, client);
    expect(await sessionRows()).toHaveLength(0);
    expect((await readSession(db, cookie, header)).data).toEqual({});
  });

  it("updates the existing row in place when the data changes", async () => {
    const header = await saved({ step: 1 });
    const session = await readSession(db, cookie, header);
    setSessionValue(session, "step", 2);
    expect(await commitSession(db, cookie, session, client)).toBeNull(); // same token, no new cookie
    expect(await sessionRows()).toHaveLength(1);
    expect((await readSession(db, cookie, header)).data).toEqual({ step: 2 });
  });
});

describe("readSession", () => {
  it("reads the data back with the cookie", async () => {
    const userId = await createUser();
    const header = await saved({ cart: "c-1", locale: "zh" }, userId);
    const session = await readSession(db, cookie, header);
    expect(session.data).toEqual({ cart: "c-1", locale: "zh" });
    expect(session.userId).toBe(userId);
    expect(session.token).toBe(await cookie.parse(header));
    expect(session.dirty).toBe(false);
  });

  it("reads as empty without a cookie or with an unknown token", async () => {
    await saved({ a: 1 });
    expect(await readSession(db, cookie, null)).toEqual(emptySession());
    const unknown = await cookie.serialize(crypto.randomBytes(32).toString("base64url"));
    expect((await readSession(db, cookie, cookieHeaderFrom(unknown))).data).toEqual({});
    expect(await sessionRows()).toHaveLength(1);
  });

  it("a tampered or unsigned cookie reads as empty, even carrying a live token", async () => {
    const header = await saved({ secret: "data" });
    const token = (await cookie.parse(header)) as string;
    expect((await readSession(db, cookie, header)).data).toEqual({ secret: "data" });

    // The live token without a signature.
    const unsigned = await createCookie("sid").serialize(token);
    expect((await readSession(db, cookie, cookieHeaderFrom(unsigned))).data).toEqual({});
    // The live token signed with another secret.
    const forged = await createCookie("sid", { secrets: ["not-the-secret-0123456789abcdef"] }).serialize(token);
    expect((await readSession(db, cookie, cookieHeaderFrom(forged))).data).toEqual({});
    // One character of the signed value changed.
    const value = header.slice("sid=".length);
    const flipped = value.slice(0, -2) + (value.at(-2) === "A" ? "B" : "A") + value.slice(-1);
    expect((await readSession(db, cookie, `sid=${flipped}`)).data).toEqual({});
    // The raw token in the cookie.
    expect((await readSession(db, cookie, `sid=${token}`)).data).toEqual({});
    // The stored hash used as a token.
    const hashCookie = await cookie.serialize(hashToken(token));
    expect((await readSession(db, cookie, cookieHeaderFrom(hashCookie))).data).toEqual({});

    // None of this harmed the real session.
    expect((await readSession(db, cookie, header)).data).toEqual({ secret: "data" });
  });

  it("an expired session reads as empty and its row is deleted", async () => {
    const header = await saved({ a: 1 });
    await db
      .updateTable("sessions")
      .set({ expires_at: now(new Date(Date.now() - 1000)) })
      .execute();
    const session = await readSession(db, cookie, header);
    expect(session.data).toEqual({});
    expect(session.token).toBeNull();
    expect(session.userId).toBeNull();
    expect(session.dirty).toBe(true); // so the cookie gets cleared
    expect(await sessionRows()).toHaveLength(0);
  });

  it("an idle session reads as empty and its row is deleted; one just inside the idle window survives", async () => {
    const fresh = await saved({ keep: true });
    const idle = await saved({ drop: true });
    const idleToken = (await cookie.parse(idle)) as string;
    const freshToken = (await cookie.parse(fresh)) as string;
    await db
      .updateTable("sessions")
      .set({ last_seen_at: now(new Date(Date.now() - SESSION_IDLE_MS - 60_000)) })
      .where("id", "=", hashToken(idleToken))
      .execute();
    await db
      .updateTable("sessions")
      .set({ last_seen_at: now(new Date(Date.now() - SESSION_IDLE_MS + 60 * 60_000)) })
      .where("id", "=", hashToken(freshToken))
      .execute();

    expect((await readSession(db, cookie, idle)).data).toEqual({});
    const kept = await readSession(db, cookie, fresh);
    expect(kept.data).toEqual({ keep: true });
    expect(kept.dirty).toBe(true); // last_seen_at is old enough to be touched

    const rows = await sessionRows();
    expect(rows.map((row) => row.id)).toEqual([hashToken(freshToken)]);

    // Touching moves last_seen_at forward.
    await commitSession(db, cookie, kept, client);
    const touched = await db.selectFrom("sessions").select("last_seen_at").executeTakeFirstOrThrow();
    expect(Date.now() - Date.parse(touched.last_seen_at)).toBeLessThan(60_000);
  });

  it("a blocked user's session reads as empty and is deleted; an active user's is kept", async () => {
    const blocked = await createUser("active");
    const active = await createUser("active");
    const blockedHeader = await saved({ n: 1 }, blocked);
    const activeHeader = await saved({ n: 2 }, active);
    expect((await readSession(db, cookie, blockedHeader)).userId).toBe(blocked);

    await db.updateTable("users").set({ status: "blocked" }).where("id", "=", blocked).execute();

    const session = await readSession(db, cookie, blockedHeader);
    expect(session.userId).toBeNull();
    expect(session.data).toEqual({});
    const rows = await sessionRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.user_id).toBe(active);
    expect((await readSession(db, cookie, activeHeader)).userId).toBe(active);
  });
});

describe("rotateSession", () => {
  it("deletes the old row, issues a new token, and the old cookie reads as empty", async () => {
    const userId = await createUser();
    const oldHeader = await saved({ cart: "c-9" });
    const oldToken = (await cookie.parse(oldHeader)) as string;

    const session: Session = await readSession(db, cookie, oldHeader);
    session.userId = userId; // signing in
    rotateSession(session);
    const setCookie = await commitSession(db, cookie, session, client);
    const newHeader = cookieHeaderFrom(setCookie);
    const newToken = (await cookie.parse(newHeader)) as string;

    expect(newToken).toBeTruthy();
    expect(newToken).not.toBe(oldToken);
    const rows = await sessionRows();
    expect(rows.map((row) => row.id)).toEqual([hashToken(newToken)]);
    expect(rows[0]?.user_id).toBe(userId);

    const old = await readSession(db, cookie, oldHeader);
    expect(old.data).toEqual({});
    expect(old.userId).toBeNull();
    const fresh = await readSession(db, cookie, newHeader);
    expect(fresh.data).toEqual({ cart: "c-9" });
    expect(fresh.userId).toBe(userId);
  });

  it("signing out (rotate with nothing left) removes the row and clears the cookie", async () => {
    const userId = await createUser();
    const header = await saved({}, userId);
    expect(await sessionRows()).toHaveLength(1);
    const session = await readSession(db, cookie, header);
    session.userId = null;
    session.data = {};
    rotateSession(session);
    const setCookie = await commitSession(db, cookie, session, client);
    expect(await sessionRows()).toHaveLength(0);
    expect(setCookie).toBeTruthy();
    expect(await cookie.parse(cookieHeaderFrom(setCookie))).toBeFalsy();
    expect((await readSession(db, cookie, header)).userId).toBeNull();
  });
});

describe("the signed cookie, checked once per value", () => {
  it("still refuses a tampered or foreign-secret cookie after the genuine one was read", async () => {
    const header = await saved({ cartId: "c-1" });
    expect((await readSession(db, cookie, header)).data).toEqual({ cartId: "c-1" });
    expect((await readSession(db, cookie, header)).data, "read again (remembered)").toEqual({ cartId: "c-1" });
    const value = header.slice(header.indexOf("=") + 1);
    const tampered = `sid=${value.slice(0, -2)}${value.endsWith("AA") ? "BB" : "AA"}`;
    expect((await readSession(db, cookie, tampered)).token).toBeNull();
    const other = sessionCookie("another-secret-0123456789abcdef0123", false);
    expect((await readSession(db, other, header)).token, "another secret").toBeNull();
  });
});
