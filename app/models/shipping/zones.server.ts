import type { Kysely, Transaction } from "kysely";
import { type DB, now } from "#db/connect.server";
import { CURRENCIES, type Currency, type Database } from "#db/schema";
import { convertFromHkd, type ExchangeRates } from "~/lib/money";
import { UserError } from "~/lib/problem";
import { ruleFromHkd, type ShippingRule } from "~/lib/shipping";
import type { ZoneCurrencyKey, ZoneFormValue } from "~/schemas/shipping-zone";
import { auditAction } from "../audit.server";

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

/** What the owner saves for a zone (Settings → Shipping zones). */
export interface ZoneInput {
  nameEn: string;
  nameZh: string;
  sortOrder: number;
  /** ISO codes (validated by the form's schema); ignored for the rest-of-world zone. */
  countries: string[];
  rates: Record<Currency, ZoneRate>;
}

/** A country named by another zone: refused at the countries field, naming the first one. */
async function refuseTakenCountries(trx: Transaction<Database>, countries: string[], zoneId: number | null) {
  if (countries.length === 0) return;
  let query = trx
    .selectFrom("shipping_zone_countries as c")
    .innerJoin("shipping_zones as z", "z.id", "c.zone_id")
    .select(["c.country_code", "z.name_en", "z.name_zh"])
    .where("c.country_code", "in", countries)
    .orderBy("c.country_code");
  if (zoneId !== null) query = query.where("c.zone_id", "<>", zoneId);
  const taken = await query.executeTakeFirst();
  if (taken) {
    throw new UserError("adminZones.errors.countryTaken", {
      field: "countries",
      // Named in both languages, as the admin's lists name zones and categories ("Rifles / 長槍").
      params: { code: taken.country_code, zone: `${taken.name_en} / ${taken.name_zh}` },
      status: 409,
    });
  }
}

async function writeZoneParts(trx: Transaction<Database>, zoneId: number, input: ZoneInput, restOfWorld: boolean) {
  await trx.deleteFrom("shipping_zone_countries").where("zone_id", "=", zoneId).execute();
  const countries = restOfWorld ? [] : [...new Set(input.countries.map((code) => code.toUpperCase()))];
  if (countries.length > 0) {
    await trx
      .insertInto("shipping_zone_countries")
      .values(countries.map((country_code) => ({ country_code, zone_id: zoneId })))
      .execute();
  }
  await trx.deleteFrom("shipping_zone_rates").where("zone_id", "=", zoneId).execute();
  await trx.deleteFrom("shipping_zone_bands").where("zone_id", "=", zoneId).execute();
  for (const currency of CURRENCIES) {
    const rate = input.rates[currency];
    await trx
      .insertInto("shipping_zone_rates")
      .values({ zone_id: zoneId, currency, fee_cents: rate.feeCents, free_above_cents: rate.freeAboveCents })
      .execute();
    const bands = new Map(rate.bands.map((band) => [band.maxGrams, band.feeCents]));
    if (bands.size > 0) {
      await trx
        .insertInto("shipping_zone_bands")
        .values([...bands].map(([max_grams, fee_cents]) => ({ zone_id: zoneId, currency, max_grams, fee_cents })))
        .execute();
    }
  }
}

/** A zone as the audit log keeps it: names, countries, rates and bands. */
async function zoneSnapshot(db: Db, zoneId: number) {
  const zone = (await listZones(db)).find((candidate) => candidate.id === zoneId);
  if (!zone) return null;
  const rates: Partial<Record<Currency, ZoneRate | null>> = {};
  for (const currency of CURRENCIES) rates[currency] = await zoneRate(db, zoneId, currency);
  return { ...zone, rates };
}

export type ZoneDetails = NonNullable<Awaited<ReturnType<typeof zoneSnapshot>>>;

/** One zone with its rates (null: no such zone). */
export function loadZone(db: Db, zoneId: number): Promise<ZoneDetails | null> {
  return zoneSnapshot(db, zoneId);
}

/** A new zone (never rest of world: the shop has that one from migration 0018), audited. */
export async function createZone(db: DB, actorUserId: string, input: ZoneInput): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await refuseTakenCountries(trx, input.countries, null);
    const at = now();
    const { id } = await trx
      .insertInto("shipping_zones")
      .values({
        name_en: input.nameEn,
        name_zh: input.nameZh,
        sort_order: input.sortOrder,
        created_at: at,
        updated_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await writeZoneParts(trx, id, input, false);
    await auditAction(trx, actorUserId, "shipping_zone.created", id, { after: await zoneSnapshot(trx, id) });
    return id;
  });
}

/** A zone's names, countries and rates replaced, audited; a missing zone is a 404. */
export async function updateZone(db: DB, actorUserId: string, zoneId: number, input: ZoneInput): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await zoneSnapshot(trx, zoneId);
    if (!before) throw new UserError("adminZones.errors.notFound", { status: 404 });
    await refuseTakenCountries(trx, before.restOfWorld ? [] : input.countries, zoneId);
    await trx
      .updateTable("shipping_zones")
      .set({ name_en: input.nameEn, name_zh: input.nameZh, sort_order: input.sortOrder, updated_at: now() })
      .where("id", "=", zoneId)
      .execute();
    await writeZoneParts(trx, zoneId, input, before.restOfWorld);
    await auditAction(trx, actorUserId, "shipping_zone.updated", zoneId, {
      before,
      after: await zoneSnapshot(trx, zoneId),
    });
  });
}

