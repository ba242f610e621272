import type { DB } from "#db/connect.server";
import type { Currency, DiscountCodeRow } from "#db/schema";
import { convertFromHkd, type ExchangeRates, formatMoney } from "~/lib/money";
import { UserError } from "~/lib/problem";

/*
 * The rules of a discount code (docs/decisions/048), in the order a shopper is told about them:
 * unknown → not active → not yet valid → expired → used up → already used by you → not for
 * these items → minimum not reached. Every refusal is a `UserError` on the field `code`, so the
 * cart, the checkout and the payment page show the reason next to the code field.
 *
 * Money, in the order's currency and integer cents: the discount is taken off the subtotal of
 * the lines the code is for (every line, unless the code is for chosen categories/products);
 * a percentage is rounded half up to the cent once, on that subtotal; a fixed amount is at most
 * that subtotal, so nothing goes below 0. Shipping is then computed on what is left.
 */

/** The one spelling of a code: trimmed, upper case ("summer10 " is SUMMER10). */
export function normaliseCode(text: string): string {
  return text.trim().toUpperCase();
}

/** Letters, digits, "-" and "_", 3 to 32 characters (after normalising). */
export const CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{2,31}$/;

/** A line as the rules see it: its product, the product's category, its total in the order's currency. */
export interface DiscountLine {
  productId: number;
  lineTotalCents: number;
}

/** Who is using the code; unknown for a signed-out shopper's cart (checked again at checkout). */
export interface DiscountShopper {
  userId: string | null;
  email: string | null;
}

/** A code that applies: what it takes off and whether delivery is free. */
export interface DiscountQuote {
  id: number;
  code: string;
  discountCents: number;
  freeShipping: boolean;
  /** The subtotal of the lines the code is for. */
  eligibleSubtotalCents: number;
}

const AMOUNT_COLUMN = {
  HKD: "amount_hkd_cents",
  GBP: "amount_gbp_cents",
  EUR: "amount_eur_cents",
  USD: "amount_usd_cents",
} as const satisfies Record<Currency, keyof DiscountCodeRow>;

const MIN_COLUMN = {
  HKD: "min_hkd_cents",
  GBP: "min_gbp_cents",
  EUR: "min_eur_cents",
  USD: "min_usd_cents",
} as const satisfies Record<Currency, keyof DiscountCodeRow>;

/**
 * A code's amount (fixed discount or minimum spend) in `currency`: the owner's own, else the HKD
 * amount at the shop's exchange rate (as derived prices are); null when neither is set.
 */
export function amountIn(
  row: DiscountCodeRow,
  what: "amount" | "min",
  currency: Currency,
  rates: ExchangeRates,
): number | null {
  const columns = what === "amount" ? AMOUNT_COLUMN : MIN_COLUMN;
  const own = row[columns[currency]];
  if (own !== null) return own;
  const hkd = row[columns.HKD];
  if (hkd === null || currency === "HKD") return hkd;
  return convertFromHkd(hkd, rates[currency]);
}

/** What a code takes off `eligibleCents`: a percentage rounded half up, a fixed amount capped. */
export function discountCentsFor(
  row: DiscountCodeRow,
  eligibleCents: number,
  currency: Currency,
  rates: ExchangeRates,
): number {
  if (eligibleCents <= 0) return 0;
  if (row.kind === "percent") {
    const bp = Math.min(Math.max(row.percent_bp ?? 0, 0), 10_000);
    return Math.min(eligibleCents, Math.floor((eligibleCents * bp + 5_000) / 10_000));
  }
  if (row.kind === "fixed") return Math.min(eligibleCents, Math.max(amountIn(row, "amount", currency, rates) ?? 0, 0));
  return 0;
}

export async function findCodeRow(db: DB, code: string): Promise<DiscountCodeRow | undefined> {
  const normalised = normaliseCode(code);
  if (!normalised) return undefined;
  return db.selectFrom("discount_codes").selectAll().where("code", "=", normalised).executeTakeFirst();
}

