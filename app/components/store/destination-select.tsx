import type { ComponentProps } from "react";
import { inputClass } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";

/**
 * The destination country (cart and checkout; docs/decisions/047): ISO codes named in the page's
 * language, Hong Kong first. With JavaScript a change submits the form's "Update shipping" button
 * at once; without, the shopper presses it.
 */
export function CountrySelect({
  countries,
  ...props
}: ComponentProps<"select"> & { countries: readonly { code: string; name: string }[] }) {
  return (
    <select
      autoComplete="country"
      className={inputClass}
      {...props}
      onChange={(event) => {
        const button = event.currentTarget.form?.querySelector<HTMLButtonElement>("button[value=shipping]");
        if (button) event.currentTarget.form?.requestSubmit(button);
      }}
    >
      {countries.map((option) => (
        <option key={option.code} value={option.code}>
          {option.name}
        </option>
      ))}
    </select>
  );
}

/** "Update shipping": the submit that recomputes the shipping for the chosen country. */
export function UpdateShippingButton() {
  const { t } = useTranslation();
  return (
    <button
      type="submit"
      name="intent"
      value="shipping"
      formNoValidate
      className="rounded border border-stone-300 px-3 py-2 text-sm hover:bg-stone-50"
    >
      {t("checkout.updateShipping")}
    </button>
  );
}

/** "We don't ship to X": said before paying, next to the country. */
export function NotShippedNotice({ country }: { country: string | null }) {
  const { t } = useTranslation();
  if (!country) return null;
  return (
    <p role="alert" className="rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      {t("checkout.errors.notShipped", { country })}
    </p>
  );
}
