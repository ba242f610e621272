import { z } from "zod";

const BAD_REQUEST = "adminDemoData.badRequest";
const productIds = z.array(
  z.number({ error: BAD_REQUEST }).int({ error: BAD_REQUEST }).positive({ error: BAD_REQUEST }),
  {
    error: BAD_REQUEST,
  },
);

/**
 * "Remove demo data": only the page's own confirmed button (intent=remove, confirmed=1) does it.
 * `edited[]`: the edited demo products the page listed; `keep[]`: those still ticked. A listed one
 * not ticked goes with the demo; every other edited one stays (docs/decisions/042).
 */
export const removeDemoDataSchema = z.object({
  intent: z.literal("remove", { error: BAD_REQUEST }),
  confirmed: z.literal("1", { error: BAD_REQUEST }),
  edited: productIds.max(10_000, { error: BAD_REQUEST }).optional(),
  keep: productIds.max(10_000, { error: BAD_REQUEST }).optional(),
});
