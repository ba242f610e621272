import { z } from "zod";
import { parseId } from "~/lib/ids";
import { centsToText, parseCents } from "./product";

/*
 * The form of Admin → Discounts (docs/decisions/048), shared by the server and the browser. Money
 * is typed as text ("12.30") and parsed into integer cents; an empty GBP/EUR/USD amount follows
 * HKD at the shop's rate. Dates are typed in Hong Kong time (a datetime-local field) and stored
 * as instants. Messages are translation keys.
 */

export const DISCOUNT_KINDS = ["percent", "fixed", "free_shipping"] as const;
export const DISCOUNT_SCOPES = ["all", "chosen"] as const;
export const MAX_CHOSEN_PRODUCTS = 200;

const E = "adminDiscounts.errors";
const MONEY_PATTERN = /^\d{1,7}(?:\.\d{1,2})?$/;
const PERCENT_PATTERN = /^\d{1,3}(?:\.\d{1,2})?$/;
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/** A datetime-local value read as Hong Kong time ("2026-11-11T00:00") → the instant; null when not one. */
export function hongKongLocalToIso(value: string): string | null {
  if (!LOCAL_TIME.test(value)) return null;
  const date = new Date(`${value}:00+08:00`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** An instant as a datetime-local value in Hong Kong time. */
export function isoToHongKongLocal(iso: string | null): string {
  if (!iso) return "";
  const time = new Date(iso).getTime();
  if (Number.isNaN(time)) return "";
  return new Date(time + 8 * 3_600_000).toISOString().slice(0, 16);
}

/** "12.5" → 1250 basis points; more than two decimals or above 100 → null. */
export function parsePercent(text: string): number | null {
  if (!PERCENT_PATTERN.test(text)) return null;
  const [whole = "0", fraction = ""] = text.split(".");
  const bp = Number.parseInt(whole, 10) * 100 + Number.parseInt(fraction.padEnd(2, "0"), 10);
  return bp >= 1 && bp <= 10_000 ? bp : null;
}

/** Basis points as the form shows them: 1250 → "12.5". */
export function percentToText(bp: number | null): string {
  if (bp === null) return "";
  const fraction = String(bp % 100)
    .padStart(2, "0")
    .replace(/0+$/, "");
  return fraction ? `${Math.floor(bp / 100)}.${fraction}` : String(Math.floor(bp / 100));
}

export { centsToText };

const optionalText = z.string().trim().optional().default("");

const money = optionalText
  .refine((value) => value === "" || MONEY_PATTERN.test(value), { error: `${E}.amountInvalid` })
  .transform((value) => (value === "" ? null : parseCents(value)));

const count = optionalText
  .refine((value) => value === "" || (/^\d{1,7}$/.test(value) && Number(value) >= 1), { error: `${E}.countInvalid` })
  .transform((value) => (value === "" ? null : Number.parseInt(value, 10)));

const when = optionalText
  .refine((value) => value === "" || hongKongLocalToIso(value) !== null, { error: `${E}.dateInvalid` })
  .transform((value) => (value === "" ? null : hongKongLocalToIso(value)));

const checkbox = z
  .string()
  .optional()
  .transform((value) => value !== undefined && value !== "" && value !== "off");

/** Product numbers separated by commas, spaces or new lines ("12, 40"). */
const productList = optionalText.transform((value, ctx) => {
  const ids: number[] = [];
  for (const part of value.split(/[\s,]+/).filter(Boolean)) {
    const id = parseId(part.replace(/^#/, ""));
    if (id === null) {
      ctx.addIssue({ code: "custom", message: `${E}.productsInvalid` });
      return z.NEVER;
    }
    if (!ids.includes(id)) ids.push(id);
  }
  if (ids.length > MAX_CHOSEN_PRODUCTS) {
    ctx.addIssue({ code: "custom", message: `${E}.tooManyProducts` });
    return z.NEVER;
  }
  return ids;
});

const categoryIds = z
  .array(z.string())
  .optional()
  .default([])
  .transform((values) => [...new Set(values.map((value) => parseId(value)).filter((id): id is number => id !== null))]);

/** The form's fields and their rules (what the browser's constraints are read from). */
export const discountFieldsSchema = z
  .object({
    code: z
      .string({ error: `${E}.codeRequired` })
      .trim()
      .min(1, { error: `${E}.codeRequired` })
      .transform((value) => value.toUpperCase())
      .refine((value) => /^[A-Z0-9][A-Z0-9_-]{2,31}$/.test(value), { error: `${E}.codeInvalid` }),
    kind: z.enum(DISCOUNT_KINDS, { error: `${E}.kindRequired` }),
    percent: optionalText,
    amount_hkd: money,
    amount_gbp: money,
    amount_eur: money,
    amount_usd: money,
    free_shipping: checkbox,
    min_hkd: money,
    min_gbp: money,
    min_eur: money,
    min_usd: money,
    starts_at: when,
    ends_at: when,
    max_uses: count,
    max_uses_per_customer: count,
    applies_to: z.enum(DISCOUNT_SCOPES, { error: `${E}.scopeRequired` }).default("all"),
    categories: categoryIds,
    products: productList,
    active: checkbox,
  })
  .superRefine((value, ctx) => {
    if (value.kind === "percent" && parsePercent(value.percent) === null) {
      ctx.addIssue({ code: "custom", path: ["percent"], message: `${E}.percentInvalid` });
    }
    if (value.kind === "fixed" && (value.amount_hkd === null || value.amount_hkd < 1)) {
      ctx.addIssue({ code: "custom", path: ["amount_hkd"], message: `${E}.amountRequired` });
    }
    if (value.starts_at && value.ends_at && value.ends_at <= value.starts_at) {
      ctx.addIssue({ code: "custom", path: ["ends_at"], message: `${E}.endsBeforeStart` });
    }
    if (value.applies_to === "chosen" && value.categories.length === 0 && value.products.length === 0) {
      ctx.addIssue({ code: "custom", path: ["categories"], message: `${E}.chooseSomething` });
    }
  });

/** The form as the model takes it: the percentage in basis points. */
export const discountSchema = discountFieldsSchema.transform((value) => ({
  ...value,
  percent_bp: value.kind === "percent" ? parsePercent(value.percent) : null,
}));

export type DiscountInput = z.output<typeof discountSchema>;

/** The list's row buttons: activate, deactivate, delete (by intent; delete once `confirmed` is "1"). */
export const discountRowSchema = z.object({
  confirmed: z.string().optional(),
  intent: z.enum(["activate", "deactivate", "delete"], { error: `${E}.badRequest` }),
  id: z.string().transform((value, ctx) => {
    const id = parseId(value);
    if (id === null) {
      ctx.addIssue({ code: "custom", message: `${E}.badRequest` });
      return z.NEVER;
    }
    return id;
  }),
});

/** The shopper's code field (cart, checkout): apply a code, or remove the applied one. */
export const discountCodeFieldSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("applyCode"),
    code: z
      .string({ error: "discounts.errors.codeRequired" })
      .trim()
      .min(1, { error: "discounts.errors.codeRequired" })
      .max(64, { error: "discounts.errors.unknownShort" }),
  }),
  z.object({ intent: z.literal("removeCode") }),
]);
