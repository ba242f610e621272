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
