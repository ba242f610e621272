/**
 * Query helpers every model shares.
 */

/**
 * A LIKE pattern that finds `term` anywhere, with the wildcards in it escaped, so a search for
 * "50%" means fifty percent. Use with `escape '\'` where the database needs it spelled out.
 */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The fields `keys` of a parsed form, as the columns an insert or update writes them to. */
export function pickColumns<T extends object, K extends keyof T>(input: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, input[key]])) as Pick<T, K>;
}
