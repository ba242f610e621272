import { type FieldMetadata, getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { Form } from "react-router";
import { AdminSection } from "~/components/admin/admin-section";
import { buttonClass } from "~/components/ui/button";
import { ErrorList, Field, FieldFor, FormErrors, inputClass, StatusButton } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import { useHydrated } from "~/lib/use-hydrated";
import { MAX_BANDS, ZONE_CURRENCIES, type ZoneCurrencyKey, zoneSchema } from "~/schemas/shipping-zone";

type Band = { max_grams?: string; fee?: string };

/** The form's values, as text (a saved zone's, or a new zone's). */
export type ZoneFormValues = {
  [K in "name_en" | "name_zh" | "sort_order" | `fee_${ZoneCurrencyKey}` | `free_above_${ZoneCurrencyKey}`]?: string;
} & { countries?: string[] } & { [K in `bands_${ZoneCurrencyKey}`]?: Band[] };

/** A country to tick: its code, its name in the admin's language, and the other zone that has it. */
export interface CountryChoice {
  code: string;
  name: string;
  otherZone: string | null;
}

const smallButton = buttonClass("secondary", "sm");

/**
 * The countries of a zone: checkboxes (the zone's own first), in a scrolling box; with JavaScript
 * a filter box hides the names that do not match. Without JavaScript every box is there.
 */
function CountryChecklist({
  field,
  countries,
  chosen,
}: {
  field: FieldMetadata<string[] | undefined>;
  countries: CountryChoice[];
  chosen: ReadonlySet<string>;
}) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState("");
  const hydrated = useHydrated();
  const needle = filter.trim().toLowerCase();
  const ordered = [...countries.filter((c) => chosen.has(c.code)), ...countries.filter((c) => !chosen.has(c.code))];
  return (
    <fieldset aria-describedby={field.errors ? field.errorId : undefined}>
      <legend className="text-sm font-medium text-stone-800">{t("adminZones.fields.countries")}</legend>
      <p className="mt-1 text-xs text-stone-500">{t("adminZones.fields.countriesHint")}</p>
      <input
        hidden={!hydrated}
        type="search"
        value={filter}
        onChange={(event) => setFilter(event.currentTarget.value)}
        placeholder={t("adminZones.fields.countryFilter")}
        aria-label={t("adminZones.fields.countryFilter")}
        className={`${inputClass} mt-2 max-w-sm`}
      />
      <div className="mt-2 grid max-h-72 gap-x-6 gap-y-1 overflow-y-auto rounded border border-stone-200 bg-white p-3 sm:grid-cols-2 lg:grid-cols-3">
        {ordered.map((country) => {
          const shown = !needle || country.name.toLowerCase().includes(needle) || country.code.toLowerCase() === needle;
          return (
            <label key={country.code} hidden={!shown} className="flex items-center gap-2 py-0.5 text-sm text-stone-800">
              <input
                type="checkbox"
                name={`${field.name}[]`}
                value={country.code}
                defaultChecked={chosen.has(country.code)}
                className="size-4"
              />
              <span>
                {country.name}
                {country.otherZone ? <span className="text-xs text-stone-500"> · {country.otherZone}</span> : null}
              </span>
            </label>
          );
        })}
      </div>
      <ErrorList id={field.errorId} errors={field.errors} />
    </fieldset>
  );
}

/**
 * The one editor of a shipping zone (Settings → Shipping zones, docs/decisions/047): names,
 * order, countries, and per currency the fee, the free-shipping threshold and the weight bands
 * (rows added and removed with Conform's list intents: in the browser with JavaScript, through
 * the server without). The server always checks it; each message next to its field, input kept.
 */
