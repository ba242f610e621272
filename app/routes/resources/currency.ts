import { redirect } from "react-router";
import { services } from "~/context";
import { formAction, succeed } from "~/lib/form-action.server";
import { safeRedirect } from "~/lib/redirect";
import { currencyCookie } from "~/request/currency.server";
import { currencySchema } from "~/schemas/preferences";
import type { Route } from "./+types/currency";

/**
 * POST { currency, redirectTo }: the shopper picks HKD, GBP, EUR or USD by hand (kept in a cookie,
 * Secure when the shop is served over HTTPS).
 */
export const action = formAction<Route.ActionArgs, typeof currencySchema, void, unknown>(
  { schema: currencySchema },
  async ({ context, form, value }) =>
    succeed(context, form, {
      redirectTo: safeRedirect(value.redirectTo),
      flash: { type: "success", key: "flash.currencyChanged", params: { currency: value.currency } },
      headers: {
        "Set-Cookie": await currencyCookie.serialize(value.currency, {
          secure: services(context).config.secureCookies,
        }),
      },
    }),
);

export function loader() {
  return redirect("/");
}
