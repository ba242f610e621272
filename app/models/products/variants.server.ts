import type { Transaction } from "kysely";
import type { Database } from "#db/schema";
import { DEFAULT_COLOR } from "~/lib/colors";
import { UserError } from "~/lib/problem";

/**
 * A product's variants (docs/decisions/054): its colours and, optionally, the values of a second
 * option ("Size"); each colour × value is one row of product_variants with its own stock and SKU.
 * The product form and the CSV import both describe a product this way and write it through
 * `writeVariants`, which keeps every row that still exists (its id, which back-in-stock alerts
 * refer to), adds the new ones and deletes those no longer wanted.
 */

/** A colour: `color` is its key and English name, `color_zh` its Chinese name (null: the English one). */
export interface VariantInput {
  color: string;
  color_zh: string | null;
  /** The colour's stock when the product has no second option. */
  stock: number;
  /** Its SKU when the product has no second option: null/empty, the shop makes one; missing, left as it is. */
  sku?: string | null;
}

/** The second option: its name in both languages and its values in order. */
export interface OptionInput {
  name: string;
  name_zh: string | null;
  values: { value: string; value_zh: string | null }[];
}

/** One colour × value of a product with a second option: its stock and SKU (as `VariantInput.sku`). */
export interface CellInput {
  color: string;
  value: string;
  stock: number;
  sku?: string | null;
}

/** The variants part of a product as the form and the import give it. */
export interface VariantsInput {
  /** Stock of a product with neither colours nor a second option (one default variant). */
  stock: number;
  /** Its SKU, as `VariantInput.sku`. */
  sku?: string | null;
  variants: VariantInput[];
  /** The second option; null: none; missing: the product's is left as it is (an import without the columns). */
  option?: OptionInput | null;
  /** Stock and SKU of each colour × value (a missing one: 0 in stock, a SKU made by the shop). */
  cells?: CellInput[];
}

/** A row of product_variants as it is to be saved; `skuField` names the form field a SKU refusal belongs to. */
export interface VariantRow {
  color: string;
  color_zh: string | null;
  option_value: string;
  option_value_zh: string | null;
  sort_order: number;
  option_order: number;
  stock: number;
  sku: string | null | undefined;
  skuField?: string;
}

/** The shape of the SKUs the shop makes itself ("P12-345"): taken only by the variant it was made for. */
const MADE_SKU = /^P\d+-\d+$/;

/** The key a variant is found by: its colour and option value. */
export function variantKey(color: string, optionValue: string): string {
  return `${color}\u0000${optionValue}`;
}

/** The colours of a product's input: its colour rows, or the one default colour. */
function coloursOf(input: VariantsInput): VariantInput[] {
  return input.variants.length > 0
    ? input.variants
    : [{ color: DEFAULT_COLOR, color_zh: null, stock: input.stock, sku: input.sku }];
}

/**
 * The rows a product's input makes: one per colour (or the default colour) without a second
 * option; one per colour × value with one, in colour order then value order.
 */
export function variantRows(input: VariantsInput): VariantRow[] {
  const colours = coloursOf(input);
  const values = input.option?.values ?? [];
  if (values.length === 0) {
    return colours.map((colour, index) => ({
      color: colour.color,
      color_zh: colour.color_zh,
      option_value: "",
      option_value_zh: null,
      sort_order: index,
      option_order: 0,
      stock: colour.stock,
      sku: colour.sku,
    }));
  }
  const cells = new Map((input.cells ?? []).map((cell) => [variantKey(cell.color, cell.value), cell]));
  return colours.flatMap((colour, colourIndex) =>
    values.map((value, valueIndex) => {
      const cell = cells.get(variantKey(colour.color, value.value));
      return {
        color: colour.color,
        color_zh: colour.color_zh,
        option_value: value.value,
        option_value_zh: value.value_zh,
        sort_order: colourIndex,
        option_order: valueIndex,
        stock: cell?.stock ?? 0,
        sku: cell ? cell.sku : null,
      };
    }),
  );
}

/**
 * Gives these variants their own made SKU ("P{product}-{id}", which nobody else can hold) for a
 * moment, so SKUs can move between a product's variants without meeting the unique index.
 */
export async function freeSkus(trx: Transaction<Database>, variantIds: number[]): Promise<void> {
  if (variantIds.length === 0) return;
  await trx.updateTable("product_variants").set({ sku: "" }).where("id", "in", variantIds).execute();
}

/** A typed SKU, trimmed; null when empty (the shop makes one), undefined when not given. */
function typedSku(sku: string | null | undefined): string | null | undefined {
  if (sku === undefined) return undefined;
  const trimmed = (sku ?? "").trim();
  return trimmed === "" ? null : trimmed;
}

