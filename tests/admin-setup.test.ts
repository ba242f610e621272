import { afterEach, describe, expect, it } from "vitest";
import { type DB, openDatabase } from "#db/connect.server";
import type { Services } from "~/context";
import { loadConfig } from "~/lib/config.server";
import { MemoryMailer } from "~/lib/mail.server";
import { MemoryStorage } from "~/lib/storage.server";
import { ADMIN_SETUP_TOKEN_KEY, findAdminSetupToken, openAdminSetup } from "~/models/settings/admin-setup.server";
import { getSetting } from "~/models/settings/site-settings.server";
import { createUser, grantAdmin, isAdmin } from "~/models/user.server";
import { action as adminLoginAction } from "~/routes/admin/login";
import { freshTestDb } from "./setup/db";
import { runRoute } from "./setup/route";

/**
 * The one-time first-admin setup token is kept in the database (site_settings), so several
 * processes of one shop (WEB_CONCURRENCY, several machines) share it: here two service sets on
 * one database (a SQLite file, or PostgreSQL), each with its own connection, stand for two processes.
 */

const others: DB[] = [];
afterEach(async () => {
  for (const db of others.splice(0)) await db.destroy();
});

/** Two "processes": the test database and a second connection to the same database. */
async function twoProcesses(): Promise<[Services, Services]> {
  const { db, dir, url } = await freshTestDb();
  const second = openDatabase(url);
  others.push(second);
  const config = loadConfig({ DATA_DIR: dir, SESSION_SECRET: "test-secret-0123456789abcdef0123456789" });
  const services = (on: DB): Services => ({ db: on, config, storage: new MemoryStorage(), mailer: new MemoryMailer() });
  return [services(db), services(second)];
}

const PASSWORD = "a long enough password";

function setup(svc: Services, email: string, token: string) {
  const request = new Request("http://localhost/admin/login", {
    method: "POST",
    body: new URLSearchParams({ intent: "setup", email, password: PASSWORD, token }),
  });
  return runRoute(svc, adminLoginAction as never, request, null);
}

describe("the first-admin setup token, shared through the database", () => {
  it("is stored once: the first process's generated token is the one every process reads back", async () => {
    const [a, b] = await twoProcesses();
    const noToken = { shopOwnerEmail: null, adminSetupToken: null };
    const first = await openAdminSetup(a.db, noToken);
    expect(first).toMatch(/^[\w-]{16}$/);
    expect(await openAdminSetup(b.db, noToken)).toBe(first);
    expect(await findAdminSetupToken(a.db)).toBe(first);
    // ADMIN_SETUP_TOKEN (the same in every process) is stored as given.
    const configured = { shopOwnerEmail: null, adminSetupToken: "configured-token-0123" };
    expect(await openAdminSetup(a.db, configured)).toBe("configured-token-0123");
    expect(await openAdminSetup(b.db, configured)).toBe("configured-token-0123");
  });

  it("a setup through one process makes the other refuse the token", async () => {
    const [a, b] = await twoProcesses();
    const token = await openAdminSetup(a.db, { shopOwnerEmail: null, adminSetupToken: null });
    expect(await openAdminSetup(b.db, { shopOwnerEmail: null, adminSetupToken: null })).toBe(token);
    const owner = await createUser(a.db, { email: "owner@shop.hk", password: PASSWORD });
    const rival = await createUser(a.db, { email: "rival@shop.hk", password: PASSWORD });

    const wrong = await setup(b, "owner@shop.hk", `${token}-wrong`);
    expect(JSON.stringify(wrong.result ?? wrong.thrown)).toContain("setupTokenWrong");
    expect(await isAdmin(a.db, null, owner)).toBe(false);

    const granted = await setup(a, "owner@shop.hk", token ?? "");
    expect(granted.flash?.key).toBe("flash.adminGranted");
    expect(await isAdmin(b.db, null, owner)).toBe(true);
    expect(await getSetting(b.db, ADMIN_SETUP_TOKEN_KEY)).toBeNull();

    const refused = await setup(b, "rival@shop.hk", token ?? "");
    expect(refused.flash?.key).not.toBe("flash.adminGranted");
    expect(JSON.stringify(refused.result ?? refused.thrown)).toContain("setupClosed");
    expect(await isAdmin(b.db, null, rival)).toBe(false);
  });

  it("is removed at start once an admin exists", async () => {
    const [a, b] = await twoProcesses();
    const token = await openAdminSetup(a.db, { shopOwnerEmail: null, adminSetupToken: null });
    expect(token).not.toBeNull();
    const staff = await createUser(a.db, { email: "staff@shop.hk", password: PASSWORD });
    await grantAdmin(a.db, staff);
    expect(await openAdminSetup(b.db, { shopOwnerEmail: null, adminSetupToken: "configured-token-0123" })).toBeNull();
    expect(await findAdminSetupToken(a.db)).toBeNull();
  });
});
