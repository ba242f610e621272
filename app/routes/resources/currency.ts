import { data, redirect } from "react-router";
import { currencyCookie, isCurrency } from "~/lib/currency.server";
import { setFlash } from "~/lib/flash.server";
import { readForm } from "~/lib/read-form";
import { safeRedirect } from "~/lib/redirect";
import type { Route } from "./+types/currency";

/** POST { currency, redirectTo }: the shopper picks HKD, GBP, EUR or USD by hand. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const currency = form.get("currency");
  if (!isCurrency(currency)) {
    return data({ error: "errors.invalidCurrency" }, { status: 400 });
  }
  setFlash(context, { type: "success", key: "flash.currencyChanged", params: { currency } });
  return redirect(safeRedirect(form.get("redirectTo")), {
    headers: { "Set-Cookie": await currencyCookie.serialize(currency) },
  });
}

export function loader() {
  return redirect("/");
}
