import { createContext, type RouterContextProvider } from "react-router";
import type { Currency } from "#db/schema";

/** The shopper's currency: their choice (cookie), else their country, else HKD. Set by the visitor middleware. */
export const currencyContext = createContext<Currency>("HKD");

export function getCurrency(context: Readonly<RouterContextProvider>): Currency {
  return context.get(currencyContext);
}
