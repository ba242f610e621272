import crypto from "node:crypto";
import type { Kysely } from "kysely";
import { type DB, now } from "#db/connect.server";
import { lockTable } from "#db/dialect";
import type { AdminRole, Database, UserRow } from "#db/schema";
import type { Config } from "~/lib/config.server";
import { logger } from "~/lib/log.server";
import { hashPassword, verifyPassword } from "~/lib/password.server";
import { UserError } from "~/lib/problem";
import type { Language } from "~/locales";
import { queueVerificationEmail } from "./account-token.server";
import { recordAudit } from "./audit.server";

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: DB, email: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("email", "=", normalizeEmail(email)).executeTakeFirst();
}

/** Inserts a customer account with its password already hashed; the e-mail must not exist yet. */
async function insertUser(db: DB, email: string, passwordHash: string): Promise<UserRow> {
  const timestamp = now();
  const row = {
    id: crypto.randomUUID(),
    email: normalizeEmail(email),
    password_hash: passwordHash,
    created_at: timestamp,
    updated_at: timestamp,
  };
  await db.insertInto("users").values(row).execute();
  return db.selectFrom("users").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
}

/** Creates a customer account; the e-mail is stored lower-cased and must not exist yet. */
export async function createUser(db: DB, input: { email: string; password: string }): Promise<UserRow> {
  return insertUser(db, input.email, await hashPassword(input.password));
}

/**
 * A customer signs up: an e-mail that has an account already (in any case, or taken by a sign-up
 * at the same moment) is refused with 409; any other failure to create the account is a 500
 * refusal ("sign-up failed"), logged. `verify`: the shop checks e-mail addresses, and the
 * account's verification e-mail is queued in the transaction that creates it.
 */
export async function signUp(
  db: DB,
  input: { email: string; password: string },
  verify?: { config: Pick<Config, "publicUrl">; language: Language },
): Promise<UserRow> {
  const accountExists = () =>
    new UserError("flash.accountExists", { detailKey: "flash.accountExistsDetail", status: 409 });
  if (await findUserByEmail(db, input.email)) throw accountExists();
  // Hashed before the transaction (argon2 is slow).
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction().execute(async (trx) => {
      const user = await insertUser(trx, input.email, passwordHash);
      if (verify) await queueVerificationEmail(trx, verify.config, user, verify.language);
      return user;
    });
  } catch (error) {
    if (await findUserByEmail(db, input.email)) throw accountExists();
    logger.error({ err: error }, "sign up failed");
    throw new UserError("flash.signupFailed", { detailKey: "flash.signupFailedDetail", status: 500 });
  }
}

/**
 * Grants the admin right (`role`, owner unless said): lists the user in the admin users table (by
 * id and e-mail) and records who granted it (`actorUserId`; the user themselves for the
 * first-admin setup) in the audit log, in one transaction. Returns false when the user is
 * already listed (the attempt is still recorded; the role is left as it is).
 */
export async function grantAdmin(
  db: DB,
  user: Pick<UserRow, "id" | "email">,
  actor: { actorUserId: string | null } = { actorUserId: user.id },
  role: AdminRole = "owner",
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // Two grants of one user at once run in turn on PostgreSQL (one row each, never a duplicate).
    await lockTable(trx, "admin_users");
    const existing = await trx
      .selectFrom("admin_users")
      .select("id")
      .where((eb) => eb.or([eb("user_id", "=", user.id), eb(eb.fn("lower", ["email"]), "=", user.email)]))
      .executeTakeFirst();
    const granted = !existing;
    if (granted) {
      await trx
        .insertInto("admin_users")
        .values({ user_id: user.id, email: user.email, role, created_at: now() })
        .execute();
    }
    await recordAudit(trx, {
      actorUserId: actor.actorUserId,
      action: "admin.grant",
      entityType: "user",
      entityId: user.id,
      after: { email: user.email, granted, role },
    });
    return granted;
  });
}

/**
 * An admin grants the admin right to an existing account by its e-mail (e.g. a member of staff).
 * No account with that e-mail is a refusal on the e-mail field.
 */
export async function grantAdminByEmail(
  db: DB,
  actor: { id: string },
  email: string,
): Promise<{ user: UserRow; granted: boolean }> {
  const user = await findUserByEmail(db, email);
  if (!user) throw new UserError("adminHome.noSuchAccount", { field: "email" });
  return { user, granted: await grantAdmin(db, user, { actorUserId: actor.id }) };
}

