import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import { verifyPassword } from "~/lib/password.server";
import { UserError } from "~/lib/problem";
import { createUser, findUserByEmail, grantAdmin, grantAdminByEmail } from "~/models/user.server";
import { freshTestDb } from "./setup/db";

let db: DB;
beforeEach(async () => {
  ({ db } = await freshTestDb());
});

describe("accounts for admin:create", () => {
  it("creates an account with a lower-cased e-mail and an argon2id hash", async () => {
    const user = await createUser(db, { email: "  Owner@Example.COM ", password: "correct horse" });
    expect(user.email).toBe("owner@example.com");
    expect(user.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(user.password_hash, "correct horse")).toBe(true);
    expect(await verifyPassword(user.password_hash, "wrong horse")).toBe(false);
    expect((await findUserByEmail(db, "OWNER@example.com"))?.id).toBe(user.id);
  });

  it("refuses a second account with the same e-mail in another case", async () => {
    await createUser(db, { email: "owner@example.com", password: "correct horse" });
    await expect(createUser(db, { email: "owner@EXAMPLE.com", password: "another one" })).rejects.toThrow();
  });

  it("grants admin once", async () => {
    const user = await createUser(db, { email: "owner@example.com", password: "correct horse" });
    expect(await grantAdmin(db, user)).toBe(true);
    expect(await grantAdmin(db, user)).toBe(false);
    const rows = await db.selectFrom("admin_users").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: user.id, email: "owner@example.com" });
  });

  it("records each grant in the audit log with who granted it, and refuses an unknown e-mail", async () => {
    const granter = await createUser(db, { email: "granter@example.com", password: "correct horse" });
    const staff = await createUser(db, { email: "staff@example.com", password: "correct horse" });
    expect(await grantAdminByEmail(db, granter, " STAFF@example.com ")).toMatchObject({ granted: true });
    const audit = await db
      .selectFrom("audit_log")
      .select(["action", "actor_user_id", "entity_id", "details"])
      .where("action", "=", "admin.grant")
      .where("entity_id", "=", staff.id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_user_id: granter.id, entity_id: staff.id });
    expect(JSON.parse(audit[0]?.details ?? "{}").after).toEqual({
      email: "staff@example.com",
      granted: true,
      role: "owner",
    });
    const refused = await grantAdminByEmail(db, granter, "nobody@example.com").catch((error) => error);
    expect(refused).toBeInstanceOf(UserError);
    expect(refused.problem).toEqual({ key: "adminHome.noSuchAccount", field: "email" });
  });
});
