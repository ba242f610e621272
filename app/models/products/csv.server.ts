/**
 * Product CSV export and import (docs/decisions/036).
 *
 * Columns, in this order, one row per colour variant (names are stable: an import reads them
 * from the header, in any order):
 *
 *   product_id      the product's id; empty on import = a new product
 *   name_en, name_zh, description_en, description_zh
 *   category        the category's slug; empty = no category
 *   brand           the brand's slug (Admin → Brands, docs/decisions/052); empty = no brand; a slug
 *                   no brand has is an error of that row; a file without the column leaves brands as they are
 *   price_hkd       HK$ with two decimals ("1234.50")
 *   price_gbp, price_eur, price_usd
 *                   a fixed price, or EMPTY when it follows HKD at the shop's rate (derived)
 *   sale_price_hkd  the sale price paid while the sale lasts (docs/decisions/053); empty = no sale
 *   sale_price_gbp, sale_price_eur, sale_price_usd
 *                   a fixed sale price, or EMPTY when it follows the HKD sale price at the shop's rate
 *   sale_ends       when the sale ends, Hong Kong time ("2026-12-01 18:00"); empty = until removed
 *                   A file without the sale columns leaves the sale as it is; a sale that has ended
 *                   exports as none.
 *   featured        "yes" or "no" (empty on import = no)
 *   adult_only      "yes" (18+, docs/decisions/049) or "no"; a file without the column, or an
 *                   empty cell, leaves the product's flag as it is (a new product: no)
 *   weight_grams    the weight in grams, a whole number from 0 to 1,000,000; empty = 0 (not weighed)
 *   ship_zones      the ids of the shipping zones it may be sent to, separated by "|" ("1|3"); empty =
 *                   no limit of its own (everywhere its category allows, docs/decisions/049); an id
 *                   that is not a zone is an error of that row
 *                   A file without weight_grams or ship_zones (older exports) leaves them as they are.
 *   gtin, mpn       the barcode number (8/12/13/14 digits, check digit verified) and the manufacturer part
 *                   number (docs/decisions/056); empty = none; a file without the column leaves it as it is
 *   colour          the colour's English name ("Default" for a product without colours)
 *   colour_zh       its Chinese name; empty = the English one
 *   stock           that variant's stock, a whole number
 *   option_name, option_name_zh
 *                   the second option's name ("Size", "尺寸"; docs/decisions/054), the same on every row
 *                   of a product; empty = the product varies by colour only
 *   option_value, option_value_zh
 *                   the row's value of the second option ("L"), its Chinese text; one row per colour × value
 *   sku             the variant's SKU; empty = the shop makes one ("P12-345")
 *                   A file without the option or SKU columns (older exports) leaves SKUs as they are
 *                   and describes products by colour only.
 *   image_urls      the images the product page shows for this colour (its own, then untagged), absolute,
 *                   space separated, in gallery order. Export only: an import ignores it.
 *
 * Import grouping: rows with a product_id belong to that product wherever they are; rows without
 * one belong to a new product, and consecutive such rows with the same name_en are one product.
 * Every product is checked with the product form's own schema (app/schemas/product.ts), from the
 * object the form would send.
 */
import { createHash, randomUUID } from "node:crypto";
import { parse } from "csv-parse/sync";
import type { Transaction } from "kysely";
import { type DB, now } from "#db/connect.server";
import type { Database, ProductRow } from "#db/schema";
import { imagesForColour } from "~/lib/colour-images";
import { restoreCell } from "~/lib/csv.server";
import { hongKongDate, toHongKongInput } from "~/lib/dates";
import type { ExchangeRates } from "~/lib/money";
import { UserError } from "~/lib/problem";
import { publicUrl, type Storage } from "~/lib/storage.server";
import { centsToText, DEFAULT_COLOR, type ProductFormInput, productSchema } from "~/schemas/product";
import { auditAction } from "../audit.server";
import { setProductZones } from "../orders/restrictions.server";
import { loadShop } from "../settings/shop.server";
import { type ProductInput, productColumns, type SavedVariant, saleRefusal, saleShown } from "./editor.server";
import { notifyBackInStock, type StockAlertMailConfig } from "./stock-alerts.server";
import { freeSkus, type VariantRow, variantKey, variantRows } from "./variants.server";

export const PRODUCT_CSV_COLUMNS = [
  "product_id",
  "name_en",
  "name_zh",
  "description_en",
  "description_zh",
  "category",
  "brand",
  "price_hkd",
  "price_gbp",
  "price_eur",
  "price_usd",
  "sale_price_hkd",
  "sale_price_gbp",
  "sale_price_eur",
  "sale_price_usd",
  "sale_ends",
  "featured",
  "adult_only",
  "weight_grams",
  "ship_zones",
  "gtin",
  "mpn",
  "colour",
  "colour_zh",
  "stock",
  "option_name",
  "option_name_zh",
  "option_value",
  "option_value_zh",
  "sku",
  "image_urls",
] as const;

export type ProductCsvColumn = (typeof PRODUCT_CSV_COLUMNS)[number];
type CsvRecord = Record<ProductCsvColumn, string>;

/** Columns younger than many files: a file without one leaves what it holds as it is. */
const OPTIONAL_COLUMNS: readonly ProductCsvColumn[] = [
  "sale_price_hkd",
  "sale_price_gbp",
  "sale_price_eur",
  "sale_price_usd",
  "sale_ends",
  "adult_only",
  "weight_grams",
  "ship_zones",
  "option_name",
  "option_name_zh",
  "option_value",
  "option_value_zh",
  "sku",
  "gtin",
  "mpn",
  "brand",
];

