import { type FieldMetadata, type FormMetadata, getInputProps } from "@conform-to/react";
import { type InputHTMLAttributes, useEffect, useRef, useState } from "react";
import { buttonClass } from "~/components/ui/button";
import { ErrorList, Field, inputClass } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import { MAX_VARIANTS, type ProductFormInput } from "~/schemas/product";

type Variant = NonNullable<ProductFormInput["variants"]>[number];

/** The sum of stock fields as the server reads them (a field that is not a whole number counts 0). */
/** The sum of the stock fields that hold a whole number (a repeated field arrives as a list: not one). */
function sumStock(values: unknown[]): number {
  return values.reduce<number>(
    (sum, value) => sum + (typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : 0),
    0,
  );
}

function stockOfForm(form: FormData): number {
  const rows = [...form.entries()]
    .filter(([name, value]) => /^(?:variants|cells)\[\d+\]\.stock$/.test(name) && typeof value === "string")
    .map(([, value]) => String(value));
  if (rows.length > 0) return sumStock(rows);
  const plain = form.get("stock");
  return typeof plain === "string" ? sumStock([plain]) : 0;
}

/**
 * "Total stock": as rendered by the server (the saved or last submitted rows), then, with
 * JavaScript, the sum of the stock fields of its form as they are typed and as rows come and go.
 */
export function StockTotal({ initial }: { initial: number }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLParagraphElement>(null);
  const [total, setTotal] = useState(initial);
  // After every render (a row added or removed) and on every input, read the form as it is.
  useEffect(() => {
    const form = ref.current?.closest("form");
    if (!form) return;
    const update = () => setTotal(stockOfForm(new FormData(form)));
    update();
    form.addEventListener("input", update);
    return () => form.removeEventListener("input", update);
  });
  return (
    <p ref={ref} className="text-sm text-stone-700" aria-live="polite">
      {t("adminProductForm.totalStock", { count: total })}
    </p>
  );
}

const smallButton = buttonClass("secondary", "sm");

/**
 * One input of a colour row with its label and errors, under the row's own ids
 * (`variant-{index}-{name}`); `describedBy` names its hint while it has no errors.
 */
export function RowField({
  id,
  field,
  label,
  type = "text",
  describedBy,
  ...props
}: {
  id: string;
  field: FieldMetadata<string | undefined>;
  label: string;
  type?: "text" | "number";
  describedBy?: string;
} & Pick<InputHTMLAttributes<HTMLInputElement>, "lang" | "defaultValue" | "min" | "step">) {
  return (
    <Field label={label} htmlFor={id} errors={field.errors} errorId={`${id}-error`}>
      <input
        {...getInputProps(field, { type })}
        {...props}
        id={id}
        aria-describedby={field.errors ? `${id}-error` : describedBy}
        className={inputClass}
      />
    </Field>
  );
}

/** The next key for a new row of a list: one past the highest "n…" key it has (the grid's cells refer to rows by key). */
export function nextRowKey(keys: (string | undefined)[]): string {
  const numbers = keys.map((key) => /^n(\d+)$/.exec(key ?? "")?.[1]).filter((n) => n !== undefined);
  return `n${Math.max(0, ...numbers.map(Number)) + 1}`;
}

/**
 * The colour rows (Conform list intents add and remove them: in the browser with JavaScript,
 * through the server without) or, for a product without colours, the plain Stock and SKU fields.
 * The first colour added takes the plain Stock field's value as its stock. With a second option
 * (`hasOption`) the rows hold only the colours' names: the grid holds stock and SKU.
 */
