import type { RouterContextProvider } from "react-router";
import { requestInfoContext } from "~/context";
import { type CountryCode, countryCode, resolveCountry } from "~/lib/countries";
import { countryForIp } from "~/lib/geoip.server";
import { getCheckout } from "./checkout.server";
import { getSession, setSessionValue } from "./session.server";

/**
 * Where the shopper's cart is to be shipped, for the shipping the cart and checkout show
 * (docs/decisions/047): the country they chose ("Update shipping", or checkout's country), else
 * their country as the currency default finds it (a trusted proxy's header, else GeoIP), else
 * Hong Kong. placeOrder charges the checkout's country again, whatever this says.
 */
export function getDestination(context: Readonly<RouterContextProvider>): CountryCode {
  const chosen = chosenDestination(context);
  if (chosen) return chosen;
  const atCheckout = resolveCountry(getCheckout(context)?.customer.country);
  if (atCheckout) return atCheckout;
  let geo: string | null = null;
  try {
    const info = context.get(requestInfoContext);
    geo = info.proxyCountry ?? countryForIp(info.ip);
  } catch {
    // no request information (a command-line caller)
  }
  return countryCode(geo) ?? "HK";
}

/** The destination the shopper chose themselves ("Update shipping", checkout), if they did. */
export function chosenDestination(context: Readonly<RouterContextProvider>): CountryCode | null {
  return countryCode(getSession(context).data.destination);
}

/** The shopper's chosen destination, kept in their session. */
export function setDestination(context: Readonly<RouterContextProvider>, code: CountryCode): void {
  setSessionValue(getSession(context), "destination", code);
}