/** Every column but image_urls (and the optional ones) must be in an imported file's header. */
export const REQUIRED_COLUMNS = PRODUCT_CSV_COLUMNS.filter(
  (column) => column !== "image_urls" && !OPTIONAL_COLUMNS.includes(column),
);

/** The columns that belong to the product (all its rows must agree on them). */
const PRODUCT_FIELDS = [
  "name_en",
  "name_zh",
  "description_en",
  "description_zh",
  "category",
  "brand",
  "price_hkd",
  "price_gbp",
  "price_eur",
  "price_usd",
  "sale_price_hkd",
  "sale_price_gbp",
  "sale_price_eur",
  "sale_price_usd",
  "sale_ends",
  "featured",
  "adult_only",
  "weight_grams",
  "ship_zones",
  "option_name",
  "option_name_zh",
  "gtin",
  "mpn",
] as const satisfies readonly ProductCsvColumn[];

/** Between the zone ids of the ship_zones column (decision 049). */
const ZONE_SEPARATOR = "|";

export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
/** How many errors a preview lists (the rest are counted). */
export const MAX_LISTED_ERRORS = 200;
const BATCH_SIZE = 500;
/** An `in (…)` list stays well under both databases' parameter limits. */
const CHUNK = 1000;

// ---------------------------------------------------------------------------------------------
// Export

export function productExportFileName(at: Date = new Date()): string {
  return `products-${hongKongDate(at)}.csv`;
}

/** How many rows an export holds: one per colour, one for a product without any. */
export async function countProductCsvRows(db: DB): Promise<number> {
  const { variants } = await db
    .selectFrom("product_variants")
    .select((eb) => eb.fn.countAll<number>().as("variants"))
    .executeTakeFirstOrThrow();
  const { bare } = await db
    .selectFrom("products")
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom("product_variants").select("id").whereRef("product_id", "=", "products.id"))),
    )
    .select((eb) => eb.fn.countAll<number>().as("bare"))
    .executeTakeFirstOrThrow();
  return Number(variants) + Number(bare);
}

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The export's records, products by id in batches (keyset pagination: each batch starts after
 * the last id of the one before, so memory stays flat however many products), with their
 * colours and images read per batch. `origin` makes the image addresses absolute.
 */
export async function* productCsvRecords(db: DB, origin: string, batchSize = BATCH_SIZE): AsyncGenerator<CsvRecord> {
  const categories = await db.selectFrom("categories").select(["id", "slug"]).execute();
  const slugs = new Map(categories.map((row) => [row.id, row.slug]));
  const brands = await db.selectFrom("brands").select(["id", "slug"]).execute();
  const brandSlugs = new Map(brands.map((row) => [row.id, row.slug]));
  let after = 0;
  for (;;) {
    const products = await db
      .selectFrom("products")
      .selectAll()
      .where("id", ">", after)
      .orderBy("id")
      .limit(batchSize)
      .execute();
    if (products.length === 0) return;
    const ids = products.map((product) => product.id);
    const variants = await db
      .selectFrom("product_variants")
      .select(["product_id", "color", "color_zh", "option_value", "option_value_zh", "stock", "sku"])
      .where("product_id", "in", ids)
      .orderBy("product_id")
      .orderBy("sort_order")
      .orderBy("option_order")
      .orderBy("id")
      .execute();
    const images = await db
      .selectFrom("product_images")
      .select(["product_id", "path", "color"])
      .where("product_id", "in", ids)
      .orderBy("product_id")
      .orderBy("sort_order")
      .execute();
    const zones = await db
      .selectFrom("product_ship_zones")
      .select(["product_id", "zone_id"])
      .where("product_id", "in", ids)
      .orderBy("product_id")
      .orderBy("zone_id")
      .execute();
    const variantsOf = groupBy(variants, (row) => row.product_id);
    const imagesOf = groupBy(images, (row) => row.product_id);
    const zonesOf = groupBy(zones, (row) => row.product_id);
    for (const product of products) {
      const own = variantsOf.get(product.id) ?? [];
      const rows =
        own.length > 0
          ? own
          : [{ color: "", color_zh: null, option_value: "", option_value_zh: null, stock: 0, sku: "" }];
      for (const variant of rows) {
        // What the product page shows for this colour (one rule: app/lib/colour-images.ts).
        const urls = imagesForColour(imagesOf.get(product.id) ?? [], variant.color || null).map(
          (image) => `${origin}${publicUrl(image.path)}`,
        );
        const zoneIds = (zonesOf.get(product.id) ?? []).map((row) => row.zone_id);
        yield exportRecord(product, slugs, variant, urls, zoneIds, brandSlugs);
      }
    }
    if (products.length < batchSize) return;
    after = ids[ids.length - 1] ?? after;
  }
}

function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}

