import crypto from "node:crypto";
import { createCookie } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { now } from "#db/connect.server";
import type { AdminRole } from "#db/schema";
import { UsageError } from "~/lib/cli-args";
import type { UserError } from "~/lib/problem";
import { deliverDueMessages } from "~/models/outbox/deliver.server";
import { listStaff, removeStaff, setStaffRole } from "~/models/staff.server";
import { type CurrentUser, loadCurrentUser } from "~/request/auth.server";
import { commitSession, emptySession, readSession } from "~/request/session.server";
import { action as contentPageAction, loader as contentPageLoader } from "~/routes/admin/content-page-form";
import { action as customerAction, loader as customerLoader } from "~/routes/admin/customer";
import { loader as customersLoader } from "~/routes/admin/customers";
import { action as exportAction, loader as exportLoader } from "~/routes/admin/customers-export";
import { action as dashboardAction, loader as dashboardLoader } from "~/routes/admin/dashboard";
import { action as demoAction, loader as demoLoader } from "~/routes/admin/demo-data";
import { loader as layoutLoader } from "~/routes/admin/layout";
import { action as orderAction } from "~/routes/admin/order";
import { loader as ordersLoader } from "~/routes/admin/orders";
import { loader as productsLoader } from "~/routes/admin/products";
import { action as synonymsAction, loader as synonymsLoader } from "~/routes/admin/search-synonyms";
import { action as settingsAction, loader as settingsLoader } from "~/routes/admin/settings";
import { action as shopAction, loader as shopLoader } from "~/routes/admin/shop-details";
import { action as staffAction, loader as staffLoader } from "~/routes/admin/staff";
import { action as joinAction, loader as joinLoader } from "~/routes/store/join";
import { commands } from "../server/app";
import { createCustomer, placeOrderWithReceipt } from "./factories";
import { createTestContext, createTestServices, freshTestDb } from "./setup/db";
import { formOf, runRoute } from "./setup/route";

/**
 * Staff accounts (issue 19): the owner-only screens refuse staff with 403 and change nothing,
 * staff work the orders and the catalogue, and the owner adds and removes staff (whose
 * sessions end at once).
 */

const OWNER_EMAIL = "owner-by-config@shop.hk";
const svc = await createTestServices({ shopOwnerEmail: OWNER_EMAIL });
const { db } = svc;
const BASE = "http://localhost";
const cookie = createCookie("sid", { path: "/", httpOnly: true, secrets: ["staff-test-secret-0123456789"] });
const client = { ip: "203.0.113.9", userAgent: "Vitest" };

/** A real account with an admin users row of `role`, as the middleware would load it. */
async function adminAccount(role: AdminRole): Promise<CurrentUser> {
  const user = await createCustomer(db, { email: `${role}-${crypto.randomUUID()}@shop.hk` });
  await db.insertInto("admin_users").values({ user_id: user.id, email: user.email, role, created_at: now() }).execute();
  return asLoaded(user.id);
}

/** The current user a request with a session of `userId` gets (the real lookup). */
async function asLoaded(userId: string): Promise<CurrentUser> {
  const session = emptySession();
  session.userId = userId;
  const user = await loadCurrentUser(createTestContext(svc), session);
  if (!user) throw new Error("not signed in");
  return user;
}

const get = (path: string) => new Request(`${BASE}${path}`);

/** What `email` was sent once the outbox has delivered what is due (the file shares one mailer). */
async function sentTo(email: string) {
  await deliverDueMessages(svc);
  return svc.mailer.sent.filter((mail) => mail.to === email);
}
const post = (path: string, fields: Record<string, string>) =>
  new Request(`${BASE}${path}`, { method: "POST", body: formOf(fields) });

function statusOf(thrown: unknown): number | undefined {
  if (thrown instanceof Response) return thrown.status;
  return (thrown as { init?: { status?: number } } | undefined)?.init?.status;
}

