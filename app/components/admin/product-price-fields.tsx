import type { FieldMetadata } from "@conform-to/react";
import { useState } from "react";
import { ErrorList, inputClass } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import {
  convertFromHkd,
  DERIVED_CURRENCIES,
  type DerivedCurrency,
  type ExchangeRates,
  formatMoney,
  rateToText,
} from "~/lib/money";
import { centsToText, parseCents } from "~/schemas/product";

type PriceField = FieldMetadata<string | undefined>;

const LABELS = {
  GBP: "adminProductForm.priceGbp",
  EUR: "adminProductForm.priceEur",
  USD: "adminProductForm.priceUsd",
} as const;

/** A price input with its label, hint (described by it) and errors. */
function PriceInput({
  field,
  label,
  placeholder,
  hint,
  onValue,
}: {
  field: PriceField;
  label: string;
  placeholder?: string;
  hint?: string;
  onValue: (value: string) => void;
}) {
  const id = `product-${field.name}`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const errors = field.errors?.length ? field.errors : undefined;
  const describedBy = [hint ? hintId : null, errors ? errorId : null].filter(Boolean).join(" ");
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-stone-800">
        {label}
      </label>
      <input
        key={field.key}
        id={id}
        name={field.name}
        type="text"
        defaultValue={field.initialValue ?? ""}
        placeholder={placeholder}
        inputMode="decimal"
        aria-invalid={errors ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(event) => onValue(event.currentTarget.value)}
        className={inputClass}
      />
      {hint ? (
        <p id={hintId} className="text-xs text-stone-600">
          {hint}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

/**
 * HKD and the three prices that can follow it (docs/decisions/020). An empty GBP/EUR/USD field
 * follows HKD: its placeholder and hint show today's derived amount, from the HKD field as typed
 * (live with JavaScript, as last submitted without); a typed one is fixed, and clearing it
 * follows HKD again.
 */
export function ProductPriceFields({
  fields,
  rates,
}: {
  fields: { price_hkd: PriceField; price_gbp: PriceField; price_eur: PriceField; price_usd: PriceField };
  rates: ExchangeRates;
}) {
  const { t } = useTranslation();
  const byCurrency = { GBP: fields.price_gbp, EUR: fields.price_eur, USD: fields.price_usd };
  const [hkd, setHkd] = useState(textOf(fields.price_hkd.initialValue));
  const [typed, setTyped] = useState<Record<DerivedCurrency, string>>({
    GBP: textOf(fields.price_gbp.initialValue),
    EUR: textOf(fields.price_eur.initialValue),
    USD: textOf(fields.price_usd.initialValue),
  });
  const hkdCents = parseCents(hkd);
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <PriceInput field={fields.price_hkd} label={t("adminProductForm.priceHkd")} onValue={setHkd} />
      {DERIVED_CURRENCIES.map((currency) => {
        const rate = rates[currency];
        const derived = hkdCents === null ? null : convertFromHkd(hkdCents, rate);
        const fixed = typed[currency].trim() !== "";
        const hint = fixed
          ? t("adminProductForm.fixedHint")
          : derived === null
            ? t("adminProductForm.derivedHintNoHkd", { rate: rateToText(rate) })
            : t("adminProductForm.derivedHint", { amount: formatMoney(derived, currency), rate: rateToText(rate) });
        return (
          <PriceInput
            key={currency}
            field={byCurrency[currency]}
            label={t(LABELS[currency])}
            placeholder={derived === null ? undefined : `≈ ${centsToText(derived)}`}
            hint={hint}
            onValue={(value) => setTyped((current) => ({ ...current, [currency]: value }))}
          />
        );
      })}
    </div>
  );
}

const SALE_LABELS = {
  GBP: "adminProductForm.salePriceGbp",
  EUR: "adminProductForm.salePriceEur",
  USD: "adminProductForm.salePriceUsd",
} as const;

/**
 * The sale (docs/decisions/053): an HKD sale price (empty: no sale), GBP/EUR/USD sale prices that
 * follow it when empty (their placeholder shows today's amount), and when it ends in Hong Kong
 * time (empty: until removed). The server checks each is below the regular price.
 */
export function ProductSaleFields({
  fields,
  rates,
}: {
  fields: {
    sale_price_hkd: PriceField;
    sale_price_gbp: PriceField;
    sale_price_eur: PriceField;
    sale_price_usd: PriceField;
    sale_ends: PriceField;
  };
  rates: ExchangeRates;
}) {
  const { t } = useTranslation();
  const byCurrency = { GBP: fields.sale_price_gbp, EUR: fields.sale_price_eur, USD: fields.sale_price_usd };
  const [hkd, setHkd] = useState(textOf(fields.sale_price_hkd.initialValue));
  const hkdCents = parseCents(hkd);
  const ends = fields.sale_ends;
  const endsErrors = ends.errors?.length ? ends.errors : undefined;
  return (
    <fieldset className="flex flex-col gap-3" data-testid="sale-fields">
      <legend className="text-sm font-semibold text-stone-800">{t("adminProductForm.saleSection")}</legend>
      <p className="text-xs text-stone-600">{t("adminProductForm.saleHint")}</p>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <PriceInput field={fields.sale_price_hkd} label={t("adminProductForm.salePriceHkd")} onValue={setHkd} />
        {DERIVED_CURRENCIES.map((currency) => {
          const derived = hkdCents === null ? null : convertFromHkd(hkdCents, rates[currency]);
          return (
            <PriceInput
              key={currency}
              field={byCurrency[currency]}
              label={t(SALE_LABELS[currency])}
              placeholder={derived === null ? undefined : `≈ ${centsToText(derived)}`}
              onValue={() => {}}
            />
          );
        })}
      </div>
      <div className="flex max-w-xs flex-col gap-1">
        <label htmlFor="product-sale_ends" className="text-sm font-medium text-stone-800">
          {t("adminProductForm.saleEnds")}
        </label>
        <input
          key={ends.key}
          id="product-sale_ends"
          name={ends.name}
          type="datetime-local"
          defaultValue={textOf(ends.initialValue)}
          aria-invalid={endsErrors ? true : undefined}
          aria-describedby={endsErrors ? "product-sale_ends-error" : undefined}
          className={inputClass}
        />
        <ErrorList id="product-sale_ends-error" errors={endsErrors} />
      </div>
    </fieldset>
  );
}

/** A field's sent value as text; a repeated field (a list, from a broken or hostile client) is none. */
function textOf(value: unknown): string {
  return typeof value === "string" ? value : "";
}
