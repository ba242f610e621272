import type { Transaction } from "kysely";
import { type DB, now } from "#db/connect.server";
import { isUniqueViolation } from "#db/errors";
import type { Currency, Database, DiscountCodeRow, DiscountKind, DiscountScope } from "#db/schema";
import { UserError } from "~/lib/problem";
import type { DiscountInput } from "~/schemas/discount";
import { auditAction } from "../audit.server";

/*
 * Admin → Discounts (owner and staff; docs/decisions/048): the list with each code's status,
 * uses and the revenue it brought, add and edit, activate/deactivate, and delete — only a code
 * never used (an order points at its use), else it is deactivated. Every change is audited.
 */

type Actor = { id: string };

/** What the list says of a code now. */
export type DiscountStatus = "active" | "inactive" | "scheduled" | "expired" | "usedUp";

export function discountStatus(
  row: Pick<DiscountCodeRow, "active" | "starts_at" | "ends_at" | "max_uses" | "uses_count">,
  at: Date = new Date(),
): DiscountStatus {
  if (row.active !== 1) return "inactive";
  const instant = at.toISOString();
  if (row.ends_at && instant >= row.ends_at) return "expired";
  if (row.max_uses !== null && row.uses_count >= row.max_uses) return "usedUp";
  if (row.starts_at && instant < row.starts_at) return "scheduled";
  return "active";
}

/** Paid orders and after: what counts as revenue a code brought. */
const REVENUE_STATUSES = ["paid", "processing", "shipped", "delivered"] as const;

export interface DiscountListItem {
  id: number;
  code: string;
  kind: DiscountKind;
  percentBp: number | null;
  amountHkdCents: number | null;
  freeShipping: boolean;
  status: DiscountStatus;
  usesCount: number;
  maxUses: number | null;
  startsAt: string | null;
  endsAt: string | null;
  /** Uses ever recorded (given back ones too): a code with any cannot be deleted. */
  everUsed: boolean;
  /** Sum of the totals of its paid (and later) orders, per currency. */
  revenue: Array<{ currency: Currency; cents: number }>;
}

/** Every code, newest first, with its revenue per currency. */
export async function listDiscounts(db: DB, at: Date = new Date()): Promise<DiscountListItem[]> {
  const [rows, revenue, used] = await Promise.all([
    db.selectFrom("discount_codes").selectAll().orderBy("created_at", "desc").orderBy("id", "desc").execute(),
    db
      .selectFrom("discount_uses")
      .innerJoin("orders", "orders.id", "discount_uses.order_id")
      .select((eb) => [
        "discount_uses.discount_id",
        "orders.currency",
        eb.fn.sum<number>("orders.total_cents").as("cents"),
      ])
      .where("orders.status", "in", REVENUE_STATUSES)
      .groupBy(["discount_uses.discount_id", "orders.currency"])
      .orderBy("orders.currency")
      .execute(),
    db.selectFrom("discount_uses").select("discount_id").distinct().execute(),
  ]);
  const everUsed = new Set(used.map((row) => row.discount_id));
  return rows.map((row) => ({
    id: row.id,
    code: row.code,
    kind: row.kind,
    percentBp: row.percent_bp,
    amountHkdCents: row.amount_hkd_cents,
    freeShipping: row.kind === "free_shipping" || row.free_shipping === 1,
    status: discountStatus(row, at),
    usesCount: row.uses_count,
    maxUses: row.max_uses,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    everUsed: everUsed.has(row.id),
    revenue: revenue
      .filter((r) => r.discount_id === row.id)
      .map((r) => ({ currency: r.currency as Currency, cents: Number(r.cents) })),
  }));
}

export interface DiscountDetail {
  row: DiscountCodeRow;
  categoryIds: number[];
  productIds: number[];
}

export async function findDiscount(db: DB, id: number): Promise<DiscountDetail | null> {
  const row = await db.selectFrom("discount_codes").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  const [categories, products] = await Promise.all([
    db.selectFrom("discount_code_categories").select("category_id").where("discount_id", "=", id).execute(),
    db.selectFrom("discount_code_products").select("product_id").where("discount_id", "=", id).execute(),
  ]);
  return {
    row,
    categoryIds: categories.map((r) => r.category_id).sort((a, b) => a - b),
    productIds: products.map((r) => r.product_id).sort((a, b) => a - b),
  };
}

/** The columns a form's values set. */
function columnsOf(input: DiscountInput) {
  const fixed = input.kind === "fixed";
  return {
    code: input.code,
    kind: input.kind,
    percent_bp: input.kind === "percent" ? input.percent_bp : null,
    free_shipping: input.kind === "free_shipping" || input.free_shipping ? 1 : 0,
    amount_hkd_cents: fixed ? input.amount_hkd : null,
    amount_gbp_cents: fixed ? input.amount_gbp : null,
    amount_eur_cents: fixed ? input.amount_eur : null,
    amount_usd_cents: fixed ? input.amount_usd : null,
    min_hkd_cents: input.min_hkd,
    min_gbp_cents: input.min_gbp,
    min_eur_cents: input.min_eur,
    min_usd_cents: input.min_usd,
    starts_at: input.starts_at,
    ends_at: input.ends_at,
    max_uses: input.max_uses,
    max_uses_per_customer: input.max_uses_per_customer,
    applies_to: input.applies_to as DiscountScope,
    active: input.active ? 1 : 0,
  };
}