export function ProductVariantRows({
  form,
  stock,
  sku,
  variants,
  hasOption,
}: {
  form: FormMetadata<ProductFormInput, string[]>;
  stock: FieldMetadata<string | undefined, ProductFormInput, string[]>;
  sku: FieldMetadata<string | undefined, ProductFormInput, string[]>;
  variants: FieldMetadata<Variant[] | undefined, ProductFormInput, string[]>;
  hasOption: boolean;
}) {
  const { t } = useTranslation();
  const rows = variants.getFieldList();
  // Conform leaves empty fields out of its values: a missing value is an empty field.
  const plainStock = stock.value ?? stock.initialValue ?? "";
  /** A row's stock as first shown: the first row, added without one, takes the plain Stock field's. */
  const rowStock = (value: string | undefined, index: number) => value ?? (index === 0 ? plainStock : "");
  const initialTotal =
    rows.length > 0
      ? sumStock(rows.map((row, index) => rowStock(row.getFieldset().stock.initialValue, index)))
      : sumStock([plainStock]);
  const key = nextRowKey(rows.map((row) => row.getFieldset().key.value ?? row.getFieldset().key.initialValue));
  const insert = form.insert.getButtonProps({
    name: variants.name,
    defaultValue:
      rows.length === 0 || hasOption ? { key, color: "", color_zh: "" } : { key, color: "", color_zh: "", stock: "0" },
  });

  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="text-lg font-semibold">{t("adminProductForm.variants")}</legend>
      {rows.length === 0 ? (
        hasOption ? null : (
          <div className="grid max-w-lg gap-3 sm:grid-cols-2">
            <Field
              label={t("adminProductForm.stock")}
              htmlFor={stock.id}
              hint={t("adminProductForm.stockHint")}
              errors={stock.errors}
              errorId={stock.errorId}
            >
              <input {...getInputProps(stock, { type: "text" })} className={inputClass} />
            </Field>
            <Field
              label={t("adminProductForm.sku")}
              htmlFor={sku.id}
              hint={t("adminProductForm.skuHint")}
              errors={sku.errors}
              errorId={sku.errorId}
            >
              <input {...getInputProps(sku, { type: "text" })} className={inputClass} />
            </Field>
          </div>
        )
      ) : (
        <ul className="flex flex-col gap-4">
          {rows.map((row, index) => {
            const { key: rowKey, color, color_zh, stock: rowStockField, sku: rowSku } = row.getFieldset();
            const id = (name: string) => `variant-${index}-${name}`;
            return (
              <li
                key={row.key}
                className={`grid grid-cols-2 items-start gap-3 border-b border-stone-200 pb-4 last:border-0 last:pb-0 sm:border-0 sm:pb-0 ${hasOption ? "sm:grid-cols-[1fr_1fr_auto]" : "sm:grid-cols-[1fr_1fr_7rem_9rem_auto]"}`}
              >
                <input type="hidden" name={rowKey.name} value={rowKey.value ?? rowKey.initialValue ?? ""} />
                <RowField id={id("color")} field={color} label={t("adminProductForm.color")} />
                <RowField
                  id={id("color_zh")}
                  field={color_zh}
                  label={t("adminProductForm.colorZh")}
                  lang="zh-Hant-HK"
                  describedBy="variant-zh-hint"
                />
                {hasOption ? null : (
                  <>
                    <RowField
                      id={id("stock")}
                      field={rowStockField}
                      label={t("adminProductForm.stock")}
                      type="number"
                      defaultValue={rowStock(rowStockField.initialValue, index)}
                      min={0}
                      step={1}
                    />
                    <RowField id={id("sku")} field={rowSku} label={t("adminProductForm.sku")} describedBy="sku-hint" />
                  </>
                )}
                <button
                  type="submit"
                  {...form.remove.getButtonProps({ name: variants.name, index })}
                  className={`${smallButton} self-end sm:mt-6 sm:self-start`}
                >
                  {t("adminProductForm.removeVariant")}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {rows.length > 0 ? (
        <p id="variant-zh-hint" className="text-xs text-stone-600">
          {t("adminProductForm.colorZhHint")}
        </p>
      ) : null}
      {rows.length > 0 && !hasOption ? (
        <p id="sku-hint" className="text-xs text-stone-600">
          {t("adminProductForm.skuHint")}
        </p>
      ) : null}
      <ErrorList errors={variants.errors} />
      <div className="flex items-center gap-4">
        <button type="submit" {...insert} disabled={rows.length >= MAX_VARIANTS} className={smallButton}>
          {t("adminProductForm.addVariant")}
        </button>
        {hasOption ? null : <StockTotal initial={initialTotal} />}
      </div>
    </fieldset>
  );
}