/**
 * A zone deleted, audited. Orders keep the zone's id and name they were charged for. The
 * rest-of-world zone may be deleted too: then only the countries other zones name are shipped to.
 */
export async function deleteZone(db: DB, actorUserId: string, zoneId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await zoneSnapshot(trx, zoneId);
    if (!before) throw new UserError("adminZones.errors.notFound", { status: 404 });
    await refuseOnlyLimit(trx, zoneId);
    // A product or category limited to several zones keeps the others.
    await trx.deleteFrom("product_ship_zones").where("zone_id", "=", zoneId).execute();
    await trx.deleteFrom("category_ship_zones").where("zone_id", "=", zoneId).execute();
    for (const table of ["shipping_zone_bands", "shipping_zone_rates", "shipping_zone_countries"] as const) {
      await trx.deleteFrom(table).where("zone_id", "=", zoneId).execute();
    }
    await trx.deleteFrom("shipping_zones").where("id", "=", zoneId).execute();
    await auditAction(trx, actorUserId, "shipping_zone.deleted", zoneId, { before });
  });
}

/**
 * A zone that is the only place some product or category may be sent to cannot be deleted: the
 * item would silently become shippable everywhere (no limit rows = no limit). Refused with the
 * first such item's name and how many there are; the owner changes their limits first.
 */
async function refuseOnlyLimit(trx: Transaction<Database>, zoneId: number): Promise<void> {
  const products = await trx
    .selectFrom("product_ship_zones as l")
    .innerJoin("products as p", "p.id", "l.product_id")
    .select(["p.name_en", "p.name_zh"])
    .where("l.zone_id", "=", zoneId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("product_ship_zones as o")
            .select("o.zone_id")
            .whereRef("o.product_id", "=", "l.product_id")
            .where("o.zone_id", "<>", zoneId),
        ),
      ),
    )
    .orderBy("p.id")
    .execute();
  const categories = await trx
    .selectFrom("category_ship_zones as l")
    .innerJoin("categories as c", "c.id", "l.category_id")
    .select(["c.name_en", "c.name_zh"])
    .where("l.zone_id", "=", zoneId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("category_ship_zones as o")
            .select("o.zone_id")
            .whereRef("o.category_id", "=", "l.category_id")
            .where("o.zone_id", "<>", zoneId),
        ),
      ),
    )
    .orderBy("c.id")
    .execute();
  const items = [...categories, ...products];
  const first = items[0];
  if (first) {
    throw new UserError("adminZones.errors.onlyLimit", {
      params: { name: `${first.name_en} / ${first.name_zh}`, count: items.length },
      status: 409,
    });
  }
}

/** The amounts of one currency's rule: HKD's converted at `ratePpm`, bands too. */
function rateFromHkd(hkd: ZoneRate, ratePpm: number): ZoneRate {
  return {
    ...ruleFromHkd(hkd, ratePpm),
    bands: hkd.bands.map((band) => ({ maxGrams: band.maxGrams, feeCents: convertFromHkd(band.feeCents, ratePpm) })),
  };
}

/**
 * The form of Settings → Shipping zones as the model takes it: a currency whose fee was left empty
 * follows HKD at the shop's exchange rate now (fee, threshold and bands); bands lightest first.
 */
export function zoneInputOf(value: ZoneFormValue, rates: ExchangeRates): ZoneInput {
  const own = (key: ZoneCurrencyKey): ZoneRate | null => {
    const fee: number | null = value[`fee_${key}`];
    if (fee === null) return null;
    const bands = value[`bands_${key}`]
      .map((band) => ({ maxGrams: band.max_grams, feeCents: band.fee }))
      .sort((a, b) => a.maxGrams - b.maxGrams);
    return { feeCents: fee, freeAboveCents: value[`free_above_${key}`], bands };
  };
  const hkd = own("hkd") ?? { feeCents: 0, freeAboveCents: null, bands: [] };
  return {
    nameEn: value.name_en,
    nameZh: value.name_zh,
    sortOrder: value.sort_order,
    countries: value.countries,
    rates: {
      HKD: hkd,
      GBP: own("gbp") ?? rateFromHkd(hkd, rates.GBP),
      EUR: own("eur") ?? rateFromHkd(hkd, rates.EUR),
      USD: own("usd") ?? rateFromHkd(hkd, rates.USD),
    },
  };
}

/**
 * Whether a stored currency's rule is exactly HKD's converted at today's rate: the form then shows
 * it empty ("follows HKD"), so a later HKD change carries over when the owner saves again.
 */
export function followsHkd(rate: ZoneRate, hkd: ZoneRate, ratePpm: number): boolean {
  const derived = rateFromHkd(hkd, ratePpm);
  return (
    rate.feeCents === derived.feeCents &&
    rate.freeAboveCents === derived.freeAboveCents &&
    rate.bands.length === derived.bands.length &&
    rate.bands.every(
      (band, index) =>
        band.maxGrams === derived.bands[index]?.maxGrams && band.feeCents === derived.bands[index]?.feeCents,
    )
  );
}
