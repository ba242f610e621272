import type { DB } from "#db/connect.server";
import { CURRENCIES, type Currency } from "#db/schema";
import { LANGUAGES, type Language } from "~/locales";
import { auditAction } from "../audit.server";
import { getSetting, putSetting } from "./site-settings.server";

/**
 * Shopping feeds (issue 28 item 5, docs/decisions/056): which Google Merchant Center product
 * feeds the shop publishes, one per language and currency the owner turns on in Settings →
 * Shopping feeds. Stored as one setting, a JSON list of "en-HKD"-style names; none are on until
 * the owner turns one on (a feed nobody reads is only load on the server).
 */

export const FEEDS_SETTING_KEY = "shopping_feeds";

export interface Feed {
  language: Language;
  currency: Currency;
}

/** Every feed the shop can publish, languages first: en-HKD, en-GBP, …, zh-USD. */
export const ALL_FEEDS: readonly Feed[] = LANGUAGES.flatMap((language) =>
  CURRENCIES.map((currency) => ({ language, currency })),
);

/** A feed's name as stored and as the settings form's checkbox value: "en-HKD". */
export function feedName(feed: Feed): string {
  return `${feed.language}-${feed.currency}`;
}

/** The feed a name stands for; null for anything else. */
export function parseFeedName(name: string): Feed | null {
  return ALL_FEEDS.find((feed) => feedName(feed) === name) ?? null;
}

/** The feed's path: /feeds/google/en/HKD.xml. */
export function feedPath(feed: Feed): string {
  return `/feeds/google/${feed.language}/${feed.currency}.xml`;
}

/** The feed's full address, to paste into Merchant Center (PUBLIC_URL based). */
export function feedUrl(siteUrl: string, feed: Feed): string {
  return `${siteUrl}${feedPath(feed)}`;
}

/** The feeds turned on, in ALL_FEEDS order (a stored name that is not a feed is ignored). */
export async function loadEnabledFeeds(db: DB): Promise<Feed[]> {
  const stored = await getSetting(db, FEEDS_SETTING_KEY);
  let names: unknown = [];
  try {
    names = stored === null ? [] : JSON.parse(stored);
  } catch {
    names = [];
  }
  const wanted = new Set(Array.isArray(names) ? names.filter((name) => typeof name === "string") : []);
  return ALL_FEEDS.filter((feed) => wanted.has(feedName(feed)));
}

/** Whether the feed of `language` and `currency` is on. */
export async function isFeedEnabled(db: DB, feed: Feed): Promise<boolean> {
  return (await loadEnabledFeeds(db)).some((on) => on.language === feed.language && on.currency === feed.currency);
}

/** Turns on exactly `feeds` (owner only: the route checks), audited with the list before and after. */
export async function saveEnabledFeeds(db: DB, actorUserId: string | null, feeds: readonly Feed[]): Promise<void> {
  const wanted = new Set(feeds.map(feedName));
  const names = ALL_FEEDS.map(feedName).filter((name) => wanted.has(name));
  await db.transaction().execute(async (trx) => {
    const before = (await loadEnabledFeeds(trx)).map(feedName);
    await putSetting(trx, FEEDS_SETTING_KEY, JSON.stringify(names));
    await auditAction(trx, actorUserId, "settings.shopping_feeds_updated", FEEDS_SETTING_KEY, {
      before,
      after: names,
    });
  });
}
