import type { Transaction } from "kysely";
import { type DB, now } from "#db/connect.server";
import type { Database, ProductRow } from "#db/schema";
import { toHongKongInput } from "~/lib/dates";
import { IMAGE_PRESETS, ImageError, type ProcessedImage, putWithDerivatives, storeImage } from "~/lib/images.server";
import { convertFromHkd, type ExchangeRates } from "~/lib/money";
import { UserError } from "~/lib/problem";
import { generateKey, publicUrl, removeFilesQuietly, type Storage } from "~/lib/storage.server";
import {
  centsToText,
  DEFAULT_COLOR,
  type ImageColorChoice,
  MAX_PRODUCT_IMAGES,
  type ProductFormInput,
  type SaleInput,
} from "~/schemas/product";
import { auditAction } from "../audit.server";
import { requireBrand } from "../brands.server";
import { setProductZones } from "../orders/restrictions.server";
import { loadShop } from "../settings/shop.server";
import { notifyBackInStock, type StockAlertMailConfig } from "./stock-alerts.server";
import { type VariantsInput, variantRows, writeVariants } from "./variants.server";

export type { VariantInput } from "./variants.server";

/** A saved variant as the form starts from it (docs/decisions/054). */
export interface SavedVariant {
  id: number;
  color: string;
  color_zh: string | null;
  option_value: string;
  option_value_zh: string | null;
  stock: number;
  sku: string;
}

export interface ProductForEdit {
  product: ProductRow;
  /** In colour order, then value order. */
  variants: SavedVariant[];
  /** Storage keys in display order. */
  images: string[];
  /** Each image's colour (an English colour name), null for every colour; in the order of `images`. */
  imageColors: (string | null)[];
}

/**
 * What the form saves, prices in integer cents. A GBP/EUR/USD price of null follows HKD: it is
 * stored as derived and computed from the HKD price at the shop's current rate on every save
 * (and again whenever the owner changes that rate); a number is the operator's fixed price.
 */
export interface ProductInput extends VariantsInput {
  name_en: string;
  name_zh: string;
  description_en: string;
  description_zh: string;
  price_hkd_cents: number;
  price_gbp_cents: number | null;
  price_eur_cents: number | null;
  price_usd_cents: number | null;
  category_id: number | null;
  /** The brand (docs/decisions/052); null: none; missing: left as it is (an import without the column). */
  brand_id?: number | null;
  is_featured: boolean;
  /** 18+ (docs/decisions/049); left as it is when missing (an import without the column). */
  adult_only?: boolean;
  /** The zones it may be sent to (docs/decisions/049); empty: no limit of its own; missing: left as it is. */
  ship_zone_ids?: number[];
  /** Weight in grams (0: not weighed); left as it is when missing (an import without the column). */
  weight_grams?: number;
  /** GTIN and MPN (docs/decisions/056); null: none; missing: left as they are (an import without the columns). */
  gtin?: string | null;
  mpn?: string | null;
  /**
   * The sale (docs/decisions/053): null, none; GBP/EUR/USD prices of null follow the HKD sale
   * price like the regular ones. Missing: left as it is (an import without the sale columns).
   */
  sale?: SaleInput | null;
}

/**
 * A new image: a file the admin chose, or one the image pipeline made already (an image kept
 * between the form's answers, app/models/products/staged-images.server.ts).
 */
export type NewImage = File | Blob | ProcessedImage;

export interface ImageChanges {
  /** Existing image keys to keep, in order (unknown keys are ignored). */
  keep: string[];
  /** New uploads, stored after the kept ones (for every colour until tagged). */
  newFiles: NewImage[];
  /** The colour asked for kept images by key; a key not in it keeps its colour. */
  colors?: Map<string, ImageColorChoice>;
}

type Executor = DB | Transaction<Database>;

export async function findProductForEdit(db: Executor, id: number): Promise<ProductForEdit | null> {
  const product = await db.selectFrom("products").selectAll().where("id", "=", id).executeTakeFirst();
  if (!product) return null;
  const variants = await db
    .selectFrom("product_variants")
    .select(["id", "color", "color_zh", "option_value", "option_value_zh", "stock", "sku"])
    .where("product_id", "=", id)
    .orderBy("sort_order")
    .orderBy("option_order")
    .orderBy("id")
    .execute();
  const images = await db
    .selectFrom("product_images")
    .select(["path", "color"])
    .where("product_id", "=", id)
    .orderBy("sort_order")
    .execute();
  return {
    product,
    variants,
    images: images.map((row) => row.path),
    imageColors: images.map((row) => row.color),
  };
}

