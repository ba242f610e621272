import crypto from "node:crypto";
import type { Transaction } from "kysely";
import { type DB, now } from "#db/connect.server";
import { lockTable } from "#db/dialect";
import type { AdminRole, Database, UserRow } from "#db/schema";
import type { Config } from "~/lib/config.server";
import { hashPassword } from "~/lib/password.server";
import { UserError } from "~/lib/problem";
import type { Language } from "~/locales";
import { recordAudit } from "./audit.server";
import {
  type InvitationState,
  invitationStates,
  queueStaffInvitation,
  withdrawInvitations,
} from "./staff-invitations.server";
import { adminUserRows, normalizeEmail } from "./user.server";

type Trx = Transaction<Database>;

/** One admin of the staff screen. `fromConfig`: the SHOP_OWNER_EMAIL account (always owner, not removable). */
export interface AdminListing {
  /** The admin users row, null for a SHOP_OWNER_EMAIL owner who has none. */
  id: number | null;
  email: string;
  role: AdminRole;
  addedAt: string | null;
  fromConfig: boolean;
  /** Whether an account with this e-mail exists yet. */
  hasAccount: boolean;
  /** An invitation not accepted yet (no password set), still usable or run out. */
  invitation: InvitationState | null;
}

/** The owners and staff: the SHOP_OWNER_EMAIL owner first, then the table's rows, oldest first. */
export async function listStaff(db: DB, ownerEmail: string | null): Promise<AdminListing[]> {
  const rows = await adminUserRows(db).orderBy("admin_users.created_at").orderBy("admin_users.id").execute();
  const owner = ownerEmail ? normalizeEmail(ownerEmail) : null;
  const invitations = await invitationStates(
    db,
    rows.flatMap((row) => (row.user_id ? [row.user_id] : [])),
  );
  const listed: AdminListing[] = rows.map((row) => {
    const email = normalizeEmail(row.user_email ?? row.email ?? "");
    const fromConfig = email === owner;
    return {
      id: row.id,
      email,
      role: fromConfig ? "owner" : row.role,
      addedAt: row.created_at,
      fromConfig,
      hasAccount: row.user_email !== null,
      invitation: (row.user_id && invitations.get(row.user_id)) || null,
    };
  });
  if (owner && !listed.some((row) => row.fromConfig)) {
    const account = await db.selectFrom("users").select("id").where("email", "=", owner).executeTakeFirst();
    listed.unshift({
      id: null,
      email: owner,
      role: "owner",
      addedAt: null,
      fromConfig: true,
      hasAccount: !!account,
      invitation: null,
    });
  }
  return listed.sort((a, b) => Number(b.fromConfig) - Number(a.fromConfig));
}

async function findAdminRow(trx: Trx, user: { id: string | null; email: string }) {
  return trx
    .selectFrom("admin_users")
    .select(["id", "role"])
    .where((eb) =>
      eb.or([
        eb(eb.fn("lower", ["email"]), "=", normalizeEmail(user.email)),
        ...(user.id ? [eb("user_id", "=", user.id)] : []),
      ]),
    )
    .executeTakeFirst();
}

/**
 * The owner adds a member of staff by e-mail, in one transaction with its audit entry
 * (`staff.added`). An existing account is promoted; for an unknown e-mail an account is created
 * with a random password nobody knows (marked verified: only the holder of the address can set
 * a password, through the invitation's link), in `language`; `created` says so. `language` is
 * the one the invitation is written in: the one asked for, else the account's own, else the
 * shop's default (English). The invitation is queued in the same transaction
 * (queueStaffInvitation): a mail server that is down delays it, and fails nothing.
 * An e-mail that is an admin already is a refusal on the e-mail field.
 */
export async function addStaff(
  db: DB,
  config: Pick<Config, "publicUrl" | "shopOwnerEmail">,
  actor: { id: string; email: string },
  rawEmail: string,
  asked?: Language,
): Promise<{ user: Pick<UserRow, "id" | "email">; created: boolean; language: Language }> {
  const ownerEmail = config.shopOwnerEmail;
  const email = normalizeEmail(rawEmail);
  const alreadyAdmin = () =>
    new UserError("adminStaff.errors.alreadyAdmin", { field: "email", params: { email }, status: 409 });
  if (ownerEmail && email === normalizeEmail(ownerEmail)) throw alreadyAdmin();
  // Hashed before the transaction (argon2 is slow): used only when the account is new.
  const passwordHash = await hashPassword(crypto.randomBytes(32).toString("base64url"));
  return db.transaction().execute(async (trx) => {
    await lockTable(trx, "admin_users");
    let user = await trx
      .selectFrom("users")
      .select(["id", "email", "locale"])
      .where("email", "=", email)
      .executeTakeFirst();
    if (await findAdminRow(trx, { id: user?.id ?? null, email })) throw alreadyAdmin();
    const timestamp = now();
    const created = !user;
    const language: Language = asked ?? user?.locale ?? "en";
    if (!user) {
      user = { id: crypto.randomUUID(), email, locale: language };
      await trx
        .insertInto("users")
        .values({
          id: user.id,
          email,
          password_hash: passwordHash,
          locale: language,
          email_verified_at: timestamp,
          created_at: timestamp,
          updated_at: timestamp,
        })
        .execute();
    }
    await trx
      .insertInto("admin_users")
      .values({ user_id: user.id, email, role: "staff", created_at: timestamp })
      .execute();
    await recordAudit(trx, {
      actorUserId: actor.id,
      action: "staff.added",
      entityType: "user",
      entityId: user.id,
      after: { email, role: "staff", accountCreated: created },
    });
    const invitee = { id: user.id, email: user.email };
    await queueStaffInvitation(trx, config, { invitee, inviterEmail: actor.email, language, newAccount: created });
    return { user: invitee, created, language };
  });
}

