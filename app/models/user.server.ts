import crypto from "node:crypto";
import { type DB, now } from "#db/connect.server";
import type { UserRow } from "#db/schema";
import { hashPassword } from "~/lib/password.server";

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: DB, email: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("email", "=", normalizeEmail(email)).executeTakeFirst();
}

/** Creates a customer account; the e-mail is stored lower-cased and must not exist yet. */
export async function createUser(db: DB, input: { email: string; password: string }): Promise<UserRow> {
  const timestamp = now();
  const row = {
    id: crypto.randomUUID(),
    email: normalizeEmail(input.email),
    password_hash: await hashPassword(input.password),
    created_at: timestamp,
    updated_at: timestamp,
  };
  await db.insertInto("users").values(row).execute();
  return db.selectFrom("users").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
}

/** Lists the user in the admin users table (by id and e-mail); returns false when already there. */
export async function grantAdmin(db: DB, user: Pick<UserRow, "id" | "email">): Promise<boolean> {
  const existing = await db
    .selectFrom("admin_users")
    .select("id")
    .where((eb) => eb.or([eb("user_id", "=", user.id), eb(eb.fn("lower", ["email"]), "=", user.email)]))
    .executeTakeFirst();
  if (existing) return false;
  await db.insertInto("admin_users").values({ user_id: user.id, email: user.email, created_at: now() }).execute();
  return true;
}
