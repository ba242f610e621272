import { data } from "react-router";
import { translationsJson } from "~/lib/translations.server";
import { isLanguage } from "~/locales";
import type { Route } from "./+types/locales";

/**
 * GET /resources/locales/{en|zh}/{store|all}: the interface text the browser needs to hydrate,
 * immutable when asked for by its version (?v=, which the page links), else cached briefly.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const part = params.part;
  if (!isLanguage(params.lng) || (part !== "store" && part !== "all")) throw data("Not found", { status: 404 });
  const { json, version } = translationsJson(params.lng, part);
  const asked = new URL(request.url).searchParams.get("v");
  return new Response(json, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": asked === version ? "public, max-age=31536000, immutable" : "public, max-age=300",
    },
  });
}