/** The categories a product can be put in, in the shop's order (the form's choices). */
export async function listCategoryChoices(db: DB) {
  return db
    .selectFrom("categories")
    .select(["id", "name_en", "name_zh"])
    .orderBy("sort_order")
    .orderBy("name_en")
    .execute();
}

/**
 * What the edit form starts from, as text. A derived price shows as an empty field (its amount
 * is the hint), so saving keeps it derived; a product whose only colour is the default one shows
 * its stock in the plain Stock field and no colour rows.
 */
export function productFormValues(existing: ProductForEdit | null): Partial<ProductFormInput> {
  if (!existing) return { stock: "0", weight_grams: "0", variants: [], option_values: [], cells: [], images: [] };
  const { product, variants, images, imageColors } = existing;
  const price = (cents: number, derived: number) => (derived === 1 ? "" : centsToText(cents));
  // A sale that has ended shows as none: saving the form then clears it.
  const sale = saleShown(product);
  const salePrice = (cents: number | null, derived: number) =>
    sale && cents !== null && derived === 0 ? centsToText(cents) : "";
  const grid = gridValues(product, variants);
  return {
    name_en: product.name_en,
    name_zh: product.name_zh,
    description_en: product.description_en,
    description_zh: product.description_zh,
    price_hkd: centsToText(product.price_hkd_cents),
    price_gbp: price(product.price_gbp_cents, product.price_gbp_derived),
    price_eur: price(product.price_eur_cents, product.price_eur_derived),
    price_usd: price(product.price_usd_cents, product.price_usd_derived),
    sale_price_hkd: sale && product.sale_price_hkd_cents !== null ? centsToText(product.sale_price_hkd_cents) : "",
    sale_price_gbp: salePrice(product.sale_price_gbp_cents, product.sale_price_gbp_derived),
    sale_price_eur: salePrice(product.sale_price_eur_cents, product.sale_price_eur_derived),
    sale_price_usd: salePrice(product.sale_price_usd_cents, product.sale_price_usd_derived),
    sale_ends: sale && product.sale_ends_at ? toHongKongInput(product.sale_ends_at) : "",
    category_id: product.category_id === null ? "" : String(product.category_id),
    brand_id: product.brand_id === null ? "" : String(product.brand_id),
    is_featured: product.is_featured === 1,
    adult_only: product.adult_only === 1,
    weight_grams: String(product.weight_grams),
    gtin: product.gtin ?? "",
    mpn: product.mpn ?? "",
    ...grid,
    images: images.map((key, index) => ({ key, color: imageColors[index] ?? "" })),
  };
}

/**
 * The variants as the form's fields (docs/decisions/054): colour rows (each with a key the grid's
 * cells refer to), the second option's values, and either each colour's stock and SKU (no second
 * option), the grid's cells, or — a product with neither colours nor option — the plain Stock and
 * SKU fields.
 */
function gridValues(product: ProductRow, variants: SavedVariant[]): Partial<ProductFormInput> {
  const colours = [...new Map(variants.map((v) => [v.color, v])).values()];
  const values = [...new Map(variants.filter((v) => v.option_value !== "").map((v) => [v.option_value, v])).values()];
  const onlyDefault = colours.length === 1 && colours[0]?.color === DEFAULT_COLOR;
  const colourKey = new Map(colours.map((colour, index) => [colour.color, `c${index}`]));
  const valueKey = new Map(values.map((value, index) => [value.option_value, `v${index}`]));
  const plain = onlyDefault && values.length === 0 ? colours[0] : undefined;
  return {
    stock: plain ? String(plain.stock) : "0",
    sku: plain?.sku ?? "",
    variants: onlyDefault
      ? []
      : colours.map((colour) => ({
          key: colourKey.get(colour.color),
          color: colour.color,
          color_zh: colour.color_zh ?? "",
          ...(values.length === 0 ? { stock: String(colour.stock), sku: colour.sku } : {}),
        })),
    option_name: product.option_name ?? "",
    option_name_zh: product.option_name_zh ?? "",
    option_values: values.map((value) => ({
      key: valueKey.get(value.option_value),
      value: value.option_value,
      value_zh: value.option_value_zh ?? "",
    })),
    cells:
      values.length === 0
        ? []
        : variants.map((variant) => ({
            color: onlyDefault ? "" : colourKey.get(variant.color),
            value: valueKey.get(variant.option_value),
            stock: String(variant.stock),
            sku: variant.sku,
          })),
  };
}

