import type { DB } from "#db/connect.server";
import type { Currency, ProductRow } from "#db/schema";
import { DEFAULT_COLOR } from "~/lib/colors";
import { imagesForColour } from "~/lib/colour-images";
import { localized } from "~/lib/localize";
import { type PriceNow, priceNow } from "~/lib/money";
import { publicUrl } from "~/lib/storage.server";
import {
  type NamedVariant,
  pageUrlIn,
  variantColour,
  variantFeedId,
  variantOption,
  variantPageUrl,
  variantTitle,
} from "~/lib/structured-data.server";
import { xmlElement } from "~/lib/xml";
import { allowedZonesOf } from "../orders/restrictions.server";
import { type ShopDetails, shopIdentity, shopName } from "../settings/shop.server";
import type { Feed } from "../settings/shopping-feeds.server";
import { feeOfRate, listZones, type ZoneRate, zoneRate } from "../shipping/zones.server";
import { shownToShoppers } from "./cards.server";
import { nextSaleEnd } from "./sale-prices.server";

/**
 * The Google Merchant Center product feed (issue 28 item 5, docs/decisions/056): RSS 2.0 with the
 * g: namespace, one <item> per variant (in stock or not) of every product shoppers can see, in
 * one language and one currency. Prices are the storefront's (`priceNow`: the regular price, and
 * the sale price while a sale lasts, in the feed's currency, derived currencies included);
 * shipping is each shipping zone's fee for that item, per country the zone names.
 *
 * Built as a stream of text chunks: products are read in batches by id (keyset pagination), each
 * batch's variants, images, categories and zone limits in one query each, so memory stays flat
 * however large the catalogue.
 */

export const GOOGLE_NS = "http://base.google.com/ns/1.0";

/** Google's limits: a title of 150 characters, a description of 5,000, ten additional images. */
const TITLE_MAX = 150;
const DESCRIPTION_MAX = 5000;
const MORE_IMAGES_MAX = 4;
const BATCH_SIZE = 200;

/** A variant as the feed reads it. */
export interface FeedVariant extends NamedVariant {
  product_id: number;
  stock: number;
  sku: string;
}

/** Integer cents as Google writes an amount: "123.00 HKD". */
export function feedPrice(cents: number, currency: Currency): string {
  const whole = Math.floor(cents / 100);
  return `${whole}.${String(cents % 100).padStart(2, "0")} ${currency}`;
}

/** An ISO timestamp without its milliseconds, as Google's dates are written. */
function isoSeconds(iso: string): string {
  return iso.replace(/\.\d{3}Z$/, "Z");
}

/** Plain text on one line's worth of whitespace rules, cut to `max` characters (not inside a surrogate pair). */
function clip(text: string, max: number): string {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length <= max
    ? chars.join("")
    : `${chars
        .slice(0, max - 1)
        .join("")
        .trimEnd()}…`;
}

interface ZoneShipping {
  name: string;
  countries: string[];
  rate: ZoneRate;
  id: number;
}

/** The zones that name countries, with their rate in `currency` (the rest-of-world zone names none: left out). */
async function shippingZones(db: DB, feed: Feed): Promise<ZoneShipping[]> {
  const zones = (await listZones(db)).filter((zone) => !zone.restOfWorld && zone.countries.length > 0);
  const out: ZoneShipping[] = [];
  for (const zone of zones) {
    const rate = await zoneRate(db, zone.id, feed.currency);
    if (!rate) continue;
    out.push({
      id: zone.id,
      name: feed.language === "zh" ? zone.nameZh || zone.nameEn : zone.nameEn,
      countries: zone.countries,
      rate,
    });
  }
  return out;
}

interface FeedProduct extends ProductRow {
  category_name_en: string | null;
  category_name_zh: string | null;
  category_adult_only: number | null;
  /** The brand's names (decision 052); null: none. */
  brand_name: string | null;
  brand_name_zh: string | null;
}

