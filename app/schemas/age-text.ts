import { z } from "zod";

/** The age checkbox's text (Settings → Age confirmation): at most this long in each language; empty: the default. */
export const AGE_TEXT_MAX = 500;

const text = z.string().trim().max(AGE_TEXT_MAX, { error: "adminAge.errors.tooLong" }).optional().default("");

export const ageTextSchema = z.object({ text_en: text, text_zh: text });
