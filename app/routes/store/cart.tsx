import { Form, redirect } from "react-router";
import { CartLineItem } from "~/components/store/cart-line";
import { CartSummaryPanel } from "~/components/store/cart-summary";
import { CountrySelect, NotShippedNotice, UpdateShippingButton } from "~/components/store/destination-select";
import { DiscountCodeForm } from "~/components/store/discount-code-form";
import { RestrictedItems } from "~/components/store/restricted-items";
import { StoreNotice } from "~/components/store/store-notice";
import { SummaryPage } from "~/components/store/summary-page";
import { Button, ButtonLink } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { services } from "~/context";
import { DEFAULT_COLOR } from "~/lib/colors";
import { countryName, countryOptions, resolveCountry } from "~/lib/countries";
import { formAction, type Problem, refuse, succeed, UserError, wantsData } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { localized, variantName } from "~/lib/localize";
import { privatePageMeta } from "~/lib/meta";
import { safeRedirect } from "~/lib/redirect";
import type { Language } from "~/locales";
import { getCurrency } from "~/middleware/currency";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { addToCart, clearCart, removeLine, setLineQuantity } from "~/models/cart.server";
import { cartRestrictionMessages } from "~/models/orders/restrictions.server";
import { titleWithShop } from "~/models/settings/shop.server";
import { getUser } from "~/request/auth.server";
import { currentCartId } from "~/request/cart.server";
import { getCheckoutDraft, saveCheckoutDraft } from "~/request/checkout.server";
import { setDestination } from "~/request/destination.server";
import { loadDiscountedCart, takeDiscountAttempt } from "~/request/discount-code.server";
import { type Flash, setFlash } from "~/request/flash.server";
import { cartActionSchema } from "~/schemas/cart";
import type { Route } from "./+types/cart";

export async function loader({ context }: Route.LoaderArgs) {
  const t = getInstance(context).t;
  // With its discount code applied, or the reason it does not apply (docs/decisions/048).
  const cart = await loadDiscountedCart(context, getCurrency(context));
  const language = getLanguage(context);
  const destination = cart.destination?.countryCode ?? null;
  return {
    cart,
    // The destination the shipping is computed for, and the countries to choose from (decision 047).
    destination,
    countries: countryOptions(language),
    // No zone covers the destination: said before checkout (placeOrder refuses it too).
    notShippedTo: destination && !cart.destination?.zone ? countryName(destination, language) : null,
    codeAttempt: takeDiscountAttempt(context),
    // An item that cannot go to the chosen destination: which, and where it can go (docs/decisions/049).
    restricted: await cartRestrictionMessages(services(context).db, cart, language),
    language,
    signedIn: getUser(context) !== null,
    title: await titleWithShop(context, t("cart.title")),
  };
}

/**
 * One cart action, told apart by `intent`: add, update, remove, clear. A plain form post is
 * answered with a redirect and a flash message, a refusal too (the message shows on the page
 * the shopper came from); a fetcher (`<FetcherField />`) gets data.
 */
export const action = formAction<Route.ActionArgs, typeof cartActionSchema, void, unknown>(
  { schema: cartActionSchema },
  async ({ context, form, submission, value }) => {
    const { db } = services(context);
    const language = getLanguage(context);
    // A product card's button names the product and the colour in one value (`49:Black`).
    const card = value.intent === "add" && value.add !== undefined ? cardChoice(value.add) : null;
    // Back to the product page with the colour and option chosen, so a page without JavaScript
    // keeps them; a card goes back to its listing as it was.
    const back =
      value.intent !== "add"
        ? "/cart"
        : card
          ? safeRedirect(value.redirectTo, "/cart")
          : withChoice(safeRedirect(value.redirectTo, "/cart"), value.color, value.option);
    const done = (flash: Flash) => succeed(context, form, { redirectTo: back, flash });
    try {
      switch (value.intent) {
        case "add": {
          const cartId = (await currentCartId(context, true)) as string;
          const added = await addToCart(db, cartId, {
            productId: card ? card.productId : value.productId,
            color: card ? card.color : value.color,
            option: value.option,
            // Conform reads an empty field as missing: an emptied quantity is refused, a missing one is 1.
            quantity: value.quantity ?? form.get("quantity"),
          });
          const name = localized(added, "name", language);
          return done({ type: "success", key: "cart.added", detailKey: "cart.addedDetail", params: { name } });
        }
        case "update": {
          const cartId = await currentCartId(context);
          if (!cartId) throw new UserError("cart.errors.noLine");
          const changed = await setLineQuantity(db, cartId, value.lineId, value.setQuantity ?? value.quantity);
          // Below 1 or unreadable ("", "abc", "1.5", "1e9"): nothing changes, and the shopper is told why.
          if (!changed) throw new UserError("cart.errors.badQuantity");
          return done({ type: "success", key: "cart.updated" });
        }
        case "remove": {
          const cartId = await currentCartId(context);
          if (!cartId) throw new UserError("cart.errors.noLine");
          const line = await removeLine(db, cartId, value.lineId);
          const name = localized(line, "name", language);
          const variant = variantName(line, language);
          return done(
            variant === ""
              ? { type: "success", key: "cart.removedDefault", params: { name } }
              : { type: "success", key: "cart.removed", params: { name, color: variant } },
          );
        }
        case "shipping": {
          // The shipping for this country from now on (cart, checkout and payment show it); the
          // country checkout typed before follows, so the two pages never disagree.
          const code = resolveCountry(value.country);
          if (!code) throw new UserError("checkout.errors.countryUnknown");
          setDestination(context, code);
          const draft = getCheckoutDraft(context);
          if (draft) saveCheckoutDraft(context, { ...draft, country: code });
          return done({
            type: "success",
            key: "cart.shippingUpdated",
            params: { country: countryName(code, language) },
          });
        }
        case "clear": {
          const cartId = await currentCartId(context);
          if (cartId) await clearCart(db, cartId);
          return done({ type: "success", key: "cart.cleared" });
        }
      }
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      const flash = refusalFlash(error.problem, language, getInstance(context).t("colors.Default"));
      if (wantsData(form)) return refuse(submission, error.problem, error.status, { flash });
      setFlash(context, flash);
      return redirect(back, { status: 303 });
    }
  },
);

