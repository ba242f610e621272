import type { DB } from "#db/connect.server";
import { listPublishedPostIds } from "~/models/blog.server";
import { listActiveCategories } from "~/models/categories.server";
import { shownToShoppers } from "~/models/products/cards.server";

/** Pages that exist whatever the catalogue holds. */
export const STATIC_PATHS = [
  "/",
  "/shipping",
  "/returns",
  "/faq",
  "/contact",
  "/privacy",
  "/terms",
  "/blog",
  "/category/all",
  "/category/new-arrivals",
] as const;

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char] as string);
}

/** The date part of a stored ISO timestamp: what <lastmod> needs. */
function day(timestamp: string | null | undefined): string | null {
  return timestamp && /^\d{4}-\d{2}-\d{2}/.test(timestamp) ? timestamp.slice(0, 10) : null;
}

/**
 * A page's language versions, as the pages' own hreflang links give them (app/root.tsx
 * seoLinks): `?lng=en`, `?lng=zh` and, for x-default, the plain URL (the reader's language).
 */
export function alternates(base: string, path: string): { hreflang: string; href: string }[] {
  return [
    { hreflang: "en", href: `${base}${path}?lng=en` },
    { hreflang: "zh-Hant-HK", href: `${base}${path}?lng=zh` },
    { hreflang: "x-default", href: `${base}${path}` },
  ];
}

/**
 * The sitemap: the fixed pages, every active category, every product and every published post,
 * as absolute URLs under `publicUrl`, each with its English, Chinese and x-default alternates.
 * Products of an inactive category are left out, as they are everywhere shoppers look. One
 * query a table, so a catalogue of thousands of products stays one cheap request.
 */
export async function buildSitemap(db: DB, publicUrl: string): Promise<string> {
  const base = publicUrl.replace(/\/+$/, "");
  const [categories, products, posts] = await Promise.all([
    listActiveCategories(db),
    db.selectFrom("products").select(["id", "updated_at"]).where(shownToShoppers).orderBy("id").execute(),
    listPublishedPostIds(db),
  ]);

  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n',
  ];
  const url = (path: string, lastmod: string | null = null) => {
    const mod = lastmod ? `<lastmod>${lastmod}</lastmod>` : "";
    const links = alternates(base, path)
      .map((alt) => `<xhtml:link rel="alternate" hreflang="${alt.hreflang}" href="${escapeXml(alt.href)}"/>`)
      .join("");
    parts.push(`<url><loc>${escapeXml(base + path)}</loc>${mod}${links}</url>\n`);
  };

  for (const path of STATIC_PATHS) url(path);
  for (const category of categories) {
    // The fixed listings above already cover these two.
    if (category.slug === "all" || category.slug === "new-arrivals") continue;
    url(`/category/${encodeURIComponent(category.slug)}`);
  }
  for (const product of products) url(`/product/${product.id}`, day(product.updated_at));
  for (const post of posts) url(`/blog/${post.id}`, day(post.updated_at));
  parts.push("</urlset>\n");
  return parts.join("");
}
