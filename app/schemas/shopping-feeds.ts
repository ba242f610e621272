import { z } from "zod";
import { CURRENCIES } from "#db/schema";
import { LANGUAGES } from "~/locales/languages";

/** Every feed's name, "en-HKD" … "zh-USD": the checkboxes' values (Settings → Shopping feeds). */
export const FEED_NAMES = LANGUAGES.flatMap((language) => CURRENCIES.map((currency) => `${language}-${currency}`));

/** The feeds turned on: the ticked boxes (none ticked: every feed off). Anything else is a bad request. */
export const shoppingFeedsSchema = z.object({
  feeds: z
    .array(z.enum(FEED_NAMES as [string, ...string[]], { error: "error.badRequest" }))
    .max(FEED_NAMES.length, { error: "error.badRequest" })
    .optional()
    .transform((feeds) => [...new Set(feeds ?? [])]),
});
