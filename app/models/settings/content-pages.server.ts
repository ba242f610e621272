import type { DB } from "#db/connect.server";
import type { Currency } from "#db/schema";
import {
  CONTENT_PAGES,
  type ContentPageSlug,
  type ContentPageText,
  DEFAULT_PAGES_UPDATED,
  defaultContentPage,
  type PagePlaceholder,
} from "~/content/pages";
import { formatMoneyShort } from "~/lib/money";
import type { Language } from "~/locales";
import { auditAction } from "../audit.server";
import { type ShopDetails, shopName } from "./shop.server";
import { deleteSetting, getSetting, putSetting } from "./site-settings.server";

/**
 * The policy pages as the owner wrote them (Settings → Shop details → Policy pages): one
 * site_settings row per page holding both languages; a page never edited shows its default
 * text (app/content/pages.ts). Placeholders in the text are filled with the shop's details.
 */

export type BilingualPage = Record<Language, ContentPageText>;

export interface ContentPageRecord {
  slug: ContentPageSlug;
  text: BilingualPage;
  /** When the owner last saved it; null while it shows the default text. */
  editedAt: string | null;
  /** The date the page says it was last updated. */
  updated: string;
}

const settingKey = (slug: ContentPageSlug) => `page.${slug}`;

function defaults(slug: ContentPageSlug): BilingualPage {
  return { en: defaultContentPage(slug, "en"), zh: defaultContentPage(slug, "zh") };
}

function isPageText(value: unknown): value is ContentPageText {
  if (typeof value !== "object" || value === null) return false;
  const page = value as Record<string, unknown>;
  return typeof page.title === "string" && typeof page.description === "string" && typeof page.body === "string";
}

function parseStored(slug: ContentPageSlug, json: string): BilingualPage {
  const fallback = defaults(slug);
  try {
    const stored = JSON.parse(json) as Record<string, unknown>;
    return {
      en: isPageText(stored.en) ? stored.en : fallback.en,
      zh: isPageText(stored.zh) ? stored.zh : fallback.zh,
    };
  } catch {
    return fallback;
  }
}

function record(slug: ContentPageSlug, row: { value: string; updated_at: string } | undefined): ContentPageRecord {
  return row
    ? { slug, text: parseStored(slug, row.value), editedAt: row.updated_at, updated: row.updated_at }
    : { slug, text: defaults(slug), editedAt: null, updated: DEFAULT_PAGES_UPDATED };
}

export async function findContentPage(db: DB, slug: ContentPageSlug): Promise<ContentPageRecord> {
  const row = await db
    .selectFrom("site_settings")
    .select(["value", "updated_at"])
    .where("key", "=", settingKey(slug))
    .executeTakeFirst();
  return record(slug, row);
}

/** Every policy page, in the footer's order, with whether the owner has edited it. */
export async function listContentPages(db: DB): Promise<ContentPageRecord[]> {
  const rows = await db
    .selectFrom("site_settings")
    .select(["key", "value", "updated_at"])
    .where(
      "key",
      "in",
      CONTENT_PAGES.map((slug) => settingKey(slug)),
    )
    .execute();
  const byKey = new Map(rows.map((row) => [row.key, row]));
  return CONTENT_PAGES.map((slug) => record(slug, byKey.get(settingKey(slug))));
}

/** The page shows its default text again (the owner's text is kept in the audit log). */
export function resetContentPage(
  db: DB,
  slug: ContentPageSlug,
  options: { actorUserId: string | null },
): Promise<void> {
  return saveContentPage(db, slug, null, options);
}

/**
 * Saves both languages of a page as the owner wrote them (null: back to the default text), with
 * its audit entry holding the text before, in one transaction.
 */
export async function saveContentPage(
  db: DB,
  slug: ContentPageSlug,
  text: BilingualPage | null,
  options: { actorUserId: string | null },
): Promise<void> {
  const key = settingKey(slug);
  await db.transaction().execute(async (trx) => {
    const before = await getSetting(trx, key);
    if (text === null) {
      if (before === null) return;
      await deleteSetting(trx, key);
    } else {
      await putSetting(trx, key, JSON.stringify(text));
    }
    await auditAction(trx, options.actorUserId, text === null ? "setting.page_reset" : "setting.page_updated", key, {
      before: before === null ? null : JSON.parse(before),
      after: text,
    });
  });
}

/**
 * What the placeholders stand for on a page read in `language` by a shopper paying in
 * `currency`. `neverFree` is what {{free_shipping_above}} says when delivery is never free.
 */
export function placeholderValues(
  shop: ShopDetails,
  language: Language,
  currency: Currency,
  neverFree: string,
): Record<PagePlaceholder, string> {
  const rule = shop.shipping[currency];
  return {
    shop_name: shopName(shop, language),
    support_email: shop.supportEmail,
    address: shop.address[language] || shop.address.en,
    shipping_fee: formatMoneyShort(rule.feeCents, currency),
    free_shipping_above: rule.freeAboveCents === null ? neverFree : formatMoneyShort(rule.freeAboveCents, currency),
  };
}

const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;

/** Markdown's special characters escaped, so a shop's name or address stays plain text. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, "\\$&");
}

/**
 * Fills the placeholders of a page's text; an unknown one stays as written. `markdown`: the
 * values are escaped so they read as plain text in Markdown (the body); otherwise inserted as is
 * (title and description, which are plain text).
 */
export function fillPlaceholders(
  text: string,
  values: Record<PagePlaceholder, string>,
  options: { markdown: boolean },
): string {
  return text.replace(PLACEHOLDER, (match, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name as PagePlaceholder] : undefined;
    if (value === undefined) return match;
    return options.markdown ? escapeMarkdown(value) : value;
  });
}
