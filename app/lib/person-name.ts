/**
 * A person's full name from the two fields the checkout asks for. The order follows how the
 * name itself is written, not the page's language: a name in Chinese (or another East Asian)
 * script is family name first without a space, "陳大文", on a Chinese or an English page alike
 * (there is no other way to write it); a name in Latin script is given name first, "Tai Man
 * Chan" ("Emma Watson"), which is also how Hong Kong's Chinese text shows a Western name.
 * Either part may be empty.
 */
export function formatPersonName(first: string | null | undefined, last: string | null | undefined): string {
  const given = (first ?? "").trim();
  const family = (last ?? "").trim();
  if (!given || !family) return given || family;
  if (isEastAsian(given) && isEastAsian(family)) return `${family}${given}`;
  return `${given} ${family}`;
}

/** Han, kana or Hangul and nothing Latin: written family name first. */
const EAST_ASIAN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const LATIN = /\p{Script=Latin}/u;

function isEastAsian(part: string): boolean {
  return EAST_ASIAN.test(part) && !LATIN.test(part);
}