async function auditCount(): Promise<number> {
  const row = await db
    .selectFrom("audit_log")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe("roles", () => {
  it("SHOP_OWNER_EMAIL is always owner; a staff row is staff; anyone else no admin", async () => {
    const configOwner = await createCustomer(db, { email: OWNER_EMAIL.toUpperCase() });
    expect((await asLoaded(configOwner.id)).role).toBe("owner");
    // Even with a staff row under that e-mail.
    await db
      .insertInto("admin_users")
      .values({ user_id: null, email: OWNER_EMAIL, role: "staff", created_at: now() })
      .execute();
    expect((await asLoaded(configOwner.id)).role).toBe("owner");
    const staff = await adminAccount("staff");
    expect(staff).toMatchObject({ role: "staff", isAdmin: true });
    const customer = await createCustomer(db);
    expect(await asLoaded(customer.id)).toMatchObject({ role: null, isAdmin: false });
    await db.deleteFrom("admin_users").where("email", "=", OWNER_EMAIL).execute();
  });
});

describe("what staff may do", () => {
  it("gets 403 on every owner-only loader and action, and nothing changes", async () => {
    const staff = await adminAccount("staff");
    const target = await createCustomer(db);
    const settingsBefore = await db.selectFrom("site_settings").selectAll().execute();
    const before = await auditCount();
    const loaders: [string, (args: never) => Promise<unknown>, Record<string, string>?][] = [
      ["/admin/settings", settingsLoader],
      ["/admin/settings/shop", shopLoader],
      ["/admin/settings/pages/shipping", contentPageLoader, { slug: "shipping" }],
      ["/admin/settings/search", synonymsLoader],
      ["/admin/demo-data", demoLoader],
      ["/admin/customers/export", exportLoader],
      ["/admin/staff", staffLoader],
    ];
    for (const [path, loader, params] of loaders) {
      const { thrown } = await runRoute(svc, loader, get(path), staff, params);
      expect(statusOf(thrown), `GET ${path}`).toBe(403);
    }
    const actions: [string, (args: never) => Promise<unknown>, Record<string, string>, Record<string, string>?][] = [
      ["/admin/settings", settingsAction, { intent: "shop", name_en: "Taken" }],
      ["/admin/settings/shop", shopAction, { name_en: "Taken", name_zh: "奪", support_email: "x@y.hk" }],
      [
        "/admin/settings/pages/shipping",
        contentPageAction,
        { intent: "save", title_en: "X", body_en: "X", title_zh: "X", body_zh: "X" },
        { slug: "shipping" },
      ],
      ["/admin/settings/search", synonymsAction, { intent: "save", synonyms: "ab, cd" }],
      ["/admin/demo-data", demoAction, { intent: "remove", confirmed: "1" }],
      ["/admin/customers/export", exportAction, { q: "" }],
      [`/admin/customers/${target.id}`, customerAction, { intent: "block" }, { id: target.id }],
      ["/admin", dashboardAction, { intent: "grant", email: target.email }],
      ["/admin/staff", staffAction, { intent: "add", email: target.email }],
    ];
    for (const [path, action, fields, params] of actions) {
      const { thrown } = await runRoute(svc, action, post(path, fields), staff, params);
      expect(statusOf(thrown), `POST ${path}`).toBe(403);
    }
    expect(await auditCount()).toBe(before);
    expect(await db.selectFrom("site_settings").selectAll().execute()).toEqual(settingsBefore);
    expect((await asLoaded(target.id)).role).toBeNull();
    expect(
      (await db.selectFrom("users").select("status").where("id", "=", target.id).executeTakeFirstOrThrow()).status,
    ).toBe("active");
  });

  it("refuses the customer export (no page of its own) in the staff member's language, not in translation keys", async () => {
    const staff = await adminAccount("staff");
    const titles = { en: "Only the shop owner can use this page", zh: "只有店主可以使用此頁面" };
    for (const [language, title] of Object.entries(titles)) {
      const path = `/admin/customers/export?lng=${language}`;
      for (const [request, route] of [
        [post(path, { q: "" }), exportAction],
        [get(path), exportLoader],
      ] as const) {
        const { thrown } = await runRoute(svc, route, request, staff);
        expect(thrown, `${request.method} ${path}`).toBeInstanceOf(Response);
        const refusal = thrown as Response;
        expect(refusal.status).toBe(403);
        expect(refusal.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
        const body = await refusal.text();
        expect(body, `${request.method} ${path}`).toContain(title);
        expect(body).not.toContain("adminStaff.");
      }
    }
  });

  it("loads the dashboard, orders, products and customers, and marks an order paid", async () => {
    const staff = await adminAccount("staff");
    const { order, customer } = await placeOrderWithReceipt(db);
    const layout = await runRoute(svc, layoutLoader, get("/admin"), staff);
    expect(layout.result).toMatchObject({ role: "staff" });
    const dashboard = await runRoute(svc, dashboardLoader, get("/admin"), staff);
    expect(dashboard.result).toMatchObject({ owner: false, admins: [] });
    expect((await runRoute(svc, ordersLoader, get("/admin/orders"), staff)).thrown).toBeUndefined();
    expect((await runRoute(svc, productsLoader, get("/admin/products"), staff)).thrown).toBeUndefined();
    expect((await runRoute(svc, customersLoader, get("/admin/customers"), staff)).result).toMatchObject({
      canExport: false,
    });
    const page = await runRoute(svc, customerLoader, get(`/admin/customers/${customer.id}`), staff, {
      id: customer.id,
    });
    expect(page.result).toMatchObject({ canBlock: false });
    const paid = await runRoute(
      svc,
      orderAction,
      post(`/admin/orders/${order.id}`, { intent: "markPaid", expected: "pending_payment" }),
      staff,
      { id: order.id },
    );
    expect(statusOf(paid.result)).not.toBe(403);
    const row = await db.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(row.status).toBe("paid");
  });
});

describe("the staff screen", () => {
  it("adds an existing account as staff (audited with the actor), then removes it and ends its sessions", async () => {
    const owner = await adminAccount("owner");
    const person = await createCustomer(db);
    const added = await runRoute(
      svc,
      staffAction,
      post("/admin/staff", { intent: "add", email: person.email.toUpperCase() }),
      owner,
    );
    expect(added.flash?.key).toBe("adminStaff.added");
    expect((await asLoaded(person.id)).role).toBe("staff");
    const audit = await db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "staff.added")
      .where("entity_id", "=", person.id)
      .executeTakeFirstOrThrow();
    expect(audit.actor_user_id).toBe(owner.id);
    expect(audit.details).toContain(person.email);

    // Adding again is a refusal on the e-mail field.
    const again = await runRoute(svc, staffAction, post("/admin/staff", { intent: "add", email: person.email }), owner);
    expect(statusOf(again.result)).toBe(409);

    // The staff member's browser: a real session row and cookie.
    const session = emptySession();
    session.userId = person.id;
    session.dirty = true;
    const cookieHeader = ((await commitSession(db, cookie, session, client)) ?? "").split(";")[0] ?? "";
    const before = await readSession(db, cookie, cookieHeader);
    expect((await loadCurrentUser(createTestContext(svc), before))?.role).toBe("staff");

    const listed = await runRoute(svc, staffLoader, get("/admin/staff"), owner);
    const row = (listed.result as { admins: { id: number | null; email: string }[] }).admins.find(
      (admin) => admin.email === person.email,
    );
    if (!row?.id) throw new Error("not listed");
    // Without confirmation: the confirmation step, nothing removed.
    const unconfirmed = await runRoute(
      svc,
      staffAction,
      post("/admin/staff", { intent: "remove", id: String(row.id) }),
      owner,
    );
    expect((unconfirmed.result as Response).headers.get("Location")).toMatch(/\?remove=/);
    expect((await asLoaded(person.id)).role).toBe("staff");

    const removed = await runRoute(
      svc,
      staffAction,
      post("/admin/staff", { intent: "remove", id: String(row.id), confirmed: "1" }),
      owner,
    );
    expect(removed.flash?.key).toBe("adminStaff.removed");
    expect(await db.selectFrom("sessions").select("id").where("user_id", "=", person.id).execute()).toEqual([]);
    const after = await readSession(db, cookie, cookieHeader);
    expect(await loadCurrentUser(createTestContext(svc), after)).toBeNull();
    expect((await asLoaded(person.id)).role).toBeNull();
    expect(
      await db
        .selectFrom("audit_log")
        .select("actor_user_id")
        .where("action", "=", "staff.removed")
        .where("entity_id", "=", person.id)
        .execute(),
    ).toEqual([{ actor_user_id: owner.id }]);
  });

  it("creates the account of an unknown e-mail and e-mails it an invitation in the language chosen", async () => {
    const owner = await adminAccount("owner");
    const email = `new-staff-${crypto.randomUUID()}@shop.hk`;
    const added = await runRoute(
      svc,
      staffAction,
      post("/admin/staff", { intent: "add", email, language: "zh" }),
      owner,
    );
    expect(added.flash).toMatchObject({ key: "adminStaff.addedCreated", params: { email, days: 7 } });
    const user = await db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    expect((await asLoaded(user.id)).role).toBe("staff");
    expect(user.locale).toBe("zh");

    // One e-mail, an invitation in Chinese: who, which shop, what staff do, a link to /join.
    const mails = await sentTo(email);
    expect(mails).toHaveLength(1);
    const mail = mails[0] as (typeof mails)[number];
    expect(mail.subject).toBe(`${owner.email} 邀請你一同管理港灣戰術`);
    expect(mail.text).toContain("誠邀你加入港灣戰術");
    expect(mail.text).toContain("處理訂單、產品、分類、網誌及客戶名單");
    expect(mail.text).toContain("7 日內有效");
    expect(mail.text).not.toContain("reset-password");
    expect(mail.html).toContain('lang="zh-Hant-HK"');
    const token = decodeURIComponent(/\/join\?token=([^\s"&]+)/.exec(mail.text)?.[1] ?? "");
    expect(token.length).toBeGreaterThan(10);

    // The link lasts a week, not an hour.
    const row = await db
      .selectFrom("password_reset_tokens")
      .select(["purpose", "expires_at"])
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.purpose).toBe("invite");
    const days = (Date.parse(row.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    expect((await listStaff(db, OWNER_EMAIL)).find((admin) => admin.email === email)?.invitation).toBe("pending");

    // The link's page reads as an invitation to the shop, for that account.
    const page = await runRoute(svc, joinLoader, get(`/join?token=${encodeURIComponent(token)}`), null);
    expect(statusOf(page.result)).toBe(200);
    expect((page.result as unknown as { data: { email: string; shop: string } }).data).toMatchObject({
      email,
      shop: "Harbour Tactical",
    });
    const password = "a long new password 1";
    const joined = await runRoute(svc, joinAction, post("/join", { token, password, confirm: password }), null);
    expect((joined.result as Response).headers.get("Location")).toBe("/admin/login");
    expect(joined.flash).toMatchObject({ key: "flash.joined", detailKey: "flash.joinedDetail" });
    const after = await db.selectFrom("users").selectAll().where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(after.password_changed_at).not.toBeNull();
    expect(after.password_hash).not.toBe(user.password_hash);
    expect((await listStaff(db, OWNER_EMAIL)).find((admin) => admin.email === email)?.invitation).toBeNull();

    // The link works once.
    const again = await runRoute(svc, joinAction, post("/join", { token, password, confirm: password }), null);
    expect(statusOf(again.result)).toBe(400);
    expect((again.result as { data: { problem: { key: string } } }).data.problem.key).toBe("join.invalidTitle");
    const reopened = await runRoute(svc, joinLoader, get(`/join?token=${encodeURIComponent(token)}`), null);
    expect(statusOf(reopened.result)).toBe(400);
  });

  it("invites an existing account to sign in (no link to set a password), in its own language", async () => {
    const owner = await adminAccount("owner");
    const person = await createCustomer(db);
    await runRoute(svc, staffAction, post("/admin/staff", { intent: "add", email: person.email }), owner);
    const mail = (await sentTo(person.email)).at(-1);
    expect(mail?.subject).toBe(`${owner.email} invited you to help run Harbour Tactical`);
    expect(mail?.text).toContain(`${owner.email} has added you to the staff of Harbour Tactical.`);
    expect(mail?.text).toContain("/admin/login");
    expect(mail?.text).not.toContain("/join?token=");
    expect(
      await db.selectFrom("password_reset_tokens").select("purpose").where("user_id", "=", person.id).execute(),
    ).toEqual([]);
  });

  it("sends an expired invitation again with a new link; removing the member withdraws it", async () => {
    const owner = await adminAccount("owner");
    const email = `late-staff-${crypto.randomUUID()}@shop.hk`;
    await runRoute(svc, staffAction, post("/admin/staff", { intent: "add", email, language: "en" }), owner);
    const user = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    const firstToken = decodeURIComponent(
      /\/join\?token=([^\s"&]+)/.exec((await sentTo(email)).at(-1)?.text ?? "")?.[1] ?? "",
    );
    // A week later (the row backdated: the clock cannot move in a route test).
    await db
      .updateTable("password_reset_tokens")
      .set({ expires_at: now(new Date(Date.now() - 1000)) })
      .where("user_id", "=", user.id)
      .execute();
    const listed = (await listStaff(db, OWNER_EMAIL)).find((admin) => admin.email === email);
    expect(listed?.invitation).toBe("expired");
    expect(statusOf((await runRoute(svc, joinLoader, get(`/join?token=${firstToken}`), null)).result)).toBe(400);

    const resent = await runRoute(
      svc,
      staffAction,
      post("/admin/staff", { intent: "resend", id: String(listed?.id) }),
      owner,
    );
    expect(resent.flash).toMatchObject({ key: "adminStaff.resent", params: { email, days: 7 } });
    expect((await listStaff(db, OWNER_EMAIL)).find((admin) => admin.email === email)?.invitation).toBe("pending");
    const secondToken = decodeURIComponent(
      /\/join\?token=([^\s"&]+)/.exec((await sentTo(email)).at(-1)?.text ?? "")?.[1] ?? "",
    );
    expect(secondToken).not.toBe(firstToken);
    const page = await runRoute(svc, joinLoader, get(`/join?token=${encodeURIComponent(secondToken)}`), null);
    expect(statusOf(page.result)).toBe(200);

    // Nothing to send again for an account with a password of its own.
    const member = await adminAccount("staff");
    const memberRow = (await listStaff(db, OWNER_EMAIL)).find((admin) => admin.email === member.email);
    const refused = await runRoute(
      svc,
      staffAction,
      post("/admin/staff", { intent: "resend", id: String(memberRow?.id) }),
      owner,
    );
    expect(statusOf(refused.result)).toBe(409);

    // Removed before accepting: the link stops working.
    await runRoute(
      svc,
      staffAction,
      post("/admin/staff", { intent: "remove", id: String(listed?.id), confirmed: "1" }),
      owner,
    );
    const withdrawn = await runRoute(svc, joinLoader, get(`/join?token=${encodeURIComponent(secondToken)}`), null);
    expect(statusOf(withdrawn.result)).toBe(400);
  });

  it("refuses to remove oneself, the SHOP_OWNER_EMAIL owner or the last owner", async () => {
    const owner = await adminAccount("owner");
    const configOwner = await createCustomer(db, { email: `x-${OWNER_EMAIL}` });
    const configRow = await db
      .insertInto("admin_users")
      .values({ user_id: null, email: OWNER_EMAIL, role: "owner", created_at: now() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const own = await db
      .selectFrom("admin_users")
      .select("id")
      .where("user_id", "=", owner.id)
      .executeTakeFirstOrThrow();
    for (const id of [own.id, configRow.id]) {
      const refused = await runRoute(
        svc,
        staffAction,
        post("/admin/staff", { intent: "remove", id: String(id), confirmed: "1" }),
        owner,
      );
      expect(statusOf(refused.result), `remove ${id}`).toBe(409);
    }
    expect(
      await db.selectFrom("admin_users").select("id").where("id", "in", [own.id, configRow.id]).execute(),
    ).toHaveLength(2);
    await db.deleteFrom("admin_users").where("id", "=", configRow.id).execute();
    expect(configOwner.id).toBeTruthy();
  });
});

describe("the owner rules without SHOP_OWNER_EMAIL", () => {
  it("switch roles, but never demote or remove the last owner", async () => {
    const { db: own } = await freshTestDb();
    const first = await createCustomer(own, { email: "first@shop.hk" });
    const second = await createCustomer(own, { email: "second@shop.hk" });
    const rows = await own
      .insertInto("admin_users")
      .values([
        { user_id: first.id, email: first.email, role: "owner", created_at: now() },
        { user_id: second.id, email: second.email, role: "staff", created_at: now() },
      ])
      .returning("id")
      .execute();
    const [firstRow, secondRow] = rows.map((row) => row.id) as [number, number];
    expect(await setStaffRole(own, first, null, secondRow, "owner")).toEqual({ email: second.email, changed: true });
    // The second owner demotes the first; nobody removes themselves, and the model refuses to
    // remove the only owner left whoever asks (the route lets only owners ask).
    expect((await setStaffRole(own, second, null, firstRow, "staff")).changed).toBe(true);
    const refused = await removeStaff(own, second, null, secondRow).catch((error: UserError) => error.key);
    expect(refused).toBe("adminStaff.errors.self");
    const lastOwner = await removeStaff(own, first, null, secondRow).catch((error: UserError) => error.key);
    expect(lastOwner).toBe("adminStaff.errors.lastOwner");
    expect(
      await own.selectFrom("audit_log").select("action").where("action", "=", "staff.role_changed").execute(),
    ).toHaveLength(2);
  });
});

describe("admin:create --role", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("makes a staff account with --role staff, an owner by default, and refuses a bad role", async () => {
    vi.stubEnv("DATABASE_URL", svc.config.databaseUrl);
    vi.stubEnv("SESSION_SECRET", "cli-test-secret-0123456789abcdef");
    vi.spyOn(console, "info").mockImplementation(() => {});
    const run = commands["admin:create"];
    if (!run) throw new Error("no admin:create");
    const staffEmail = `cli-staff-${crypto.randomUUID()}@shop.hk`;
    const ownerEmail = `cli-owner-${crypto.randomUUID()}@shop.hk`;
    await run(["--email", staffEmail, "--password", "a long password 1", "--role", "staff"]);
    await run(["--email", ownerEmail, "--password", "a long password 1"]);
    const role = async (email: string) =>
      (await db.selectFrom("admin_users").select("role").where("email", "=", email).executeTakeFirstOrThrow()).role;
    expect(await role(staffEmail)).toBe("staff");
    expect(await role(ownerEmail)).toBe("owner");
    const bad = run(["--email", "x@shop.hk", "--password", "a long password 1", "--role", "boss"]);
    await expect(bad).rejects.toBeInstanceOf(UsageError);
    await expect(bad).rejects.toMatchObject({ exitCode: 2 });
    await expect(bad).rejects.toThrow(/--role must be owner or staff/);
    expect(await db.selectFrom("users").select("id").where("email", "=", "x@shop.hk").execute()).toEqual([]);
  });
});
