import { services } from "~/context";
import { getCurrency } from "~/middleware/currency";
import { searchProducts } from "~/models/products/search.server";
import type { Route } from "./+types/search";

/** GET /resources/search?q=: the header panel's results (the full page is /search). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const q = new URL(request.url).searchParams.get("q") ?? "";
  const results = await searchProducts(services(context).db, q, getCurrency(context));
  return { q, results };
}
