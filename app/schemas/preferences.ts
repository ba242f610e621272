import { z } from "zod";
import { CURRENCIES } from "#db/schema";
import { LANGUAGES } from "~/locales";

/** The header's language switch: the language, and the page to return to. */
export const languageSchema = z.object({
  language: z.enum(LANGUAGES, { error: "errors.invalidLanguage" }),
  redirectTo: z.string().optional(),
});

/** The header's currency picker: the currency, and the page to return to. */
export const currencySchema = z.object({
  currency: z.enum(CURRENCIES, { error: "errors.invalidCurrency" }),
  redirectTo: z.string().optional(),
});