/** The chosen categories and products must exist; a missing one is named next to its field. */
async function checkScope(db: DB, input: DiscountInput): Promise<void> {
  if (input.applies_to !== "chosen") return;
  if (input.products.length > 0) {
    const found = await db.selectFrom("products").select("id").where("id", "in", input.products).execute();
    const known = new Set(found.map((row) => row.id));
    const missing = input.products.filter((id) => !known.has(id));
    if (missing.length > 0) {
      throw new UserError("adminDiscounts.errors.productsMissing", {
        field: "products",
        params: { ids: missing.join(", ") },
      });
    }
  }
  if (input.categories.length > 0) {
    const found = await db.selectFrom("categories").select("id").where("id", "in", input.categories).execute();
    if (found.length !== input.categories.length) {
      throw new UserError("adminDiscounts.errors.categoryGone", { field: "categories", status: 409 });
    }
  }
}

async function writeScope(trx: Transaction<Database>, id: number, input: DiscountInput): Promise<void> {
  await trx.deleteFrom("discount_code_categories").where("discount_id", "=", id).execute();
  await trx.deleteFrom("discount_code_products").where("discount_id", "=", id).execute();
  if (input.applies_to !== "chosen") return;
  if (input.categories.length > 0) {
    await trx
      .insertInto("discount_code_categories")
      .values(input.categories.map((category_id) => ({ discount_id: id, category_id })))
      .execute();
  }
  if (input.products.length > 0) {
    await trx
      .insertInto("discount_code_products")
      .values(input.products.map((product_id) => ({ discount_id: id, product_id })))
      .execute();
  }
}

function codeTaken(): UserError {
  return new UserError("adminDiscounts.errors.codeTaken", { field: "code", status: 409 });
}

function auditView(input: DiscountInput) {
  const { percent: _percent, ...rest } = input;
  return rest;
}

/** Adds a code; a code already taken (in any case) is refused next to the field. */
export async function createDiscount(db: DB, actor: Actor, input: DiscountInput): Promise<number> {
  await checkScope(db, input);
  const timestamp = now();
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto("discount_codes")
        .values({ ...columnsOf(input), created_at: timestamp, updated_at: timestamp })
        .returning("id")
        .executeTakeFirstOrThrow();
      await writeScope(trx, row.id, input);
      await auditAction(trx, actor.id, "discount.created", row.id, { after: auditView(input) });
      return row.id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw codeTaken();
    throw error;
  }
}

/** Saves a code's form; its uses so far stay (a lower limit than its uses makes it used up). */
export async function updateDiscount(db: DB, actor: Actor, id: number, input: DiscountInput): Promise<void> {
  await checkScope(db, input);
  try {
    await db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom("discount_codes").selectAll().where("id", "=", id).executeTakeFirst();
      if (!before) throw new UserError("adminDiscounts.errors.notFound", { status: 404 });
      await trx
        .updateTable("discount_codes")
        .set({ ...columnsOf(input), updated_at: now() })
        .where("id", "=", id)
        .execute();
      await writeScope(trx, id, input);
      await auditAction(trx, actor.id, "discount.updated", id, { before, after: auditView(input) });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw codeTaken();
    throw error;
  }
}

/** Turns a code on or off (a code in a shopper's cart stops applying at once). */
export async function setDiscountActive(db: DB, actor: Actor, id: number, active: boolean): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("discount_codes")
      .select(["code", "active"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) throw new UserError("adminDiscounts.errors.notFound", { status: 404 });
    await trx
      .updateTable("discount_codes")
      .set({ active: active ? 1 : 0, updated_at: now() })
      .where("id", "=", id)
      .execute();
    await auditAction(trx, actor.id, active ? "discount.activated" : "discount.deactivated", id, {
      before: { active: row.active },
      after: { active: active ? 1 : 0 },
    });
    return row.code;
  });
}

/** Deletes a code no order ever used; a used one is refused (deactivate it instead). */
export async function deleteDiscount(db: DB, actor: Actor, id: number): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("discount_codes").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw new UserError("adminDiscounts.errors.notFound", { status: 404 });
    const used = await trx
      .selectFrom("discount_uses")
      .select("id")
      .where("discount_id", "=", id)
      .limit(1)
      .executeTakeFirst();
    if (used)
      throw new UserError("adminDiscounts.errors.usedCannotDelete", { params: { code: row.code }, status: 409 });
    await trx.deleteFrom("discount_codes").where("id", "=", id).execute();
    await auditAction(trx, actor.id, "discount.deleted", id, { before: row });
    return row.code;
  });
}
