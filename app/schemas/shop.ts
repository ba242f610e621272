import { z } from "zod";
import { CURRENCIES, type Currency } from "#db/schema";
import { DERIVED_CURRENCIES, type DerivedCurrency, PPM, parseRate } from "~/lib/money";
import { fieldMessage } from "~/lib/problem";
import { requiredText } from "~/lib/text-field";
import { parseCents } from "./product";

/**
 * Settings → Shop details, shared by the server and the browser: who the shop is (name,
 * address, e-mails, the footer's "Supported By" mark), what delivery costs in each currency and
 * the exchange rates that derived prices follow. Messages are translation keys.
 */

export const LOGO_MAX_BYTES = 2 * 1024 * 1024;

const TOO_LONG = "adminShop.errors.tooLong";
const MONEY = /^\d{1,7}(?:\.\d{1,2})?$/;

const required = (key: string, max: number) => requiredText(key, max, TOO_LONG);

const optional = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: TOO_LONG })
    .optional()
    .transform((value) => value ?? "");

const EMAIL = /^[^\s@<>"(),;:]+@[^\s@<>"(),;:]+\.[^\s@<>"(),;:]+$/;

const email = (key: string) =>
  z
    .string({ error: key })
    .trim()
    .min(1, { error: key })
    .max(254, { error: TOO_LONG })
    .refine((value) => EMAIL.test(value), { error: "adminShop.errors.emailInvalid" })
    .transform((value) => value.toLowerCase());

/** An amount typed as "10" or "10.50" → integer cents. */
const money = (key: string) =>
  z
    .string({ error: key })
    .trim()
    .min(1, { error: key })
    .regex(MONEY, { error: "adminShop.errors.moneyInvalid" })
    .transform((value) => parseCents(value) ?? 0);

/** Empty: never free; else an amount. */
const optionalMoney = z
  .string()
  .trim()
  .regex(/^$|^\d{1,7}(?:\.\d{1,2})?$/, { error: "adminShop.errors.moneyInvalid" })
  .optional()
  .transform((value) => (value ? (parseCents(value) ?? 0) : null));

/** Units of the currency per 1 HKD, up to six decimals, above 0 and at most 10. */
const rate = z
  .string({ error: "adminShop.errors.rateRequired" })
  .trim()
  .min(1, { error: "adminShop.errors.rateRequired" })
  .transform((value, ctx) => {
    const ppm = parseRate(value);
    if (ppm === null || ppm <= 0 || ppm > 10 * PPM) {
      ctx.addIssue({ code: "custom", message: "adminShop.errors.rateInvalid" });
      return z.NEVER;
    }
    return ppm;
  });

const url = z
  .string()
  .trim()
  .max(300, { error: TOO_LONG })
  .refine((value) => value === "" || /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(value), {
    error: "adminShop.errors.urlInvalid",
  })
  .optional()
  .transform((value) => value || null);

const lower = <C extends string>(currency: C) => currency.toLowerCase() as Lowercase<C>;

/** Field names per currency: fee_hkd, free_above_hkd, …; rate_gbp, … */
export const feeField = (currency: Currency) => `fee_${lower(currency)}` as const;
export const freeAboveField = (currency: Currency) => `free_above_${lower(currency)}` as const;
export const rateField = (currency: DerivedCurrency) => `rate_${lower(currency)}` as const;
/** "Follows HK$" of a currency's delivery charge: shipping_from_hkd_gbp, … */
export const fromHkdField = (currency: DerivedCurrency) => `shipping_from_hkd_${lower(currency)}` as const;

/** An HTML checkbox: present means on. */
const checkbox = z
  .string()
  .optional()
  .transform((value) => value !== undefined && value !== "" && value !== "off");

/*
 * The shop's own alerts (issue 26): where they go, which events they are sent for, and their
 * language. app/models/outbox/alerts.server.ts sends them.
 */

/** The events a notification address can be told of, each with its checkbox on the form. */
export const ALERT_FIELDS = {
  "order.placed": "alert_order_placed",
  "order.receipt_uploaded": "alert_receipt_uploaded",
  "order.expired": "alert_order_expired",
  "order.deadline_extended": "alert_deadline_extended",
  "message.failed": "alert_message_failed",
} as const;
export type AlertEvent = keyof typeof ALERT_FIELDS;
export const ALERT_EVENTS = Object.keys(ALERT_FIELDS) as AlertEvent[];
export const ALERT_LANGUAGES = ["en", "zh"] as const;
/** Notification addresses at most: more is a mailing list's job. */
export const MAX_ALERT_EMAILS = 10;

/**
 * The notification addresses as typed: one a line, or separated by commas, semicolons or
 * spaces; lower-cased, each once. Every address that is not one is an issue naming it.
 */
export function parseAlertEmails(text: string): {
  emails: string[];
  issues: { key: string; params: Record<string, string | number> }[];
} {
  const emails: string[] = [];
  const issues: { key: string; params: Record<string, string | number> }[] = [];
  for (const piece of text.split(/[\s,;]+/)) {
    if (!piece) continue;
    const address = piece.toLowerCase();
    if (address.length > 254 || !EMAIL.test(address)) {
      issues.push({ key: "adminShop.errors.alertEmailInvalid", params: { email: piece.slice(0, 80) } });
    } else if (!emails.includes(address)) {
      emails.push(address);
    }
  }
  if (emails.length > MAX_ALERT_EMAILS) {
    issues.push({ key: "adminShop.errors.alertEmailsTooMany", params: { max: MAX_ALERT_EMAILS } });
  }
  return { emails, issues };
}

/** Empty: the support e-mail (null); else every address valid, at most MAX_ALERT_EMAILS. */
const alertEmails = z
  .string()
  .max(3000, { error: TOO_LONG })
  .optional()
  .transform((value, ctx) => {
    const { emails, issues } = parseAlertEmails(value ?? "");
    // At most a few messages: a pasted paragraph is not fifty lines of errors.
    for (const issue of issues.slice(0, 5))
      ctx.addIssue({ code: "custom", message: fieldMessage(issue.key, issue.params) });
    return emails.length > 0 ? emails : null;
  });

const shippingFields = Object.fromEntries(
  CURRENCIES.flatMap((currency) => [
    [feeField(currency), money("adminShop.errors.feeRequired")],
    [freeAboveField(currency), optionalMoney],
  ]),
) as Record<ReturnType<typeof feeField>, ReturnType<typeof money>> &
  Record<ReturnType<typeof freeAboveField>, typeof optionalMoney>;

const fromHkdFields = Object.fromEntries(
  DERIVED_CURRENCIES.map((currency) => [fromHkdField(currency), checkbox]),
) as Record<ReturnType<typeof fromHkdField>, typeof checkbox>;

const rateFields = Object.fromEntries(DERIVED_CURRENCIES.map((currency) => [rateField(currency), rate])) as Record<
  ReturnType<typeof rateField>,
  typeof rate
>;

export const shopDetailsSchema = z.object({
  name_en: required("adminShop.errors.nameRequired", 80),
  name_zh: required("adminShop.errors.nameRequired", 80),
  address_en: optional(300),
  address_zh: optional(300),
  support_email: email("adminShop.errors.supportEmailRequired"),
  sender_email: email("adminShop.errors.senderEmailRequired"),
  supported_by_en: optional(80),
  supported_by_zh: optional(80),
  supported_by_url: url,
  supported_by_logo: z
    .file()
    .max(LOGO_MAX_BYTES, { error: "adminShop.errors.logoTooLarge" })
    .optional()
    // An empty file input sends an empty part: no new logo.
    .transform((file) => (file && file.size > 0 ? file : undefined)),
  supported_by_logo_remove: checkbox,
  ...shippingFields,
  ...fromHkdFields,
  ...rateFields,
  /** Empty: the PAYMENT_WINDOW_HOURS setting; else whole hours, 1 to 720 (30 days). */
  payment_window_hours: z
    .string()
    .trim()
    .regex(/^$|^\d{1,3}$/, { error: "adminShop.errors.windowInvalid" })
    .optional()
    .transform((value) => (value ? Number(value) : null))
    .refine((hours) => hours === null || (hours >= 1 && hours <= 720), { error: "adminShop.errors.windowInvalid" }),
  // The home hero and the footer blurb: empty shows the fallback (the shop's name; nothing).
  hero_title_en: optional(120),
  hero_title_zh: optional(120),
  hero_text_en: optional(300),
  hero_text_zh: optional(300),
  footer_text_en: optional(400),
  footer_text_zh: optional(400),
  alert_emails: alertEmails,
  ...(Object.fromEntries(ALERT_EVENTS.map((event) => [ALERT_FIELDS[event], checkbox])) as Record<
    (typeof ALERT_FIELDS)[AlertEvent],
    typeof checkbox
  >),
  alert_language: z.enum(ALERT_LANGUAGES, { error: "adminShop.errors.alertLanguageInvalid" }),
});

export type ShopDetailsForm = z.output<typeof shopDetailsSchema>;
export type ShopDetailsInput = z.input<typeof shopDetailsSchema>;
