import { z } from "zod";
import { requiredText } from "~/lib/text-field";

/**
 * The policy page editor (Settings → Shop details → Policy pages), shared by the server and the
 * browser: a title, a search description and a Markdown text in each language.
 */

export const PAGE_BODY_MAX = 50_000;

const title = requiredText("adminShop.errors.titleRequired", 120, "adminShop.errors.tooLong");
const description = z
  .string()
  .trim()
  .max(160, { error: "adminShop.errors.descriptionTooLong" })
  .optional()
  .transform((value) => value ?? "");
const body = requiredText("adminShop.errors.bodyRequired", PAGE_BODY_MAX, "adminShop.errors.bodyTooLong");

export const contentPageSchema = z.object({
  intent: z.literal("save"),
  title_en: title,
  description_en: description,
  body_en: body,
  title_zh: title,
  description_zh: description,
  body_zh: body,
});

export const contentPageResetSchema = z.object({
  intent: z.literal("reset"),
  // "1" once the admin has confirmed (the browser's confirm() or the confirmation step).
  confirmed: z.string().optional(),
});

export const contentPageActionSchema = z.discriminatedUnion("intent", [contentPageSchema, contentPageResetSchema]);
