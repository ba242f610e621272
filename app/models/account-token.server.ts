import crypto from "node:crypto";
import { type DB, now } from "#db/connect.server";
import type { AccountTokenPurpose, UserRow } from "#db/schema";
import type { Config } from "~/lib/config.server";
import { type Mailer, sendLocalizedEmail } from "~/lib/mail.server";
import { translateKey } from "~/lib/translate-key";
import type { Language } from "~/locales";
import { loadShop } from "./settings/shop.server";

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
export const VERIFY_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
/** A staff invitation's link lasts a week: long enough for a weekend (docs/decisions/042). */
export const INVITE_TOKEN_TTL_DAYS = 7;
export const INVITE_TOKEN_TTL_MS = INVITE_TOKEN_TTL_DAYS * 24 * 60 * 60 * 1000;

function hash(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/** A single-use token for `purpose`; only its hash is stored. Earlier unused ones stop working. */
export async function createAccountToken(
  db: DB,
  userId: string,
  purpose: AccountTokenPurpose,
  ttlMs: number,
): Promise<string> {
  const token = crypto.randomBytes(32).toString("base64url");
  await db.transaction().execute(async (trx) => {
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
  });
  return token;
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

/** E-mails a single-use link (reset or verify) in the recipient's language. */
async function sendAccountLinkEmail(
  db: DB,
  mailer: Mailer,
  config: Pick<Config, "publicUrl">,
  user: Pick<UserRow, "id" | "email">,
  language: Language,
  link: AccountLink,
): Promise<void> {
  const token = await createAccountToken(db, user.id, link.purpose, link.ttlMs);
  const url = `${config.publicUrl}${link.path}?token=${encodeURIComponent(token)}`;
  await sendLocalizedEmail(mailer, await loadShop(db), user.email, language, (t, shop) => ({
    subject: translateKey(t, link.keys.subject, { shop }),
    heading: translateKey(t, link.keys.heading),
    paragraphs: link.keys.paragraphs.map((key) => translateKey(t, key)),
    action: { label: translateKey(t, link.keys.action), url },
  }));
}

/** The sender of one kind of account link, as the routes call it. */
function accountLinkSender(link: AccountLink) {
  return (
    db: DB,
    mailer: Mailer,
    config: Pick<Config, "publicUrl">,
    user: Pick<UserRow, "id" | "email">,
    language: Language,
  ): Promise<void> => sendAccountLinkEmail(db, mailer, config, user, language, link);
}

export const sendPasswordResetEmail = accountLinkSender(LINKS.reset);
export const sendVerificationEmail = accountLinkSender(LINKS.verify);
