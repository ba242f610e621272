import { getZodConstraint } from "@conform-to/zod/v4";
import { Form, Link, redirect } from "react-router";
import { AccountNeeded } from "~/components/account-needed";
import { CartSummary } from "~/components/order-summary";
import { CountrySelect, NotShippedNotice, UpdateShippingButton } from "~/components/store/destination-select";
import { DiscountCodeForm } from "~/components/store/discount-code-form";
import { RestrictedItems } from "~/components/store/restricted-items";
import { addressOfOrder } from "~/components/store/ship-to";
import { StoreNotice } from "~/components/store/store-notice";
import { SummaryPage } from "~/components/store/summary-page";
import {
  ErrorList,
  FieldFor,
  inputClass,
  inputProps,
  StatusButton,
  selectProps,
  textareaProps,
} from "~/components/ui/field";
import { useServerForm } from "~/components/ui/use-server-form";
import { requestInfoContext, services } from "~/context";
import { countryName, countryOptions, resolveCountry } from "~/lib/countries";
import { formAction, UserError } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { getCurrency } from "~/middleware/currency";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { ageTextIn, cartNeedsAgeConfirmation } from "~/models/orders/age.server";
import { checkoutOrderNumber, findLastOrderContact } from "~/models/orders/place.server";
import { cartRestrictionMessages } from "~/models/orders/restrictions.server";
import { titleWithShop } from "~/models/settings/shop.server";
import { getUser } from "~/request/auth.server";
import { currentCartId } from "~/request/cart.server";
import { getCheckout, getCheckoutDraft, saveCheckout, saveCheckoutDraft } from "~/request/checkout.server";
import { chosenDestination, getDestination, setDestination } from "~/request/destination.server";
import { loadDiscountedCart, takeDiscountAttempt } from "~/request/discount-code.server";
import { setFlash } from "~/request/flash.server";
import { checkoutSchema, destinationSchema } from "~/schemas/checkout";
import type { Route } from "./+types/checkout";

const FIELDS = [
  "firstName",
  "lastName",
  "email",
  "phone",
  "address",
  "city",
  "postalCode",
  "country",
  "notes",
] as const;

export async function loader({ context }: Route.LoaderArgs) {
  const { db } = services(context);
  const language = getLanguage(context);
  const currency = getCurrency(context);
  const draft = getCheckoutDraft(context);
  const user = getUser(context);
  // What the shopper typed before (signed out, or on the way back from payment) comes back.
  const saved = getCheckout(context)?.customer;
  // A returning customer starts from the name, phone and address of their last order.
  const last = user && !draft && !saved ? await findLastOrderContact(db, user.id) : undefined;
  const fromLast: Partial<Record<(typeof FIELDS)[number], string | null>> = last ? addressOfOrder(last) : {};
  // Shipping for the country typed just now, else chosen, else of the saved checkout or the last
  // order, else the shopper's geo country, else Hong Kong (decision 047).
  const destination =
    resolveCountry(draft?.country) ??
    chosenDestination(context) ??
    resolveCountry(saved?.country ?? fromLast.country) ??
    getDestination(context);
  const cart = await loadDiscountedCart(context, currency, destination);
  // A product hidden since it went into the cart (inactive category) cannot be ordered: the
  // cart page shows which, and the way to go on (remove it).
  if (cart.unavailable) {
    setFlash(context, { type: "error", key: "cart.removeUnavailable" });
    throw redirect("/cart");
  }
  const defaults: Record<string, string> = { email: user?.email ?? "" };
  for (const field of FIELDS) {
    const value = draft?.[field] ?? saved?.[field] ?? fromLast[field];
    if (typeof value === "string" && value) defaults[field] = value;
  }
  // The select shows the destination shipping was computed for, as a code.
  defaults.country = destination;
  const t = getInstance(context).t;
  // An 18+ item in the cart: the shopper confirms their age (docs/decisions/049).
  const ageText = (await cartNeedsAgeConfirmation(db, cart.id)) ? await ageTextIn(db, language) : null;
  return {
    cart,
    codeAttempt: takeDiscountAttempt(context),
    ageText,
    // An item that cannot go to the chosen destination: which, and where it can go (docs/decisions/049).
    restricted: await cartRestrictionMessages(db, cart, language),
    language,
    defaults,
    // Validation runs on the server only (the action); the browser gets the schema's HTML
    // constraints, not Zod (docs/decisions/015).
    constraint: getZodConstraint(checkoutSchema),
    signedIn: user !== null,
    countries: countryOptions(language),
    // No zone covers the destination: said before paying (placeOrder refuses it too).
    notShippedTo: cart.destination && !cart.destination.zone ? countryName(destination, language) : null,
    title: await titleWithShop(context, t("checkout.title")),
  };
}

/** What the shopper typed, kept in the session (signing in first, or "Update shipping" without JavaScript). */
function keepTyped(context: Route.ActionArgs["context"], form: FormData) {
  const values: Record<string, string> = {};
  for (const field of FIELDS) {
    const typed = form.get(field);
    if (typeof typed === "string") values[field] = typed.slice(0, 1000);
  }
  saveCheckoutDraft(context, values);
}

