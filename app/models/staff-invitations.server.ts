import type { Transaction } from "kysely";
import { type DB, now } from "#db/connect.server";
import type { Database } from "#db/schema";
import type { Config } from "~/lib/config.server";
import { renderLocalizedEmail } from "~/lib/mail.server";
import { UserError } from "~/lib/problem";
import type { Language } from "~/locales";
import {
  consumeAccountToken,
  INVITE_TOKEN_TTL_DAYS,
  INVITE_TOKEN_TTL_MS,
  insertAccountToken,
  peekAccountToken,
} from "./account-token.server";
import { recordAudit } from "./audit.server";
import { queueEmail } from "./outbox/queue.server";
import { loadShop } from "./settings/shop.server";
import { adminRole, adminUserRows, normalizeEmail, setPassword } from "./user.server";

/**
 * The invitation a new member of staff receives (docs/decisions/042): who invited them, to which
 * shop, what staff may do, and — for an account the owner's "Add staff" created — a link to set
 * their first password, valid for INVITE_TOKEN_TTL_DAYS days, on /join. An account that already
 * existed keeps its password: its invitation links to the admin sign-in instead.
 */

/** Where the invitation's link leads: the page that reads "Set your password to join …". */
export const JOIN_PATH = "/join";

/** A staff row's invitation: sent and still usable, or run out (no password set either way). */
export type InvitationState = "pending" | "expired";

export interface StaffInvitation {
  invitee: { id: string; email: string };
  /** Who pressed "Add staff": their e-mail (accounts have no display name). */
  inviterEmail: string;
  language: Language;
  /** true: the account was made for this invitation and has no password anyone knows. */
  newAccount: boolean;
}

/**
 * Queues the invitation in `language`, in the caller's transaction `trx` (the one that adds the
 * member of staff, or sends again). For a new account it first makes the single-use invite token
 * (an earlier unused one stops working), so sending again gives a fresh week.
 */
export async function queueStaffInvitation(
  trx: DB,
  config: Pick<Config, "publicUrl">,
  invitation: StaffInvitation,
): Promise<void> {
  const { invitee, inviterEmail, newAccount, language } = invitation;
  const url = newAccount
    ? `${config.publicUrl}${JOIN_PATH}?token=${encodeURIComponent(
        await insertAccountToken(trx, invitee.id, "invite", INVITE_TOKEN_TTL_MS),
      )}`
    : `${config.publicUrl}/admin/login`;
  const message = await renderLocalizedEmail(await loadShop(trx), invitee.email, language, (t, shop) => ({
    subject: t("email.inviteSubject", { inviter: inviterEmail, shop }),
    heading: t("email.inviteHeading", { shop }),
    paragraphs: [
      t("email.inviteText", { inviter: inviterEmail, shop }),
      t("email.inviteCan"),
      newAccount
        ? t("email.inviteLink", { days: INVITE_TOKEN_TTL_DAYS, email: invitee.email })
        : t("email.inviteExisting", { email: invitee.email }),
    ],
    action: { label: t(newAccount ? "email.inviteAction" : "email.inviteSignIn"), url },
  }));
  await queueEmail(trx, message, { event: "staff.invitation", audience: "staff", language });
}

/**
 * The invitation state of each of `userIds` that has one: an account made by "Add staff" whose
 * password was never set (by the link or by "Forgot password"), and whose link is still usable
 * ("pending") or has run out ("expired"). Accounts not listed have nothing pending.
 */
export async function invitationStates(db: DB, userIds: string[]): Promise<Map<string, InvitationState>> {
  const states = new Map<string, InvitationState>();
  if (userIds.length === 0) return states;
  const rows = await db
    .selectFrom("password_reset_tokens")
    .innerJoin("users", "users.id", "password_reset_tokens.user_id")
    .select(["password_reset_tokens.user_id", "password_reset_tokens.expires_at", "password_reset_tokens.used_at"])
    .where("password_reset_tokens.purpose", "=", "invite")
    .where("password_reset_tokens.user_id", "in", userIds)
    .where("users.password_changed_at", "is", null)
    .execute();
  const at = now();
  const accepted = new Set(rows.filter((row) => row.used_at !== null).map((row) => row.user_id));
  for (const row of rows) {
    if (accepted.has(row.user_id) || row.used_at !== null) continue;
    if (row.expires_at > at) states.set(row.user_id, "pending");
    else if (!states.has(row.user_id)) states.set(row.user_id, "expired");
  }
  return states;
}

/**
 * The owner sends the invitation of the admin row `id` again (a new link, valid a week from
 * now, in the account's language: the one its first invitation was written in), audited
 * `staff.invitation_resent`, the link and its e-mail in one transaction. Only for a row whose
 * invitation is pending or expired: a member of staff who has set a password signs in with it.
 */
export async function resendStaffInvitation(
  db: DB,
  config: Pick<Config, "publicUrl">,
  actor: { id: string; email: string },
  id: number,
): Promise<{ email: string }> {
  const row = await adminUserRows(db).where("admin_users.id", "=", id).executeTakeFirst();
  if (!row) throw new UserError("adminStaff.errors.notFound", { status: 404 });
  const state = row.user_id ? (await invitationStates(db, [row.user_id])).get(row.user_id) : undefined;
  const account = row.user_id
    ? await db.selectFrom("users").select(["id", "email", "locale"]).where("id", "=", row.user_id).executeTakeFirst()
    : undefined;
  if (!account || !state) throw new UserError("adminStaff.errors.nothingToResend", { status: 409 });
  const invitee = { id: account.id, email: account.email };
  const language: Language = account.locale;
  await db.transaction().execute(async (trx) => {
    await queueStaffInvitation(trx, config, { invitee, inviterEmail: actor.email, language, newAccount: true });
    await recordAudit(trx, {
      actorUserId: actor.id,
      action: "staff.invitation_resent",
      entityType: "user",
      entityId: invitee.id,
      after: { email: invitee.email, language },
    });
  });
  return { email: invitee.email };
}

/** Unused invitation links of `userId` stop working (the member of staff was removed). */
export async function withdrawInvitations(trx: Transaction<Database>, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  await trx
    .deleteFrom("password_reset_tokens")
    .where("user_id", "in", userIds)
    .where("purpose", "=", "invite")
    .where("used_at", "is", null)
    .execute();
}

/**
 * The account an invitation link is for, while the link is unused, not run out, and its
 * account is still an admin; null otherwise (the page then says the link does not work).
 */
export async function findInvitation(
  db: DB,
  ownerEmail: string | null,
  token: string,
): Promise<{ id: string; email: string } | null> {
  if (token.length <= 10) return null;
  const userId = await peekAccountToken(db, token, "invite");
  if (!userId) return null;
  const user = await db.selectFrom("users").select(["id", "email"]).where("id", "=", userId).executeTakeFirst();
  if (!user || (await adminRole(db, ownerEmail, user)) === null) return null;
  return user;
}

/**
 * The invitee sets their first password with the link: the link is used once (two posts of it
 * cannot both succeed), then the password is set. A used, run-out or withdrawn link is a refusal
 * the page shows as "this invitation does not work".
 */
export async function acceptStaffInvitation(
  db: DB,
  ownerEmail: string | null,
  token: string,
  password: string,
): Promise<{ email: string }> {
  const invalid = () => new UserError("join.invalidTitle", { detailKey: "join.invalidText" });
  const user = await findInvitation(db, ownerEmail, token);
  if (!user) throw invalid();
  const userId = await consumeAccountToken(db, token, "invite");
  if (userId !== user.id) throw invalid();
  await setPassword(db, user.id, password);
  return { email: normalizeEmail(user.email) };
}
