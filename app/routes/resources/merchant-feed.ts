import { createHash } from "node:crypto";
import { data } from "react-router";
import { CURRENCIES, type Currency } from "#db/schema";
import { services } from "~/context";
import { isLanguage } from "~/locales";
import { feedVersion, merchantFeedXml } from "~/models/products/merchant-feed.server";
import { getShop } from "~/models/settings/shop.server";
import { isFeedEnabled } from "~/models/settings/shopping-feeds.server";
import type { Route } from "./+types/merchant-feed";

/**
 * /feeds/google/:lang/:currency.xml (e.g. /feeds/google/en/HKD.xml): the Google Merchant Center
 * product feed of one language and currency (docs/decisions/056), while the owner has it turned
 * on in Settings → Shopping feeds; 404 otherwise. Streamed as it is built; never kept in the
 * page cache. Its ETag follows the catalogue version and the next sale end, so a fetch after no
 * change is a 304 and a fetch after any change reads the new prices.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db, config } = services(context);
  const match = /^([A-Za-z]{3})\.xml$/.exec(params.file);
  const currency = match?.[1]?.toUpperCase() as Currency | undefined;
  const language = params.lang;
  if (!isLanguage(language) || !currency || !(CURRENCIES as readonly string[]).includes(currency)) {
    throw data(null, { status: 404 });
  }
  const feed = { language, currency };
  if (!(await isFeedEnabled(db, feed))) throw data(null, { status: 404 });
  const at = new Date();
  const version = await feedVersion(db, at);
  const etag = `"${createHash("sha256").update(`${version}|${config.publicUrl}|${language}|${currency}`).digest("base64url").slice(0, 27)}"`;
  const headers = {
    "Content-Type": "application/xml; charset=utf-8",
    // Merchant Center fetches it a few times a day: a proxy may keep it briefly, then asks again.
    "Cache-Control": "public, max-age=300, must-revalidate",
    ETag: etag,
  };
  const asked = request.headers.get("If-None-Match");
  if (asked?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
    return new Response(null, { status: 304, headers });
  }
  const shop = await getShop(context);
  const chunks = merchantFeedXml(db, feed, { siteUrl: config.publicUrl, shop, at });
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(body, { headers });
}
