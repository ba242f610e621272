import { type DB, preparedRead, sqliteHandle } from "#db/connect.server";
import type { AdminRole } from "#db/schema";

/**
 * The `sessions` table's statements (the session itself, its cookie and its rules are
 * app/request/session.server.ts). Rows are keyed by the SHA-256 of the cookie's token.
 */

/** A stored session with what a request needs of its user, read in one statement. */
export interface SessionRecord {
  user_id: string | null;
  data: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  user_status: string | null;
  user_email: string | null;
  /** The admin_users role of the user (by e-mail first, else by id); the owner by SHOP_OWNER_EMAIL is the caller's. */
  admin_role: AdminRole | null;
  /** The signed-in user's cart and its number of lines (null and 0 without a user or a cart). */
  user_cart_id: string | null;
  user_cart_lines: number | null;
}

/**
 * The session `id` with its user's status, e-mail, admin role and cart: one statement for
 * everything a signed-in request asks before its loaders (the role as `adminRole` in
 * app/models/user.server.ts finds it: a row naming the user's e-mail wins over one naming only the
 * user's id; the cart as `findCartWithCount` finds a user's).
 */
export async function findSessionRecord(
  db: DB,
  id: string,
  /** `visitor_version` as the caller read it just before (`readPageVersions`): not read again. */
  knownVersion?: number,
): Promise<Readonly<SessionRecord> | undefined> {
  // PostgreSQL (no triggers raise the version there, migration 0032) and inside a transaction
  // (sqliteHandle knows only the root handle): the statement, every time.
  if (!sqliteHandle(db)) {
    const [row] = await sessionRecord(db, id);
    return row;
  }
  const version = knownVersion ?? (await readVisitorVersion(db));
  let memo = memos.get(db);
  if (!memo) {
    memo = new Map();
    memos.set(db, memo);
  }
  const kept = memo.get(id);
  if (kept && kept.version === version) return kept.row;
  // Read after the version: a write in between files a newer row under the older version, read
  // again at the next request — never an older row under a newer version.
  const [row] = await sessionRecord(db, id);
  memo.delete(id);
  if (row) {
    memo.set(id, { version, row });
    if (memo.size > SESSIONS_KEPT) memo.delete(memo.keys().next().value as string);
  }
  return row;
}

/**
 * The session memo (docs/decisions/077), SQLite only: the statement's answer per session id, filed
 * under `visitor_version`, which migration 0032's triggers raise in the same transaction as any
 * change to what the statement reads (the session, its user's e-mail or status, admin roles, the
 * user's cart and its lines), in whichever process. A signed-in page then costs one primary-key
 * read, as an anonymous one does for the catalogue. One memo per database handle (tests open
 * many); its rows are shared by every caller: never change one.
 */
const memos = new WeakMap<DB, Map<string, { version: number; row: SessionRecord }>>();
/** Sessions kept per process (the oldest stored goes first): ~1 KB each. */
const SESSIONS_KEPT = 10_000;
const visitorVersion = preparedRead((db: DB) => db.selectFrom("visitor_version").select("version").where("id", "=", 1));

/** `visitor_version` (migration 0032): what the session memo is filed under. */
export async function readVisitorVersion(db: DB): Promise<number> {
  const [row] = await visitorVersion(db);
  return Number(row?.version ?? 0);
}

/** Prepared once (a read of every signed-in page: db/connect.server.ts `preparedRead`). */
const sessionRecord = preparedRead((db: DB, id: string) =>
  db
    .selectFrom("sessions")
    .leftJoin("users", "users.id", "sessions.user_id")
    .select((eb) => [
      "sessions.user_id",
      "sessions.data",
      "sessions.created_at",
      "sessions.last_seen_at",
      "sessions.expires_at",
      "users.status as user_status",
      "users.email as user_email",
      // A row naming the e-mail first, else one naming the id: two indexed lookups, no sort.
      eb.fn
        .coalesce(
          eb
            .selectFrom("admin_users")
            .select("admin_users.role")
            .where((w) => w(w.fn("lower", ["admin_users.email"]), "=", w.fn("lower", ["users.email"])))
            .limit(1),
          eb
            .selectFrom("admin_users")
            .select("admin_users.role")
            .whereRef("admin_users.user_id", "=", "users.id")
            .limit(1),
        )
        .$castTo<AdminRole | null>()
        .as("admin_role"),
      eb.selectFrom("carts").select("carts.id").whereRef("carts.user_id", "=", "users.id").as("user_cart_id"),
      eb
        .selectFrom("cart_lines")
        .innerJoin("carts", "carts.id", "cart_lines.cart_id")
        .select((c) => c.fn.countAll<number>().as("n"))
        .whereRef("carts.user_id", "=", "users.id")
        .as("user_cart_lines"),
    ])
    .where("sessions.id", "=", id),
);

export async function deleteSessionRecord(db: DB, id: string): Promise<void> {
  await db.deleteFrom("sessions").where("id", "=", id).execute();
}

/** Saves a session's user and data and marks it seen at `timestamp`. */
export async function updateSessionRecord(
  db: DB,
  id: string,
  values: { userId: string | null; data: string; timestamp: string },
): Promise<void> {
  await db
    .updateTable("sessions")
    .set({ user_id: values.userId, data: values.data, last_seen_at: values.timestamp })
    .where("id", "=", id)
    .execute();
}

export async function insertSessionRecord(
  db: DB,
  values: {
    id: string;
    userId: string | null;
    data: string;
    ip: string | null;
    userAgent: string | null;
    timestamp: string;
    expiresAt: string;
  },
): Promise<void> {
  await db
    .insertInto("sessions")
    .values({
      id: values.id,
      user_id: values.userId,
      data: values.data,
      ip: values.ip,
      user_agent: values.userAgent?.slice(0, 500) ?? null,
      created_at: values.timestamp,
      last_seen_at: values.timestamp,
      expires_at: values.expiresAt,
    })
    .execute();
}
