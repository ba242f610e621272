import crypto from "node:crypto";
import { type DB, now } from "#db/connect.server";
import { adminExists } from "../user.server";
import { deleteSetting, getSetting } from "./site-settings.server";

/**
 * The one-time first-admin setup token ("Add Me As Admin" on /admin/login) lives in the
 * database, not in a process's memory: every process of the shop (WEB_CONCURRENCY, several
 * machines) reads the same token, and the setup through any of them closes it for all.
 */
export const ADMIN_SETUP_TOKEN_KEY = "admin_setup_token";

/**
 * At start: while no admin exists, makes sure a setup token is stored and returns it (to print);
 * once an admin exists, removes any stored token and returns null.
 *
 * `ADMIN_SETUP_TOKEN` (`configured`) is stored as given (every process has the same setting); a
 * generated token is inserted only when none is stored, so the first process to start wins and
 * every other one reads the same value back.
 */
export async function openAdminSetup(
  db: DB,
  config: { shopOwnerEmail: string | null; adminSetupToken: string | null },
): Promise<string | null> {
  if (await adminExists(db, config.shopOwnerEmail)) {
    await deleteSetting(db, ADMIN_SETUP_TOKEN_KEY);
    return null;
  }
  const value = config.adminSetupToken ?? crypto.randomBytes(12).toString("base64url");
  const at = now();
  await db
    .insertInto("site_settings")
    .values({ key: ADMIN_SETUP_TOKEN_KEY, value, updated_at: at })
    .onConflict((oc) =>
      config.adminSetupToken ? oc.column("key").doUpdateSet({ value, updated_at: at }) : oc.column("key").doNothing(),
    )
    .execute();
  return getSetting(db, ADMIN_SETUP_TOKEN_KEY);
}

/** The stored setup token; null when the setup is closed. */
export function findAdminSetupToken(db: DB): Promise<string | null> {
  return getSetting(db, ADMIN_SETUP_TOKEN_KEY);
}

/**
 * Uses the token up: deletes it only if it is still `token`. True for exactly one caller, in
 * whichever process; every later (or concurrent) caller gets false.
 */
export async function consumeAdminSetupToken(db: DB, token: string): Promise<boolean> {
  const result = await db
    .deleteFrom("site_settings")
    .where("key", "=", ADMIN_SETUP_TOKEN_KEY)
    .where("value", "=", token)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Puts a consumed token back (the grant after it failed); a token stored meanwhile wins. */
export async function restoreAdminSetupToken(db: DB, token: string): Promise<void> {
  await db
    .insertInto("site_settings")
    .values({ key: ADMIN_SETUP_TOKEN_KEY, value: token, updated_at: now() })
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
}