function exportRecord(
  product: ProductRow,
  slugs: Map<number, string>,
  variant: {
    color: string;
    color_zh: string | null;
    option_value: string;
    option_value_zh: string | null;
    stock: number;
    sku: string;
  },
  urls: string[],
  zoneIds: number[],
  brandSlugs: Map<number, string>,
): CsvRecord {
  const price = (cents: number, derived: number) => (derived === 1 ? "" : centsToText(cents));
  return {
    product_id: String(product.id),
    name_en: product.name_en,
    name_zh: product.name_zh,
    description_en: product.description_en,
    description_zh: product.description_zh,
    category: product.category_id === null ? "" : (slugs.get(product.category_id) ?? ""),
    brand: product.brand_id === null ? "" : (brandSlugs.get(product.brand_id) ?? ""),
    price_hkd: centsToText(product.price_hkd_cents),
    price_gbp: price(product.price_gbp_cents, product.price_gbp_derived),
    price_eur: price(product.price_eur_cents, product.price_eur_derived),
    price_usd: price(product.price_usd_cents, product.price_usd_derived),
    ...saleCells(product),
    featured: product.is_featured === 1 ? "yes" : "no",
    adult_only: product.adult_only === 1 ? "yes" : "no",
    weight_grams: String(product.weight_grams),
    ship_zones: zoneIds.join(ZONE_SEPARATOR),
    gtin: product.gtin ?? "",
    mpn: product.mpn ?? "",
    colour: variant.color,
    colour_zh: variant.color_zh ?? "",
    stock: String(variant.stock),
    option_name: variant.option_value ? (product.option_name ?? "") : "",
    option_name_zh: variant.option_value ? (product.option_name_zh ?? "") : "",
    option_value: variant.option_value,
    option_value_zh: variant.option_value_zh ?? "",
    sku: variant.sku,
    image_urls: urls.join(" "),
  };
}

/** The sale's cells (docs/decisions/053) as the product form shows them: none once it has ended. */
function saleCells(product: ProductRow) {
  const on = saleShown(product);
  const cents = (value: number | null, derived = 0) =>
    on && value !== null && derived === 0 ? centsToText(value) : "";
  return {
    sale_price_hkd: cents(product.sale_price_hkd_cents),
    sale_price_gbp: cents(product.sale_price_gbp_cents, product.sale_price_gbp_derived),
    sale_price_eur: cents(product.sale_price_eur_cents, product.sale_price_eur_derived),
    sale_price_usd: cents(product.sale_price_usd_cents, product.sale_price_usd_derived),
    sale_ends: on && product.sale_ends_at ? toHongKongInput(product.sale_ends_at).replace("T", " ") : "",
  };
}

// ---------------------------------------------------------------------------------------------
// Import: parse, group, validate, compare

/** One refusal of the preview: the CSV line (header = 1), a translation key and its parameters. */
export interface ImportError {
  line: number;
  key: string;
  params?: Record<string, string | number>;
}

interface CsvLine {
  line: number;
  cells: CsvRecord;
}

interface PlannedProduct {
  /** null: a new product. */
  id: number | null;
  line: number;
  input: ProductInput;
}

export interface ImportPlan {
  creates: PlannedProduct[];
  updates: PlannedProduct[];
  unchanged: number;
  errors: ImportError[];
  /** Rows read (not counting the header). */
  rows: number;
}

/** The form field names of the product schema → the CSV column the admin sees. */
const COLUMN_OF_FIELD: Record<string, ProductCsvColumn> = {
  name_en: "name_en",
  name_zh: "name_zh",
  description_en: "description_en",
  description_zh: "description_zh",
  price_hkd: "price_hkd",
  price_gbp: "price_gbp",
  price_eur: "price_eur",
  price_usd: "price_usd",
  sale_price_hkd: "sale_price_hkd",
  sale_price_gbp: "sale_price_gbp",
  sale_price_eur: "sale_price_eur",
  sale_price_usd: "sale_price_usd",
  sale_ends: "sale_ends",
  category_id: "category",
  weight_grams: "weight_grams",
  gtin: "gtin",
  mpn: "mpn",
  stock: "stock",
  color: "colour",
  color_zh: "colour_zh",
  variants: "colour",
  sku: "sku",
  option_name: "option_name",
  option_name_zh: "option_name_zh",
  option_values: "option_value",
  value: "option_value",
  value_zh: "option_value_zh",
  cells: "sku",
};

/**
 * Reads the file: csv-parse with the header naming the columns, Excel-style quoting (doubled
 * quotes, line breaks inside quoted cells), a BOM allowed. A file that is not CSV, or lacks a
 * required column, is one error; otherwise every record with the line it starts on.
 */
export function readProductCsv(data: Buffer | string): {
  lines: CsvLine[];
  errors: ImportError[];
  /** The columns the header names (a missing optional column leaves its value as it is). */
  columns: Set<ProductCsvColumn>;
} {
  const none = new Set<ProductCsvColumn>();
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  let parsed: { record: string[]; info: { bytes: number } }[];
  try {
    // The header is read as a record too: its end is where the first row starts (line numbers).
    parsed = parse(bytes, {
      bom: true,
      info: true,
      relax_quotes: false,
      skip_empty_lines: true,
    }) as unknown as typeof parsed;
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 1;
    return { lines: [], errors: [{ line, key: "adminProductCsv.errors.notCsv" }], columns: none };
  }
  const [head, ...records] = parsed;
  if (!head) return { lines: [], errors: [{ line: 1, key: "adminProductCsv.errors.empty" }], columns: none };
  const header = head.record.map((name) => name.trim().toLowerCase());
  const missing = REQUIRED_COLUMNS.filter((column) => !header.includes(column));
  if (missing.length > 0) {
    return {
      lines: [],
      errors: [{ line: 1, key: "adminProductCsv.errors.missingColumns", params: { columns: missing.join(", ") } }],
      columns: none,
    };
  }
  const indexOf = PRODUCT_CSV_COLUMNS.map((column) => [column, header.indexOf(column)] as const);
  // A record starts where the one before ended (csv-parse's `bytes`), after any empty lines;
  // its line is one more than the line breaks before it.
  let offset = head.info.bytes;
  let line = 1 + countBreaks(bytes, 0, offset);
  const lines = records.map(({ record, info }) => {
    while (bytes[offset] === 0x0d || bytes[offset] === 0x0a) {
      if (bytes[offset] === 0x0a) line++;
      offset++;
    }
    const start = line;
    line += countBreaks(bytes, offset, info.bytes);
    offset = info.bytes;
    const cells = {} as CsvRecord;
    for (const [column, index] of indexOf) cells[column] = restoreCell(index < 0 ? "" : (record[index] ?? ""));
    return { line: start, cells };
  });
  const columns = new Set(indexOf.filter(([, index]) => index >= 0).map(([column]) => column));
  return { lines, errors: [], columns };
}

