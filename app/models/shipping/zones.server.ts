import type { Kysely, Transaction } from "kysely";
import type { DB } from "#db/connect.server";
import { CURRENCIES, type Currency, type Database } from "#db/schema";
import type { ShippingRule } from "~/lib/shipping";

/**
 * Shipping zones (migration 0018, docs/decisions/047): where the shop ships and what it charges
 * there. A country belongs to the zone that names it, else to the "rest of world" zone when there
 * is one, else it is not shipped to. Per zone and currency: a flat fee, a free-above threshold
 * and optional weight bands (the first band whose max is at least the order's weight gives the
 * fee; heavier than the last band: the flat fee). The threshold beats every fee.
 */

type Db = DB | Kysely<Database> | Transaction<Database>;

export interface ShippingZone {
  id: number;
  nameEn: string;
  nameZh: string;
  sortOrder: number;
  restOfWorld: boolean;
}

export interface WeightBand {
  maxGrams: number;
  feeCents: number;
}

export interface ZoneRate extends ShippingRule {
  /** Sorted by maxGrams, lightest first; empty: the flat fee whatever the weight. */
  bands: WeightBand[];
}

export type ShippingQuote =
  | { shipped: true; zone: ShippingZone; shippingCents: number }
  | { shipped: false; countryCode: string };

function toZone(row: {
  id: number;
  name_en: string;
  name_zh: string;
  sort_order: number;
  rest_of_world: number;
}): ShippingZone {
  return {
    id: row.id,
    nameEn: row.name_en,
    nameZh: row.name_zh,
    sortOrder: row.sort_order,
    restOfWorld: Boolean(row.rest_of_world),
  };
}

/**
 * The zone that ships to a country (ISO 3166-1 alpha-2, any case): the zone naming it, else the
 * rest-of-world zone; null when no zone covers it.
 */
export async function zoneForCountry(db: Db, countryCode: string): Promise<ShippingZone | null> {
  const code = countryCode.trim().toUpperCase();
  const named = await db
    .selectFrom("shipping_zone_countries as c")
    .innerJoin("shipping_zones as z", "z.id", "c.zone_id")
    .select(["z.id", "z.name_en", "z.name_zh", "z.sort_order", "z.rest_of_world"])
    .where("c.country_code", "=", code)
    .executeTakeFirst();
  if (named) return toZone(named);
  const rest = await db
    .selectFrom("shipping_zones")
    .select(["id", "name_en", "name_zh", "sort_order", "rest_of_world"])
    .where("rest_of_world", "=", 1)
    .orderBy("id")
    .executeTakeFirst();
  return rest ? toZone(rest) : null;
}

/** A zone's rate in one currency with its bands; null when the zone has none in it. */
export async function zoneRate(db: Db, zoneId: number, currency: Currency): Promise<ZoneRate | null> {
  const rate = await db
    .selectFrom("shipping_zone_rates")
    .select(["fee_cents", "free_above_cents"])
    .where("zone_id", "=", zoneId)
    .where("currency", "=", currency)
    .executeTakeFirst();
  if (!rate) return null;
  const bands = await db
    .selectFrom("shipping_zone_bands")
    .select(["max_grams", "fee_cents"])
    .where("zone_id", "=", zoneId)
    .where("currency", "=", currency)
    .orderBy("max_grams")
    .execute();
  return {
    feeCents: rate.fee_cents,
    freeAboveCents: rate.free_above_cents,
    bands: bands.map((band) => ({ maxGrams: band.max_grams, feeCents: band.fee_cents })),
  };
}

/**
 * What a zone's rate charges for an order: nothing for an empty cart; nothing when the
 * (discounted) subtotal is above the free-above threshold; else the first band whose max is at
 * least the total weight, or the flat fee when there is no band or the order is heavier than the
 * last one.
 */
export function feeOfRate(rate: ZoneRate, subtotalCents: number, weightGrams: number): number {
  if (subtotalCents <= 0) return 0;
  if (rate.freeAboveCents !== null && subtotalCents > rate.freeAboveCents) return 0;
  const bands = [...rate.bands].sort((a, b) => a.maxGrams - b.maxGrams);
  const band = bands.find((candidate) => candidate.maxGrams >= weightGrams);
  return band ? band.feeCents : rate.feeCents;
}

/**
 * The zone and the shipping fee for an order to `countryCode` in `currency`, given its discounted
 * subtotal and total weight; `{ shipped: false }` when no zone covers the country (or the zone
 * has no rate in the currency, which the model never leaves so).
 */
export async function shippingQuote(
  db: Db,
  input: { countryCode: string; currency: Currency; subtotalCents: number; weightGrams: number },
): Promise<ShippingQuote> {
  const countryCode = input.countryCode.trim().toUpperCase();
  const zone = await zoneForCountry(db, countryCode);
  if (!zone) return { shipped: false, countryCode };
  const rate = await zoneRate(db, zone.id, input.currency);
  if (!rate) return { shipped: false, countryCode };
  return { shipped: true, zone, shippingCents: feeOfRate(rate, input.subtotalCents, input.weightGrams) };
}

/** Every zone in the owner's order (rest of world last), with its countries. */
export async function listZones(db: Db): Promise<(ShippingZone & { countries: string[] })[]> {
  const zones = await db
    .selectFrom("shipping_zones")
    .select(["id", "name_en", "name_zh", "sort_order", "rest_of_world"])
    .orderBy("rest_of_world")
    .orderBy("sort_order")
    .orderBy("id")
    .execute();
  const countries = await db
    .selectFrom("shipping_zone_countries")
    .select(["zone_id", "country_code"])
    .orderBy("country_code")
    .execute();
  return zones.map((row) => ({
    ...toZone(row),
    countries: countries.filter((c) => c.zone_id === row.id).map((c) => c.country_code),
  }));
}

/**
 * The rest-of-world zone's flat rule in every currency set to `rules` (Settings → Shop details
 * edits the default zone: one place for the rule). Creates the rate rows a zone lacks.
 */
export async function setRestOfWorldRules(
  trx: Transaction<Database>,
  rules: Record<Currency, ShippingRule>,
): Promise<void> {
  const zone = await trx
    .selectFrom("shipping_zones")
    .select("id")
    .where("rest_of_world", "=", 1)
    .orderBy("id")
    .executeTakeFirst();
  if (!zone) return;
  for (const currency of CURRENCIES) {
    const values = { fee_cents: rules[currency].feeCents, free_above_cents: rules[currency].freeAboveCents };
    const updated = await trx
      .updateTable("shipping_zone_rates")
      .set(values)
      .where("zone_id", "=", zone.id)
      .where("currency", "=", currency)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      await trx
        .insertInto("shipping_zone_rates")
        .values({ zone_id: zone.id, currency, ...values })
        .execute();
    }
  }
}
