import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import { createUser, grantAdmin, isAdmin } from "~/models/user.server";
import { type CurrentUser, requireAdmin, userContext } from "~/request/auth.server";
import { emptySession, sessionContext } from "~/request/session.server";
import { action as loginAction } from "~/routes/store/login";
import { createTestContext, freshTestServices, type TestServices } from "./setup/db";

let svc: TestServices;
let db: DB;
beforeEach(async () => {
  svc = await freshTestServices({ shopOwnerEmail: "owner@shop.hk" });
  db = svc.db;
});

function context(user: CurrentUser | null = null) {
  const ctx = createTestContext(svc, {
    ip: `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  });
  ctx.set(sessionContext, emptySession());
  ctx.set(userContext, user);
  return ctx;
}

function post(path: string, fields: Record<string, string>) {
  return new Request(`http://localhost${path}`, { method: "POST", body: new URLSearchParams(fields) });
}

describe("the admin rule", () => {
  it("makes the SHOP_OWNER_EMAIL account admin, in any case", async () => {
    expect(await isAdmin(db, "owner@shop.hk", { id: "x", email: "OWNER@Shop.HK" })).toBe(true);
    expect(await isAdmin(db, null, { id: "x", email: "owner@shop.hk" })).toBe(false);
  });

  it("matches the admin users table by e-mail (case-insensitive) or by user id", async () => {
    const staff = await createUser(db, { email: "staff@shop.hk", password: "secret12" });
    expect(await isAdmin(db, null, staff)).toBe(false);
    await db
      .insertInto("admin_users")
      .values({ email: "STAFF@shop.hk", user_id: null, created_at: "2026-01-01" })
      .execute();
    expect(await isAdmin(db, null, staff)).toBe(true);
    const other = await createUser(db, { email: "other@shop.hk", password: "secret12" });
    await db.insertInto("admin_users").values({ email: null, user_id: other.id, created_at: "2026-01-01" }).execute();
    expect(await isAdmin(db, null, { id: other.id, email: "renamed@shop.hk" })).toBe(true);
    expect(await isAdmin(db, null, { id: "nobody", email: "nobody@shop.hk" })).toBe(false);
  });

  it("lets a failure to read fail the request instead of treating an admin as a shopper", async () => {
    const broken = {
      selectFrom: () => {
        throw new Error("database is locked");
      },
    } as unknown as typeof db;
    await expect(isAdmin(broken, null, { id: "x", email: "staff@shop.hk" })).rejects.toThrow("database is locked");
  });

  it("refuses non-admin writes with 403 and sends page views to /admin/login", () => {
    const customer = { id: "c", email: "c@x.hk", isAdmin: false, role: null };
    const thrownBy = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return error as Response;
      }
      throw new Error("did not throw");
    };
    expect(thrownBy(() => requireAdmin(context(customer), post("/admin", {}))).status).toBe(403);
    expect(thrownBy(() => requireAdmin(context(null), post("/admin", {}))).status).toBe(403);
    const redirect = thrownBy(() => requireAdmin(context(customer), new Request("http://localhost/admin")));
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("Location")).toBe("/admin/login");
    expect(requireAdmin(context({ ...customer, isAdmin: true, role: "owner" }), post("/admin", {})).id).toBe("c");
  });
});

describe("sign-in and sign-up actions", () => {
  it("answers an unknown e-mail and a wrong password the same way", async () => {
    await createUser(db, { email: "known@shop.hk", password: "right-password" });
    const unknown = (await loginAction({
      request: post("/login", { intent: "login", email: "nobody@shop.hk", password: "whatever1" }),
      context: context(),
      params: {},
    } as never)) as unknown as { data: { result: { error: Record<string, string[]> } }; init: { status: number } };
    const wrong = (await loginAction({
      request: post("/login", { intent: "login", email: "known@shop.hk", password: "whatever1" }),
      context: context(),
      params: {},
    } as never)) as unknown as typeof unknown;
    expect(unknown.init.status).toBe(400);
    expect(wrong.init.status).toBe(400);
    expect(wrong.data.result.error).toEqual(unknown.data.result.error);
    expect(unknown.data.result.error[""]).toEqual(["flash.loginFailed", "flash.loginFailedDetail"]);
  });

  it("signs a new customer in under a new session, and never stores the password", async () => {
    const ctx = context();
    const response = (await loginAction({
      request: post("/login", {
        intent: "signup",
        email: "New@Shop.hk",
        password: "secret12",
        redirectTo: "//evil.example",
      }),
      context: ctx,
      params: {},
    } as never)) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    const session = ctx.get(sessionContext);
    expect(session.rotate).toBe(true);
    const user = await db.selectFrom("users").selectAll().where("email", "=", "new@shop.hk").executeTakeFirstOrThrow();
    expect(session.userId).toBe(user.id);
    expect(user.password_hash).not.toContain("secret12");
    const events = await db.selectFrom("sign_in_events").selectAll().where("user_id", "=", user.id).execute();
    expect(events).toHaveLength(1);
  });

  it("refuses a second sign-up with the same e-mail", async () => {
    await createUser(db, { email: "new@shop.hk", password: "secret12" });
    const result = (await loginAction({
      request: post("/login", { intent: "signup", email: "new@shop.hk", password: "another1" }),
      context: context(),
      params: {},
    } as never)) as unknown as { data: { result: { error: Record<string, string[]> } }; init: { status: number } };
    expect(result.init.status).toBe(409);
    expect(result.data.result.error[""]).toEqual(["flash.accountExists", "flash.accountExistsDetail"]);
  });

  it("records failed sign-ins against the account, and the proxy's country when one is trusted", async () => {
    const user = await createUser(db, { email: "typo@shop.hk", password: "secret12" });
    const ctx = createTestContext(svc, { ip: "203.0.113.9", proxyCountry: "GB" });
    ctx.set(sessionContext, emptySession());
    ctx.set(userContext, null);
    const attempt = (email: string, password: string) =>
      loginAction({
        request: post("/login", { intent: "login", email, password }),
        context: ctx,
        params: {},
      } as never) as Promise<unknown>;
    await attempt("Typo@Shop.hk", "wrong-one");
    await attempt("nobody-here@shop.hk", "whatever1");
    const failed = await db
      .selectFrom("sign_in_events")
      .select(["user_id", "email", "success", "ip", "country"])
      .where("success", "=", 0)
      .where("ip", "=", "203.0.113.9")
      .orderBy("id")
      .execute();
    expect(failed).toEqual([
      { user_id: user.id, email: "typo@shop.hk", success: 0, ip: "203.0.113.9", country: "GB" },
      { user_id: null, email: "nobody-here@shop.hk", success: 0, ip: "203.0.113.9", country: "GB" },
    ]);
    await attempt("typo@shop.hk", "secret12");
    const after = await db
      .selectFrom("users")
      .select(["country", "last_login_ip"])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ country: "GB", last_login_ip: "203.0.113.9" });
  });

  it("grants admin through grantAdmin only once", async () => {
    const user = await createUser(db, { email: "boss@shop.hk", password: "secret12" });
    expect(await grantAdmin(db, user)).toBe(true);
    expect(await isAdmin(db, null, user)).toBe(true);
  });
});
