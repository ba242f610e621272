import { z } from "zod";

/**
 * The cart's one form, told apart by `intent`. The values stay text: what a quantity or an id
 * may be is the cart model's rule (`addToCart`, `setLineQuantity`), which answers with the
 * shopper's message, so the schema only sorts the intents.
 */
const text = z.string().optional();

export const cartActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("add"),
    productId: text,
    color: text,
    /** The second option's value (docs/decisions/054); missing for a product without one. */
    option: text,
    quantity: text,
    redirectTo: text,
    /** A product card's button: `<productId>:<colour>` in one value (docs/decisions/068). */
    add: text,
  }),
  // The −/+ buttons send the new quantity as setQuantity; the Update button sends the typed one.
  z.object({ intent: z.literal("update"), lineId: text, quantity: text, setQuantity: text }),
  z.object({ intent: z.literal("remove"), lineId: text }),
  z.object({ intent: z.literal("clear") }),
  // "Update shipping" on the cart page: the destination the shipping is computed for (decision 047).
  z.object({ intent: z.literal("shipping"), country: text }),
]);