function countBreaks(bytes: Buffer, from: number, to: number): number {
  let count = 0;
  for (let i = bytes.indexOf(0x0a, from); i !== -1 && i < to; i = bytes.indexOf(0x0a, i + 1)) count++;
  return count;
}

/**
 * Groups rows into products: rows with an id by that id; rows without one into a new product,
 * consecutive rows with the same name_en being one product.
 */
function groupRows(lines: CsvLine[]): CsvLine[][] {
  const groups: CsvLine[][] = [];
  const byId = new Map<string, CsvLine[]>();
  let open: CsvLine[] | null = null;
  for (const row of lines) {
    const id = row.cells.product_id.trim();
    if (id !== "") {
      open = null;
      const group = byId.get(id);
      if (group) group.push(row);
      else {
        const created = [row];
        byId.set(id, created);
        groups.push(created);
      }
      continue;
    }
    if (open && open[0]?.cells.name_en.trim() === row.cells.name_en.trim()) open.push(row);
    else {
      open = [row];
      groups.push(open);
    }
  }
  return groups;
}

/** What Conform sends for a field: an empty text field is absent. */
function formText(value: string): string | undefined {
  return value === "" ? undefined : value;
}

/**
 * The object the product form would post for these rows (the schema's input): colour rows, or —
 * when the rows name option values (docs/decisions/054) — colour rows, values and one grid cell
 * per row, each referring to its colour and value by the key the form would give them.
 */
function formInputOf(rows: CsvLine[], categoryId: number | null, featured: boolean): ProductFormInput {
  const first = rows[0]?.cells as CsvRecord;
  const withOption = rows.some(({ cells }) => cells.option_value.trim() !== "");
  const colours = [...new Set(rows.map(({ cells }) => cells.colour.trim()))];
  const values = [...new Set(rows.map(({ cells }) => cells.option_value.trim()))];
  const onlyDefault = colours.length === 1 && [DEFAULT_COLOR, ""].includes(colours[0] ?? "");
  const common = {
    name_en: first.name_en,
    name_zh: first.name_zh,
    description_en: formText(first.description_en),
    description_zh: formText(first.description_zh),
    price_hkd: first.price_hkd,
    price_gbp: formText(first.price_gbp.trim()),
    price_eur: formText(first.price_eur.trim()),
    price_usd: formText(first.price_usd.trim()),
    sale_price_hkd: formText(first.sale_price_hkd.trim()),
    sale_price_gbp: formText(first.sale_price_gbp.trim()),
    sale_price_eur: formText(first.sale_price_eur.trim()),
    sale_price_usd: formText(first.sale_price_usd.trim()),
    sale_ends: formText(first.sale_ends.trim()),
    category_id: categoryId === null ? undefined : String(categoryId),
    is_featured: featured,
    weight_grams: formText(first.weight_grams.trim()),
    gtin: formText(first.gtin.trim()),
    mpn: formText(first.mpn.trim()),
    images: [],
  };
  if (withOption) {
    const colourKey = (colour: string) => (onlyDefault ? "" : `c${colours.indexOf(colour)}`);
    return {
      ...common,
      variants: onlyDefault
        ? []
        : colours.map((colour) => ({
            key: colourKey(colour),
            color: colour,
            color_zh: formText(rows.find(({ cells }) => cells.colour.trim() === colour)?.cells.colour_zh ?? ""),
          })),
      option_name: formText(first.option_name.trim()),
      option_name_zh: formText(first.option_name_zh.trim()),
      option_values: values.map((value, index) => ({
        key: `v${index}`,
        value,
        value_zh: formText(rows.find(({ cells }) => cells.option_value.trim() === value)?.cells.option_value_zh ?? ""),
      })),
      cells: rows.map(({ cells }) => ({
        color: colourKey(cells.colour.trim()),
        value: `v${values.indexOf(cells.option_value.trim())}`,
        stock: cells.stock,
        sku: formText(cells.sku.trim()),
      })),
    };
  }
  const single = rows.length === 1 && onlyDefault;
  return {
    ...common,
    option_name: formText(first.option_name.trim()),
    stock: single ? first.stock : undefined,
    sku: single ? formText(first.sku.trim()) : undefined,
    variants: single
      ? []
      : rows.map(({ cells }) => ({
          color: cells.colour,
          color_zh: formText(cells.colour_zh),
          stock: cells.stock,
          sku: formText(cells.sku.trim()),
        })),
  };
}