/**
 * Saves `rows` as the product's variants in `trx`: rows found by colour and option value keep
 * their id (stock, names, order and SKU updated), new ones are added, the rest are deleted (cart
 * lines of a deleted variant stay and show as unavailable). A SKU another product's variant has, or
 * one of the shop's own shape ("P12-345") that is not this variant's, is a `UserError` at its
 * field (409), so nothing is written. Returns the ids of the variants whose stock went from 0 to
 * more (back-in-stock alerts are sent for them).
 */
export async function writeVariants(
  trx: Transaction<Database>,
  productId: number,
  rows: VariantRow[],
): Promise<{ restockedIds: number[] }> {
  const existing = await trx
    .selectFrom("product_variants")
    .select(["id", "color", "option_value", "stock", "sku"])
    .where("product_id", "=", productId)
    .execute();
  const byKey = new Map(existing.map((row) => [variantKey(row.color, row.option_value), row]));
  const wantedKeys = new Set(rows.map((row) => variantKey(row.color, row.option_value)));

  const typed = rows
    .map((row) => ({
      row,
      sku: typedSku(row.sku),
      // The variant it is, or, when it is new, one of its colour (whose SKU it may take over).
      current:
        byKey.get(variantKey(row.color, row.option_value)) ?? existing.find((other) => other.color === row.color),
    }))
    .filter((entry): entry is typeof entry & { sku: string } => typeof entry.sku === "string");
  const refuse = (row: VariantRow, key: string, params: Record<string, string> = {}): never => {
    throw new UserError(key, {
      field: row.skuField ?? "variants",
      status: 409,
      params: { sku: row.sku ?? "", ...params },
    });
  };
  for (const { row, sku, current } of typed) {
    if (MADE_SKU.test(sku) && current?.sku !== sku) refuse(row, "adminProductForm.errors.skuReserved");
  }
  if (typed.length > 0) {
    const taken = await trx
      .selectFrom("product_variants")
      .innerJoin("products", "products.id", "product_variants.product_id")
      .select(["product_variants.sku", "products.name_en"])
      .where("product_variants.product_id", "<>", productId)
      .where(
        "product_variants.sku",
        "in",
        typed.map((entry) => entry.sku),
      )
      .execute();
    for (const { row, sku } of typed) {
      const other = taken.find((t) => t.sku === sku);
      if (other) refuse(row, "adminProductForm.errors.skuTaken", { product: other.name_en });
    }
  }

  // Each wanted row takes the existing row of its colour and value; one that has none takes an
  // unclaimed row of its colour (a value renamed, a colour given sizes or losing them), so the
  // variant keeps its id, SKU and waiting alerts. What is left unclaimed is deleted.
  const claimed = new Map<VariantRow, (typeof existing)[number]>();
  const unclaimed = existing.filter((row) => !wantedKeys.has(variantKey(row.color, row.option_value)));
  for (const row of rows) {
    const exact = byKey.get(variantKey(row.color, row.option_value));
    const reused = exact ?? unclaimed.find((candidate) => candidate.color === row.color);
    if (!reused) continue;
    claimed.set(row, reused);
    if (!exact) unclaimed.splice(unclaimed.indexOf(reused), 1);
  }
  if (unclaimed.length > 0) {
    await trx
      .deleteFrom("product_variants")
      .where(
        "id",
        "in",
        unclaimed.map((row) => row.id),
      )
      .execute();
  }
  // A SKU may move from one of this product's variants to another: free each changing one first
  // (an empty SKU becomes the variant's own "P{product}-{id}", which nobody else can hold).
  const changing = rows
    .map((row) => ({ sku: typedSku(row.sku), current: claimed.get(row) }))
    .filter(({ sku, current }) => typeof sku === "string" && current !== undefined && current.sku !== sku);
  await freeSkus(
    trx,
    changing.map(({ current }) => current?.id ?? 0),
  );

  const restockedIds: number[] = [];
  for (const row of rows) {
    const current = claimed.get(row);
    const sku = typedSku(row.sku);
    const columns = {
      option_value: row.option_value,
      color_zh: row.color_zh,
      option_value_zh: row.option_value_zh,
      sort_order: row.sort_order,
      option_order: row.option_order,
      stock: row.stock,
      // null: the shop makes one (the database's trigger); undefined: as it is.
      ...(sku === undefined ? {} : { sku: sku ?? "" }),
    };
    if (current === undefined) {
      await trx
        .insertInto("product_variants")
        .values({ product_id: productId, color: row.color, ...columns })
        .execute();
    } else {
      await trx.updateTable("product_variants").set(columns).where("id", "=", current.id).execute();
      if (current.stock === 0 && row.stock > 0) restockedIds.push(current.id);
    }
  }
  return { restockedIds };
}
