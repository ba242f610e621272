import { services } from "~/context";
import { buildSitemap } from "~/lib/sitemap.server";
import type { Route } from "./+types/sitemap";

/** /sitemap.xml: every public page, for search engines. */
export async function loader({ context }: Route.LoaderArgs) {
  const { db, config } = services(context);
  const xml = await buildSitemap(db, config.publicUrl);
  return new Response(xml, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
