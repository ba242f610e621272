import {
  type FieldMetadata,
  getCollectionProps,
  getFormProps,
  getInputProps,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { AdminSection } from "~/components/admin/admin-section";
import { CheckboxField } from "~/components/admin/checkbox-field";
import { ErrorList, FieldFor, FormErrors, inputClass, StatusButton } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import { DISCOUNT_KINDS, DISCOUNT_SCOPES, discountFieldsSchema, discountSchema } from "~/schemas/discount";

const CURRENCIES = ["hkd", "gbp", "eur", "usd"] as const;

type MoneyFields = `${"amount" | "min"}_${(typeof CURRENCIES)[number]}`;

/** The form's values, as text (a saved code's, or a new code's). */
export type DiscountFormValues = {
  [K in
    | "code"
    | "kind"
    | "percent"
    | "free_shipping"
    | MoneyFields
    | "starts_at"
    | "ends_at"
    | "max_uses"
    | "max_uses_per_customer"
    | "applies_to"
    | "products"
    | "active"]?: string;
} & { categories?: string[] };

/** A category to choose, in the reader's language. */
export interface CategoryChoice {
  id: number;
  name: string;
}

function RadioGroup({
  field,
  legend,
  options,
}: {
  field: FieldMetadata<string | undefined>;
  legend: string;
  options: Array<{ value: string; label: string }>;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-stone-800">{legend}</legend>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:gap-x-6">
        {getCollectionProps(field, { type: "radio", options: options.map((o) => o.value) }).map(({ key, ...props }) => (
          <label key={key} className="flex items-center gap-2 text-sm text-stone-800">
            <input {...props} className="size-4" />
            {options.find((o) => o.value === props.value)?.label}
          </label>
        ))}
      </div>
      <ErrorList id={field.errorId} errors={field.errors} />
    </fieldset>
  );
}

/**
 * The one editor of a discount code (Admin → Discounts, docs/decisions/048): code and kind, the
 * amounts per currency, minimum spend, dates in Hong Kong time, limits, what it is for, active.
 * Conform checks it in the browser when JavaScript runs; the server always checks it (a code
 * taken, a product that does not exist), each message next to its field, the input kept.
 */
export function DiscountForm({
  id,
  defaults,
  categories,
  lastResult,
}: {
  id: string;
  defaults: DiscountFormValues;
  categories: CategoryChoice[];
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    id,
    lastResult,
    constraint: getZodConstraint(discountFieldsSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: defaults,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: discountSchema }),
  });
  const text = (
    name: Exclude<keyof DiscountFormValues, "categories">,
    label: string,
    options: { hint?: string; type?: string } = {},
  ) => {
    const field = fields[name] as FieldMetadata<string | undefined>;
    return (
      <FieldFor field={field} label={label} hint={options.hint}>
        <input
          {...getInputProps(field, { type: (options.type ?? "text") as "text" })}
          autoComplete="off"
          className={inputClass}
        />
      </FieldFor>
    );
  };
  return (
    <Form method="post" {...getFormProps(form)} className="mt-4 flex flex-col gap-6">
      <FormErrors errors={form.errors} />
      <AdminSection id="code" look="panel" heading={t("adminDiscounts.sections.code")}>
        <div className="mt-3 flex flex-col gap-5">
          <div className="grid gap-5 sm:grid-cols-2">
            {text("code", t("adminDiscounts.fields.code"), { hint: t("adminDiscounts.fields.codeHint") })}
          </div>
          <RadioGroup
            field={fields.kind}
            legend={t("adminDiscounts.fields.kind")}
            options={DISCOUNT_KINDS.map((kind) => ({ value: kind, label: t(`adminDiscounts.fields.kinds.${kind}`) }))}
          />
          <div className="grid gap-5 sm:grid-cols-2">
            {text("percent", t("adminDiscounts.fields.percent"), { hint: t("adminDiscounts.fields.percentHint") })}
          </div>
          <div>
            <div className="grid gap-5 sm:grid-cols-4">
              {CURRENCIES.map((currency) => (
                <div key={currency}>
                  {text(`amount_${currency}`, t("adminDiscounts.fields.amount", { currency: currency.toUpperCase() }))}
                </div>
              ))}
            </div>
            <p className="mt-1 text-xs text-stone-500">{t("adminDiscounts.fields.amountHint")}</p>
          </div>
          <CheckboxField field={fields.free_shipping} label={t("adminDiscounts.fields.freeShipping")} hint="" />
          <CheckboxField
            field={fields.active}
            label={t("adminDiscounts.fields.active")}
            hint={t("adminDiscounts.fields.activeHint")}
          />
        </div>
      </AdminSection>
      <AdminSection id="limits" look="panel" heading={t("adminDiscounts.sections.limits")}>
        <div className="mt-3 flex flex-col gap-5">
          <div>
            <div className="grid gap-5 sm:grid-cols-4">
              {CURRENCIES.map((currency) => (
                <div key={currency}>
                  {text(`min_${currency}`, t("adminDiscounts.fields.minimum", { currency: currency.toUpperCase() }))}
                </div>
              ))}
            </div>
            <p className="mt-1 text-xs text-stone-500">{t("adminDiscounts.fields.minimumHint")}</p>
          </div>
          <div className="grid gap-5 sm:grid-cols-2">
            {text("starts_at", t("adminDiscounts.fields.startsAt"), {
              type: "datetime-local",
              hint: t("adminDiscounts.fields.datesHint"),
            })}
            {text("ends_at", t("adminDiscounts.fields.endsAt"), { type: "datetime-local" })}
            {text("max_uses", t("adminDiscounts.fields.maxUses"), { hint: t("adminDiscounts.fields.maxUsesHint") })}
            {text("max_uses_per_customer", t("adminDiscounts.fields.maxUsesPerCustomer"), {
              hint: t("adminDiscounts.fields.maxUsesPerCustomerHint"),
            })}
          </div>
        </div>
      </AdminSection>
      <AdminSection id="scope" look="panel" heading={t("adminDiscounts.sections.scope")}>
        <div className="mt-3 flex flex-col gap-5">
          <RadioGroup
            field={fields.applies_to}
            legend={t("adminDiscounts.fields.appliesTo")}
            options={DISCOUNT_SCOPES.map((scope) => ({
              value: scope,
              label: t(`adminDiscounts.fields.scopes.${scope}`),
            }))}
          />
          {categories.length > 0 ? (
            <fieldset>
              <legend className="text-sm font-medium text-stone-800">{t("adminDiscounts.fields.categories")}</legend>
              <div className="mt-2 grid gap-x-6 gap-y-2 sm:grid-cols-3">
                {getCollectionProps(fields.categories, {
                  type: "checkbox",
                  options: categories.map((category) => String(category.id)),
                }).map(({ key, ...props }) => (
                  <label key={key} className="flex items-center gap-2 text-sm text-stone-800">
                    <input {...props} name={`${fields.categories.name}[]`} className="size-4" />
                    {categories.find((category) => String(category.id) === props.value)?.name}
                  </label>
                ))}
              </div>
              <ErrorList id={fields.categories.errorId} errors={fields.categories.errors} />
            </fieldset>
          ) : null}
          {text("products", t("adminDiscounts.fields.products"), { hint: t("adminDiscounts.fields.productsHint") })}
        </div>
      </AdminSection>
      <div>
        <StatusButton pendingText={t("auth.pending")}>{t("adminDiscounts.save")}</StatusButton>
      </div>
    </Form>
  );
}