/** A file without the sku column leaves every SKU as it is (undefined), instead of making new ones. */
function keepSkus(input: ProductInput): ProductInput {
  return {
    ...input,
    sku: undefined,
    variants: input.variants.map((variant) => ({ ...variant, sku: undefined })),
    cells: input.cells?.map((cell) => ({ ...cell, sku: undefined })),
  };
}

interface Existing {
  product: ProductRow;
  /** In colour order, then value order. */
  variants: SavedVariant[];
  /** Its own zone limit, ids ascending (empty: none). */
  zoneIds: number[];
}

async function loadExisting(db: DB | Transaction<Database>, ids: number[]): Promise<Map<number, Existing>> {
  const map = new Map<number, Existing>();
  for (const chunk of chunks(ids)) {
    const products = await db.selectFrom("products").selectAll().where("id", "in", chunk).execute();
    for (const product of products) map.set(product.id, { product, variants: [], zoneIds: [] });
    const variants = await db
      .selectFrom("product_variants")
      .select(["id", "product_id", "color", "color_zh", "option_value", "option_value_zh", "stock", "sku"])
      .where("product_id", "in", chunk)
      .orderBy("product_id")
      .orderBy("sort_order")
      .orderBy("option_order")
      .orderBy("id")
      .execute();
    for (const { product_id, ...variant } of variants) map.get(product_id)?.variants.push(variant);
    const zones = await db
      .selectFrom("product_ship_zones")
      .select(["product_id", "zone_id"])
      .where("product_id", "in", chunk)
      .orderBy("product_id")
      .orderBy("zone_id")
      .execute();
    for (const { product_id, zone_id } of zones) map.get(product_id)?.zoneIds.push(zone_id);
  }
  return map;
}

/** The SKUs the shop makes itself ("P12-345"): a variant that has one keeps it when the file leaves the cell empty. */
const MADE_SKU = /^P\d+-\d+$/;

/** Whether a row's SKU cell asks for a change: a typed one that differs, or an empty one on a variant whose SKU was typed. */
function skuChanges(have: string, wanted: string | null | undefined): boolean {
  if (wanted === undefined) return false;
  return wanted === null ? !MADE_SKU.test(have) : wanted !== have;
}

/** True when saving `input` would leave the product and its variants exactly as they are. */
function isUnchanged(existing: Existing, input: ProductInput, rates: ExchangeRates): boolean {
  const wanted = variantRows(input);
  // A product without any colour row (older data) is exported as one row with no colour and no
  // stock: that row, imported back, leaves it as it is.
  const bare = existing.variants.length === 0 && wanted.length === 1 && wanted[0]?.color === DEFAULT_COLOR;
  const columns = productColumns(input, rates);
  for (const [key, value] of Object.entries(columns)) {
    if (existing.product[key as keyof ProductRow] !== value) return false;
  }
  if (input.ship_zone_ids && input.ship_zone_ids.join(",") !== existing.zoneIds.join(",")) return false;
  if (bare) return wanted[0]?.stock === 0 && wanted[0]?.color_zh === null;
  if (wanted.length !== existing.variants.length) return false;
  return wanted.every((variant, index) => {
    const have = existing.variants[index];
    return (
      have !== undefined &&
      have.color === variant.color &&
      (have.color_zh ?? null) === variant.color_zh &&
      have.option_value === variant.option_value &&
      (have.option_value_zh ?? null) === variant.option_value_zh &&
      have.stock === variant.stock &&
      !skuChanges(have.sku, variant.sku)
    );
  });
}

const ID_PATTERN = /^\d{1,9}$/;

/** The zone ids a ship_zones cell names, as text ("1 | 3" → ["1", "3"]; empty → none). */
function zonesOfCell(cell: string): string[] {
  return cell
    .split(ZONE_SEPARATOR)
    .map((text) => text.trim())
    .filter((text) => text !== "");
}

/**
 * Parses, groups and checks a file against the database, writing nothing: what would be
 * created, updated and left unchanged, and every error with its line.
 */
