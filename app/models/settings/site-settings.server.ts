import { type DB, now } from "#db/connect.server";
import { deletePublicImage, dropReplacedImage, savingImage } from "~/lib/images.server";
import { publicUrl, type Storage } from "~/lib/storage.server";
import { auditAction } from "../audit.server";

export const HERO_IMAGE_KEY = "hero_background_image";
/**
 * The storage key of the seeded demo hero image (db/seed writes it as DEMO_HERO_SETTING_KEY):
 * "Remove demo data" resets the hero while it is still this one.
 */
export const DEMO_HERO_IMAGE_KEY = "demo_hero_image";

/** The value stored under `key`; null when there is none. */
export async function getSetting(db: DB, key: string): Promise<string | null> {
  const row = await db.selectFrom("site_settings").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value ?? null;
}

/** Stores `value` under `key`, inserted or replaced, stamped with the time of the change. */
export async function putSetting(db: DB, key: string, value: string): Promise<void> {
  const at = now();
  await db
    .insertInto("site_settings")
    .values({ key, value, updated_at: at })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: at }))
    .execute();
}

/** Removes the value stored under `key` (none stored is fine). */
export async function deleteSetting(db: DB, key: string): Promise<void> {
  await db.deleteFrom("site_settings").where("key", "=", key).execute();
}

/* ------------------------------------------------------------------------------------------
 * The hero background of the store's home page
 * ------------------------------------------------------------------------------------------ */

/** The image the home page shows when the operator has set none (ships with the shop). */
export const DEFAULT_HERO_URL = "/images/hero-default.webp";

export interface HeroImage {
  /** Storage key of the operator's image, null when the default shows. */
  key: string | null;
  url: string;
  updatedAt: string | null;
}

export async function findHeroImage(db: DB): Promise<HeroImage> {
  const row = await db.selectFrom("site_settings").selectAll().where("key", "=", HERO_IMAGE_KEY).executeTakeFirst();
  return {
    key: row?.value ?? null,
    url: publicUrl(row?.value) ?? DEFAULT_HERO_URL,
    updatedAt: row?.updated_at ?? null,
  };
}

/**
 * Makes `imageKey` (already stored through the image pipeline) the home page's hero image: the
 * setting is upserted, then the previous file is deleted. If the setting cannot be saved, the
 * new file is deleted instead.
 */
export async function updateHeroImage(
  db: DB,
  storage: Storage,
  imageKey: string,
  options: { actorUserId: string | null },
): Promise<void> {
  const previous = await savingImage(storage, imageKey, () =>
    db.transaction().execute(async (trx) => {
      const before = await getSetting(trx, HERO_IMAGE_KEY);
      await putSetting(trx, HERO_IMAGE_KEY, imageKey);
      await auditAction(trx, options.actorUserId, "setting.hero_updated", HERO_IMAGE_KEY, {
        before: before === null ? null : { value: before },
        after: { value: imageKey },
      });
      return before;
    }),
  );
  await dropReplacedImage(storage, previous, imageKey);
}

/** Goes back to the default hero image: the setting is removed, then the operator's file. */
export async function resetHeroImage(db: DB, storage: Storage, options: { actorUserId: string | null }) {
  const previous = await db.transaction().execute(async (trx) => {
    const before = await getSetting(trx, HERO_IMAGE_KEY);
    if (before === null) return null;
    await deleteSetting(trx, HERO_IMAGE_KEY);
    await auditAction(trx, options.actorUserId, "setting.hero_updated", HERO_IMAGE_KEY, {
      before: { value: before },
    });
    return before;
  });
  await deletePublicImage(storage, previous);
}
