import type { DB } from "#db/connect.server";
import { DEFAULT_SEARCH_SYNONYMS } from "~/content/search-synonyms";
import { termKey } from "~/schemas/search-synonyms";
import { auditAction } from "../audit.server";
import { deleteSetting, getSetting, putSetting } from "./site-settings.server";

/**
 * Search synonyms (docs/decisions/043): groups of words that mean the same thing to a shopper
 * (步槍 / 長槍 / rifle). A search whose term is a word of a group (ignoring case and full-width
 * letters) looks for every word of the group; any other search looks for its term alone. The
 * owner's groups are one site_settings row (JSON); until the owner saves a list, the shop's
 * default list applies, and an empty list saved means no synonyms at all.
 *
 * Cached pages need no telling: site_settings is one of the tables whose changes raise the
 * page cache's version (migration 0011), so search pages rendered with the old list are not
 * served once the new one is saved.
 */

export const SEARCH_SYNONYMS_KEY = "search_synonyms";

export interface SearchSynonyms {
  groups: string[][];
  /** When the owner last saved the list; null while the default list applies. */
  editedAt: string | null;
}

const defaults = (): string[][] => DEFAULT_SEARCH_SYNONYMS.map((group) => [...group]);

function parseStored(json: string): string[][] {
  try {
    const stored: unknown = JSON.parse(json);
    if (!Array.isArray(stored)) return defaults();
    return stored.filter(
      (group): group is string[] =>
        Array.isArray(group) && group.length >= 2 && group.every((term) => typeof term === "string"),
    );
  } catch {
    return defaults();
  }
}

export async function loadSearchSynonyms(db: DB): Promise<SearchSynonyms> {
  const row = await db
    .selectFrom("site_settings")
    .select(["value", "updated_at"])
    .where("key", "=", SEARCH_SYNONYMS_KEY)
    .executeTakeFirst();
  return row ? { groups: parseStored(row.value), editedAt: row.updated_at } : { groups: defaults(), editedAt: null };
}

/**
 * What a search for `term` (normalised, as the search box's) looks for: the term itself first,
 * then the other words of its synonym group, if it is a word of one.
 */
export function searchTermsIn(groups: readonly (readonly string[])[], term: string): string[] {
  const key = termKey(term);
  const group = groups.find((words) => words.some((word) => termKey(word) === key));
  if (!group) return [term];
  return [term, ...group.filter((word) => termKey(word) !== key)];
}

/** `searchTermsIn` with the shop's current list. */
export async function searchTerms(db: DB, term: string): Promise<string[]> {
  const { groups } = await loadSearchSynonyms(db);
  return searchTermsIn(groups, term);
}

/** Saves the owner's groups (already checked by the form's schema), with its audit entry. */
export async function saveSearchSynonyms(
  db: DB,
  groups: readonly (readonly string[])[],
  options: { actorUserId: string | null },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await getSetting(trx, SEARCH_SYNONYMS_KEY);
    await putSetting(trx, SEARCH_SYNONYMS_KEY, JSON.stringify(groups));
    await auditAction(trx, options.actorUserId, "setting.search_synonyms_updated", SEARCH_SYNONYMS_KEY, {
      before: before === null ? null : parseStored(before),
      after: groups,
    });
  });
}

/** Goes back to the shop's default list (nothing to do while it applies). */
export async function resetSearchSynonyms(db: DB, options: { actorUserId: string | null }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await getSetting(trx, SEARCH_SYNONYMS_KEY);
    if (before === null) return;
    await deleteSetting(trx, SEARCH_SYNONYMS_KEY);
    await auditAction(trx, options.actorUserId, "setting.search_synonyms_reset", SEARCH_SYNONYMS_KEY, {
      before: parseStored(before),
    });
  });
}
