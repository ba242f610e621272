/**
 * Text for an XML document (the shopping feeds, docs/decisions/056): the five markup characters
 * escaped, and the characters XML 1.0 cannot hold at all (C0 controls other than tab, line feed
 * and carriage return; U+FFFE/U+FFFF; unpaired surrogates) dropped, so a stray control character
 * pasted into a product name cannot make the whole document unreadable.
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** Whether XML 1.0 allows the code point (its `Char` production). */
function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    code >= 0x10000
  );
}

/** `text` without the characters XML cannot hold (a string iterates by code point: a lone surrogate comes alone). */
function xmlChars(text: string): string {
  let out = "";
  for (const char of text) if (isXmlChar(char.codePointAt(0) as number)) out += char;
  return out;
}

/** Anything that might not be an allowed character: below space, a surrogate, U+FFFE/U+FFFF. */
const SUSPECT = /[^\t\n\r\x20-\ud7ff\ue000-\ufffd]/;

/** `text` as XML character data or an attribute value. */
export function xmlText(text: string): string {
  return (SUSPECT.test(text) ? xmlChars(text) : text).replace(/[&<>"']/g, (char) => ESCAPES[char] as string);
}

/** `<name>text</name>`, the text escaped; `name` is the caller's own, never input. */
export function xmlElement(name: string, text: string): string {
  return `<${name}>${xmlText(text)}</${name}>`;
}
