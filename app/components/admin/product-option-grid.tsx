import type { FormMetadata } from "@conform-to/react";
import { getInputProps } from "@conform-to/react";
import { buttonClass } from "~/components/ui/button";
import { ErrorList, Field, inputClass } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import { MAX_OPTION_VALUES, type ProductFormInput } from "~/schemas/product";
import { nextRowKey, RowField, StockTotal } from "./product-variant-rows";

type Fields = ReturnType<FormMetadata<ProductFormInput, string[]>["getFieldset"]>;
type Cell = NonNullable<ProductFormInput["cells"]>[number];

const smallButton = buttonClass("secondary", "sm");

/** A value as the form has it now: what was typed (with JavaScript), else what the page was rendered with. */
function current<T>(field: { value?: unknown; initialValue?: unknown }): T | undefined {
  return (field.value ?? field.initialValue) as T | undefined;
}

/**
 * The second option (docs/decisions/054): its name in both languages, its values (added and
 * removed with Conform list intents, with or without JavaScript) and, once it has values, the grid
 * of variants — a stock and a SKU field for each colour × value. Each cell names its colour row
 * and value by their keys, so renaming a colour or a value keeps what its cells hold.
 */
export function ProductOptionGrid({
  form,
  fields,
}: {
  form: FormMetadata<ProductFormInput, string[]>;
  fields: Fields;
}) {
  const { t } = useTranslation();
  const values = fields.option_values.getFieldList();
  const colours = fields.variants.getFieldList();
  const cellList = fields.cells.getFieldList();
  const valueKeys = values.map((row) => current<string>(row.getFieldset().key) ?? "");
  const insertValue = form.insert.getButtonProps({
    name: fields.option_values.name,
    defaultValue: { key: nextRowKey(valueKeys), value: "", value_zh: "" },
  });
  // What each cell held when the page was made (or as sent back by a list intent), by its colour and value keys.
  const held = new Map(
    (current<Cell[]>(fields.cells) ?? []).map((cell) => [`${cell?.color ?? ""}|${cell?.value ?? ""}`, cell]),
  );
  const colourRows =
    colours.length > 0
      ? colours.map((row, index) => {
          const set = row.getFieldset();
          return {
            key: current<string>(set.key) ?? "",
            reactKey: row.key ?? String(index),
            label: current<string>(set.color) || t("adminProductForm.colorUnnamed", { number: index + 1 }),
            // The first value of a colour that had stock of its own starts with it.
            stock: current<string>(set.stock),
            sku: current<string>(set.sku),
          };
        })
      : [
          {
            key: "",
            reactKey: "default",
            label: t("adminProductForm.gridAllColours"),
            stock: undefined,
            sku: undefined,
          },
        ];
  let position = 0;
  let total = 0;

  return (
    <fieldset className="flex min-w-0 flex-col gap-3">
      <legend className="text-lg font-semibold">{t("adminProductForm.option")}</legend>
      <p className="text-sm text-stone-600">{t("adminProductForm.optionHint")}</p>
      <div className="grid max-w-lg gap-3 sm:grid-cols-2">
        <Field
          label={t("adminProductForm.optionName")}
          htmlFor={fields.option_name.id}
          errors={fields.option_name.errors}
          errorId={fields.option_name.errorId}
        >
          <input
            {...getInputProps(fields.option_name, { type: "text" })}
            placeholder={t("adminProductForm.optionNamePlaceholder")}
            className={inputClass}
          />
        </Field>
        <Field
          label={t("adminProductForm.optionNameZh")}
          htmlFor={fields.option_name_zh.id}
          errors={fields.option_name_zh.errors}
          errorId={fields.option_name_zh.errorId}
        >
          <input {...getInputProps(fields.option_name_zh, { type: "text" })} lang="zh-Hant-HK" className={inputClass} />
        </Field>
      </div>
      {values.length > 0 ? (
        <ul className="flex flex-col gap-3" aria-label={t("adminProductForm.optionValues")}>
          {values.map((row, index) => {
            const { key, value, value_zh } = row.getFieldset();
            const id = (name: string) => `option-value-${index}-${name}`;
            return (
              <li key={row.key} className="grid grid-cols-2 items-start gap-3 sm:grid-cols-[12rem_12rem_auto]">
                <input type="hidden" name={key.name} value={current<string>(key) ?? ""} />
                <RowField id={id("value")} field={value} label={t("adminProductForm.optionValue")} />
                <RowField
                  id={id("value_zh")}
                  field={value_zh}
                  label={t("adminProductForm.optionValueZh")}
                  lang="zh-Hant-HK"
                />
                <button
                  type="submit"
                  {...form.remove.getButtonProps({ name: fields.option_values.name, index })}
                  className={`${smallButton} self-end sm:mt-6 sm:self-start`}
                >
                  {t("adminProductForm.removeOptionValue")}
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
      <ErrorList errors={fields.option_values.errors} />
      <div>
        <button type="submit" {...insertValue} disabled={values.length >= MAX_OPTION_VALUES} className={smallButton}>
          {t("adminProductForm.addOptionValue")}
        </button>
      </div>
      {values.length > 0 ? (
        <div className="flex flex-col gap-2">
          <div className="relative overflow-x-auto">
            <table className="min-w-full border-collapse text-sm" data-variant-grid>
              <caption className="mb-2 text-left font-medium">{t("adminProductForm.variantGrid")}</caption>
              <thead>
                <tr>
                  <th scope="col" className="p-2 text-left">
                    {t("adminProductForm.color")}
                  </th>
                  {values.map((row, index) => (
                    <th key={row.key} scope="col" className="p-2 text-left">
                      {current<string>(row.getFieldset().value) ||
                        t("adminProductForm.valueUnnamed", { number: index + 1 })}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {colourRows.map((colour) => (
                  <tr key={colour.reactKey} className="border-t border-stone-200 align-top">
                    <th scope="row" className="p-2 text-left font-medium">
                      {colour.label}
                    </th>
                    {values.map((valueRow, valueIndex) => {
                      const valueKey = valueKeys[valueIndex] ?? "";
                      const index = position++;
                      const cell = held.get(`${colour.key}|${valueKey}`);
                      const errors = cellList[index]?.getFieldset();
                      const stockId = `cell-${index}-stock`;
                      const skuId = `cell-${index}-sku`;
                      const valueLabel = current<string>(valueRow.getFieldset().value) ?? "";
                      const stock = cell?.stock ?? (valueIndex === 0 ? (colour.stock ?? "0") : "0");
                      total += /^\d+$/.test(String(stock).trim()) ? Number(stock) : 0;
                      return (
                        <td key={`${colour.reactKey}|${valueRow.key}`} className="min-w-36 p-2">
                          <input type="hidden" name={`cells[${index}].color`} value={colour.key} />
                          <input type="hidden" name={`cells[${index}].value`} value={valueKey} />
                          <label htmlFor={stockId} className="sr-only">
                            {t("adminProductForm.cellStock", { color: colour.label, value: valueLabel })}
                          </label>
                          <input
                            id={stockId}
                            name={`cells[${index}].stock`}
                            type="number"
                            min={0}
                            step={1}
                            defaultValue={stock}
                            aria-invalid={errors?.stock.errors ? true : undefined}
                            aria-describedby={errors?.stock.errors ? `${stockId}-error` : undefined}
                            placeholder={t("adminProductForm.stock")}
                            className={inputClass}
                          />
                          <ErrorList id={`${stockId}-error`} errors={errors?.stock.errors} />
                          <label htmlFor={skuId} className="sr-only">
                            {t("adminProductForm.cellSku", { color: colour.label, value: valueLabel })}
                          </label>
                          <input
                            id={skuId}
                            name={`cells[${index}].sku`}
                            type="text"
                            defaultValue={cell?.sku ?? (valueIndex === 0 ? (colour.sku ?? "") : "")}
                            aria-invalid={errors?.sku.errors ? true : undefined}
                            aria-describedby={errors?.sku.errors ? `${skuId}-error` : "sku-grid-hint"}
                            placeholder={t("adminProductForm.sku")}
                            className={`${inputClass} mt-1 font-mono text-xs`}
                          />
                          <ErrorList id={`${skuId}-error`} errors={errors?.sku.errors} />
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p id="sku-grid-hint" className="text-xs text-stone-600">
            {t("adminProductForm.skuHint")}
          </p>
          <StockTotal initial={total} />
        </div>
      ) : null}
    </fieldset>
  );
}
