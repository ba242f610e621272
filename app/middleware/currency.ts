import { createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import type { Currency } from "#db/schema";
import { requestInfoContext } from "~/context";
import { resolveCurrency } from "~/request/currency.server";

export const currencyContext = createContext<Currency>("HKD");

export function getCurrency(context: Readonly<RouterContextProvider>): Currency {
  return context.get(currencyContext);
}

/** The shopper's currency: their choice (cookie), else their country, else HKD. */
export const currencyMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  context.set(currencyContext, await resolveCurrency(request.headers.get("Cookie"), context.get(requestInfoContext)));
  return next();
};
