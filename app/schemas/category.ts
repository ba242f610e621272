import { z } from "zod";
import { requiredText } from "~/lib/text-field";

/** Lowercase words joined by hyphens: spaces, '&' and punctuation become hyphens. */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
}

const requiredName = (key: string) => requiredText(key, 100, "adminCategories.errors.tooLong");

const optionalText = z
  .string()
  .trim()
  .max(2000, { error: "adminCategories.errors.tooLong" })
  .optional()
  .transform((value) => (value ? value : null));

/**
 * The category form, shared by the server and the browser. The image file is judged by the
 * action itself (it goes through the image pipeline), so the schema only names it.
 */
export const categorySchema = z.object({
  name_en: requiredName("adminCategories.errors.nameEnRequired"),
  name_zh: requiredName("adminCategories.errors.nameZhRequired"),
  description_en: optionalText,
  description_zh: optionalText,
  // A number; anything that is not an integer falls back to 0.
  sort_order: z
    .string()
    .optional()
    .transform((value) => {
      const number = Number(value?.trim() ?? "");
      return Number.isSafeInteger(number) ? number : 0;
    }),
  // An HTML checkbox: present means on. The form shows it ticked for a new category.
  is_active: z
    .string()
    .optional()
    .transform((value) => value !== undefined && value !== "" && value !== "off" && value !== "0"),
  // 18+: every product in it is sold only to shoppers who confirm their age (docs/decisions/049).
  adult_only: z
    .string()
    .optional()
    .transform((value) => value !== undefined && value !== "" && value !== "off" && value !== "0"),
  // The zones its products may be sent to (checkboxes); none ticked: everywhere (docs/decisions/049).
  ship_zones: z
    .array(z.string().regex(/^\d{1,9}$/, { error: "adminCategories.errors.zoneInvalid" }))
    .max(200)
    .optional(),
  // Optional: derived from the English name when empty on create; kept as it is when empty on edit.
  slug: z
    .string()
    .trim()
    .max(100, { error: "adminCategories.errors.tooLong" })
    .optional()
    .transform((value) => (value ? slugify(value) : null))
    .refine((value) => value !== "", { error: "adminCategories.errors.slugInvalid" }),
  remove_image: z
    .string()
    .optional()
    .transform((value) => value !== undefined && value !== ""),
  // The chosen file: only named here so the form knows the field; the action checks the bytes.
  image: z.unknown().optional(),
});

export type CategoryInput = z.infer<typeof categorySchema>;

export const createCategorySchema = categorySchema.extend({ intent: z.literal("create") });
export const updateCategorySchema = categorySchema.extend({
  intent: z.literal("update"),
  id: z.coerce.number().int().positive(),
});
export const deleteCategorySchema = z.object({
  intent: z.literal("delete"),
  id: z.coerce.number().int().positive(),
  // "1" once the admin has confirmed (the browser's confirm() or the confirmation step).
  confirmed: z.string().optional(),
});

/** Every intent of the Category Manager's action. */
export const categoryActionSchema = z.discriminatedUnion("intent", [
  createCategorySchema,
  updateCategorySchema,
  deleteCategorySchema,
]);
