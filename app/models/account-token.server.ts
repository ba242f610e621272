import crypto from "node:crypto";
import { type DB, now } from "#db/connect.server";
import type { AccountTokenPurpose, UserRow } from "#db/schema";
import type { Config } from "~/lib/config.server";
import { type Mailer, sendLocalizedEmail } from "~/lib/mail.server";
import type { Language } from "~/locales";

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
export const VERIFY_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

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

export async function sendPasswordResetEmail(
  db: DB,
  mailer: Mailer,
  config: Pick<Config, "publicUrl">,
  user: Pick<UserRow, "id" | "email">,
  language: Language,
): Promise<void> {
  const token = await createAccountToken(db, user.id, "reset", RESET_TOKEN_TTL_MS);
  const url = `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
  await sendLocalizedEmail(mailer, user.email, language, (t) => ({
    subject: t("email.resetSubject"),
    heading: t("email.resetHeading"),
    paragraphs: [t("email.resetText"), t("email.resetIgnore")],
    action: { label: t("email.resetAction"), url },
  }));
}

export async function sendVerificationEmail(
  db: DB,
  mailer: Mailer,
  config: Pick<Config, "publicUrl">,
  user: Pick<UserRow, "id" | "email">,
  language: Language,
): Promise<void> {
  const token = await createAccountToken(db, user.id, "verify", VERIFY_TOKEN_TTL_MS);
  const url = `${config.publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
  await sendLocalizedEmail(mailer, user.email, language, (t) => ({
    subject: t("email.verifySubject"),
    heading: t("email.verifyHeading"),
    paragraphs: [t("email.verifyText")],
    action: { label: t("email.verifyAction"), url },
  }));
}