/** The product's images as the form shows them: storage key and public address. */
export function imageUrls(existing: ProductForEdit | null): Record<string, string> {
  return Object.fromEntries((existing?.images ?? []).map((key) => [key, publicUrl(key) ?? ""]));
}

/** A product's category must exist (the form offers only existing ones; a stale page may not). */
async function requireCategory(db: Executor, categoryId: number | null): Promise<void> {
  if (categoryId === null) return;
  const category = await db.selectFrom("categories").select("id").where("id", "=", categoryId).executeTakeFirst();
  if (!category) throw new UserError("adminProductForm.errors.categoryInvalid", { field: "category_id" });
}

/** A GBP/EUR/USD price and its flag: the typed price as fixed, or the HKD price converted as derived. */
function priceColumns(typed: number | null, hkdCents: number, ratePpm: number) {
  return typed === null ? { cents: convertFromHkd(hkdCents, ratePpm), derived: 1 } : { cents: typed, derived: 0 };
}

/** Whether the product has a sale that has not ended at `at` (the form shows it; an ended one is none). */
export function saleShown(
  product: Pick<ProductRow, "sale_price_hkd_cents" | "sale_ends_at">,
  at: Date = new Date(),
): boolean {
  return (
    product.sale_price_hkd_cents !== null && (product.sale_ends_at === null || product.sale_ends_at > at.toISOString())
  );
}

/** The sale's columns: all null without a sale; GBP/EUR/USD left empty follow the HKD sale price. */
export function saleColumns(sale: SaleInput | null, rates: ExchangeRates) {
  if (sale === null) {
    return {
      sale_price_hkd_cents: null,
      sale_price_gbp_cents: null,
      sale_price_eur_cents: null,
      sale_price_usd_cents: null,
      sale_price_gbp_derived: 0,
      sale_price_eur_derived: 0,
      sale_price_usd_derived: 0,
      sale_ends_at: null,
    };
  }
  const gbp = priceColumns(sale.price_gbp_cents, sale.price_hkd_cents, rates.GBP);
  const eur = priceColumns(sale.price_eur_cents, sale.price_hkd_cents, rates.EUR);
  const usd = priceColumns(sale.price_usd_cents, sale.price_hkd_cents, rates.USD);
  return {
    sale_price_hkd_cents: sale.price_hkd_cents,
    sale_price_gbp_cents: gbp.cents,
    sale_price_eur_cents: eur.cents,
    sale_price_usd_cents: usd.cents,
    sale_price_gbp_derived: gbp.derived,
    sale_price_eur_derived: eur.derived,
    sale_price_usd_derived: usd.derived,
    sale_ends_at: sale.ends_at,
  };
}

/**
 * A sale's refusals that need the shop's rates or the clock (docs/decisions/053), as the message
 * key and the field it belongs to: a sale price, typed or following HKD, must be below the regular
 * price of its currency, and a new end must be ahead of `at`. Null: the sale may be saved.
 */
export function saleRefusal(
  columns: Pick<ProductRow, "price_hkd_cents" | "price_gbp_cents" | "price_eur_cents" | "price_usd_cents"> &
    Partial<ReturnType<typeof saleColumns>>,
  at: Date,
): { key: string; field: string; params?: Record<string, string> } | null {
  if (columns.sale_price_hkd_cents === undefined || columns.sale_price_hkd_cents === null) return null;
  for (const currency of ["hkd", "gbp", "eur", "usd"] as const) {
    const sale = columns[`sale_price_${currency}_cents`];
    if (sale !== null && sale !== undefined && sale >= columns[`price_${currency}_cents`]) {
      return { key: "adminProductForm.errors.saleNotBelow", field: `sale_price_${currency}` };
    }
  }
  if (columns.sale_ends_at && columns.sale_ends_at <= at.toISOString()) {
    return { key: "adminProductForm.errors.saleEndsPast", field: "sale_ends" };
  }
  return null;
}

