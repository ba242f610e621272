import type { DB } from "#db/connect.server";

export const HERO_IMAGE_KEY = "hero_background_image";

export async function getSetting(db: DB, key: string): Promise<string | null> {
  const row = await db.selectFrom("site_settings").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value ?? null;
}
