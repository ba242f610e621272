/**
 * The `meta` of a page search engines must not list (the admin, the account, the cart and
 * checkout, sign-in): its title from the loader, the fallback while the loader has no data (an
 * error page), and `noindex`.
 */
export function privatePageMeta(title: string | undefined, fallback: string) {
  return [{ title: title ?? fallback }, { name: "robots", content: "noindex" }];
}
