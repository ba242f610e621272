import type { DB } from "#db/connect.server";
import { localized } from "~/lib/localize";
import { UserError } from "~/lib/problem";
import type { Language } from "~/locales";
import { DEFAULT_AGE_TEXT } from "~/schemas/age-text";
import { auditAction } from "../audit.server";
import { getSetting, putSetting } from "../settings/site-settings.server";

/**
 * Age confirmation (issue 27, docs/decisions/049). A product is 18+ when it or its category is
 * marked so; a cart holding one needs the shopper's "I am 18 or older" at checkout, and the order
 * keeps when and from which client address they confirmed it.
 */

/** When and from where the shopper confirmed being 18 or older (the checkout's request). */
export interface AgeConfirmation {
  /** ISO time of the checkout request that carried the ticked box. */
  at: string;
  /** The request's client address (through the proxy only when TRUST_PROXY is on); null when unknown. */
  ip: string | null;
}

export { DEFAULT_AGE_TEXT };

export const AGE_TEXT_KEYS = { en: "age_confirmation_text_en", zh: "age_confirmation_text_zh" } as const;

export interface AgeText {
  text_en: string;
  text_zh: string;
}

/** The checkbox's text in both languages: the owner's, else the default. */
export async function loadAgeText(db: DB): Promise<AgeText> {
  const [en, zh] = await Promise.all([getSetting(db, AGE_TEXT_KEYS.en), getSetting(db, AGE_TEXT_KEYS.zh)]);
  return { text_en: en?.trim() || DEFAULT_AGE_TEXT.en, text_zh: zh?.trim() || DEFAULT_AGE_TEXT.zh };
}

/** The checkbox's text in `language`. */
export async function ageTextIn(db: DB, language: Language): Promise<string> {
  return localized(await loadAgeText(db), "text", language);
}

/** Saves the checkbox's text (owner only: the route checks); an empty text goes back to the default. */
export async function saveAgeText(db: DB, actorUserId: string, text: { en: string; zh: string }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await loadAgeText(trx);
    await putSetting(trx, AGE_TEXT_KEYS.en, text.en.trim());
    await putSetting(trx, AGE_TEXT_KEYS.zh, text.zh.trim());
    await auditAction(trx, actorUserId, "settings.age_text_updated", null, { before, after: await loadAgeText(trx) });
  });
}

/** The 18+ lines of a cart (the product or its category marked), with their names; none: no confirmation needed. */
export async function adultLinesOfCart(db: DB, cartId: string | null) {
  if (!cartId) return [];
  return db
    .selectFrom("cart_lines")
    .innerJoin("products", "products.id", "cart_lines.product_id")
    .leftJoin("categories", "categories.id", "products.category_id")
    .select(["products.id", "products.name_en", "products.name_zh"])
    .where("cart_lines.cart_id", "=", cartId)
    .where((eb) => eb.or([eb("products.adult_only", "=", 1), eb("categories.adult_only", "=", 1)]))
    .orderBy("cart_lines.id")
    .execute();
}

/** Whether checking out this cart needs the age confirmation. */
export async function cartNeedsAgeConfirmation(db: DB, cartId: string | null): Promise<boolean> {
  return (await adultLinesOfCart(db, cartId)).length > 0;
}

/**
 * The confirmation an order of this cart records: null when nothing in it is 18+; a refusal (409
 * naming the first 18+ item) when something is and the shopper has not confirmed — whatever the
 * form said, a cart that gained an 18+ item after checkout included.
 */
export async function requireAgeConfirmation(
  db: DB,
  cartId: string,
  confirmation: AgeConfirmation | null | undefined,
  locale: Language,
): Promise<AgeConfirmation | null> {
  const [first] = await adultLinesOfCart(db, cartId);
  if (!first) return null;
  if (!confirmation?.at) {
    throw new UserError("checkout.errors.ageNotConfirmed", {
      params: { name: localized(first, "name", locale) },
      status: 409,
    });
  }
  return confirmation;
}
