/**
 * The `meta` of a page search engines should list (home, catalogue, product, blog, content
 * pages): its title and description, then its Open Graph properties in the order given (a
 * property without a value is left out).
 */
export function publicPageMeta(
  title: string,
  description: string,
  openGraph: Record<string, string | null | undefined> = {},
) {
  return [
    { title },
    { name: "description", content: description },
    ...Object.entries(openGraph).flatMap(([property, content]) => (content ? [{ property, content }] : [])),
  ];
}
