import { type RawBuilder, sql } from "kysely";
import { type DB, now } from "#db/connect.server";
import type { Currency } from "#db/schema";
import { auditAction } from "../audit.server";

/**
 * Sale prices in SQL (docs/decisions/053). A product is on sale while it has an HKD sale price
 * and its end, if any, is still ahead: every query compares `sale_ends_at` with the moment it
 * runs for, so a sale's price returns by itself at its end, without anyone saving the product.
 * `priceNow` (app/lib/money.ts) is the same rule for one product row.
 */

const CURRENCY_COLUMN = { HKD: "hkd", GBP: "gbp", EUR: "eur", USD: "usd" } as const;

/**
 * The price a listing sorts and filters by, ignoring the end: the sale price in `currency` when it
 * is below the regular one, else the regular one. Spelled exactly as the indexes of migration
 * 0024 (`products_listed_price_*`, `products_category_listed_price_*`) so both databases use them.
 * For a product whose sale has ended it is wrong: listings read those apart (`saleEnded`).
 */
export function listedPrice(currency: Currency): RawBuilder<number> {
  const c = CURRENCY_COLUMN[currency];
  return sql<number>`(case when ${sql.raw(`sale_price_${c}_cents < price_${c}_cents then sale_price_${c}_cents else price_${c}_cents`)} end)`;
}

/** The regular price column of `currency`. */
export function regularPrice(currency: Currency): RawBuilder<number> {
  return sql<number>`${sql.raw(`price_${CURRENCY_COLUMN[currency]}_cents`)}`;
}

/** A sale ended at or before `at` (its row may keep the sale until the scheduler clears it). */
export function saleEnded(at: Date): RawBuilder<boolean> {
  return sql<boolean>`(products.sale_ends_at <= ${now(at)})`;
}

/** No sale, or one whose end is still ahead of `at`: the listed price is the price paid. */
export function saleNotEnded(at: Date): RawBuilder<boolean> {
  return sql<boolean>`(products.sale_ends_at is null or products.sale_ends_at > ${now(at)})`;
}

/** On sale at `at`: an HKD sale price below the regular one, and no end or one still ahead. */
export function onSaleAt(at: Date): RawBuilder<boolean> {
  return sql<boolean>`(products.sale_price_hkd_cents < products.price_hkd_cents and ${saleNotEnded(at)})`;
}

/**
 * The next moment after `at` when a sale ends, or null: a cached page that shows a sale price
 * must not outlive it (server/page-cache.ts). One step down the `products_sale_ends` index.
 */
export async function nextSaleEnd(db: DB, at: Date = new Date()): Promise<string | null> {
  const row = await db
    .selectFrom("products")
    .select((eb) => eb.fn.min("sale_ends_at").as("next"))
    .where("sale_ends_at", ">", now(at))
    .executeTakeFirst();
  return row?.next ?? null;
}

/**
 * Tidies up ended sales: the sale columns of every product whose sale ended at or before `at`
 * are cleared, one audit entry each (by the shop, no actor). Nothing depends on it for the
 * price (every query already compares the end with now); it keeps the ended sales few, which the
 * listings read apart, and the product form empty of a sale that is over. Safe to run twice.
 */
export async function clearEndedSales(db: DB, at: Date): Promise<{ ended: number }> {
  return db.transaction().execute(async (trx) => {
    const ended = await trx
      .selectFrom("products")
      .select(["id", "sale_price_hkd_cents", "sale_ends_at"])
      .where("sale_ends_at", "<=", now(at))
      .execute();
    if (ended.length === 0) return { ended: 0 };
    await trx
      .updateTable("products")
      .set({
        sale_price_hkd_cents: null,
        sale_price_gbp_cents: null,
        sale_price_eur_cents: null,
        sale_price_usd_cents: null,
        sale_price_gbp_derived: 0,
        sale_price_eur_derived: 0,
        sale_price_usd_derived: 0,
        sale_ends_at: null,
      })
      .where(
        "id",
        "in",
        ended.map((row) => row.id),
      )
      .where("sale_ends_at", "<=", now(at))
      .execute();
    for (const row of ended) {
      await auditAction(trx, null, "product.sale_ended", row.id, {
        before: { sale_price_hkd_cents: row.sale_price_hkd_cents, sale_ends_at: row.sale_ends_at },
        after: { sale_price_hkd_cents: null, sale_ends_at: null },
      });
    }
    return { ended: ended.length };
  });
}
