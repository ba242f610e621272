import type { DB } from "#db/connect.server";

/** The catalogue's version: one primary-key read of `page_cache_version` (migration 0011). */
export async function readCatalogueVersion(db: DB): Promise<number> {
  const row = await db.selectFrom("page_cache_version").select("version").where("id", "=", 1).executeTakeFirst();
  return Number(row?.version ?? 0);
}

interface Entry<V> {
  version: number;
  expiresAt: number;
  value: V;
}

export interface MemoOptions {
  /** Entries kept per database (the least recently used go first); 100 by default. */
  maxEntries?: number;
  /**
   * When a value stops being true with no write to the catalogue (a sale ends: migration 0011's
   * triggers see no write, decision 053), as a time in ms; never (Infinity) by default.
   */
  expiresAt?: (db: DB, key: string, now: number) => Promise<number> | number;
}

/**
 * A memo of values computed from the catalogue, kept while it does not change (decision 069):
 * every call reads the catalogue's version (migration 0011's triggers bump it on every write to
 * the tables a catalogue page shows, in any process), and a value computed under an older version,
 * or past its `expiresAt`, is computed again. One memo per database handle (tests open many);
 * inside a transaction it computes afresh (the transaction may have written). The value is
 * shared by every caller: never change it.
 */
export function catalogueMemo<V>(options: MemoOptions = {}) {
  const maxEntries = options.maxEntries ?? 100;
  const perDb = new WeakMap<DB, Map<string, Entry<V>>>();
  return async function memo(db: DB, key: string, compute: () => Promise<V>): Promise<V> {
    if (db.isTransaction) return compute();
    const version = await readCatalogueVersion(db);
    let entries = perDb.get(db);
    if (!entries) {
      entries = new Map();
      perDb.set(db, entries);
    }
    const now = Date.now();
    const entry = entries.get(key);
    if (entry && entry.version === version && now < entry.expiresAt) {
      // Most recently used last: Map keeps insertion order.
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    }
    // Read after the version: a write in between gives a newer value under the older version,
    // computed again on the next call — never an older value under a newer version.
    const value = await compute();
    const expiresAt = options.expiresAt ? await options.expiresAt(db, key, now) : Number.POSITIVE_INFINITY;
    entries.delete(key);
    entries.set(key, { version, expiresAt, value });
    if (entries.size > maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    return value;
  };
}