export async function planProductImport(db: DB, data: Buffer | string): Promise<ImportPlan> {
  const { lines, errors, columns } = readProductCsv(data);
  const plan: ImportPlan = { creates: [], updates: [], unchanged: 0, errors, rows: lines.length };
  if (errors.length > 0) return plan;
  if (lines.length === 0) {
    errors.push({ line: 2, key: "adminProductCsv.errors.noRows" });
    return plan;
  }
  const categories = await db.selectFrom("categories").select(["id", "slug"]).execute();
  const categoryIds = new Map(categories.map((row) => [row.slug.toLowerCase(), row.id]));
  const zoneIds = new Set((await db.selectFrom("shipping_zones").select("id").execute()).map((row) => row.id));
  const brands = await db.selectFrom("brands").select(["id", "slug"]).execute();
  const brandIds = new Map(brands.map((row) => [row.slug.toLowerCase(), row.id]));
  const groups = groupRows(lines);
  const ids = [
    ...new Set(
      lines
        .map((row) => row.cells.product_id.trim())
        .filter((id) => ID_PATTERN.test(id))
        .map(Number),
    ),
  ];
  const existing = await loadExisting(db, ids);
  const { exchangeRates } = await loadShop(db);
  const typedSkus = await skusInUse(
    db,
    lines.map((row) => row.cells.sku.trim()).filter((sku) => sku !== ""),
  );

  for (const rows of groups) {
    const first = rows[0] as CsvLine;
    const groupErrors: ImportError[] = [];
    const rawId = first.cells.product_id.trim();
    let id: number | null = null;
    if (rawId !== "") {
      id = ID_PATTERN.test(rawId) ? Number(rawId) : null;
      if (id === null || !existing.has(id)) {
        groupErrors.push({ line: first.line, key: "adminProductCsv.errors.unknownProduct", params: { id: rawId } });
      }
    }
    for (const row of rows.slice(1)) {
      const differs = PRODUCT_FIELDS.filter((field) => row.cells[field].trim() !== first.cells[field].trim());
      if (differs.length > 0) {
        groupErrors.push({
          line: row.line,
          key: "adminProductCsv.errors.rowsDisagree",
          params: { columns: differs.join(", "), other: first.line },
        });
      }
    }
    const slug = first.cells.category.trim().toLowerCase();
    const categoryId = slug === "" ? null : (categoryIds.get(slug) ?? null);
    if (slug !== "" && categoryId === null) {
      groupErrors.push({ line: first.line, key: "adminProductCsv.errors.unknownCategory", params: { slug } });
    }
    const brandSlug = first.cells.brand.trim().toLowerCase();
    const brandId = brandSlug === "" ? null : (brandIds.get(brandSlug) ?? null);
    if (brandSlug !== "" && brandId === null) {
      groupErrors.push({ line: first.line, key: "adminProductCsv.errors.unknownBrand", params: { slug: brandSlug } });
    }
    const featuredText = first.cells.featured.trim().toLowerCase();
    if (!["", "yes", "no"].includes(featuredText)) {
      groupErrors.push({ line: first.line, key: "adminProductCsv.errors.featuredInvalid" });
    }
    if (!["", "yes", "no"].includes(first.cells.adult_only.trim().toLowerCase())) {
      groupErrors.push({ line: first.line, key: "adminProductCsv.errors.adultInvalid" });
    }
    const shipZones = zonesOfCell(first.cells.ship_zones);
    for (const zone of shipZones.filter((text) => !ID_PATTERN.test(text) || !zoneIds.has(Number(text)))) {
      groupErrors.push({ line: first.line, key: "adminProductCsv.errors.unknownZone", params: { zone } });
    }
    // A SKU of the shop's own shape ("P12-345") that this product does not hold — a row copied
    // from another product to make a new one — is left for the shop to make again.
    for (const row of rows) {
      const sku = row.cells.sku.trim();
      if (MADE_SKU.test(sku) && typedSkus.holders.get(sku) !== (id ?? -1)) row.cells.sku = "";
    }
    const parsed = productSchema.safeParse(formInputOf(rows, categoryId, featuredText === "yes"));
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const [field, index, sub] = issue.path;
        // A colour row or a grid cell is one line of the file (cells come one per row, in order).
        const perRow = (field === "variants" || field === "cells") && typeof index === "number";
        const line = perRow ? (rows[index]?.line ?? first.line) : first.line;
        const name = perRow && typeof sub === "string" ? sub : String(field ?? "");
        groupErrors.push({
          line,
          key: "adminProductCsv.errors.field",
          params: { column: COLUMN_OF_FIELD[name] ?? name, reason: issue.message },
        });
      }
    }
    if (groupErrors.length > 0) {
      errors.push(...groupErrors);
      continue;
    }
    if (!parsed.success) continue;
    const adultText = first.cells.adult_only.trim().toLowerCase();
    // Empty or absent: the flag stays as it is (the model leaves an undefined flag alone).
    // A file without the weight or zones column leaves them as they are; with it, an empty cell is
    // 0 grams and no zone limit of its own, as the product form saves them.
    const read: ProductInput = {
      ...parsed.data,
      // A file without the option columns describes colours only and leaves the option's name alone.
      option: columns.has("option_value") ? parsed.data.option : undefined,
      adult_only: adultText === "" ? undefined : adultText === "yes",
      weight_grams: columns.has("weight_grams") ? parsed.data.weight_grams : undefined,
      gtin: columns.has("gtin") ? parsed.data.gtin : undefined,
      mpn: columns.has("mpn") ? parsed.data.mpn : undefined,
      ship_zone_ids: columns.has("ship_zones") ? [...new Set(shipZones.map(Number))].sort((a, b) => a - b) : undefined,
      brand_id: columns.has("brand") ? brandId : undefined,
    };
    const withSkus = columns.has("sku") ? read : keepSkus(read);
    // A file without the sale columns leaves the sale as it is (docs/decisions/053).
    const input = columns.has("sale_price_hkd") ? withSkus : { ...withSkus, sale: undefined };
    // What needs the shop's rates and the clock: a sale price below the regular one, an end ahead.
    const saleRefused = saleRefusal(productColumns(input, exchangeRates), new Date());
    if (saleRefused) {
      errors.push({
        line: first.line,
        key: "adminProductCsv.errors.field",
        params: { column: COLUMN_OF_FIELD[saleRefused.field] ?? saleRefused.field, reason: saleRefused.key },
      });
      continue;
    }
    const skuErrors = skuRefusals(rows, input, id, typedSkus);
    if (skuErrors.length > 0) {
      errors.push(...skuErrors);
      continue;
    }
    const current = id === null ? undefined : existing.get(id);
    if (!current) plan.creates.push({ id: null, line: first.line, input });
    else if (isUnchanged(current, input, exchangeRates)) plan.unchanged++;
    else plan.updates.push({ id, line: first.line, input });
  }
  errors.sort((a, b) => a.line - b.line);
  return plan;
}

