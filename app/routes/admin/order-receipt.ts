import { requireAdmin } from "~/lib/auth.server";
import type { Route } from "./+types/order-receipt";

// Placeholder while the resource is being built (issue 7).
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  throw new Response("Not Found", { status: 404 });
}
