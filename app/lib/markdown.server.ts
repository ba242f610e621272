import { Marked } from "marked";
import sanitizeHtml from "sanitize-html";

/**
 * Blog posts are Markdown written in the admin panel. Markdown allows raw HTML, so whatever
 * marked produces goes through a strict allow-list before it reaches a page: no scripts, no
 * styles, no event handlers, no frames, links only to http(s)/mailto or paths on this site,
 * images only from our uploads or https.
 */
const marked = new Marked({ gfm: true, breaks: false, async: false });

/** The site's uploads (storage keys are plain words, never ".."), or any https address. */
export function isAllowedImageSrc(src: string | undefined): boolean {
  if (!src) return false;
  if (/^\/uploads\/[A-Za-z0-9_\-./]+$/.test(src)) return !src.includes("..");
  return /^https:\/\/[^\s/\\]+/i.test(src);
}

/** http(s), mailto, or a path on this site ("/category/rifles"; never "//host", which is another site). */
export function isAllowedLinkHref(href: string | undefined): boolean {
  if (!href) return false;
  if (/^\/(?![/\\])/.test(href)) return true;
  return /^(?:https?:\/\/|mailto:)/i.test(href);
}

const LINK_REL = "noopener noreferrer nofollow";

const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    "p",
    "h2",
    "h3",
    "h4",
    "strong",
    "em",
    "del",
    "a",
    "ul",
    "ol",
    "li",
    "blockquote",
    "code",
    "pre",
    "img",
    "hr",
    "br",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
  ],
  allowedAttributes: {
    a: ["href", "title", "rel"],
    img: ["src", "alt"],
    th: [{ name: "align", values: ["left", "center", "right"] }],
    td: [{ name: "align", values: ["left", "center", "right"] }],
    ol: ["start"],
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["https"] },
  allowProtocolRelative: false,
  allowedStyles: {},
  parseStyleAttributes: false,
  // Dropped together with their content, not just their tags.
  nonTextTags: ["script", "style", "textarea", "option", "noscript", "iframe", "template", "object", "title"],
  transformTags: {
    // The page's own <h1> is the post title; headings in the body start at h2 and stop at h4.
    h1: "h2",
    h5: "h4",
    h6: "h4",
    b: "strong",
    i: "em",
    a: (tagName, attribs) => ({
      tagName,
      attribs: isAllowedLinkHref(attribs.href)
        ? { href: attribs.href as string, ...(attribs.title ? { title: attribs.title } : {}), rel: LINK_REL }
        : {},
    }),
  },
  exclusiveFilter: (frame) => {
    if (frame.tag === "img") return !isAllowedImageSrc(frame.attribs.src);
    // A link whose address was refused keeps its text and loses the tag.
    if (frame.tag === "a" && !frame.attribs.href) return "excludeTag";
    return false;
  },
};

/** Markdown → HTML that is safe to put into a page as is. */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown, { async: false });
  return sanitizeHtml(html, SANITIZE_OPTIONS).trim();
}

const TEXT_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [],
  allowedAttributes: {},
  nonTextTags: SANITIZE_OPTIONS.nonTextTags,
};

/** sanitize-html re-escapes these four in its text output; everything else comes out decoded. */
function unescapeText(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

/**
 * Markdown → plain text of at most `maxLength` characters (for excerpts and meta descriptions).
 * A cut text ends in "…", on a word boundary when the text has spaces (Chinese has none).
 */
export function markdownToText(markdown: string, maxLength: number): string {
  const html = marked.parse(markdown, { async: false });
  // Block ends become spaces so paragraphs and list items do not run together.
  const spaced = html.replace(/<\/(p|h[1-6]|li|blockquote|pre|tr|td|th)>|<br\s*\/?>/gi, "$& ");
  const text = unescapeText(sanitizeHtml(spaced, TEXT_OPTIONS)).replace(/\s+/g, " ").trim();
  return truncate(text, maxLength);
}

function truncate(text: string, maxLength: number): string {
  const chars = Array.from(text);
  if (chars.length <= maxLength) return text;
  if (maxLength <= 1) return "…".slice(0, Math.max(0, maxLength));
  let cut = chars.slice(0, maxLength - 1).join("");
  const space = cut.lastIndexOf(" ");
  if (space > cut.length * 0.6) cut = cut.slice(0, space);
  return `${cut.replace(/[\s,.;:!?，。；：！？、]+$/u, "")}…`;
}
