import { requireAdmin } from "~/lib/auth.server";
import type { Route } from "./+types/customers";

// Placeholder while the screen is being built (issue 7).
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  return null;
}

export default function Placeholder() {
  return null;
}
