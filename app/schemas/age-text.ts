import { z } from "zod";

/** The age checkbox's text (Settings → Age confirmation): at most this long in each language; empty: the default. */
export const AGE_TEXT_MAX = 500;

const text = z.string().trim().max(AGE_TEXT_MAX, { error: "adminAge.errors.tooLong" }).optional().default("");

export const ageTextSchema = z.object({ text_en: text, text_zh: text });

/** What the checkbox says until the owner writes their own (Settings → Shop details). */
export const DEFAULT_AGE_TEXT = {
  en: "I confirm I am 18 or older. My order contains items sold only to adults, and I may be asked for proof of age on delivery.",
  zh: "本人確認已年滿18歲。此訂單包含只售予成年人的商品，送貨時或須出示年齡證明。",
} as const;
