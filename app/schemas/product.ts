import { z } from "zod";
import { fromHongKongInput } from "~/lib/dates";
import { parseId } from "~/lib/ids";
import { requiredText } from "~/lib/text-field";

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

export const variantSchema = z
  .object({
    color: requiredText("adminProductForm.errors.colorRequired", 60, "adminProductForm.errors.colorTooLong"),
    /** The colour's Chinese name; empty shows the English one to Chinese readers. */
    color_zh: z.string().trim().max(60, { error: "adminProductForm.errors.colorTooLong" }).optional(),
    stock: stockField,
  })
  .transform(({ color, color_zh, stock }) => ({ color, color_zh: color_zh || null, stock }));

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
    /** Stock of a product without colours (kept in its default-colour variant). */
    stock: stockField.optional(),
    variants: z.array(variantSchema).max(MAX_VARIANTS, { error: "adminProductForm.errors.tooManyVariants" }).optional(),
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
    stock: value.stock ?? 0,
    variants: value.variants ?? [],
    images: (value.images ?? []).map((image) => (typeof image === "string" ? image : image.key)),
    imageColors: imageColorsOf(value.images ?? []),
  }));

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
