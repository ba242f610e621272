import type { DB } from "#db/connect.server";
import { localized } from "~/lib/localize";
import { UserError } from "~/lib/problem";
import type { Language } from "~/locales";

/**
 * Restricted items (issue 27, docs/decisions/049): a product or a whole category limited to some
 * shipping zones (product_ship_zones / category_ship_zones, migration 0020). No rows: it ships
 * everywhere the shop ships. A product's allowed zones are the intersection of its own limit and
 * its category's: each is a rule the shop must keep.
 */

export interface AllowedZone {
  id: number;
  name_en: string;
  name_zh: string;
}

/** Each product's allowed zones, in the zones' order; null: no limit (everywhere the shop ships). */
export async function allowedZonesOf(
  db: DB,
  productIds: readonly number[],
): Promise<Map<number, AllowedZone[] | null>> {
  const result = new Map<number, AllowedZone[] | null>();
  if (productIds.length === 0) return result;
  const ids = [...new Set(productIds)];
  const [products, own, byCategory] = await Promise.all([
    db.selectFrom("products").select(["id", "category_id"]).where("id", "in", ids).execute(),
    db
      .selectFrom("product_ship_zones")
      .innerJoin("shipping_zones", "shipping_zones.id", "product_ship_zones.zone_id")
      .select([
        "product_ship_zones.product_id as owner",
        "shipping_zones.id",
        "shipping_zones.name_en",
        "shipping_zones.name_zh",
      ])
      .where("product_ship_zones.product_id", "in", ids)
      .orderBy("shipping_zones.sort_order")
      .orderBy("shipping_zones.id")
      .execute(),
    db
      .selectFrom("category_ship_zones")
      .innerJoin("products", "products.category_id", "category_ship_zones.category_id")
      .innerJoin("shipping_zones", "shipping_zones.id", "category_ship_zones.zone_id")
      .select(["products.id as owner", "shipping_zones.id", "shipping_zones.name_en", "shipping_zones.name_zh"])
      .where("products.id", "in", ids)
      .orderBy("shipping_zones.sort_order")
      .orderBy("shipping_zones.id")
      .execute(),
  ]);
  const group = (rows: (AllowedZone & { owner: number })[]) => {
    const map = new Map<number, AllowedZone[]>();
    for (const { owner, ...zone } of rows) map.set(owner, [...(map.get(owner) ?? []), zone]);
    return map;
  };
  const ownZones = group(own);
  const categoryZones = group(byCategory);
  for (const product of products) {
    const mine = ownZones.get(product.id);
    const theirs = categoryZones.get(product.id);
    if (!mine && !theirs) result.set(product.id, null);
    else if (!mine) result.set(product.id, theirs ?? null);
    else if (!theirs) result.set(product.id, mine);
    else
      result.set(
        product.id,
        mine.filter((zone) => theirs.some((other) => other.id === zone.id)),
      );
  }
  return result;
}

/** The zones' names in `language`, joined as the page's language lists them. */
export function zoneNames(zones: readonly AllowedZone[], language: Language): string {
  return zones.map((zone) => localized(zone, "name", language)).join(language === "zh" ? "、" : ", ");
}

export interface RestrictedLine {
  product_id: number;
  name_en: string;
  name_zh: string;
  /** Where it may go; empty: nowhere (its own and its category's limits have no zone in common). */
  zones: AllowedZone[];
}

/** The lines that cannot go to the zone `zoneId` (the destination's), with where each may go. */
export async function linesNotShippableTo(
  db: DB,
  lines: readonly { product_id: number; name_en: string; name_zh: string }[],
  zoneId: number,
): Promise<RestrictedLine[]> {
  const allowed = await allowedZonesOf(
    db,
    lines.map((line) => line.product_id),
  );
  const refused: RestrictedLine[] = [];
  for (const line of lines) {
    const zones = allowed.get(line.product_id);
    if (zones && !zones.some((zone) => zone.id === zoneId)) {
      refused.push({ product_id: line.product_id, name_en: line.name_en, name_zh: line.name_zh, zones });
    }
  }
  return refused;
}

