import { services } from "~/context";
import type { Route } from "./+types/robots";

/** Private areas that search engines have no reason to crawl. */
const DISALLOWED = ["/admin", "/cart", "/checkout", "/payment", "/account", "/login", "/resources/"] as const;

function robotsTxt(publicUrl: string): string {
  return [
    "User-agent: *",
    ...DISALLOWED.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${publicUrl.replace(/\/+$/, "")}/sitemap.xml`,
    "",
  ].join("\n");
}

/** /robots.txt */
export function loader({ context }: Route.LoaderArgs) {
  return new Response(robotsTxt(services(context).config.publicUrl), {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