/** The customer's details go into the session for payment; a signed-out shopper signs in first, their input kept. */
export const action = formAction<Route.ActionArgs, typeof checkoutSchema | typeof destinationSchema, void, Response>(
  { schema: (form) => (form.get("intent") === "shipping" ? destinationSchema : checkoutSchema) },
  async ({ context, form, value }) => {
    setDestination(context, resolveCountry(value.country) ?? "HK");
    if ("intent" in value) {
      // "Update shipping": the page again, with the shipping for this country and the rest as typed.
      keepTyped(context, form);
      return redirect("/checkout");
    }
    // Refused next to the checkbox (400, input kept) when the cart holds an 18+ item and the box
    // was not ticked, also when the form was forged without it; placeOrder checks again.
    const needsAge = await cartNeedsAgeConfirmation(services(context).db, await currentCartId(context));
    if (needsAge && value.ageConfirmed !== "on") {
      throw new UserError("checkout.errors.ageRequired", { field: "ageConfirmed" });
    }
    if (!getUser(context)) {
      // Keep what they typed; after signing in they come back to a filled form.
      keepTyped(context, form);
      setFlash(context, { type: "info", key: "checkout.authRequired", detailKey: "checkout.authRequiredDetail" });
      return redirect(`/login?redirectTo=${encodeURIComponent("/checkout")}`);
    }
    // The order's number is chosen now (kept when the shopper comes back to change their details).
    // The confirmation is this request's: its time and client address (behind TRUST_PROXY, the proxy's).
    const ageConfirmation = needsAge ? { at: new Date().toISOString(), ip: context.get(requestInfoContext).ip } : null;
    saveCheckout(context, value, checkoutOrderNumber(getCheckout(context)?.orderNumber), ageConfirmation);
    return redirect("/payment");
  },
);

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { cart, language, defaults, constraint, signedIn, codeAttempt, countries, notShippedTo, ageText, restricted } =
    loaderData;
  const [form, fields] = useServerForm<typeof checkoutSchema>(actionData?.result, constraint, {
    id: "checkout",
    defaultValue: defaults,
  });
  if (cart.lines.length === 0) return <StoreNotice notice="emptyCheckout" />;
  const text = (
    name: (typeof FIELDS)[number],
    label: string,
    options: { type?: "email" | "tel"; autoComplete?: string; hint?: string } = {},
  ) => (
    <FieldFor field={fields[name]} label={label} hint={options.hint}>
      <input
        {...inputProps(fields[name], options.type ?? "text")}
        autoComplete={options.autoComplete}
        className={inputClass}
      />
    </FieldFor>
  );
  return (
    <SummaryPage
      step="shipping"
      title={t("checkout.title")}
      notice={signedIn ? null : <AccountNeeded className="mt-4" />}
      summary={
        <CartSummary cart={cart} language={language}>
          <DiscountCodeForm state={{ ...cart, attempt: codeAttempt }} redirectTo="/checkout" />
        </CartSummary>
      }
    >
      <Form
        method="post"
        {...form.props}
        className="flex flex-col gap-4 rounded-lg border border-stone-200 bg-white p-6"
      >
        {/* Enter in a field continues to payment (the form's first submit button), not "Update shipping". */}
        <button type="submit" tabIndex={-1} aria-hidden="true" className="sr-only">
          {t("checkout.continue")}
        </button>
        <RestrictedItems messages={restricted} />
        <h2 className="text-lg font-semibold">{t("checkout.customerInfo")}</h2>
        <div className="grid gap-4 sm:grid-cols-2">
          {text("firstName", t("checkout.firstName"), { autoComplete: "given-name" })}
          {text("lastName", t("checkout.lastName"), { autoComplete: "family-name" })}
          {text("email", t("checkout.email"), { type: "email", autoComplete: "email" })}
          {text("phone", t("checkout.phone"), { type: "tel", autoComplete: "tel" })}
        </div>
        {/* A street address may take several lines: a textarea (the server joins the lines). */}
        <FieldFor field={fields.address} label={t("checkout.address")}>
          <textarea {...textareaProps(fields.address)} rows={2} autoComplete="street-address" className={inputClass} />
        </FieldFor>
        <div className="grid gap-4 sm:grid-cols-3">
          {text("city", t("checkout.city"), { autoComplete: "address-level2" })}
          {text("postalCode", t("checkout.postalCode"), {
            autoComplete: "postal-code",
            hint: t("checkout.postalCodeHint"),
          })}
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <div className="min-w-0 flex-1">
            <FieldFor field={fields.country} label={t("checkout.country")}>
              <CountrySelect {...selectProps(fields.country)} countries={countries} />
            </FieldFor>
          </div>
          <UpdateShippingButton />
        </div>
        <NotShippedNotice country={notShippedTo} />
        <FieldFor field={fields.notes} label={t("checkout.notes")} hint={t("checkout.notesHint")}>
          <textarea {...textareaProps(fields.notes)} rows={3} className={inputClass} />
        </FieldFor>
        {ageText ? (
          <div className="rounded-md border border-amber-300 bg-amber-50 p-3" data-age-confirmation>
            <label htmlFor={fields.ageConfirmed.id} className="flex items-start gap-2 text-sm text-stone-800">
              <input
                type="checkbox"
                id={fields.ageConfirmed.id}
                name={fields.ageConfirmed.name}
                value="on"
                required
                defaultChecked={fields.ageConfirmed.initialValue === "on"}
                aria-invalid={fields.ageConfirmed.errors?.length ? true : undefined}
                aria-describedby={fields.ageConfirmed.errors?.length ? fields.ageConfirmed.errorId : undefined}
                className="mt-0.5 size-4 shrink-0"
              />
              <span>{ageText}</span>
            </label>
            <ErrorList id={fields.ageConfirmed.errorId} errors={fields.ageConfirmed.errors} />
          </div>
        ) : null}
        <div className="flex flex-wrap items-center justify-between gap-3 pt-2">
          <Link to="/cart" className="text-brand-700 hover:underline">
            ← {t("checkout.backToCart")}
          </Link>
          <StatusButton pendingText={t("auth.pending")}>{t("checkout.continue")}</StatusButton>
        </div>
      </Form>
    </SummaryPage>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Checkout");
