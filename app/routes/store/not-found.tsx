import { data } from "react-router";
import { notFound } from "~/components/layout/route-error-boundary";
import { requestInfoContext } from "~/context";
import type { Route } from "./+types/not-found";

/**
 * Any unknown path: HTTP 404, shown by the store layout's error boundary (inside the header and
 * footer, in the reader's language) like every other missing page. A path that could not even be
 * percent-decoded (`/product/%FF%FE`, sent here escaped by server/app.ts) is a 400: the address
 * itself is broken.
 */
export async function loader({ context }: Route.LoaderArgs): Promise<never> {
  if (context.get(requestInfoContext).unreadablePath) {
    throw data({ title: "error.badAddressTitle", text: "error.badAddressText" }, { status: 400 });
  }
  throw notFound();
}

/** Never shown (the loader always throws); a page module, so the 404 renders as a page. */
export default function NotFound() {
  return null;
}