/** The product's own columns; `rates` are the shop's, read in the same transaction as the write. */
export function productColumns(input: ProductInput, rates: ExchangeRates) {
  const gbp = priceColumns(input.price_gbp_cents, input.price_hkd_cents, rates.GBP);
  const eur = priceColumns(input.price_eur_cents, input.price_hkd_cents, rates.EUR);
  const usd = priceColumns(input.price_usd_cents, input.price_hkd_cents, rates.USD);
  return {
    category_id: input.category_id,
    name_en: input.name_en,
    name_zh: input.name_zh,
    description_en: input.description_en,
    description_zh: input.description_zh,
    price_hkd_cents: input.price_hkd_cents,
    price_gbp_cents: gbp.cents,
    price_eur_cents: eur.cents,
    price_usd_cents: usd.cents,
    price_gbp_derived: gbp.derived,
    price_eur_derived: eur.derived,
    price_usd_derived: usd.derived,
    is_featured: input.is_featured ? 1 : 0,
    ...(input.adult_only === undefined ? {} : { adult_only: input.adult_only ? 1 : 0 }),
    ...(input.weight_grams === undefined ? {} : { weight_grams: input.weight_grams }),
    ...(input.gtin === undefined ? {} : { gtin: input.gtin }),
    ...(input.mpn === undefined ? {} : { mpn: input.mpn }),
    ...(input.brand_id === undefined ? {} : { brand_id: input.brand_id }),
    ...(input.sale === undefined ? {} : saleColumns(input.sale, rates)),
    ...(input.option === undefined
      ? {}
      : { option_name: input.option?.name ?? null, option_name_zh: input.option?.name_zh ?? null }),
  };
}

/** `productColumns`, refused with a `UserError` at the sale's field when the sale cannot be saved. */
function checkedColumns(input: ProductInput, rates: ExchangeRates) {
  const columns = productColumns(input, rates);
  const refusal = saleRefusal(columns, new Date());
  if (refusal) throw new UserError(refusal.key, { field: refusal.field });
  return columns;
}

/**
 * Stores the new files (before any transaction); on a failure the ones already written are
 * removed. A file the image pipeline refuses is a `UserError` shown next to the file input
 * (413 when it is too large).
 */
async function storeNewImages(storage: Storage, files: NewImage[]): Promise<string[]> {
  const stored: string[] = [];
  const { quality } = IMAGE_PRESETS.product;
  try {
    for (const file of files) {
      stored.push(
        file instanceof Blob
          ? await storeImage(storage, file, "product")
          : await putWithDerivatives(storage, generateKey("products", "webp"), file, quality),
      );
    }
  } catch (error) {
    await removeFilesQuietly(storage, "public", stored);
    if (error instanceof ImageError) {
      throw new UserError(error.messageKey, {
        params: error.params,
        field: "newImages",
        status: error.code === "tooLarge" ? 413 : 400,
      });
    }
    throw error;
  }
  return stored;
}

async function writeImages(
  trx: Transaction<Database>,
  productId: number,
  keys: string[],
  colors: (string | null)[] = [],
): Promise<void> {
  await trx.deleteFrom("product_images").where("product_id", "=", productId).execute();
  if (keys.length === 0) return;
  await trx
    .insertInto("product_images")
    .values(
      keys.map((path, index) => ({ product_id: productId, path, sort_order: index, color: colors[index] ?? null })),
    )
    .execute();
}

/**
 * The colour each image is saved with (docs/decisions/035): the colour asked (or, when nothing
 * is asked, the one it had) if the product has that colour after this save; a colour it had
 * before this save but not after (renamed or removed) becomes every colour (null); any other
 * name is a `UserError` at that image's colour field, so nothing is stored.
 */
function imageColorsAfterSave(
  before: ProductForEdit,
  keys: string[],
  colors: Map<string, ImageColorChoice> | undefined,
  after: { color: string }[],
): (string | null)[] {
  const named = (list: { color: string }[]) =>
    new Set(list.map((variant) => variant.color).filter((color) => color !== DEFAULT_COLOR));
  const colorsAfter = named(after);
  const colorsBefore = named(before.variants);
  return keys.map((key) => {
    const asked = colors?.get(key);
    const index = before.images.indexOf(key);
    const color = asked ? asked.color : index < 0 ? null : (before.imageColors[index] ?? null);
    if (color === null || colorsAfter.has(color)) return color;
    if (!asked || colorsBefore.has(color) || color === DEFAULT_COLOR) return null;
    throw new UserError("adminProductForm.errors.imageColorUnknown", { field: asked.field });
  });
}

