import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DB, now, openDatabase } from "#db/connect.server";
import { addToCart, cartIdForUser } from "~/models/cart.server";
import { commitSession, emptySession, sessionCookie } from "~/request/session.server";
import { type RequestInput, readVisitor } from "~/request/visitor.server";
import { catalogueVersion, readPageVersions } from "../server/page-cache";
import { createCustomer, createProduct } from "./factories";
import { createTestServices, type TestServices } from "./setup/db";

/*
 * The session memo (docs/decisions/077, migration 0032): on SQLite a process keeps each session's
 * statement answer until visitor_version moves. Every change another process makes to what that
 * answer holds must be seen at this process's next request. "This process" and "another" are two
 * handles on the same database; on PostgreSQL (no memo) the same answers come from the statement.
 */

const onPostgres = process.env.SHOP_TEST_DATABASE === "postgres";
let svc: TestServices;
/** A second connection to the same database: another process of the shop. */
let other: DB;
let productId: number;
beforeAll(async () => {
  svc = await createTestServices();
  other = openDatabase(svc.config.databaseUrl);
  productId = (await createProduct(svc.db, { variants: [["Black", 9]] })).id;
});
afterAll(async () => {
  await other.destroy();
});

function input(cookie: string): RequestInput {
  return {
    url: new URL("http://localhost/category/all"),
    cookie,
    acceptLanguage: null,
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0",
    ip: null,
    proxyCountry: null,
  };
}

/** A customer signed in through a stored session: their id, e-mail and Cookie header. */
async function signedInCustomer() {
  const customer = await createCustomer(svc.db);
  const session = emptySession();
  session.userId = customer.id;
  session.dirty = true;
  const cookie = sessionCookie(svc.config.sessionSecret, svc.config.secureCookies);
  const setCookie = await commitSession(svc.db, cookie, session, { ip: null, userAgent: null });
  return { id: customer.id, email: customer.email, cookie: setCookie?.split(";")[0] ?? "" };
}

/** This process's visitor for a Cookie header (read twice: the second answer is the memo's). */
async function visit(cookie: string) {
  await readVisitor(svc, input(cookie));
  return readVisitor(svc, input(cookie));
}

describe("a session kept by one process sees another process's change at its next request", () => {
  it("signed out elsewhere (the session row deleted): anonymous", async () => {
    const c = await signedInCustomer();
    expect((await visit(c.cookie)).user?.id).toBe(c.id);
    await other.deleteFrom("sessions").where("user_id", "=", c.id).execute();
    expect((await readVisitor(svc, input(c.cookie))).user).toBeNull();
  });

  it("blocked by the shop: anonymous, and the cookie is cleared", async () => {
    const c = await signedInCustomer();
    expect((await visit(c.cookie)).user?.id).toBe(c.id);
    await other.updateTable("users").set({ status: "blocked" }).where("id", "=", c.id).execute();
    const visitor = await readVisitor(svc, input(c.cookie));
    expect(visitor.user).toBeNull();
    expect(visitor.session).toMatchObject({ userId: null, dirty: true });
  });

  it("an admin role given, changed and taken away (by e-mail and by id)", async () => {
    const c = await signedInCustomer();
    expect((await visit(c.cookie)).user).toMatchObject({ isAdmin: false, role: null });
    await other
      .insertInto("admin_users")
      .values({ user_id: null, email: c.email, role: "staff", created_at: now() })
      .execute();
    expect((await visit(c.cookie)).user).toMatchObject({ isAdmin: true, role: "staff" });
    await other.updateTable("admin_users").set({ role: "owner" }).where("email", "=", c.email).execute();
    expect((await visit(c.cookie)).user).toMatchObject({ isAdmin: true, role: "owner" });
    await other.deleteFrom("admin_users").where("email", "=", c.email).execute();
    expect((await visit(c.cookie)).user).toMatchObject({ isAdmin: false, role: null });
    await other
      .insertInto("admin_users")
      .values({ user_id: c.id, email: null, role: "staff", created_at: now() })
      .execute();
    expect((await visit(c.cookie)).user).toMatchObject({ isAdmin: true, role: "staff" });
  });

  it("the e-mail changed: the header's account menu shows the new one", async () => {
    const c = await signedInCustomer();
    expect((await visit(c.cookie)).user?.email).toBe(c.email);
    const changed = `changed-${c.email}`;
    await other.updateTable("users").set({ email: changed }).where("id", "=", c.id).execute();
    expect((await readVisitor(svc, input(c.cookie))).user?.email).toBe(changed);
  });

  it("a cart made, lines added and removed: the header's count follows", async () => {
    const c = await signedInCustomer();
    expect(await visit(c.cookie)).toMatchObject({ cartId: null, cartCount: 0 });
    const cartId = await cartIdForUser(other, c.id);
    expect(await visit(c.cookie)).toMatchObject({ cartId, cartCount: 0 });
    await addToCart(other, cartId, { productId, color: "Black", quantity: 2 });
    expect(await visit(c.cookie)).toMatchObject({ cartId, cartCount: 1 });
    await other.deleteFrom("cart_lines").where("cart_id", "=", cartId).execute();
    expect(await visit(c.cookie)).toMatchObject({ cartId, cartCount: 0 });
  });

  it("the session's data written (a message to show once): told at the next request", async () => {
    const c = await signedInCustomer();
    expect((await visit(c.cookie)).flashPending).toBe(false);
    await other
      .updateTable("sessions")
      .set({ data: JSON.stringify({ flash: { kind: "success", message: "Saved" } }) })
      .where("user_id", "=", c.id)
      .execute();
    expect((await readVisitor(svc, input(c.cookie))).flashPending).toBe(true);
  });

  it("each request gets its own session data to change: a change is never seen by the next request", async () => {
    const c = await signedInCustomer();
    const first = await visit(c.cookie);
    first.session.data.cartId = "changed by a loader, never saved";
    expect((await readVisitor(svc, input(c.cookie))).session.data.cartId).toBeUndefined();
  });
});