/** The product ids among `productIds` a code is for (all of them for an all-products code). */
export async function eligibleProducts(db: DB, row: DiscountCodeRow, productIds: number[]): Promise<Set<number>> {
  if (row.applies_to === "all" || productIds.length === 0) return new Set(productIds);
  const [byProduct, byCategory] = await Promise.all([
    db
      .selectFrom("discount_code_products")
      .select("product_id")
      .where("discount_id", "=", row.id)
      .where("product_id", "in", productIds)
      .execute(),
    db
      .selectFrom("products")
      .innerJoin("discount_code_categories", "discount_code_categories.category_id", "products.category_id")
      .select("products.id as product_id")
      .where("discount_code_categories.discount_id", "=", row.id)
      .where("products.id", "in", productIds)
      .execute(),
  ]);
  return new Set([...byProduct, ...byCategory].map((r) => r.product_id));
}

/** Uses of a code not given back, by this shopper: their account, or any order with their e-mail. */
export async function usesByShopper(db: DB, discountId: number, shopper: DiscountShopper): Promise<number> {
  if (!shopper.userId && !shopper.email) return 0;
  const { n } = await db
    .selectFrom("discount_uses")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("discount_id", "=", discountId)
    .where("released_at", "is", null)
    .where((eb) => {
      const who = [];
      if (shopper.userId) who.push(eb("user_id", "=", shopper.userId));
      if (shopper.email) who.push(eb("email", "=", shopper.email.toLowerCase()));
      return eb.or(who);
    })
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** A refusal of the code, on the field `code` (409: the cart or the code changed, not the form). */
export function refuseCode(key: string, params?: Record<string, string | number>): never {
  throw new UserError(`discounts.errors.${key}`, { field: "code", params, status: 409 });
}

/** The code's own state at `at`: refuses an inactive, not yet valid or expired code. */
export function checkWindow(row: DiscountCodeRow, at: Date): void {
  if (row.active !== 1) refuseCode("notActive", { code: row.code });
  const instant = at.toISOString();
  if (row.starts_at && instant < row.starts_at) refuseCode("notYetValid", { code: row.code });
  if (row.ends_at && instant >= row.ends_at) refuseCode("expired", { code: row.code });
}

export interface CheckDiscountInput {
  code: string;
  lines: DiscountLine[];
  currency: Currency;
  rates: ExchangeRates;
  shopper: DiscountShopper;
  at: Date;
}

/**
 * Whether `code` applies to these lines for this shopper now, and what it takes off; refuses
 * with the first rule it breaks (see the top of this module). Reads only: placing the order
 * takes the use (`takeDiscountUse`).
 */
export async function checkDiscount(db: DB, input: CheckDiscountInput): Promise<DiscountQuote> {
  const row = await findCodeRow(db, input.code);
  if (!row) refuseCode("unknown", { code: normaliseCode(input.code) });
  checkWindow(row, input.at);
  if (row.max_uses !== null && row.uses_count >= row.max_uses) refuseCode("usedUp", { code: row.code });
  if (row.max_uses_per_customer !== null) {
    const used = await usesByShopper(db, row.id, input.shopper);
    if (used >= row.max_uses_per_customer) refuseCode("alreadyUsed", { code: row.code });
  }
  return priceDiscount(db, row, input);
}

/** The money side of a code that passed its other rules: eligible lines, minimum spend, amount. */
export async function priceDiscount(
  db: DB,
  row: DiscountCodeRow,
  input: Pick<CheckDiscountInput, "lines" | "currency" | "rates">,
): Promise<DiscountQuote> {
  const eligible = await eligibleProducts(
    db,
    row,
    input.lines.map((line) => line.productId),
  );
  const eligibleLines = input.lines.filter((line) => eligible.has(line.productId));
  if (eligibleLines.length === 0) refuseCode("notForItems", { code: row.code });
  const eligibleSubtotal = eligibleLines.reduce((sum, line) => sum + line.lineTotalCents, 0);
  const minimum = amountIn(row, "min", input.currency, input.rates);
  if (minimum !== null && minimum > 0 && eligibleSubtotal < minimum) {
    refuseCode(row.applies_to === "all" ? "minimum" : "minimumEligible", {
      code: row.code,
      amount: formatMoney(minimum, input.currency),
    });
  }
  return {
    id: row.id,
    code: row.code,
    discountCents: discountCentsFor(row, eligibleSubtotal, input.currency, input.rates),
    freeShipping: row.kind === "free_shipping" || row.free_shipping === 1,
    eligibleSubtotalCents: eligibleSubtotal,
  };
}
