import type { DB } from "#db/connect.server";

export const HERO_IMAGE_KEY = "hero_background_image";
/**
 * The storage key of the seeded demo hero image (db/seed writes it as DEMO_HERO_SETTING_KEY):
 * "Remove demo data" resets the hero while it is still this one.
 */
export const DEMO_HERO_IMAGE_KEY = "demo_hero_image";

export async function getSetting(db: DB, key: string): Promise<string | null> {
  const row = await db.selectFrom("site_settings").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value ?? null;
}
