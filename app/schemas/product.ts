import { z } from "zod";
import { DEFAULT_COLOR } from "~/lib/colors";
import { fromHongKongInput } from "~/lib/dates";
import { parseId } from "~/lib/ids";
import { MAX_SKU_LENGTH, SKU_PATTERN } from "~/lib/sku";
import { requiredText } from "~/lib/text-field";
import { gtinField, identifiersOf, mpnField } from "./product-identifiers";

/**
 * The admin product form, shared by the server (action) and the browser: messages are
 * translation keys. Money is typed as text ("12.34") and parsed digit by digit into integer
 * cents, never through floating point.
 */

export const MAX_PRODUCT_IMAGES = 5;

/*
 * Fields of the product form outside the schema: the new images kept on the server between
 * answers (app/models/products/staged-images.server.ts), as "token:file name", the ones ticked
 * for removal, and the mark a page running JavaScript sends (its browser keeps chosen files).
 */
export const KEPT_IMAGE_FIELD = "keptImages";
export const REMOVE_KEPT_IMAGE_FIELD = "removeKeptImages";
export const BROWSER_KEEPS_FILES_FIELD = "browserKeepsFiles";

/** A kept image as the form shows it: its token (sent back in a hidden field), file name and preview. */
export interface KeptImageView {
  token: string;
  name: string;
  /** A small WebP as a data: address (the kept images themselves are private). */
  preview: string;
}

/** A chosen file the image pipeline refused: its name, and the message key with its parameters. */
export interface RefusedImage {
  name: string;
  key: string;
  params: Record<string, string | number>;
}

/** What an answer that saved nothing keeps of the new images: kept ones in order, refused files, files that did not fit. */
export interface KeptImages {
  staged: KeptImageView[];
  refused: RefusedImage[];
  /** Files beyond the product's free places, not kept. */
  skipped: number;
}

/** The image keys a product form post lists (`images[0].key`, or `images[0]`), in order. */
export function imageKeysOf(form: FormData): string[] {
  const keys: string[] = [];
  for (const [name, value] of form) {
    if (/^images\[\d+\](?:\.key)?$/.test(name) && typeof value === "string") keys.push(value);
  }
  return keys;
}

export const MAX_VARIANTS = 50;
export { DEFAULT_COLOR } from "~/lib/colors";
export { MAX_SKU_LENGTH, SKU_PATTERN } from "~/lib/sku";

const MONEY_PATTERN = /^\d{1,7}(?:\.\d{1,2})?$/;

/** "12.3" → 1230; "12.345", "-1", "1e3" → null. */
export function parseCents(text: unknown): number | null {
  // A repeated field arrives as a list (a hostile or broken client): not an amount.
  if (typeof text !== "string") return null;
  const value = text.trim();
  if (!MONEY_PATTERN.test(value)) return null;
  const [whole = "0", fraction = ""] = value.split(".");
  return Number.parseInt(whole, 10) * 100 + Number.parseInt(fraction.padEnd(2, "0"), 10);
}