/** The refusal naming an item and where it can go, in the shopper's language (cart, checkout, placeOrder). */
export function restrictedError(line: RestrictedLine, locale: Language, status = 409): UserError {
  return line.zones.length === 0
    ? new UserError("checkout.errors.restrictedNowhere", { params: { name: localized(line, "name", locale) }, status })
    : new UserError("checkout.errors.restricted", {
        params: { name: localized(line, "name", locale), zones: zoneNames(line.zones, locale) },
        status,
      });
}

/** Refuses (409, the first item named with where it can go) a cart with an item that cannot go to the zone. */
export async function requireShippable(
  db: DB,
  lines: readonly { product_id: number; name_en: string; name_zh: string }[],
  zoneId: number,
  locale: Language,
): Promise<void> {
  const [first] = await linesNotShippableTo(db, lines, zoneId);
  if (first) throw restrictedError(first, locale);
}

/** Where a product may be sent, as the product page says it: null without a limit, "" when nowhere. */
export async function shipsToText(db: DB, productId: number, language: Language): Promise<string | null> {
  const zones = (await allowedZonesOf(db, [productId])).get(productId) ?? null;
  return zones === null ? null : zoneNames(zones, language);
}

/**
 * The cart's items that cannot go to its destination's zone, each as the message placeOrder would
 * refuse with (its key and parameters), for the cart and checkout pages to show before payment.
 */
export async function cartRestrictionMessages(
  db: DB,
  cart: {
    lines: readonly { productId: number; name_en: string; name_zh: string }[];
    destination?: { zone: { id: number } | null } | null;
  },
  language: Language,
): Promise<{ key: string; params: Record<string, string | number> }[]> {
  const zone = cart.destination?.zone;
  if (!zone || cart.lines.length === 0) return [];
  const lines = cart.lines.map((line) => ({
    product_id: line.productId,
    name_en: line.name_en,
    name_zh: line.name_zh,
  }));
  const refused = await linesNotShippableTo(db, lines, zone.id);
  return refused.map((line) => {
    const error = restrictedError(line, language);
    return { key: error.key, params: error.params };
  });
}

/** The zones a product or category form offers (every zone, in the shop's order). */
export function listZoneChoices(db: DB) {
  return db
    .selectFrom("shipping_zones")
    .select(["id", "name_en", "name_zh"])
    .orderBy("sort_order")
    .orderBy("id")
    .execute();
}

/** The zones a product is limited to by its own rows (not its category's); empty: no limit of its own. */
export async function productZoneIds(db: DB, productId: number): Promise<number[]> {
  const rows = await db
    .selectFrom("product_ship_zones")
    .select("zone_id")
    .where("product_id", "=", productId)
    .orderBy("zone_id")
    .execute();
  return rows.map((row) => row.zone_id);
}

/** Replaces a product's own zone limit (in its editor's transaction); ids of zones that no longer exist are dropped. */
export async function setProductZones(db: DB, productId: number, zoneIds: readonly number[]): Promise<void> {
  await db.deleteFrom("product_ship_zones").where("product_id", "=", productId).execute();
  if (zoneIds.length === 0) return;
  const existing = await db
    .selectFrom("shipping_zones")
    .select("id")
    .where("id", "in", [...new Set(zoneIds)])
    .execute();
  if (existing.length === 0) return;
  await db
    .insertInto("product_ship_zones")
    .values(existing.map((zone) => ({ product_id: productId, zone_id: zone.id })))
    .execute();
}

/** The zones a category is limited to; empty: no limit. */
export async function categoryZoneIds(db: DB, categoryId: number): Promise<number[]> {
  const rows = await db
    .selectFrom("category_ship_zones")
    .select("zone_id")
    .where("category_id", "=", categoryId)
    .orderBy("zone_id")
    .execute();
  return rows.map((row) => row.zone_id);
}

/** Replaces a category's zone limit (in its form's transaction); ids of zones that no longer exist are dropped. */
export async function setCategoryZones(db: DB, categoryId: number, zoneIds: readonly number[]): Promise<void> {
  await db.deleteFrom("category_ship_zones").where("category_id", "=", categoryId).execute();
  if (zoneIds.length === 0) return;
  const existing = await db
    .selectFrom("shipping_zones")
    .select("id")
    .where("id", "in", [...new Set(zoneIds)])
    .execute();
  if (existing.length === 0) return;
  await db
    .insertInto("category_ship_zones")
    .values(existing.map((zone) => ({ category_id: categoryId, zone_id: zone.id })))
    .execute();
}
