import { z } from "zod";
import { requiredText } from "~/lib/text-field";

/** The hero image's upload limit (the spec's 10 MB); the pipeline's `hero` preset agrees. */
export const HERO_MAX_BYTES = 10 * 1024 * 1024;

const TOO_LONG = "adminSettings.errors.tooLong";

const required = (key: string, max: number) => requiredText(key, max, TOO_LONG);

/** An optional text field: empty becomes null. */
const optional = (max: number, pattern?: { regex: RegExp; key: string }) =>
  z
    .string()
    .trim()
    .max(max, { error: TOO_LONG })
    .refine((value) => !pattern || value === "" || pattern.regex.test(value), {
      error: pattern?.key ?? TOO_LONG,
    })
    .optional()
    .transform((value) => (value ? value : null));

/** Letters, digits, spaces and hyphens: how banks print account and routing numbers. */
const ACCOUNT_NUMBER = /^[0-9A-Za-z](?:[0-9A-Za-z -]*[0-9A-Za-z])?$/;

/**
 * The bank account form, shared by the server and the browser. Bank name, account holder and
 * account number are required; the rest is optional. A SWIFT (BIC) code has 8 or 11 letters or
 * digits; an FPS id is the 7 to 9 digit FPS identifier, a phone number or an e-mail address.
 */
export const bankAccountSchema = z.object({
  bank_name: required("adminSettings.errors.bankNameRequired", 100),
  account_holder: required("adminSettings.errors.accountHolderRequired", 100),
  account_number: required("adminSettings.errors.accountNumberRequired", 40).refine(
    (value) => ACCOUNT_NUMBER.test(value),
    { error: "adminSettings.errors.accountNumberInvalid" },
  ),
  fps_id: optional(100, {
    regex: /^(?:\+?[0-9][0-9 -]{5,18}[0-9]|[^\s@]+@[^\s@]+\.[^\s@]+)$/,
    key: "adminSettings.errors.fpsInvalid",
  }),
  swift_code: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value.replace(/\s+/g, "").toUpperCase() : null))
    .refine((value) => value === null || /^[A-Z0-9]{8}(?:[A-Z0-9]{3})?$/.test(value), {
      error: "adminSettings.errors.swiftInvalid",
    }),
  routing_number: optional(34, { regex: ACCOUNT_NUMBER, key: "adminSettings.errors.routingInvalid" }),
  bank_address: optional(300),
  // An HTML checkbox: present means on.
  is_primary: z
    .string()
    .optional()
    .transform((value) => value !== undefined && value !== "" && value !== "off" && value !== "0"),
});

export type BankAccountInput = z.infer<typeof bankAccountSchema>;

const id = z.coerce.number().int().positive();

export const createBankAccountSchema = bankAccountSchema.extend({ intent: z.literal("create") });
export const updateBankAccountSchema = bankAccountSchema.extend({ intent: z.literal("update"), id });
export const deleteBankAccountSchema = z.object({
  intent: z.literal("delete"),
  id,
  // "1" once the admin has confirmed (the browser's confirm() or the confirmation step).
  confirmed: z.string().optional(),
});
export const makePrimarySchema = z.object({ intent: z.literal("make_primary"), id });

/** The hero background upload: the size is checked here too, so the browser can say it at once. */
export const heroImageSchema = z.object({
  intent: z.literal("hero"),
  hero: z
    .file({ error: "adminSettings.errors.heroRequired" })
    .max(HERO_MAX_BYTES, { error: "adminSettings.errors.heroTooLarge" }),
});
export const heroResetSchema = z.object({ intent: z.literal("hero_reset") });

/** Every intent of the Settings page's action. */
export const settingsActionSchema = z.discriminatedUnion("intent", [
  createBankAccountSchema,
  updateBankAccountSchema,
  deleteBankAccountSchema,
  makePrimarySchema,
  heroImageSchema,
  heroResetSchema,
]);
