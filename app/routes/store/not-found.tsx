import { notFound } from "~/components/layout/route-error-boundary";

/**
 * Any unknown path: HTTP 404, shown by the store layout's error boundary (inside the header and
 * footer, in the reader's language) like every other missing page.
 */
export async function loader(): Promise<never> {
  throw notFound();
}

/** Never shown (the loader always throws); a page module, so the 404 renders as a page. */
export default function NotFound() {
  return null;
}
