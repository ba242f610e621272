/**
 * A redirect target the shopper may supply (redirectTo): only a same-origin path is kept.
 * `//evil.com`, `/\evil.com`, absolute URLs, `javascript:` and control characters fall back.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || to.length === 0 || to.length > 2000) return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
  if (/[\u0000-\u001f\u007f\\]/.test(to)) return fallback;
  // Encoded control characters (%0d%0a...) have no place in a path we send people to.
  if (/%(?:[01][0-9a-f]|7f)/i.test(to)) return fallback;
  try {
    const url = new URL(to, "http://local.invalid");
    if (url.origin !== "http://local.invalid") return fallback;
    // Dot segments can collapse into a protocol-relative path: "/.//evil.com" -> "//evil.com".
    const path = `${url.pathname}${url.search}${url.hash}`;
    return path.startsWith("//") || path.startsWith("/\\") ? fallback : path;
  } catch {
    return fallback;
  }
}
