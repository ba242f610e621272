import {
  type FieldMetadata,
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "react-router";
import { chosenZones, ShipZoneChoice } from "~/components/admin/ship-zone-choice";
import { buttonClass } from "~/components/ui/button";
import { Field, FieldFor, FormErrors, inputClass, StatusButton } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import type { ExchangeRates } from "~/lib/money";
import type { Problem } from "~/lib/problem";
import { useHydrated } from "~/lib/use-hydrated";
import {
  BROWSER_KEEPS_FILES_FIELD,
  type KeptImages,
  type ProductFormInput,
  type ProductFormValue,
  productSchema,
} from "~/schemas/product";
import { type BrandChoice, ProductBrandField } from "./product-brand-field";
import { ProductIdentifierFields } from "./product-identifier-fields";
import { imageColorOptions, ProductImages } from "./product-images";
import { ProductOptionGrid } from "./product-option-grid";
import { ProductPriceFields, ProductSaleFields } from "./product-price-fields";
import { ProductVariantRows } from "./product-variant-rows";

/*
 * The admin product editor, shared by /admin/products/new and /admin/products/edit/:id (the
 * shape of Epic Stack's note editor). Conform with the shared Zod schema: the browser checks
 * the fields as they are left and before sending; without JavaScript the server answers with
 * the same messages and the input kept. Colour rows and the image order change through Conform
 * list intents (in the browser, or through the server, which answers 200 and saves nothing).
 * A GBP/EUR/USD price left empty follows HKD (docs/decisions/020). With JavaScript the price
 * hints follow the HKD field, the total stock follows the colour rows and chosen images show a
 * preview.
 */

export interface ProductEditorProps {
  /** null for a new product. */
  productId: number | null;
  defaultValue: Partial<ProductFormInput>;
  /** The product's own images: storage key → address. */
  imageUrls: Record<string, string>;
  categories: { id: number; name_en: string; name_zh: string }[];
  /** The managed brands (docs/decisions/052). */
  brands?: BrandChoice[];
  /** The shipping zones it can be limited to, and those it is (docs/decisions/049). */
  zones?: { id: number; name_en: string; name_zh: string }[];
  zoneIds?: number[];
  /** The shop's rates today, for the hints of the prices that follow HKD. */
  rates: ExchangeRates;
  lastResult: SubmissionResult<string[]> | undefined;
  problem: Problem | null;
  /** New images the last answer kept on the server (a page without JavaScript). */
  kept?: KeptImages;
}

type TextField = FieldMetadata<string | undefined, ProductFormInput, string[]>;

export function ProductEditor({
  productId,
  defaultValue,
  imageUrls,
  categories,
  brands = [],
  zones = [],
  zoneIds = [],
  rates,
  lastResult,
  problem,
  kept,
}: ProductEditorProps) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [form, fields] = useForm<ProductFormInput, ProductFormValue>({
    // The ids of the fields are "product-<name>" (labels, error ids and the e2e specs use them).
    id: "product",
    defaultValue,
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: productSchema }),
  });
  // A refusal about the whole form (or the images, with its parameters) shows at the top; any
  // other failed submission asks to correct the fields, whose messages stand next to them.
  const topProblem =
    problem && (!problem.field || problem.field === "newImages")
      ? problem
      : form.status === "error"
        ? { key: "adminProductForm.errors.fixErrors" }
        : null;

  const textField = (field: TextField, label: string) => (
    <Field label={label} htmlFor={field.id} errors={field.errors} errorId={field.errorId}>
      <input {...getInputProps(field, { type: "text" })} className={inputClass} />
    </Field>
  );
  const areaField = (field: TextField, label: string) => (
    <Field label={label} htmlFor={field.id} errors={field.errors} errorId={field.errorId}>
      <textarea {...getTextareaProps(field)} rows={5} className={inputClass} />
    </Field>
  );

  return (
    <div className="max-w-4xl">
      <div className="flex items-center justify-between gap-4">
        <h1 className="text-2xl font-bold">
          {t(productId === null ? "adminProductForm.newTitle" : "adminProductForm.editTitle")}
        </h1>
        <Link to="/admin/products" className="text-sm font-medium text-brand-700 hover:underline">
          {t("adminProductForm.back")}
        </Link>
      </div>
      <Form
        method="post"
        encType="multipart/form-data"
        {...getFormProps(form)}
        className="mt-6 flex flex-col gap-6 rounded-lg bg-white p-6 shadow-sm"
      >
        {/* Enter in a text field saves: the first submit button of a form is its default. */}
        <button type="submit" className="sr-only" tabIndex={-1}>
          {t("adminProductForm.save")}
        </button>
        {/* The browser keeps the chosen files itself: the server need not (app/models/products/staged-images.server.ts). */}
        {hydrated ? <input type="hidden" name={BROWSER_KEEPS_FILES_FIELD} value="1" /> : null}
        {topProblem ? <FormErrors errors={[topProblem.key]} params={problem?.params} /> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          {textField(fields.name_en, t("adminProductForm.nameEn"))}
          {textField(fields.name_zh, t("adminProductForm.nameZh"))}
          {areaField(fields.description_en, t("adminProductForm.descriptionEn"))}
          {areaField(fields.description_zh, t("adminProductForm.descriptionZh"))}
        </div>
        <ProductPriceFields fields={fields} rates={rates} />
        <ProductSaleFields fields={fields} rates={rates} />
        {/* A row of its own: its hint and message would push the category's row out of line. */}
        <div className="grid gap-4 sm:grid-cols-2">
          <FieldFor
            field={fields.weight_grams}
            label={t("adminProductForm.weight")}
            hint={t("adminProductForm.weightHint")}
          >
            <input
              {...getInputProps(fields.weight_grams, { type: "text" })}
              inputMode="numeric"
              className={inputClass}
            />
          </FieldFor>
        </div>
        <ProductIdentifierFields fields={fields} />
        <div className="grid gap-4 sm:grid-cols-2 sm:items-end">
          <FieldFor field={fields.category_id} label={t("adminProductForm.category")}>
            <select {...getSelectProps(fields.category_id)} className={inputClass}>
              <option value="">{t("adminProductForm.noCategory")}</option>
              {categories.map((category) => (
                <option key={category.id} value={String(category.id)}>
                  {category.name_en} / {category.name_zh}
                </option>
              ))}
            </select>
          </FieldFor>
          <ProductBrandField field={fields.brand_id} brands={brands} />
          <label className="flex items-center gap-2 text-sm font-medium text-stone-800">
            <input {...getInputProps(fields.is_featured, { type: "checkbox" })} className="size-4" />
            {t("adminProductForm.featured")}
          </label>
          <label className="flex items-center gap-2 text-sm font-medium text-stone-800">
            <input {...getInputProps(fields.adult_only, { type: "checkbox" })} className="size-4" />
            {t("adminProductForm.adultOnly")}
          </label>
          <ShipZoneChoice
            legend={t("adminProductForm.shipZones")}
            hint={t("adminProductForm.shipZonesHint")}
            zones={zones}
            chosen={chosenZones(lastResult, zoneIds)}
          />
        </div>

        <ProductVariantRows
          form={form}
          stock={fields.stock}
          sku={fields.sku}
          variants={fields.variants}
          hasOption={fields.option_values.getFieldList().length > 0}
        />
        <ProductOptionGrid form={form} fields={fields} />
        <ProductImages
          form={form}
          images={fields.images}
          newImageErrors={form.allErrors.newImages}
          urls={imageUrls}
          colors={imageColorOptions(fields.variants.getFieldList().map((row) => row.initialValue))}
          problemParams={problem?.params}
          kept={kept}
        />

        <div className="flex justify-end gap-3">
          <Link to="/admin/products" className={buttonClass("secondary", "sm")}>
            {t("adminProductForm.cancel")}
          </Link>
          <StatusButton pendingText={t("adminProductForm.saving")}>{t("adminProductForm.save")}</StatusButton>
        </div>
      </Form>
    </div>
  );
}