/** The admin row `id` with its e-mail (the account's where it has one), or a 404 refusal. */
async function loadTarget(trx: Trx, id: number) {
  const row = await adminUserRows(trx).where("admin_users.id", "=", id).executeTakeFirst();
  if (!row) throw new UserError("adminStaff.errors.notFound", { status: 404 });
  return { ...row, email: normalizeEmail(row.user_email ?? row.email ?? "") };
}

/** Refuses a change to oneself or to the SHOP_OWNER_EMAIL owner. */
function checkOther(
  target: { user_id: string | null; email: string },
  actor: { id: string; email: string },
  ownerEmail: string | null,
) {
  if (target.user_id === actor.id || target.email === normalizeEmail(actor.email)) {
    throw new UserError("adminStaff.errors.self", { status: 409 });
  }
  if (ownerEmail && target.email === normalizeEmail(ownerEmail)) {
    throw new UserError("adminStaff.errors.configOwner", { status: 409 });
  }
}

/** Without SHOP_OWNER_EMAIL, the last owner row must stay (else nobody could manage the shop). */
async function checkNotLastOwner(trx: Trx, target: { role: AdminRole }, ownerEmail: string | null) {
  if (target.role !== "owner" || ownerEmail) return;
  const owners = await trx
    .selectFrom("admin_users")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("role", "=", "owner")
    .executeTakeFirstOrThrow();
  if (Number(owners.count) <= 1) throw new UserError("adminStaff.errors.lastOwner", { status: 409 });
}

/**
 * The owner removes an admin: the admin users row goes, every session of that account is
 * deleted (it is signed out at its next request) and an invitation not accepted yet stops
 * working, with the audit entry `staff.removed`, in one transaction. Not oneself, not the
 * SHOP_OWNER_EMAIL owner, not the last owner.
 */
export async function removeStaff(
  db: DB,
  actor: { id: string; email: string },
  ownerEmail: string | null,
  id: number,
): Promise<{ email: string }> {
  return db.transaction().execute(async (trx) => {
    await lockTable(trx, "admin_users");
    const target = await loadTarget(trx, id);
    checkOther(target, actor, ownerEmail);
    await checkNotLastOwner(trx, target, ownerEmail);
    await trx.deleteFrom("admin_users").where("id", "=", id).execute();
    const account = await trx.selectFrom("users").select("id").where("email", "=", target.email).executeTakeFirst();
    const userIds = [...new Set([target.user_id, account?.id].filter((value): value is string => !!value))];
    if (userIds.length > 0) await trx.deleteFrom("sessions").where("user_id", "in", userIds).execute();
    await withdrawInvitations(trx, userIds);
    await recordAudit(trx, {
      actorUserId: actor.id,
      action: "staff.removed",
      entityType: "user",
      entityId: target.user_id ?? account?.id ?? null,
      before: { email: target.email, role: target.role },
    });
    return { email: target.email };
  });
}

/** The owner changes another admin's role (audited `staff.role_changed`); the same rules as removing. */
export async function setStaffRole(
  db: DB,
  actor: { id: string; email: string },
  ownerEmail: string | null,
  id: number,
  role: AdminRole,
): Promise<{ email: string; changed: boolean }> {
  return db.transaction().execute(async (trx) => {
    await lockTable(trx, "admin_users");
    const target = await loadTarget(trx, id);
    checkOther(target, actor, ownerEmail);
    if (target.role === role) return { email: target.email, changed: false };
    await checkNotLastOwner(trx, target, ownerEmail);
    await trx.updateTable("admin_users").set({ role }).where("id", "=", id).execute();
    await recordAudit(trx, {
      actorUserId: actor.id,
      action: "staff.role_changed",
      entityType: "user",
      entityId: target.user_id,
      before: { email: target.email, role: target.role },
      after: { email: target.email, role },
    });
    return { email: target.email, changed: true };
  });
}

export interface ActivityEntry {
  id: number;
  at: string;
  /** The actor's e-mail; null for the shop itself (a scheduled job, the command line). */
  actor: string | null;
  action: string;
  entity: string;
}

/** The latest audit log entries, newest first, with the actor's e-mail. */
export async function recentActivity(db: DB, limit = 50): Promise<ActivityEntry[]> {
  const rows = await db
    .selectFrom("audit_log")
    .leftJoin("users", "users.id", "audit_log.actor_user_id")
    .select([
      "audit_log.id",
      "audit_log.created_at",
      "audit_log.action",
      "audit_log.entity_type",
      "audit_log.entity_id",
      "audit_log.actor_user_id",
      "users.email",
    ])
    .orderBy("audit_log.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    at: row.created_at,
    actor: row.email ?? (row.actor_user_id ? row.actor_user_id : null),
    action: row.action,
    entity: row.entity_id ? `${row.entity_type} ${row.entity_id}` : row.entity_type,
  }));
}
