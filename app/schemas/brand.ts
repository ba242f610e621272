import { z } from "zod";
import { requiredText } from "~/lib/text-field";
import { slugify } from "~/schemas/category";

/*
 * The Brands screen's form (docs/decisions/052), shared by the server and the browser: a name
 * shown in both languages, an optional Chinese one, the slug of its listing link, the order.
 */

const tooLong = "adminBrands.errors.tooLong";

export const brandSchema = z.object({
  name: requiredText("adminBrands.errors.nameRequired", 100, tooLong),
  // Empty: the same name in Chinese.
  name_zh: z
    .string()
    .trim()
    .max(100, { error: tooLong })
    .optional()
    .transform((value) => value || null),
  // Empty: made from the name on create, kept as it is on edit.
  slug: z
    .string()
    .trim()
    .max(100, { error: tooLong })
    .optional()
    .transform((value) => (value ? slugify(value) : null))
    .refine((value) => value !== "", { error: "adminBrands.errors.slugInvalid" }),
  // Lower first; anything that is not an integer falls back to 0.
  sort_order: z
    .string()
    .optional()
    .transform((value) => {
      const number = Number(value?.trim() ?? "");
      return Number.isSafeInteger(number) && Math.abs(number) <= 1_000_000 ? number : 0;
    }),
});

export const createBrandSchema = brandSchema.extend({ intent: z.literal("create") });
export const updateBrandSchema = brandSchema.extend({
  intent: z.literal("update"),
  id: z.coerce.number().int().positive(),
});
export const deleteBrandSchema = z.object({
  intent: z.literal("delete"),
  id: z.coerce.number().int().positive(),
  // "1" once confirmed (the browser's confirm() or the confirmation step).
  confirmed: z.string().optional(),
});

/** Every intent of the Brands screen's action. */
export const brandActionSchema = z.discriminatedUnion("intent", [
  createBrandSchema,
  updateBrandSchema,
  deleteBrandSchema,
]);