/** Which product holds each of these SKUs now (docs/decisions/054), and which lines of the file typed each. */
async function skusInUse(
  db: DB,
  skus: string[],
): Promise<{ holders: Map<string, number>; typed: Map<string, number> }> {
  const holders = new Map<string, number>();
  for (const chunk of chunks([...new Set(skus)])) {
    const rows = await db
      .selectFrom("product_variants")
      .select(["sku", "product_id"])
      .where("sku", "in", chunk)
      .execute();
    for (const row of rows) holders.set(row.sku, row.product_id);
  }
  return { holders, typed: new Map() };
}

/**
 * A product's SKU cells that cannot be saved: one typed twice in the file, or one another product
 * holds. (A SKU of the shop's own shape on a row copied from another product was emptied before.)
 */
function skuRefusals(
  rows: CsvLine[],
  input: ProductInput,
  id: number | null,
  skus: { holders: Map<string, number>; typed: Map<string, number> },
): ImportError[] {
  const errors: ImportError[] = [];
  if (
    input.sku === undefined &&
    input.variants.every((v) => v.sku === undefined) &&
    !input.cells?.some((c) => c.sku !== undefined)
  ) {
    return errors;
  }
  for (const row of rows) {
    const sku = row.cells.sku.trim();
    if (sku === "") continue;
    const holder = skus.holders.get(sku);
    const earlier = skus.typed.get(sku);
    if (earlier !== undefined) {
      errors.push({ line: row.line, key: "adminProductCsv.errors.skuTwice", params: { sku, other: earlier } });
    } else if (holder !== undefined && holder !== id) {
      errors.push({ line: row.line, key: "adminProductCsv.errors.skuTaken", params: { sku, id: holder } });
    }
    skus.typed.set(sku, row.line);
  }
  return errors;
}

// ---------------------------------------------------------------------------------------------
// Import: write

export interface ImportCounts {
  created: number;
  updated: number;
  unchanged: number;
}

/**
 * Writes a checked plan in one transaction: products updated by id (colours upserted by name,
 * colours absent from the file removed as the product form removes them: cart lines of a removed
 * colour stay and show as unavailable; images untouched), new products created. A product that
 * disappeared since the preview, or a category that did, refuses the whole import (409) and
 * nothing is written.
 */