export function ZoneForm({
  id,
  defaults,
  countries,
  restOfWorld,
  lastResult,
}: {
  id: string;
  defaults: ZoneFormValues;
  countries: CountryChoice[];
  restOfWorld: boolean;
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    id,
    lastResult,
    constraint: getZodConstraint(zoneSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: defaults,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: zoneSchema }),
  });
  const text = (field: FieldMetadata<string | undefined>, label: string, hint?: string, lang?: string) => (
    <FieldFor field={field} label={label} hint={hint}>
      <input {...getInputProps(field, { type: "text" })} lang={lang} autoComplete="off" className={inputClass} />
    </FieldFor>
  );
  const sent = lastResult?.initialValue?.["countries[]"] ?? lastResult?.initialValue?.countries;
  const chosen = new Set(
    sent === undefined ? (defaults.countries ?? []) : (Array.isArray(sent) ? sent : [sent]).map(String),
  );
  return (
    <Form method="post" {...getFormProps(form)} className="mt-4 flex flex-col gap-6">
      <FormErrors errors={form.errors} />
      <AdminSection id="zone" look="panel" heading={t("adminZones.sections.zone")}>
        <div className="mt-3 flex flex-col gap-5">
          <div className="grid gap-5 sm:grid-cols-3">
            {text(fields.name_en, t("adminZones.fields.nameEn"), undefined, "en")}
            {text(fields.name_zh, t("adminZones.fields.nameZh"), undefined, "zh-Hant-HK")}
            {text(fields.sort_order, t("adminZones.fields.sortOrder"), t("adminZones.fields.sortOrderHint"))}
          </div>
          {restOfWorld ? (
            <p className="text-sm text-stone-700">{t("adminZones.restOfWorldHint")}</p>
          ) : (
            <CountryChecklist field={fields.countries} countries={countries} chosen={chosen} />
          )}
        </div>
      </AdminSection>
      {ZONE_CURRENCIES.map((key) => {
        const currency = key.toUpperCase();
        const bands = fields[`bands_${key}`];
        const rows = bands.getFieldList();
        return (
          <AdminSection key={key} id={`rate-${key}`} look="panel" heading={t("adminZones.sections.rate", { currency })}>
            <div className="mt-3 flex flex-col gap-4">
              {key !== "hkd" ? <p className="text-xs text-stone-500">{t("adminZones.fields.followsHkd")}</p> : null}
              <div className="grid gap-5 sm:grid-cols-2">
                {text(fields[`fee_${key}`], t("adminZones.fields.fee", { currency }))}
                {text(
                  fields[`free_above_${key}`],
                  t("adminZones.fields.freeAbove", { currency }),
                  t("adminZones.fields.freeAboveHint"),
                )}
              </div>
              <fieldset className="flex flex-col gap-3">
                <legend className="text-sm font-medium text-stone-800">{t("adminZones.fields.bands")}</legend>
                <p className="text-xs text-stone-500">{t("adminZones.fields.bandsHint")}</p>
                {rows.length > 0 ? (
                  <ul className="flex flex-col gap-3">
                    {rows.map((row, index) => {
                      const band = row.getFieldset();
                      const rowId = (name: string) => `band-${key}-${index}-${name}`;
                      return (
                        <li
                          key={row.key}
                          className="grid grid-cols-2 items-start gap-3 sm:grid-cols-[10rem_10rem_auto]"
                        >
                          <Field
                            label={t("adminZones.fields.upToGrams")}
                            htmlFor={rowId("grams")}
                            errors={band.max_grams.errors}
                            errorId={`${rowId("grams")}-error`}
                          >
                            <input
                              {...getInputProps(band.max_grams, { type: "text" })}
                              id={rowId("grams")}
                              inputMode="numeric"
                              className={inputClass}
                            />
                          </Field>
                          <Field
                            label={t("adminZones.fields.bandFee", { currency })}
                            htmlFor={rowId("fee")}
                            errors={band.fee.errors}
                            errorId={`${rowId("fee")}-error`}
                          >
                            <input
                              {...getInputProps(band.fee, { type: "text" })}
                              id={rowId("fee")}
                              inputMode="decimal"
                              className={inputClass}
                            />
                          </Field>
                          <button
                            type="submit"
                            {...form.remove.getButtonProps({ name: bands.name, index })}
                            className={`${smallButton} self-end justify-self-start sm:mt-6 sm:self-start`}
                            aria-label={t("adminZones.removeBandNamed", { currency, index: index + 1 })}
                          >
                            {t("adminZones.removeBand")}
                          </button>
                        </li>
                      );
                    })}
                  </ul>
                ) : null}
                <ErrorList id={bands.errorId} errors={bands.errors} />
                <div>
                  <button
                    type="submit"
                    {...form.insert.getButtonProps({ name: bands.name, defaultValue: { max_grams: "", fee: "" } })}
                    disabled={rows.length >= MAX_BANDS}
                    className={smallButton}
                  >
                    {t("adminZones.addBand", { currency })}
                  </button>
                </div>
              </fieldset>
            </div>
          </AdminSection>
        );
      })}
      <div>
        <StatusButton pendingText={t("auth.pending")}>{t("adminZones.save")}</StatusButton>
      </div>
    </Form>
  );
}
