import { Form, useLocation, useSubmit } from "react-router";
import { CURRENCIES, type Currency } from "#db/schema";
import { useTranslation } from "~/lib/i18n";
import { useHydrated } from "~/lib/use-hydrated";
import { HTML_LANG, type Language } from "~/locales/languages";

function useReturnTo(): string {
  const location = useLocation();
  return `${location.pathname}${location.search}`;
}

/**
 * A POST form (works without JavaScript) that switches to the other language and comes back.
 * `short`: on a phone the button shows a short label ("EN" for "English"); its name stays the
 * whole one, which starts with what it shows.
 */
export function LanguageToggle({
  language,
  className = "",
  short = false,
}: {
  language: Language;
  className?: string;
  short?: boolean;
}) {
  const { t } = useTranslation();
  const returnTo = useReturnTo();
  const other: Language = language === "en" ? "zh" : "en";
  return (
    <Form method="post" action="/resources/language" className={className || undefined}>
      <input type="hidden" name="language" value={other} />
      <input type="hidden" name="redirectTo" value={returnTo} />
      <button
        type="submit"
        title={t("nav.switchLanguageTitle")}
        lang={HTML_LANG[other]}
        className={short ? "hd-btn" : "whitespace-nowrap rounded-md px-2 py-1 text-sm font-medium hover:bg-white/10"}
      >
        {short ? (
          <>
            <span aria-hidden="true" className="sm:hidden">
              {t("nav.switchLanguageShort")}
            </span>
            <span className="sr-only sm:not-sr-only">{t("nav.switchLanguage")}</span>
          </>
        ) : (
          t("nav.switchLanguage")
        )}
      </button>
    </Form>
  );
}

/**
 * Currency picker: a select and a submit button. With JavaScript the select submits itself on
 * change and the button goes away; without, the button stays (it is in the server HTML).
 */
export function CurrencyPicker({
  currency,
  id,
  className = "",
}: {
  currency: Currency;
  id: string;
  className?: string;
}) {
  const { t } = useTranslation();
  const returnTo = useReturnTo();
  const submit = useSubmit();
  const hydrated = useHydrated();
  return (
    <Form method="post" action="/resources/currency" className={`hd-cur ${className}`}>
      <input type="hidden" name="redirectTo" value={returnTo} />
      <label htmlFor={id} className="sr-only">
        {t("nav.currencyLabel")}
      </label>
      <select
        id={id}
        name="currency"
        defaultValue={currency}
        key={currency}
        onChange={(event) => submit(event.currentTarget.form)}
      >
        {CURRENCIES.map((code) => (
          <option key={code} value={code}>
            {t(`currency.${code}`)}
          </option>
        ))}
      </select>
      {hydrated ? null : (
        // A short word beside the picker (it names the currency already); the name starts with it.
        <button type="submit" aria-label={t("nav.setCurrency")}>
          {t("nav.setCurrencyShort")}
        </button>
      )}
    </Form>
  );
}
