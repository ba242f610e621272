import crypto from "node:crypto";
import { type DB, now } from "#db/connect.server";
import type { AccountTokenPurpose, UserRow } from "#db/schema";
import type { Config } from "~/lib/config.server";
import { renderLocalizedEmail } from "~/lib/mail.server";
import { translateKey } from "~/lib/translate-key";
import type { Language } from "~/locales";
import { queueEmail } from "./outbox/queue.server";
import { loadShop } from "./settings/shop.server";

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
export const VERIFY_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
/** A staff invitation's link lasts a week: long enough for a weekend (docs/decisions/042). */
export const INVITE_TOKEN_TTL_DAYS = 7;
export const INVITE_TOKEN_TTL_MS = INVITE_TOKEN_TTL_DAYS * 24 * 60 * 60 * 1000;

function hash(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/**
 * A single-use token for `purpose`, written in the caller's transaction `trx` (with the e-mail
 * that carries it); only its hash is stored. Earlier unused ones stop working.
 */
export async function insertAccountToken(
  trx: DB,
  userId: string,
  purpose: AccountTokenPurpose,
  ttlMs: number,
): Promise<string> {
  const token = crypto.randomBytes(32).toString("base64url");
  await trx
    .deleteFrom("password_reset_tokens")
    .where("user_id", "=", userId)
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .execute();
  await trx
    .insertInto("password_reset_tokens")
    .values({
      token_hash: hash(token),
      user_id: userId,
      purpose,
      expires_at: now(new Date(Date.now() + ttlMs)),
      created_at: now(),
    })
    .execute();
  return token;
}

/** `insertAccountToken` in a transaction of its own. */
export async function createAccountToken(
  db: DB,
  userId: string,
  purpose: AccountTokenPurpose,
  ttlMs: number,
): Promise<string> {
  return db.transaction().execute((trx) => insertAccountToken(trx, userId, purpose, ttlMs));
}

/** Whether the token is valid now (without using it). */
export async function peekAccountToken(db: DB, token: string, purpose: AccountTokenPurpose): Promise<string | null> {
  const row = await db
    .selectFrom("password_reset_tokens")
    .select("user_id")
    .where("token_hash", "=", hash(token))
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .where("expires_at", ">", now())
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** Uses the token once: two requests with the same token cannot both succeed. */
export async function consumeAccountToken(db: DB, token: string, purpose: AccountTokenPurpose): Promise<string | null> {
  const row = await db
    .updateTable("password_reset_tokens")
    .set({ used_at: now() })
    .where("token_hash", "=", hash(token))
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .where("expires_at", ">", now())
    .returning("user_id")
    .executeTakeFirst();
  return row?.user_id ?? null;
}

type AccountLink = {
  purpose: Exclude<AccountTokenPurpose, "invite">;
  ttlMs: number;
  path: string;
  keys: { subject: string; heading: string; paragraphs: string[]; action: string };
};

const LINKS: Record<AccountLink["purpose"], AccountLink> = {
  reset: {
    purpose: "reset",
    ttlMs: RESET_TOKEN_TTL_MS,
    path: "/reset-password",
    keys: {
      subject: "email.resetSubject",
      heading: "email.resetHeading",
      paragraphs: ["email.resetText", "email.resetIgnore"],
      action: "email.resetAction",
    },
  },
  verify: {
    purpose: "verify",
    ttlMs: VERIFY_TOKEN_TTL_MS,
    path: "/verify-email",
    keys: {
      subject: "email.verifySubject",
      heading: "email.verifyHeading",
      paragraphs: ["email.verifyText"],
      action: "email.verifyAction",
    },
  },
};

/**
 * A single-use link (reset or verify) in the recipient's language: the token and its e-mail
 * written in the caller's transaction `trx`, so the e-mail exists exactly when the link does.
 */
async function queueAccountLinkEmail(
  trx: DB,
  config: Pick<Config, "publicUrl">,
  user: Pick<UserRow, "id" | "email">,
  language: Language,
  link: AccountLink,
): Promise<void> {
  const token = await insertAccountToken(trx, user.id, link.purpose, link.ttlMs);
  const url = `${config.publicUrl}${link.path}?token=${encodeURIComponent(token)}`;
  const message = await renderLocalizedEmail(await loadShop(trx), user.email, language, (t, shop) => ({
    subject: translateKey(t, link.keys.subject, { shop }),
    heading: translateKey(t, link.keys.heading),
    paragraphs: link.keys.paragraphs.map((key) => translateKey(t, key)),
    action: { label: translateKey(t, link.keys.action), url },
  }));
  await queueEmail(trx, message, { event: `account.${link.purpose}`, audience: "customer", language });
}

/** The e-mail address check of a new account, queued in the transaction that creates it (signUp). */
export function queueVerificationEmail(
  trx: DB,
  config: Pick<Config, "publicUrl">,
  user: Pick<UserRow, "id" | "email">,
  language: Language,
): Promise<void> {
  return queueAccountLinkEmail(trx, config, user, language, LINKS.verify);
}

/** "Forgot password": a new reset link (an earlier unused one stops working) and its e-mail, in one transaction. */
export async function sendPasswordResetEmail(
  db: DB,
  config: Pick<Config, "publicUrl">,
  user: Pick<UserRow, "id" | "email">,
  language: Language,
): Promise<void> {
  await db.transaction().execute((trx) => queueAccountLinkEmail(trx, config, user, language, LINKS.reset));
}
