import { z } from "zod";

const BAD_REQUEST = "adminDemoData.badRequest";

/** "Remove demo data": only the page's own confirmed button (intent=remove, confirmed=1) does it. */
export const removeDemoDataSchema = z.object({
  intent: z.literal("remove", { error: BAD_REQUEST }),
  confirmed: z.literal("1", { error: BAD_REQUEST }),
});
