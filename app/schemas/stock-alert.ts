import { z } from "zod";
import { emailField } from "./auth";

/**
 * "E-mail me when it's back" (docs/decisions/055): the variant (a hidden field the product page
 * fills with the chosen colour's variant) and the address. Messages are translation keys.
 */
export const stockAlertSchema = z.object({
  variant_id: z.coerce
    .number({ error: "stockAlerts.errors.gone" })
    .int()
    .positive({ error: "stockAlerts.errors.gone" }),
  email: emailField,
});

/** The confirm and stop links' pages post their token back. */
export const stockAlertTokenSchema = z.object({
  token: z.string({ error: "stockAlerts.invalidTitle" }).min(20).max(200),
});