export async function applyProductImport(
  db: DB,
  plan: ImportPlan,
  actorUserId: string | null,
  /** For the back-in-stock e-mails' links (docs/decisions/055); the import page passes it. */
  mail?: StockAlertMailConfig,
): Promise<ImportCounts> {
  if (plan.errors.length > 0) throw new Error("applyProductImport: the plan has errors");
  const counts = { created: plan.creates.length, updated: plan.updates.length, unchanged: plan.unchanged };
  await db.transaction().execute(async (trx) => {
    const timestamp = now();
    const { exchangeRates } = await loadShop(trx);
    const wantedCategories = [
      ...new Set([...plan.creates, ...plan.updates].map((p) => p.input.category_id).filter((c) => c !== null)),
    ];
    let found = 0;
    for (const chunk of chunks(wantedCategories)) {
      found += (await trx.selectFrom("categories").select("id").where("id", "in", chunk).execute()).length;
    }
    if (found !== wantedCategories.length) throw new UserError("adminProductCsv.errors.changedSince", { status: 409 });
    const wantedZones = [...new Set([...plan.creates, ...plan.updates].flatMap((p) => p.input.ship_zone_ids ?? []))];
    let zonesFound = 0;
    for (const chunk of chunks(wantedZones)) {
      zonesFound += (await trx.selectFrom("shipping_zones").select("id").where("id", "in", chunk).execute()).length;
    }
    if (zonesFound !== wantedZones.length) throw new UserError("adminProductCsv.errors.changedSince", { status: 409 });
    const wantedBrands = [
      ...new Set(
        [...plan.creates, ...plan.updates].flatMap((p) => (p.input.brand_id == null ? [] : [p.input.brand_id])),
      ),
    ];
    let brandsFound = 0;
    for (const chunk of chunks(wantedBrands)) {
      brandsFound += (await trx.selectFrom("brands").select("id").where("id", "in", chunk).execute()).length;
    }
    if (brandsFound !== wantedBrands.length)
      throw new UserError("adminProductCsv.errors.changedSince", { status: 409 });
    const existing = await loadExisting(
      trx,
      plan.updates.map((p) => p.id as number),
    );
    if (existing.size !== plan.updates.length)
      throw new UserError("adminProductCsv.errors.changedSince", { status: 409 });

    // Variants sold out before the import and in stock after it: their alerts are sent (docs/decisions/055).
    const backInStock: number[] = [];
    const inserts: (Omit<VariantRow, "skuField" | "sku"> & { product_id: number; sku?: string | null })[] = [];
    const insertOf = (productId: number, { skuField: _field, sku, ...row }: VariantRow) => ({
      product_id: productId,
      ...row,
      // null: the database makes one; undefined: none given (a new row gets one made too).
      sku: typeof sku === "string" && sku.trim() !== "" ? sku.trim() : null,
    });
    for (const planned of plan.updates) {
      const id = planned.id as number;
      await trx
        .updateTable("products")
        .set({ ...productColumns(planned.input, exchangeRates), updated_at: timestamp })
        .where("id", "=", id)
        .execute();
      if (planned.input.ship_zone_ids) await setProductZones(trx, id, planned.input.ship_zone_ids);
      const have = existing.get(id)?.variants ?? [];
      const wanted = variantRows(planned.input);
      const key = (row: { color: string; option_value: string }) => variantKey(row.color, row.option_value);
      const byKey = new Map(have.map((row) => [key(row), row]));
      const wantedKeys = new Set(wanted.map(key));
      // Removed first: a SKU a removed variant held may be typed on another row.
      const gone = have.filter((row) => !wantedKeys.has(key(row))).map((row) => row.id);
      if (gone.length > 0) await trx.deleteFrom("product_variants").where("id", "in", gone).execute();
      // SKUs that move between this product's variants are freed first (see writeVariants).
      const moving = wanted
        .map((row) => ({ row, current: byKey.get(key(row)) }))
        .filter(({ row, current }) => current !== undefined && skuChanges(current.sku, row.sku));
      await freeSkus(
        trx,
        moving.map(({ current }) => current?.id ?? 0),
      );
      for (const [index, variant] of wanted.entries()) {
        const current = byKey.get(key(variant));
        if (current === undefined) {
          inserts.push(insertOf(id, variant));
          continue;
        }
        const sku = skuChanges(current.sku, variant.sku) ? { sku: (variant.sku ?? "").trim() } : {};
        if (
          current.stock !== variant.stock ||
          (current.color_zh ?? null) !== variant.color_zh ||
          (current.option_value_zh ?? null) !== variant.option_value_zh ||
          have.indexOf(current) !== index ||
          "sku" in sku
        ) {
          await trx
            .updateTable("product_variants")
            .set({
              color_zh: variant.color_zh,
              option_value_zh: variant.option_value_zh,
              stock: variant.stock,
              sort_order: variant.sort_order,
              option_order: variant.option_order,
              ...sku,
            })
            .where("id", "=", current.id)
            .execute();
          if (current.stock <= 0 && variant.stock > 0) backInStock.push(current.id);
        }
      }
    }
    for (const planned of plan.creates) {
      const { id } = await trx
        .insertInto("products")
        .values({ ...productColumns(planned.input, exchangeRates), created_at: timestamp, updated_at: timestamp })
        .returning("id")
        .executeTakeFirstOrThrow();
      if (planned.input.ship_zone_ids) await setProductZones(trx, id, planned.input.ship_zone_ids);
      for (const variant of variantRows(planned.input)) inserts.push(insertOf(id, variant));
    }
    // Nine columns a row: 200 rows stay far under SQLite's and PostgreSQL's parameter limits.
    for (const chunk of chunks(inserts, 200)) await trx.insertInto("product_variants").values(chunk).execute();
    if (mail) await notifyBackInStock(trx, mail, backInStock);
    await auditAction(trx, actorUserId, "product.imported", null, { after: counts });
  });
  return counts;
}

// ---------------------------------------------------------------------------------------------
// The uploaded file between preview and confirm

/** Uploads older than this are refused at confirm (the admin previews again). */
export const STAGED_MAX_AGE_MS = 60 * 60 * 1000;
const TOKEN_PATTERN = /^[0-9a-z]{6,12}-[0-9a-f-]{36}$/;

/** The private storage key of an admin's upload: the admin's own folder, so a token is theirs alone. */
function stagedKey(adminId: string, token: string): string {
  const owner = createHash("sha256").update(adminId).digest("hex").slice(0, 24);
  return `imports/${owner}/${token}.csv`;
}

/** The time a token was made (its first part), or NaN. */
function tokenTime(token: string): number {
  return Number.parseInt(token.split("-")[0] ?? "", 36);
}

/**
 * Keeps the uploaded file in private storage; the token (its time and a random id) names it.
 * Uploads that were previewed and never confirmed are removed here once they are stale.
 */
export async function stageProductCsv(storage: Storage, adminId: string, data: Buffer): Promise<string> {
  const stale = (await storage.list("private")).filter((key) => {
    const match = /^imports\/[0-9a-f]+\/([^/]+)\.csv$/.exec(key);
    return match?.[1] !== undefined && !(Date.now() - tokenTime(match[1]) < STAGED_MAX_AGE_MS);
  });
  for (const key of stale) await storage.delete("private", key);
  const token = `${Date.now().toString(36)}-${randomUUID()}`;
  await storage.put("private", stagedKey(adminId, token), data, "text/csv");
  return token;
}

/** The staged file of this admin's token; a token that is not theirs, gone or stale is a 409. */
export async function readStagedProductCsv(storage: Storage, adminId: string, token: string): Promise<Buffer> {
  if (!TOKEN_PATTERN.test(token)) throw new UserError("adminProductCsv.errors.staleUpload", { status: 409 });
  const key = stagedKey(adminId, token);
  const stored = await storage.get("private", key);
  if (!stored || !(Date.now() - tokenTime(token) < STAGED_MAX_AGE_MS)) {
    if (stored) await storage.delete("private", key);
    throw new UserError("adminProductCsv.errors.staleUpload", { status: 409 });
  }
  return stored.data;
}

export async function removeStagedProductCsv(storage: Storage, adminId: string, token: string): Promise<void> {
  if (TOKEN_PATTERN.test(token)) await storage.delete("private", stagedKey(adminId, token));
}