/** Integer cents as the text the form shows: 1230 → "12.30". */
export function centsToText(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

const PRICE_INVALID = "adminProductForm.errors.priceInvalid";

const requiredPrice = z
  .string({ error: "adminProductForm.errors.priceRequired" })
  .trim()
  .regex(MONEY_PATTERN, { error: PRICE_INVALID })
  .transform((value) => parseCents(value) ?? 0);

/** GBP/EUR/USD: empty means "follows HKD" (derived at the shop's rate when saved), typed means fixed. */
const optionalPrice = z
  .string()
  .trim()
  .regex(MONEY_PATTERN, { error: PRICE_INVALID })
  .transform((value) => parseCents(value) ?? 0)
  .optional();

const stockField = z
  .string({ error: "adminProductForm.errors.stockInvalid" })
  .trim()
  .regex(/^\d{1,6}$/, { error: "adminProductForm.errors.stockInvalid" })
  .transform((value) => Number.parseInt(value, 10));

/** The heaviest weight the form takes: 1,000 kg, far above anything a shop posts. */
export const MAX_WEIGHT_GRAMS = 1_000_000;

const WEIGHT_INVALID = "adminProductForm.errors.weightInvalid";

/** Grams as a whole number from 0 to MAX_WEIGHT_GRAMS (the weight bands of the shipping zones read it). */
const weightField = z
  .string({ error: WEIGHT_INVALID })
  .trim()
  .regex(/^\d{1,7}$/, { error: WEIGHT_INVALID })
  .transform((value) => Number.parseInt(value, 10))
  .refine((grams) => grams <= MAX_WEIGHT_GRAMS, { error: WEIGHT_INVALID });

/** A SKU field: empty (the shop makes one), or letters, digits and . _ - / (docs/decisions/054). */
const skuField = z
  .string()
  .trim()
  .max(MAX_SKU_LENGTH, { error: "adminProductForm.errors.skuTooLong" })
  .regex(SKU_PATTERN, { error: "adminProductForm.errors.skuInvalid" })
  .optional();

/** The key a colour row or an option value carries in the form, which the grid's cells refer to. */
const rowKey = z.string().trim().max(40).optional();

export const variantSchema = z
  .object({
    key: rowKey,
    color: requiredText("adminProductForm.errors.colorRequired", 60, "adminProductForm.errors.colorTooLong"),
    /** The colour's Chinese name; empty shows the English one to Chinese readers. */
    color_zh: z.string().trim().max(60, { error: "adminProductForm.errors.colorTooLong" }).optional(),
    /** The colour's stock and SKU when the product has no second option (the grid holds them otherwise). */
    stock: stockField.optional(),
    sku: skuField,
  })
  .transform(({ key, color, color_zh, stock, sku }) => ({
    key: key ?? "",
    color,
    color_zh: color_zh || null,
    stock: stock ?? 0,
    sku: sku || null,
  }));

/** The most values a second option has, and the most variants (colours × values) a product has. */
export const MAX_OPTION_VALUES = 30;
export const MAX_COMBINATIONS = 200;

const optionValueSchema = z
  .object({
    key: rowKey,
    value: requiredText(
      "adminProductForm.errors.optionValueRequired",
      40,
      "adminProductForm.errors.optionValueTooLong",
    ),
    value_zh: z.string().trim().max(40, { error: "adminProductForm.errors.optionValueTooLong" }).optional(),
  })
  .transform(({ key, value, value_zh }) => ({ key: key ?? "", value, value_zh: value_zh || null }));

/** A cell of the variant grid: the colour row and value it is for (their keys), its stock and SKU. */
const cellSchema = z.object({
  color: rowKey,
  value: rowKey,
  stock: stockField.optional(),
  sku: skuField,
});

export const productSchema = z
  .object({
    name_en: requiredText("adminProductForm.errors.nameEnRequired", 200, "adminProductForm.errors.nameTooLong"),
    name_zh: requiredText("adminProductForm.errors.nameZhRequired", 200, "adminProductForm.errors.nameTooLong"),
    description_en: z.string().trim().max(10_000, { error: "adminProductForm.errors.descriptionTooLong" }).optional(),
    description_zh: z.string().trim().max(10_000, { error: "adminProductForm.errors.descriptionTooLong" }).optional(),
    price_hkd: requiredPrice,
    price_gbp: optionalPrice,
    price_eur: optionalPrice,
    price_usd: optionalPrice,
    /** The sale (docs/decisions/053): HKD required for a sale, others follow it when empty. */
    sale_price_hkd: optionalPrice,
    sale_price_gbp: optionalPrice,
    sale_price_eur: optionalPrice,
    sale_price_usd: optionalPrice,
    /** When the sale ends, in Hong Kong time ("2026-12-01T18:00"); empty: no end. */
    sale_ends: z
      .string()
      .trim()
      .refine((value) => fromHongKongInput(value) !== null, { error: "adminProductForm.errors.saleEndsInvalid" })
      .optional(),
    category_id: z
      .string()
      .regex(/^\d{1,9}$/, { error: "adminProductForm.errors.categoryInvalid" })
      .transform((value) => Number.parseInt(value, 10))
      .optional(),
    /** The brand's id (docs/decisions/052); empty: none. */
    brand_id: z
      .string()
      .regex(/^\d{1,9}$/, { error: "adminProductForm.errors.brandInvalid" })
      .transform((value) => Number.parseInt(value, 10))
      .optional(),
    is_featured: z.boolean().optional(),
    /** 18+: sold only to shoppers who confirm their age at checkout (docs/decisions/049). */
    adult_only: z.boolean().optional(),
    /** The zones it may be sent to (checkboxes, one value per zone id); none: everywhere (docs/decisions/049). */
    ship_zones: z
      .array(z.string().regex(/^\d{1,9}$/, { error: "adminProductForm.errors.zoneInvalid" }))
      .max(200)
      .optional(),
    /** Weight in grams; empty is 0, "not weighed" (the weight bands count it as nothing). */
    weight_grams: weightField.optional(),
    /** Barcode number and manufacturer part number, both optional (docs/decisions/056). */
    gtin: gtinField,
    mpn: mpnField,
    /** Stock and SKU of a product without colours or second option (kept in its default-colour variant). */
    stock: stockField.optional(),
    sku: skuField,
    variants: z.array(variantSchema).max(MAX_VARIANTS, { error: "adminProductForm.errors.tooManyVariants" }).optional(),
    /** The second option (docs/decisions/054): its name in both languages and its values. */
    option_name: z.string().trim().max(40, { error: "adminProductForm.errors.optionNameTooLong" }).optional(),
    option_name_zh: z.string().trim().max(40, { error: "adminProductForm.errors.optionNameTooLong" }).optional(),
    option_values: z
      .array(optionValueSchema)
      .max(MAX_OPTION_VALUES, { error: "adminProductForm.errors.tooManyOptionValues" })
      .optional(),
    cells: z
      .array(cellSchema)
      .max(MAX_VARIANTS * MAX_OPTION_VALUES)
      .optional(),
    /**
     * The existing images in the order they should be shown: each its storage key and the colour
     * it shows (`images[0].key`, `images[0].color`; empty: every colour). A bare key (`images[0]`)
     * keeps the image's colour as it is.
     */
    images: z
      .array(
        z.union([
          z.string().max(200),
          z.object({
            key: z.string().max(200),
            color: z.string().trim().max(60, { error: "adminProductForm.errors.imageColorUnknown" }).optional(),
          }),
        ]),
      )
      .max(MAX_PRODUCT_IMAGES, { error: "adminProductForm.errors.tooManyImages" })
      .optional(),
  })
  .superRefine((value, ctx) => {
    const seen = new Set<string>();
    (value.variants ?? []).forEach((variant, index) => {
      const key = variant.color.toLowerCase();
      if (seen.has(key)) {
        ctx.addIssue({
          code: "custom",
          path: ["variants", index, "color"],
          message: "adminProductForm.errors.colorDuplicate",
        });
      }
      seen.add(key);
    });
    optionIssues(value).forEach((issue) => {
      ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    });
    saleIssues(value).forEach((issue) => {
      ctx.addIssue({ code: "custom", path: [issue.field], message: issue.message });
    });
  })
  .transform((value) => ({
    name_en: value.name_en,
    name_zh: value.name_zh,
    description_en: value.description_en ?? "",
    description_zh: value.description_zh ?? "",
    price_hkd_cents: value.price_hkd,
    // null: the price follows HKD (the model derives it at the shop's current rate on every save).
    price_gbp_cents: value.price_gbp ?? null,
    price_eur_cents: value.price_eur ?? null,
    price_usd_cents: value.price_usd ?? null,
    sale: saleOf(value),
    category_id: value.category_id ?? null,
    brand_id: (value.brand_id ?? null) as number | null | undefined,
    is_featured: value.is_featured ?? false,
    adult_only: value.adult_only ?? false,
    ship_zone_ids: (value.ship_zones ?? []).map((id) => Number.parseInt(id, 10)) as number[] | undefined,
    weight_grams: (value.weight_grams ?? 0) as number | undefined,
    ...identifiersOf(value),
    stock: value.stock ?? 0,
    sku: value.sku || null,
    variants: (value.variants ?? []).map(({ key: _key, ...colour }) => colour),
    ...optionOf(value),
    images: (value.images ?? []).map((image) => (typeof image === "string" ? image : image.key)),
    imageColors: imageColorsOf(value.images ?? []),
  }));

interface OptionFields {
  sku?: string;
  variants?: { key: string; color: string; sku: string | null }[];
  option_name?: string;
  option_name_zh?: string;
  option_values?: { key: string; value: string; value_zh: string | null }[];
  cells?: { color?: string; value?: string; stock?: number; sku?: string }[];
}

/**
 * What the form alone can tell of the second option and the SKUs: values need the option's name
 * (and a name, values), no value twice, at most MAX_COMBINATIONS variants, and no SKU typed twice
 * on one product (the model checks the other products).
 */
function optionIssues(value: OptionFields): { path: (string | number)[]; message: string }[] {
  const issues: { path: (string | number)[]; message: string }[] = [];
  const values = value.option_values ?? [];
  if (values.length > 0 && !value.option_name) {
    issues.push({ path: ["option_name"], message: "adminProductForm.errors.optionNameRequired" });
  }
  if (values.length === 0 && value.option_name) {
    issues.push({ path: ["option_values"], message: "adminProductForm.errors.optionValuesRequired" });
  }
  const seen = new Set<string>();
  values.forEach((entry, index) => {
    const key = entry.value.toLowerCase();
    if (seen.has(key)) {
      issues.push({ path: ["option_values", index, "value"], message: "adminProductForm.errors.optionValueDuplicate" });
    }
    seen.add(key);
  });
  const colours = Math.max(1, value.variants?.length ?? 0);
  if (colours * values.length > MAX_COMBINATIONS) {
    issues.push({
      path: ["option_values"],
      message: `adminProductForm.errors.tooManyCombinations?max=${MAX_COMBINATIONS}`,
    });
  }
  // The SKUs the save would write, each with its field: the grid's, the colours', or the plain one.
  const skus: { sku: string | undefined | null; path: (string | number)[] }[] =
    values.length > 0
      ? liveCells(value).map(({ cell, index }) => ({ sku: cell.sku, path: ["cells", index, "sku"] }))
      : (value.variants ?? []).length > 0
        ? (value.variants ?? []).map((colour, index) => ({ sku: colour.sku, path: ["variants", index, "sku"] }))
        : [{ sku: value.sku, path: ["sku"] }];
  const typed = new Set<string>();
  for (const { sku, path } of skus) {
    if (!sku) continue;
    if (typed.has(sku)) issues.push({ path, message: "adminProductForm.errors.skuDuplicate" });
    typed.add(sku);
  }
  return issues;
}

/** The grid's cells that belong to a colour row and a value the form still has, with their place in the form. */
function liveCells(value: OptionFields) {
  const colourKeys = new Set((value.variants ?? []).map((colour) => colour.key));
  const valueKeys = new Set((value.option_values ?? []).map((entry) => entry.key));
  const noColours = (value.variants ?? []).length === 0;
  return (value.cells ?? [])
    .map((cell, index) => ({ cell, index }))
    .filter(
      ({ cell }) =>
        valueKeys.has(cell.value ?? "") && (noColours ? (cell.color ?? "") === "" : colourKeys.has(cell.color ?? "")),
    );
}

/** The second option and its cells as the model saves them (names instead of the form's row keys). */
function optionOf(value: OptionFields) {
  const values = value.option_values ?? [];
  if (values.length === 0) return { option: null, cells: [] };
  const colourOf = new Map((value.variants ?? []).map((colour) => [colour.key, colour.color]));
  const valueByKey = new Map(values.map((entry) => [entry.key, entry.value]));
  return {
    option: {
      name: value.option_name ?? "",
      name_zh: value.option_name_zh || null,
      values: values.map(({ value: text, value_zh }) => ({ value: text, value_zh })),
    },
    cells: liveCells(value).map(({ cell }) => ({
      color: colourOf.get(cell.color ?? "") ?? DEFAULT_COLOR,
      value: valueByKey.get(cell.value ?? "") ?? "",
      stock: cell.stock ?? 0,
      sku: cell.sku || null,
    })),
  };
}

/** A sale as the model saves it (docs/decisions/053): null currencies follow HKD. */
export interface SaleInput {
  price_hkd_cents: number;
  price_gbp_cents: number | null;
  price_eur_cents: number | null;
  price_usd_cents: number | null;
  /** ISO-8601 UTC; null: until the owner removes it. */
  ends_at: string | null;
}

interface SaleFields {
  price_hkd: number;
  price_gbp?: number;
  price_eur?: number;
  price_usd?: number;
  sale_price_hkd?: number;
  sale_price_gbp?: number;
  sale_price_eur?: number;
  sale_price_usd?: number;
  sale_ends?: string;
}

const SALE_CURRENCIES = ["gbp", "eur", "usd"] as const;

/**
 * What the form alone can tell of a sale: a sale needs its HKD price, and each sale price must be
 * below the regular price typed beside it. The model checks what needs the shop's rates and the
 * clock (a derived price, an end already past).
 */
export function saleIssues(value: SaleFields): { field: string; message: string }[] {
  const issues: { field: string; message: string }[] = [];
  if (value.sale_price_hkd === undefined) {
    if (SALE_CURRENCIES.some((c) => value[`sale_price_${c}`] !== undefined) || value.sale_ends) {
      issues.push({ field: "sale_price_hkd", message: "adminProductForm.errors.saleHkdRequired" });
    }
    return issues;
  }
  if (value.sale_price_hkd >= value.price_hkd) {
    issues.push({ field: "sale_price_hkd", message: "adminProductForm.errors.saleNotBelow" });
  }
  for (const c of SALE_CURRENCIES) {
    const sale = value[`sale_price_${c}`];
    const regular = value[`price_${c}`];
    if (sale !== undefined && regular !== undefined && sale >= regular) {
      issues.push({ field: `sale_price_${c}`, message: "adminProductForm.errors.saleNotBelow" });
    }
  }
  return issues;
}

/** The form's sale: null when it has no HKD sale price (no sale). */
function saleOf(value: SaleFields): SaleInput | null {
  if (value.sale_price_hkd === undefined) return null;
  return {
    price_hkd_cents: value.sale_price_hkd,
    price_gbp_cents: value.sale_price_gbp ?? null,
    price_eur_cents: value.sale_price_eur ?? null,
    price_usd_cents: value.sale_price_usd ?? null,
    ends_at: value.sale_ends ? fromHongKongInput(value.sale_ends) : null,
  };
}

/**
 * The colour asked for each image key (the first time a key comes): the colour name or null for
 * every colour, and the form field a refusal of it belongs to. A bare key asks nothing.
 */
function imageColorsOf(images: (string | { key: string; color?: string })[]): Map<string, ImageColorChoice> {
  const colors = new Map<string, ImageColorChoice>();
  images.forEach((image, index) => {
    if (typeof image === "string" || colors.has(image.key)) return;
    colors.set(image.key, { color: image.color || null, field: `images[${index}].color` });
  });
  return colors;
}

/** An image's colour as the form asks it: a colour name, or null for every colour. */
export interface ImageColorChoice {
  color: string | null;
  field: string;
}

export type ProductFormValue = z.output<typeof productSchema>;
/** The form's fields as text, as the browser sends them (the editor's default values). */
export type ProductFormInput = z.input<typeof productSchema>;

/** An id field of a list form: the one id rule (`parseId`), else the given message. */
function idField(message: string) {
  return z.string({ error: message }).transform((value, ctx) => {
    const id = parseId(value);
    if (id === null) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return id;
  });
}

/**
 * The admin product list's two row actions: move a product to another category, or delete it.
 * `returnTo` is the list page to go back to (checked by the model's `adminListPath`).
 */
export const productListActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("category"),
      productId: idField("adminProducts.notFound"),
      categoryId: idField("adminProducts.badCategory"),
      returnTo: z.string().optional(),
    }),
    z.object({
      intent: z.literal("delete"),
      productId: idField("adminProducts.notFound"),
      returnTo: z.string().optional(),
    }),
  ],
  { error: "error.badRequest" },
);
