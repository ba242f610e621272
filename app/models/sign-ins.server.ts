import { type DB, now } from "#db/connect.server";

/** One sign-in attempt, kept for the customer page and the IP activity list (table sign_in_events). */
export interface SignInEvent {
  userId: string | null;
  email: string;
  success: boolean;
  ip: string | null;
  country: string | null;
  userAgent: string | null;
}

/** Records a sign-in attempt; returns its time. */
export async function recordSignIn(db: DB, event: SignInEvent): Promise<string> {
  const timestamp = now();
  await db
    .insertInto("sign_in_events")
    .values({
      user_id: event.userId,
      email: event.email.slice(0, 254),
      success: event.success ? 1 : 0,
      ip: event.ip,
      country: event.country,
      city: null,
      user_agent: event.userAgent?.slice(0, 500) ?? null,
      created_at: timestamp,
    })
    .execute();
  return timestamp;
}

/** The user's last sign-in (shown to the owner on the customer page). */
export async function markLastLogin(
  db: DB,
  userId: string,
  login: { timestamp: string; ip: string | null; country: string | null },
): Promise<void> {
  await db
    .updateTable("users")
    .set({
      last_login_at: login.timestamp,
      last_login_ip: login.ip,
      country: login.country,
      updated_at: login.timestamp,
    })
    .where("id", "=", userId)
    .execute();
}