interface ItemContext {
  siteUrl: string;
  feed: Feed;
  at: Date;
  zones: ZoneShipping[];
}

function itemXml(
  product: FeedProduct,
  variant: FeedVariant,
  images: { path: string; color: string | null }[],
  allowedZoneIds: Set<number> | null,
  price: PriceNow,
  { siteUrl, feed, at, zones }: ItemContext,
): string {
  const { language, currency } = feed;
  const name = localized(product, "name", language);
  const colour = variantColour(variant, language);
  const size = variantOption(variant, language);
  const title = clip(variantTitle(name, variant, language), TITLE_MAX);
  const description = clip(localized(product, "description", language) || name, DESCRIPTION_MAX);
  const shown = imagesForColour(images, variant.color === DEFAULT_COLOR ? null : variant.color);
  const absolute = (path: string) => `${siteUrl}${publicUrl(path)}`;
  const parts = [
    xmlElement("g:id", variantFeedId(variant)),
    xmlElement("g:item_group_id", String(product.id)),
    xmlElement("g:title", title),
    xmlElement("g:description", description),
    xmlElement("g:link", variantPageUrl(siteUrl, product.id, variant, language)),
  ];
  const [first, ...more] = shown;
  if (first) parts.push(xmlElement("g:image_link", absolute(first.path)));
  for (const image of more.slice(0, MORE_IMAGES_MAX))
    parts.push(xmlElement("g:additional_image_link", absolute(image.path)));
  parts.push(xmlElement("g:availability", variant.stock > 0 ? "in_stock" : "out_of_stock"));
  parts.push(xmlElement("g:price", feedPrice(price.regularCents, currency)));
  if (price.cents < price.regularCents) {
    parts.push(xmlElement("g:sale_price", feedPrice(price.cents, currency)));
    if (price.saleEndsAt) {
      parts.push(
        xmlElement("g:sale_price_effective_date", `${isoSeconds(at.toISOString())}/${isoSeconds(price.saleEndsAt)}`),
      );
    }
  }
  // The brand (decision 052) in the feed's language; it counts as an identifier for Google.
  const brand = (language === "zh" && product.brand_name_zh) || product.brand_name;
  if (brand) parts.push(xmlElement("g:brand", clip(brand, 70)));
  if (product.gtin) parts.push(xmlElement("g:gtin", product.gtin));
  if (product.mpn) parts.push(xmlElement("g:mpn", product.mpn));
  if (!product.gtin && !product.mpn && !brand) parts.push(xmlElement("g:identifier_exists", "no"));
  parts.push(xmlElement("g:condition", "new"));
  if (colour) parts.push(xmlElement("g:color", clip(colour, 100)));
  if (size) parts.push(xmlElement("g:size", clip(size, 100)));
  const category = language === "zh" ? product.category_name_zh || product.category_name_en : product.category_name_en;
  if (category) parts.push(xmlElement("g:product_type", category));
  if (product.adult_only === 1 || product.category_adult_only === 1) parts.push(xmlElement("g:adult", "yes"));
  for (const zone of zones) {
    if (allowedZoneIds && !allowedZoneIds.has(zone.id)) continue;
    const fee = feedPrice(feeOfRate(zone.rate, price.cents, product.weight_grams), currency);
    for (const country of zone.countries) {
      parts.push(
        `<g:shipping>${xmlElement("g:country", country)}${xmlElement("g:service", zone.name)}${xmlElement("g:price", fee)}</g:shipping>`,
      );
    }
  }
  return `<item>${parts.join("")}</item>\n`;
}

export interface FeedOptions {
  siteUrl: string;
  shop: ShopDetails;
  /** The moment prices are read for (a test's clock); now by default. */
  at?: Date;
  batchSize?: number;
}