describe("as the page cache reads it: both versions first, in one statement", () => {
  it("a change committed before the versions are read is seen; the versions are the database's", async () => {
    const c = await signedInCustomer();
    const read = async () => {
      const versions = await readPageVersions(svc.db, true);
      return { versions, visitor: await readVisitor(svc, input(c.cookie), versions.visitor ?? undefined) };
    };
    expect((await read()).visitor.user?.role).toBeNull();
    const before = await readPageVersions(svc.db, true);
    expect(before.catalogue).toBe(await catalogueVersion(svc.db));
    expect(await readPageVersions(svc.db, false)).toEqual({ catalogue: before.catalogue, visitor: null });
    await other
      .insertInto("admin_users")
      .values({ user_id: c.id, email: null, role: "staff", created_at: now() })
      .execute();
    const after = await read();
    expect(after.visitor.user).toMatchObject({ isAdmin: true, role: "staff" });
    expect(after.versions.catalogue).toBe(before.catalogue);
    if (!onPostgres) expect(after.versions.visitor).toBeGreaterThan(before.visitor ?? 0);
    await other.updateTable("users").set({ status: "blocked" }).where("id", "=", c.id).execute();
    expect((await read()).visitor.user).toBeNull();
  });
});

describe.skipIf(onPostgres)("the memo answers (SQLite)", () => {
  it("without 0032's trigger a change is not seen: the kept answer is what a request gets", async () => {
    const c = await signedInCustomer();
    expect((await visit(c.cookie)).user?.email).toBe(c.email);
    await sql`DROP TRIGGER users_visitor_update`.execute(other);
    try {
      await other
        .updateTable("users")
        .set({ email: `unseen-${c.email}` })
        .where("id", "=", c.id)
        .execute();
      expect((await readVisitor(svc, input(c.cookie))).user?.email).toBe(c.email);
    } finally {
      await sql`CREATE TRIGGER "users_visitor_update" AFTER UPDATE OF "email", "status" ON "users"
        BEGIN UPDATE visitor_version SET version = version + 1 WHERE id = 1; END`.execute(other);
    }
    await other
      .updateTable("users")
      .set({ email: `seen-${c.email}` })
      .where("id", "=", c.id)
      .execute();
    expect((await readVisitor(svc, input(c.cookie))).user?.email).toBe(`seen-${c.email}`);
  });
});
