/**
 * The browser loads the interface text of one language at a time, as JSON (not in the
 * JavaScript bundle): the storefront part everywhere, everything under /admin. These top-level
 * keys are admin-only or server-only (e-mails) and stay out of the storefront part.
 */
export const ADMIN_ONLY_KEYS = [
  "admin",
  "adminLogin",
  "adminHome",
  "adminCategories",
  "adminProducts",
  "adminProductForm",
  "adminOrders",
  "adminMessages",
  "adminCustomers",
  "adminBlog",
  "adminSettings",
  "adminSearch",
  "adminWebhooks",
  "adminDemoData",
  "adminShop",
  "dashboard",
  "orderEmail",
  "shopAlert",
] as const;

export type TranslationPart = "store" | "all";

/** Which part a page needs: the admin pages all of it, the storefront its own part. */
export function partForPath(pathname: string): TranslationPart {
  return pathname === "/admin" || pathname.startsWith("/admin/") || pathname.startsWith("/admin.") ? "all" : "store";
}

/** The URL of a language's part (without the version, the response is cached briefly). */
export function translationsPath(language: string, part: TranslationPart): string {
  return `/resources/locales/${language}/${part}`;
}
