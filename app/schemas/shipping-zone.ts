import { z } from "zod";
import { countryCode } from "~/lib/countries";
import { parseId } from "~/lib/ids";
import { centsToText, parseCents } from "./product";

/*
 * The form of Settings → Shipping zones (docs/decisions/047), shared by the server and the
 * browser's constraints. Per currency: a flat fee, a free-shipping threshold (empty = never free)
 * and weight bands (rows of "up to N grams → fee"). HKD's fee is required; a currency whose fee is
 * left empty follows HKD at the shop's exchange rate when saved (fee, threshold and bands), the
 * way prices and discount amounts do. Money is typed as text ("12.30") and kept as integer cents.
 */

export const ZONE_CURRENCIES = ["hkd", "gbp", "eur", "usd"] as const;
export type ZoneCurrencyKey = (typeof ZONE_CURRENCIES)[number];
export const MAX_BANDS = 20;
export const MAX_GRAMS = 1_000_000;

const E = "adminZones.errors";
const MONEY_PATTERN = /^\d{1,7}(?:\.\d{1,2})?$/;

const optionalText = z.string().trim().optional().default("");

const money = optionalText
  .refine((value) => value === "" || MONEY_PATTERN.test(value), { error: `${E}.amountInvalid` })
  .transform((value) => (value === "" ? null : parseCents(value)));

const band = z.object({
  max_grams: optionalText
    .refine((value) => /^\d{1,7}$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_GRAMS, {
      error: `${E}.gramsInvalid`,
    })
    .transform((value) => Number.parseInt(value, 10)),
  fee: optionalText
    .refine((value) => MONEY_PATTERN.test(value), { error: `${E}.amountInvalid` })
    .transform((value) => parseCents(value) ?? 0),
});

/** The bands of one currency: at most 20, each weight once (refused at the repeated row). */
const bands = z
  .array(band)
  .max(MAX_BANDS, { error: `${E}.tooManyBands` })
  .optional()
  .default([])
  .superRefine((rows, ctx) => {
    const seen = new Set<number>();
    rows.forEach((row, index) => {
      if (seen.has(row.max_grams)) {
        ctx.addIssue({ code: "custom", path: [index, "max_grams"], message: `${E}.gramsRepeated` });
      }
      seen.add(row.max_grams);
    });
  });

const name = z
  .string({ error: `${E}.nameRequired` })
  .trim()
  .min(1, { error: `${E}.nameRequired` })
  .max(80, { error: `${E}.nameTooLong` });

/** ISO 3166-1 codes ticked in the list; anything else is refused, not dropped. */
const countries = z
  .array(z.string())
  .optional()
  .default([])
  .superRefine((values, ctx) => {
    if (values.some((value) => countryCode(value) === null)) {
      ctx.addIssue({ code: "custom", message: `${E}.countryUnknown` });
    }
  })
  .transform((values) => [...new Set(values.map((value) => countryCode(value)).filter((code) => code !== null))]);

export const zoneSchema = z
  .object({
    name_en: name,
    name_zh: name,
    sort_order: optionalText
      .refine((value) => value === "" || /^\d{1,4}$/.test(value), { error: `${E}.sortInvalid` })
      .transform((value) => (value === "" ? 0 : Number.parseInt(value, 10))),
    countries,
    fee_hkd: optionalText
      .refine((value) => value !== "", { error: `${E}.feeRequired` })
      .refine((value) => value === "" || MONEY_PATTERN.test(value), { error: `${E}.amountInvalid` })
      .transform((value) => parseCents(value) ?? 0),
    free_above_hkd: money,
    bands_hkd: bands,
    fee_gbp: money,
    free_above_gbp: money,
    bands_gbp: bands,
    fee_eur: money,
    free_above_eur: money,
    bands_eur: bands,
    fee_usd: money,
    free_above_usd: money,
    bands_usd: bands,
  })
  .superRefine((value, ctx) => {
    for (const key of ZONE_CURRENCIES.slice(1)) {
      // A threshold or bands without the fee would be half a rule: the fee says "its own rule".
      const ownParts = value[`free_above_${key}`] !== null || value[`bands_${key}`].length > 0;
      if (value[`fee_${key}`] === null && ownParts) {
        ctx.addIssue({ code: "custom", path: [`fee_${key}`], message: `${E}.feeForOwnRule` });
      }
    }
  });

export type ZoneFormInput = z.input<typeof zoneSchema>;
export type ZoneFormValue = z.output<typeof zoneSchema>;

/** The zones list's delete button: the zone's id, and `confirmed` once the owner said yes. */
export const zoneRowSchema = z.object({
  intent: z.literal("delete", { error: `${E}.badRequest` }),
  confirmed: z.string().optional(),
  id: z.string().transform((value, ctx) => {
    const id = parseId(value);
    if (id === null) {
      ctx.addIssue({ code: "custom", message: `${E}.notFound` });
      return z.NEVER;
    }
    return id;
  }),
});

/** Cents as the form shows them; null → empty. */
export function moneyText(cents: number | null | undefined): string {
  return cents === null || cents === undefined ? "" : centsToText(cents);
}