/**
 * A new product with its colours (or one default variant holding its stock) and images.
 * Prices left empty follow HKD at the shop's current rates. Image files are written first and
 * removed again if the transaction fails.
 */
export async function createProduct(
  db: DB,
  storage: Storage,
  input: ProductInput,
  newFiles: NewImage[],
  actorUserId: string | null,
): Promise<number> {
  await requireCategory(db, input.category_id);
  await requireBrand(db, input.brand_id);
  const files = newFiles.slice(0, MAX_PRODUCT_IMAGES);
  const keys = await storeNewImages(storage, files);
  try {
    return await db.transaction().execute(async (trx) => {
      const timestamp = now();
      const { exchangeRates } = await loadShop(trx);
      const { id } = await trx
        .insertInto("products")
        .values({ ...checkedColumns(input, exchangeRates), created_at: timestamp, updated_at: timestamp })
        .returning("id")
        .executeTakeFirstOrThrow();
      await writeVariants(trx, id, variantRows(input));
      await writeImages(trx, id, keys);
      if (input.ship_zone_ids) await setProductZones(trx, id, input.ship_zone_ids);
      await auditAction(trx, actorUserId, "product.created", id, { after: await findProductForEdit(trx, id) });
      return id;
    });
  } catch (error) {
    await removeFilesQuietly(storage, "public", keys);
    throw error;
  }
}

/**
 * Saves the product fields (every price that follows HKD recomputed from the new HKD price at the
 * shop's current rate, the typed ones kept as typed), replaces its colours (stock updated by colour, new ones added,
 * removed ones deleted; cart lines of a removed colour stay and show as unavailable) and its
 * images (kept in the given order, new ones after, dropped ones deleted after the commit),
 * all in one transaction. Returns null when the product does not exist. A category that does
 * not exist is a `UserError` on "category_id".
 */
export async function updateProduct(
  db: DB,
  storage: Storage,
  id: number,
  input: ProductInput,
  images: ImageChanges,
  actorUserId: string | null,
  /** For the back-in-stock e-mails' links (docs/decisions/055); the admin form passes it. */
  mail?: StockAlertMailConfig,
): Promise<{ removedImages: string[] } | null> {
  const current = await findProductForEdit(db, id);
  if (!current) return null;
  await requireCategory(db, input.category_id);
  await requireBrand(db, input.brand_id);
  const known = new Set(current.images);
  const keep = [...new Set(images.keep)].filter((key) => known.has(key)).slice(0, MAX_PRODUCT_IMAGES);
  const files = images.newFiles.slice(0, MAX_PRODUCT_IMAGES - keep.length);
  const added = await storeNewImages(storage, files);
  let removedImages: string[];
  try {
    removedImages = await db.transaction().execute(async (trx) => {
      const before = await findProductForEdit(trx, id);
      if (!before) throw new Error(`product ${id} disappeared`);
      const { exchangeRates } = await loadShop(trx);
      await trx
        .updateTable("products")
        .set({ ...checkedColumns(input, exchangeRates), updated_at: now() })
        .where("id", "=", id)
        .execute();
      if (input.ship_zone_ids) await setProductZones(trx, id, input.ship_zone_ids);

      const wanted = variantRows(input);
      const { restockedIds } = await writeVariants(trx, id, wanted);
      // Variants sold out before this save and in stock after it: their alerts are sent (docs/decisions/055).
      if (mail) await notifyBackInStock(trx, mail, restockedIds);

      const finalKeys = [...keep.filter((key) => before.images.includes(key)), ...added];
      await writeImages(trx, id, finalKeys, imageColorsAfterSave(before, finalKeys, images.colors, wanted));
      await auditAction(trx, actorUserId, "product.updated", id, { before, after: await findProductForEdit(trx, id) });
      return before.images.filter((key) => !finalKeys.includes(key));
    });
  } catch (error) {
    await removeFilesQuietly(storage, "public", added);
    throw error;
  }
  await removeFilesQuietly(storage, "public", removedImages);
  return { removedImages };
}