/**
 * A refusal as a flash message; its colour (`color`, with `color_zh` when it has a Chinese
 * name) becomes one name in the reader's language, a product without colour options "Standard".
 */
function refusalFlash(problem: Problem, language: Language, standard: string): Flash {
  const { color, color_zh, option_value, option_value_zh, ...rest } = problem.params ?? {};
  const named = (text: string) =>
    variantName(
      {
        color: text,
        color_zh: String(color_zh ?? ""),
        option_value: String(option_value ?? ""),
        option_value_zh: String(option_value_zh ?? ""),
      },
      language,
    ) || standard;
  const params = typeof color === "string" ? { ...rest, color: named(color) } : rest;
  return { type: "error", key: problem.key, detailKey: problem.detailKey, params };
}

/** A product page's address with the colour and option value chosen in its query (`?colour=`, `?option=`). */
/** A card button's `add` value split at its first colon: the product id, then the colour (which may hold one). */
function cardChoice(add: string): { productId: string; color: string | undefined } {
  const colon = add.indexOf(":");
  return colon < 0
    ? { productId: add, color: undefined }
    : { productId: add.slice(0, colon), color: add.slice(colon + 1) };
}

function withChoice(to: string, color: string | undefined, option: string | undefined): string {
  if (!to.startsWith("/product/") || (!color && !option)) return to;
  const url = new URL(to, "http://shop.invalid");
  if (color && color !== DEFAULT_COLOR) url.searchParams.set("colour", color);
  if (option) url.searchParams.set("option", option);
  else url.searchParams.delete("option");
  return `${url.pathname}${url.search}`;
}

export default function CartPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { cart, language, signedIn, codeAttempt, restricted, destination, countries, notShippedTo } = loaderData;
  if (cart.lines.length === 0) return <StoreNotice notice="emptyCart" />;
  return (
    <SummaryPage
      title={t("cart.title")}
      summary={
        <CartSummaryPanel cart={cart} signedIn={signedIn}>
          {destination ? (
            // A new key after each answer: the select shows the destination the server kept.
            <Form key={destination} method="post" className="mt-4 border-t border-stone-200 pt-4 text-sm">
              <label htmlFor="cart-country" className="mb-1 block font-medium text-stone-700">
                {t("cart.shipTo")}
              </label>
              <div className="flex flex-wrap gap-2">
                <CountrySelect
                  id="cart-country"
                  name="country"
                  defaultValue={destination}
                  countries={countries}
                  className={`${inputClass} min-w-0 flex-1`}
                />
                <UpdateShippingButton />
              </div>
              <div className="mt-2">
                <NotShippedNotice country={notShippedTo} />
              </div>
            </Form>
          ) : null}
          <DiscountCodeForm state={{ ...cart, attempt: codeAttempt }} redirectTo="/cart" />
        </CartSummaryPanel>
      }
    >
      <section>
        <RestrictedItems messages={restricted} className="mb-4" />
        <ul className="divide-y divide-stone-200 rounded-lg border border-stone-200 bg-white">
          {cart.lines.map((line) => (
            <CartLineItem key={line.id} line={line} currency={cart.currency} language={language} />
          ))}
        </ul>
        <div className="mt-4 flex flex-wrap justify-between gap-3">
          <ButtonLink to="/category/all" variant="secondary">
            {t("cart.continueShopping")}
          </ButtonLink>
          <Form method="post">
            <input type="hidden" name="intent" value="clear" />
            <Button variant="quietDanger">{t("cart.clearCart")}</Button>
          </Form>
        </div>
      </section>
    </SummaryPage>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Cart");
