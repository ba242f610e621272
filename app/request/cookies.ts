/** The pattern finding each cookie name, made once per name (these run on every page request). */
const patterns = new Map<string, RegExp>();

/**
 * The raw (still encoded, unverified) value of cookie `name` in a Cookie header, the first one if
 * it is sent twice, as the cookie parser reads it; undefined when absent. For cache keys and
 * memo keys only: read the value itself through its `createCookie`.
 */
export function rawCookieValue(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  let pattern = patterns.get(name);
  if (!pattern) {
    pattern = new RegExp(`(?:^|;\\s*)${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}=([^;]*)`);
    patterns.set(name, pattern);
  }
  return pattern.exec(header)?.[1];
}