/** The feed's XML document, in chunks (the channel, then one chunk per batch of products, then the end). */
export async function* merchantFeedXml(db: DB, feed: Feed, options: FeedOptions): AsyncGenerator<string> {
  const { siteUrl, shop } = options;
  const at = options.at ?? new Date();
  const batchSize = options.batchSize ?? BATCH_SIZE;
  const { language, currency } = feed;
  const identity = shopIdentity(shop, language);
  const context: ItemContext = { siteUrl, feed, at, zones: await shippingZones(db, feed) };
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:g="${GOOGLE_NS}">\n<channel>\n${[
    xmlElement("title", shopName(shop, language)),
    xmlElement("link", pageUrlIn(siteUrl, "/", language)),
    xmlElement("description", identity.blurb || shopName(shop, language)),
  ].join("\n")}\n`;
  let after = 0;
  for (;;) {
    const products = (await db
      .selectFrom("products")
      .leftJoin("categories", "categories.id", "products.category_id")
      .leftJoin("brands", "brands.id", "products.brand_id")
      .selectAll("products")
      .select([
        "brands.name as brand_name",
        "brands.name_zh as brand_name_zh",
        "categories.name_en as category_name_en",
        "categories.name_zh as category_name_zh",
        "categories.adult_only as category_adult_only",
      ])
      .where(shownToShoppers)
      .where("products.id", ">", after)
      .orderBy("products.id")
      .limit(batchSize)
      .execute()) as FeedProduct[];
    if (products.length === 0) break;
    const ids = products.map((product) => product.id);
    const [variants, images, limits] = await Promise.all([
      db
        .selectFrom("product_variants")
        .select(["product_id", "color", "color_zh", "option_value", "option_value_zh", "stock", "sku"])
        .where("product_id", "in", ids)
        .orderBy("product_id")
        .orderBy("sort_order")
        .orderBy("option_order")
        .orderBy("id")
        .execute(),
      db
        .selectFrom("product_images")
        .select(["product_id", "path", "color"])
        .where("product_id", "in", ids)
        .orderBy("product_id")
        .orderBy("sort_order")
        .execute(),
      context.zones.length > 0 ? allowedZonesOf(db, ids) : new Map<number, null>(),
    ]);
    const variantsOf = group(variants);
    const imagesOf = group(images);
    let chunk = "";
    for (const product of products) {
      const price = priceNow(product, currency, at);
      const limit = limits.get(product.id) ?? null;
      const allowed = limit === null ? null : new Set(limit.map((zone) => zone.id));
      for (const variant of variantsOf.get(product.id) ?? []) {
        chunk += itemXml(product, variant, imagesOf.get(product.id) ?? [], allowed, price, context);
      }
    }
    if (chunk) yield chunk;
    if (products.length < batchSize) break;
    after = ids[ids.length - 1] ?? after;
  }
  yield "</channel>\n</rss>\n";
}

/**
 * What the feed's content depends on besides the request: the catalogue version (raised by the
 * database in the same transaction as any change to products, stock, images, categories, zones
 * or settings, migration 0011) and the next sale end (a price changes then with no write). Its
 * ETag: a client that has this version gets a 304 instead of the whole document.
 */
export async function feedVersion(db: DB, at: Date = new Date()): Promise<string> {
  const [row, saleEnd] = await Promise.all([
    db.selectFrom("page_cache_version").select("version").where("id", "=", 1).executeTakeFirst(),
    nextSaleEnd(db, at),
  ]);
  return `${Number(row?.version ?? 0)}-${saleEnd ?? "none"}`;
}

function group<T extends { product_id: number }>(rows: readonly T[]): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const list = map.get(row.product_id);
    if (list) list.push(row);
    else map.set(row.product_id, [row]);
  }
  return map;
}

/** The whole feed as one string (tests, small shops). */
export async function merchantFeedText(db: DB, feed: Feed, options: FeedOptions): Promise<string> {
  let text = "";
  for await (const chunk of merchantFeedXml(db, feed, options)) text += chunk;
  return text;
}
