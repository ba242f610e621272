import { redirect } from "react-router";
import { z } from "zod";
import { services } from "~/context";
import { formAction, refuse, succeed, UserError, wantsData } from "~/lib/form-action.server";
import { safeRedirect } from "~/lib/redirect";
import { getCurrency } from "~/middleware/currency";
import { loadCart } from "~/models/cart.server";
import { applyCartCode, removeCartCode } from "~/models/discounts/cart.server";
import { normaliseCode } from "~/models/discounts/rules.server";
import { getShop } from "~/models/settings/shop.server";
import { currentCartId } from "~/request/cart.server";
import { discountShopper, saveDiscountAttempt } from "~/request/discount-code.server";
import type { Route } from "./+types/cart-code";

/** The pages the code field is on: the answer goes back to the one it was sent from. */
const PAGES = ["/cart", "/checkout", "/payment"];

const schema = z.object({
  intent: z.enum(["applyCode", "removeCode"], { error: "error.badRequest" }),
  code: z.string().optional(),
  redirectTo: z.string().optional(),
});

export function loader() {
  return redirect("/cart");
}

/**
 * POST /cart/code: apply a discount code to the shopper's cart (checked now against its lines:
 * a refusal goes back to the page with the reason next to the field and the code kept), or
 * remove the applied one. Plain posts and fetchers alike (docs/decisions/048).
 */
export const action = formAction<Route.ActionArgs, typeof schema, void, unknown>(
  { schema },
  async ({ context, form, submission, value }) => {
    const { db } = services(context);
    const target = safeRedirect(value.redirectTo, "/cart");
    const back = PAGES.includes(target) ? target : "/cart";
    const cartId = await currentCartId(context);
    if (value.intent === "removeCode") {
      const removed = await removeCartCode(db, cartId);
      return succeed(context, form, {
        redirectTo: back,
        flash: removed ? { type: "success", key: "discounts.removed", params: { code: removed } } : undefined,
      });
    }
    const typed = (value.code ?? "").slice(0, 64);
    try {
      if (!normaliseCode(typed)) throw new UserError("discounts.errors.codeRequired", { field: "code" });
      const currency = getCurrency(context);
      const shop = await getShop(context);
      const cart = await loadCart(db, cartId, currency, shop.shipping[currency]);
      const quote = await applyCartCode(db, cart, typed, {
        rates: shop.exchangeRates,
        shopper: discountShopper(context),
      });
      return succeed(context, form, {
        redirectTo: back,
        flash: { type: "success", key: "discounts.applied", params: { code: quote.code } },
      });
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      if (wantsData(form)) return refuse(submission, error.problem, error.status);
      saveDiscountAttempt(context, { code: typed, problem: error.problem });
      return redirect(back, { status: 303 });
    }
  },
);
