import { z } from "zod";
import { resolveCountry } from "~/lib/countries";
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

/**
 * The destination: an ISO 3166-1 alpha-2 code from the select (a name typed by an older form or
 * saved on an earlier order is read too), stored as the code (docs/decisions/047).
 */
function countryField() {
  return required(100)
    .refine((value) => value === "" || resolveCountry(value) !== null, { error: "checkout.errors.countryUnknown" })
    .transform((value) => resolveCountry(value) ?? value);
}

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
  country: countryField(),
  notes: optional(1000),
  // "I am 18 or older": a ticked checkbox sends "on". Required by the server only when the cart
  // holds an 18+ item (docs/decisions/049); anything else sent is not a confirmation.
  ageConfirmed: z.literal("on", { error: "checkout.errors.ageRequired" }).optional(),
});

/** "Update shipping" (checkout and cart): only the destination is read. */
export const destinationSchema = z.object({ intent: z.literal("shipping"), country: countryField() });

export type CheckoutInput = z.infer<typeof checkoutSchema>;
