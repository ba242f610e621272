import { z } from "zod";
import { requiredText } from "~/lib/text-field";
import { emailField } from "./auth";

const required = (max: number) => requiredText("checkout.errors.required", max, "checkout.errors.tooLong");

const optional = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: "checkout.errors.tooLong" })
    .optional()
    .transform((value) => (value ? value : undefined));

/** The country checkout starts with (the shop ships from Hong Kong), in each language. */
export const HOME_COUNTRY = { country_en: "Hong Kong", country_zh: "香港" };

/** The customer information of checkout; the same schema runs in the browser and on the server. */
export const checkoutSchema = z.object({
  firstName: required(100),
  lastName: required(100),
  email: emailField,
  phone: optional(40).refine((value) => value === undefined || /^[+\d][\d\s()-]{5,}$/.test(value), {
    error: "checkout.errors.phone",
  }),
  // A textarea: the lines of a street address are joined with commas, so an order's address is one line everywhere.
  address: required(300).transform((value) => value.replace(/\s*,?\s*(?:\r\n|\r|\n)+\s*/g, ", ")),
  city: required(100),
  // Hong Kong has no postal codes.
  postalCode: optional(20),
  country: required(100),
  notes: optional(1000),
  // "I am 18 or older": a ticked checkbox sends "on". Required by the server only when the cart
  // holds an 18+ item (docs/decisions/049); anything else sent is not a confirmation.
  ageConfirmed: z.literal("on", { error: "checkout.errors.ageRequired" }).optional(),
});

export type CheckoutInput = z.infer<typeof checkoutSchema>;