/**
 * The admin users rows with what identifies each: its account's e-mail (`user_email`) where it
 * has one, else the e-mail it was granted by. The dashboard and the staff screen read through it.
 */
export function adminUserRows(db: Kysely<Database>) {
  return db
    .selectFrom("admin_users")
    .leftJoin("users", "users.id", "admin_users.user_id")
    .select([
      "admin_users.id",
      "admin_users.user_id",
      "admin_users.email",
      "admin_users.role",
      "admin_users.created_at",
      "users.email as user_email",
    ]);
}

/** The admin users table, oldest first, each by its account's e-mail where it has one. */
export async function listAdmins(db: DB): Promise<{ id: number; email: string }[]> {
  const rows = await adminUserRows(db).orderBy("admin_users.created_at").execute();
  return rows.map((row) => ({ id: row.id, email: row.user_email ?? row.email ?? "" }));
}

export async function findUserById(db: DB, id: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

/**
 * The admin rule: the account named by SHOP_OWNER_EMAIL is always owner; otherwise the role of
 * its row in the admin users table (a case-insensitive e-mail match, else a user-id match);
 * otherwise null (not an admin). A failure to read means the request fails.
 */
export async function adminRole(
  db: DB,
  ownerEmail: string | null,
  user: Pick<UserRow, "id" | "email">,
): Promise<AdminRole | null> {
  if (ownerEmail && normalizeEmail(user.email) === normalizeEmail(ownerEmail)) return "owner";
  // A failed query (a busy or unreachable database) fails the request rather than quietly
  // treating an admin as a shopper.
  const rows = await db
    .selectFrom("admin_users")
    .select(["role", "email", "user_id"])
    .where((eb) => eb.or([eb(eb.fn("lower", ["email"]), "=", normalizeEmail(user.email)), eb("user_id", "=", user.id)]))
    .execute();
  const byEmail = rows.find((row) => row.email !== null && normalizeEmail(row.email) === normalizeEmail(user.email));
  return (byEmail ?? rows[0])?.role ?? null;
}

/** Whether the user has any admin role (owner or staff). */
export async function isAdmin(
  db: DB,
  ownerEmail: string | null,
  user: Pick<UserRow, "id" | "email">,
): Promise<boolean> {
  return (await adminRole(db, ownerEmail, user)) !== null;
}

/** Whether any admin exists at all (the first-admin setup is open only while none does). */
export async function adminExists(db: DB, ownerEmail: string | null): Promise<boolean> {
  const listed = await db.selectFrom("admin_users").select("id").limit(1).executeTakeFirst();
  if (listed) return true;
  if (!ownerEmail) return false;
  return (await findUserByEmail(db, ownerEmail)) !== undefined;
}

/**
 * Sets a new password and ends every other session of the user (`keepSessionHash`, the
 * current one, survives when given).
 */
export async function setPassword(db: DB, userId: string, password: string, keepSessionHash?: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    const timestamp = now();
    await trx
      .updateTable("users")
      .set({ password_hash: passwordHash, password_changed_at: timestamp, updated_at: timestamp })
      .where("id", "=", userId)
      .execute();
    let sessions = trx.deleteFrom("sessions").where("user_id", "=", userId);
    if (keepSessionHash) sessions = sessions.where("id", "!=", keepSessionHash);
    await sessions.execute();
  });
}

/**
 * The user changes their password: the current one must be right (a refusal on the `current`
 * field otherwise); then as `setPassword`, keeping the session `keepSessionHash`.
 */
export async function changePassword(
  db: DB,
  userId: string,
  input: { current: string; password: string },
  keepSessionHash?: string,
): Promise<void> {
  const user = await findUserById(db, userId);
  if (!user || !(await verifyPassword(user.password_hash, input.current))) {
    throw new UserError("errors.currentPasswordWrong", { field: "current" });
  }
  await setPassword(db, user.id, input.password, keepSessionHash);
}

export async function markEmailVerified(db: DB, userId: string): Promise<void> {
  const timestamp = now();
  await db
    .updateTable("users")
    .set({ email_verified_at: timestamp, updated_at: timestamp })
    .where("id", "=", userId)
    .where("email_verified_at", "is", null)
    .execute();
}
