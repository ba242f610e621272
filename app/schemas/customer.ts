import { z } from "zod";

/** Block or unblock a customer's account (the customer page's two buttons). */
export const blockCustomerSchema = z.object({
  intent: z.enum(["block", "unblock"], { error: "adminCustomers.errors.badIntent" }),
});
