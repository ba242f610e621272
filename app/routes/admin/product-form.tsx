import { parseWithZod } from "@conform-to/zod/v4";
import { type ChangeEvent, useEffect, useRef, useState } from "react";
import {
  type ActionFunctionArgs,
  data,
  Form,
  Link,
  type LoaderFunctionArgs,
  redirect,
  useActionData,
  useLoaderData,
} from "react-router";
import { ErrorList, Field, FormErrors, inputClass, StatusButton } from "~/components/ui/field";
import { services } from "~/context";
import { requireAdmin } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { useTranslation } from "~/lib/i18n";
import { BodyTooLargeError, IMAGE_PRESETS, ImageError, readFormData } from "~/lib/images.server";
import {
  convertFromHkd,
  DERIVED_CURRENCIES,
  type DerivedCurrency,
  type ExchangeRates,
  formatMoney,
  rateToText,
} from "~/lib/money";
import { publicUrl } from "~/lib/storage.server";
import { translateKey } from "~/lib/translate-key";
import { getInstance } from "~/middleware/i18next";
import { createProduct, findProductForEdit, type ProductForEdit, updateProduct } from "~/models/products/editor.server";
import { getShop } from "~/models/shop.server";
import { centsToText, MAX_PRODUCT_IMAGES, MAX_VARIANTS, parseCents, productSchema } from "~/schemas/product";

/*
 * The admin product form at /admin/products/new and /admin/products/edit/:id. It works as
 * plain HTML: colour rows and the image order change through submit buttons named "intent"
 * that re-render the form with what was typed (nothing is saved until intent=save).
 * A GBP/EUR/USD price left empty follows HKD (docs/decisions/020): the form shows it empty with
 * today's derived amount as its hint; a typed one is fixed. With JavaScript the hints follow the
 * HKD field, the total stock follows the colour rows and chosen images show a preview.
 */

/** Five product images at most, plus room for the other fields and the multipart envelope. */
const BODY_LIMIT = MAX_PRODUCT_IMAGES * IMAGE_PRESETS.product.maxBytes + 1024 * 1024;

/** The form's values as typed (text), so they can be shown again unchanged. */
export interface ProductDraft {
  name_en: string;
  name_zh: string;
  description_en: string;
  description_zh: string;
  price_hkd: string;
  price_gbp: string;
  price_eur: string;
  price_usd: string;
  category_id: string;
  is_featured: boolean;
  stock: string;
  variants: { color: string; color_zh: string; stock: string }[];
  images: { key: string; url: string }[];
}

interface FormProblem {
  key: string;
  params?: Record<string, string | number>;
}

export interface ProductFormActionData {
  draft: ProductDraft;
  errors: Record<string, string[]>;
  problem: FormProblem | null;
  revision: string;
}

function parseId(params: Record<string, string | undefined>): number | null {
  if (params.id === undefined) return null;
  if (!/^\d{1,9}$/.test(params.id)) throw data(null, { status: 404 });
  return Number(params.id);
}

async function loadExisting(context: LoaderFunctionArgs["context"], id: number | null): Promise<ProductForEdit | null> {
  if (id === null) return null;
  const existing = await findProductForEdit(services(context).db, id);
  if (!existing) throw data(null, { status: 404 });
  return existing;
}

function imageEntries(keys: string[]): ProductDraft["images"] {
  return keys.map((key) => ({ key, url: publicUrl(key) ?? "" }));
}

function draftFromProduct(existing: ProductForEdit | null): ProductDraft {
  if (!existing) {
    return {
      name_en: "",
      name_zh: "",
      description_en: "",
      description_zh: "",
      price_hkd: "",
      price_gbp: "",
      price_eur: "",
      price_usd: "",
      category_id: "",
      is_featured: false,
      stock: "0",
      variants: [],
      images: [],
    };
  }
  const { product, variants, images } = existing;
  // A derived price shows as an empty field (its amount is the hint), so saving keeps it derived.
  const price = (cents: number, derived: number) => (derived === 1 ? "" : centsToText(cents));
  const onlyDefault = variants.length === 1 && variants[0]?.color === "Default";
  return {
    name_en: product.name_en,
    name_zh: product.name_zh,
    description_en: product.description_en,
    description_zh: product.description_zh,
    price_hkd: centsToText(product.price_hkd_cents),
    price_gbp: price(product.price_gbp_cents, product.price_gbp_derived),
    price_eur: price(product.price_eur_cents, product.price_eur_derived),
    price_usd: price(product.price_usd_cents, product.price_usd_derived),
    category_id: product.category_id === null ? "" : String(product.category_id),
    is_featured: product.is_featured === 1,
    stock: onlyDefault ? String(variants[0]?.stock ?? 0) : "0",
    variants: onlyDefault
      ? []
      : variants.map((variant) => ({
          color: variant.color,
          color_zh: variant.color_zh ?? "",
          stock: String(variant.stock),
        })),
    images: imageEntries(images),
  };
}

function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value.slice(0, 20_000) : "";
}

/** The typed values from a submitted form; image keys are limited to the product's own. */
function readDraft(form: FormData, knownImages: string[]): ProductDraft {
  const variants: ProductDraft["variants"] = [];
  for (let index = 0; index < MAX_VARIANTS; index++) {
    if (!form.has(`variants[${index}].color`) && !form.has(`variants[${index}].stock`)) continue;
    variants.push({
      color: text(form, `variants[${index}].color`),
      color_zh: text(form, `variants[${index}].color_zh`),
      stock: text(form, `variants[${index}].stock`),
    });
  }
  const known = new Set(knownImages);
  const keys: string[] = [];
  for (let index = 0; index < MAX_PRODUCT_IMAGES; index++) {
    const key = text(form, `images[${index}]`);
    if (known.has(key) && !keys.includes(key)) keys.push(key);
  }
  return {
    name_en: text(form, "name_en"),
    name_zh: text(form, "name_zh"),
    description_en: text(form, "description_en"),
    description_zh: text(form, "description_zh"),
    price_hkd: text(form, "price_hkd"),
    price_gbp: text(form, "price_gbp"),
    price_eur: text(form, "price_eur"),
    price_usd: text(form, "price_usd"),
    category_id: text(form, "category_id"),
    is_featured: form.get("is_featured") === "on",
    stock: text(form, "stock") || "0",
    variants,
    images: imageEntries(keys),
  };
}

/** Applies a layout intent (add/remove colour, move/remove image); null if it is not one. */
function applyIntent(draft: ProductDraft, intent: string): ProductDraft | null {
  if (intent === "add-variant") {
    if (draft.variants.length >= MAX_VARIANTS) return draft;
    const first = { color: "", color_zh: "", stock: draft.variants.length === 0 ? draft.stock : "0" };
    return { ...draft, variants: [...draft.variants, first] };
  }
  const remove = /^remove-variant-(\d+)$/.exec(intent);
  if (remove) {
    const index = Number(remove[1]);
    return { ...draft, variants: draft.variants.filter((_, i) => i !== index) };
  }
  const image = /^image-(up|down|remove)-(\d+)$/.exec(intent);
  if (image) {
    const index = Number(image[2]);
    const images = [...draft.images];
    const current = images[index];
    if (!current) return draft;
    if (image[1] === "remove") images.splice(index, 1);
    else {
      const target = image[1] === "up" ? index - 1 : index + 1;
      const other = images[target];
      if (!other) return draft;
      images[target] = current;
      images[index] = other;
    }
    return { ...draft, images };
  }
  return null;
}

async function listCategories(context: LoaderFunctionArgs["context"]) {
  return services(context)
    .db.selectFrom("categories")
    .select(["id", "name_en", "name_zh"])
    .orderBy("sort_order")
    .orderBy("name_en")
    .execute();
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  requireAdmin(context, request);
  const id = parseId(params);
  const existing = await loadExisting(context, id);
  const t = getInstance(context).t;
  return {
    id,
    draft: draftFromProduct(existing),
    categories: await listCategories(context),
    /** The shop's rates today, for the hints of the prices that follow HKD. */
    rates: (await getShop(context)).exchangeRates,
    title: `${t(id === null ? "adminProductForm.newTitle" : "adminProductForm.editTitle")} | ${t("admin.title")}`,
  };
}

function reply(
  draft: ProductDraft,
  status: number,
  errors: Record<string, string[]> = {},
  problem: FormProblem | null = null,
) {
  const body: ProductFormActionData = { draft, errors, problem, revision: crypto.randomUUID() };
  return data(body, { status });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const admin = requireAdmin(context, request);
  const { db, storage } = services(context);
  const id = parseId(params);
  const existing = await loadExisting(context, id);
  let form: FormData;
  try {
    form = await readFormData(request, BODY_LIMIT);
  } catch (error) {
    const draft = draftFromProduct(existing);
    if (error instanceof BodyTooLargeError) return reply(draft, 413, {}, { key: "errors.bodyTooLarge" });
    return reply(draft, 400, {}, { key: "adminProductForm.errors.uploadFailed" });
  }
  const draft = readDraft(form, existing?.images ?? []);
  const intent = text(form, "intent") || "save";
  if (intent !== "save") {
    const changed = applyIntent(draft, intent);
    return reply(changed ?? draft, changed ? 200 : 400);
  }

  const submission = parseWithZod(form, { schema: productSchema });
  const errors: Record<string, string[]> = {};
  if (submission.status !== "success") {
    for (const [name, list] of Object.entries(submission.error ?? {})) if (list?.length) errors[name] = list;
    return reply(draft, 400, errors, { key: "adminProductForm.errors.fixErrors" });
  }
  const value = submission.value;
  if (value.category_id !== null) {
    const category = await db
      .selectFrom("categories")
      .select("id")
      .where("id", "=", value.category_id)
      .executeTakeFirst();
    if (!category) {
      return reply(
        draft,
        400,
        { category_id: ["adminProductForm.errors.categoryInvalid"] },
        { key: "adminProductForm.errors.fixErrors" },
      );
    }
  }

  // No file chosen is an empty part without a name; an empty file the admin did choose is refused.
  const files = form
    .getAll("newImages")
    .filter((file): file is File => file instanceof File && (file.size > 0 || file.name !== ""));
  const keep = draft.images.map((image) => image.key);
  const free = MAX_PRODUCT_IMAGES - keep.length;
  const accepted = files.slice(0, Math.max(0, free));
  const skipped = files.length > accepted.length;
  const input = { ...value };
  try {
    if (id === null) {
      await createProduct(db, storage, input, accepted, admin.id);
    } else {
      const saved = await updateProduct(db, storage, id, input, { keep, newFiles: accepted }, admin.id);
      if (!saved) throw data(null, { status: 404 });
    }
  } catch (error) {
    if (!(error instanceof ImageError)) throw error;
    return reply(
      draft,
      error.code === "tooLarge" ? 413 : 400,
      { newImages: [error.messageKey] },
      { key: error.messageKey, params: error.params },
    );
  }
  setFlash(context, {
    type: "success",
    key: id === null ? "adminProductForm.created" : "adminProductForm.updated",
    ...(skipped ? { detailKey: "adminProductForm.imagesSkipped", params: { count: Math.max(0, free) } } : {}),
  });
  return redirect("/admin/products");
}

const buttonClass =
  "rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm font-medium text-stone-800 hover:bg-stone-50 disabled:opacity-50";

const PRICE_FIELDS = {
  GBP: { name: "price_gbp", label: "adminProductForm.priceGbp" },
  EUR: { name: "price_eur", label: "adminProductForm.priceEur" },
  USD: { name: "price_usd", label: "adminProductForm.priceUsd" },
} as const;

/** A price input with its label, hint (described by it) and errors. */
function PriceInput({
  name,
  label,
  defaultValue,
  placeholder,
  hint,
  errors,
  onValue,
}: {
  name: string;
  label: string;
  defaultValue: string;
  placeholder?: string;
  hint?: string;
  errors?: string[];
  onValue: (value: string) => void;
}) {
  const id = `product-${name}`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : null, errors ? errorId : null].filter(Boolean).join(" ");
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-stone-800">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="text"
        defaultValue={defaultValue}
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
 * HKD and the three prices that can follow it. An empty GBP/EUR/USD field follows HKD: its
 * placeholder and hint show today's derived amount, from the HKD field as typed (live with
 * JavaScript, as last submitted without); a typed one is fixed, and clearing it follows HKD again.
 */
function PriceFields({
  draft,
  errors,
  rates,
}: {
  draft: ProductDraft;
  errors: Record<string, string[]>;
  rates: ExchangeRates;
}) {
  const { t } = useTranslation();
  const [hkd, setHkd] = useState(draft.price_hkd);
  const [typed, setTyped] = useState<Record<DerivedCurrency, string>>({
    GBP: draft.price_gbp,
    EUR: draft.price_eur,
    USD: draft.price_usd,
  });
  const hkdCents = parseCents(hkd);
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <PriceInput
        name="price_hkd"
        label={t("adminProductForm.priceHkd")}
        defaultValue={draft.price_hkd}
        errors={errors.price_hkd}
        onValue={setHkd}
      />
      {DERIVED_CURRENCIES.map((currency) => {
        const { name, label } = PRICE_FIELDS[currency];
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
            name={name}
            label={t(label)}
            defaultValue={draft[name]}
            placeholder={derived === null ? undefined : `≈ ${centsToText(derived)}`}
            hint={hint}
            errors={errors[name]}
            onValue={(value) => setTyped((current) => ({ ...current, [currency]: value }))}
          />
        );
      })}
    </div>
  );
}

/** The sum of the stock fields as the server reads them: the colour rows', or the plain Stock field's. */
function sumStock(values: string[]): number {
  return values.reduce((sum, value) => sum + (/^\d+$/.test(value.trim()) ? Number(value) : 0), 0);
}

function stockOfForm(form: FormData): number {
  const rows = [...form.entries()]
    .filter(([name, value]) => /^variants\[\d+\]\.stock$/.test(name) && typeof value === "string")
    .map(([, value]) => String(value));
  if (rows.length > 0) return sumStock(rows);
  const plain = form.get("stock");
  return typeof plain === "string" ? sumStock([plain]) : 0;
}

/**
 * "Total stock": as rendered by the server (the saved or last submitted rows), then, with
 * JavaScript, the sum of the stock fields of its form as they are typed.
 */
function StockTotal({ initial }: { initial: number }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLParagraphElement>(null);
  const [total, setTotal] = useState(initial);
  useEffect(() => {
    const form = ref.current?.closest("form");
    if (!form) return;
    const update = () => setTotal(stockOfForm(new FormData(form)));
    update();
    form.addEventListener("input", update);
    return () => form.removeEventListener("input", update);
  }, []);
  return (
    <p ref={ref} className="text-sm text-stone-700" aria-live="polite">
      {t("adminProductForm.totalStock", { count: total })}
    </p>
  );
}

/**
 * The file input for new images; with JavaScript the chosen files show as thumbnails before
 * saving (object URLs, revoked when the choice changes or the form goes away).
 */
function NewImagesInput({ free, hint }: { free: number; hint: string }) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<{ url: string; name: string }[]>([]);
  useEffect(
    () => () => {
      for (const image of chosen) URL.revokeObjectURL(image.url);
    },
    [chosen],
  );
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.currentTarget.files ?? [])];
    setChosen(files.map((file) => ({ url: URL.createObjectURL(file), name: file.name })));
  };
  return (
    <Field label={t("adminProductForm.addImages")} htmlFor="product-newImages" hint={hint}>
      <input
        id="product-newImages"
        name="newImages"
        type="file"
        multiple
        accept="image/jpeg,image/png,image/webp"
        disabled={free <= 0}
        onChange={onChange}
        className="max-w-full text-sm"
      />
      {chosen.length > 0 ? (
        <div className="mt-1">
          <p className="text-sm text-stone-700">{t("adminProductForm.chosenImages")}</p>
          <ul className="mt-2 flex flex-wrap gap-2">
            {chosen.map((image, index) => (
              <li key={image.url}>
                <img
                  src={image.url}
                  alt={t("adminProductForm.chosenImageAlt", { number: index + 1, name: image.name })}
                  className="size-16 rounded border border-stone-200 object-cover"
                />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Field>
  );
}

export default function ProductForm() {
  const { t } = useTranslation();
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<ProductFormActionData>();
  const draft = actionData?.draft ?? loaderData.draft;
  const errors = actionData?.errors ?? {};
  const isNew = loaderData.id === null;
  const free = MAX_PRODUCT_IMAGES - draft.images.length;
  const totalStock = sumStock(
    draft.variants.length > 0 ? draft.variants.map((variant) => variant.stock) : [draft.stock],
  );
  const textField = (name: keyof ProductDraft, label: string, hint?: string) => (
    <Field
      label={label}
      htmlFor={`product-${name}`}
      hint={hint}
      errors={errors[name]}
      errorId={`product-${name}-error`}
    >
      <input
        id={`product-${name}`}
        name={name}
        type="text"
        defaultValue={String(draft[name])}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `product-${name}-error` : undefined}
        className={inputClass}
      />
    </Field>
  );
  const areaField = (name: "description_en" | "description_zh", label: string) => (
    <Field label={label} htmlFor={`product-${name}`} errors={errors[name]} errorId={`product-${name}-error`}>
      <textarea id={`product-${name}`} name={name} rows={5} defaultValue={draft[name]} className={inputClass} />
    </Field>
  );

  return (
    <div className="max-w-4xl">
      <div className="flex items-center justify-between gap-4">
        <h1 className="text-2xl font-bold">{t(isNew ? "adminProductForm.newTitle" : "adminProductForm.editTitle")}</h1>
        <Link to="/admin/products" className="text-sm font-medium text-brand-700 hover:underline">
          {t("adminProductForm.back")}
        </Link>
      </div>
      <Form
        key={actionData?.revision ?? "initial"}
        method="post"
        encType="multipart/form-data"
        className="mt-6 flex flex-col gap-6 rounded-lg bg-white p-6 shadow-sm"
      >
        {/* Enter in a text field saves: the first submit button of a form is its default. */}
        <button type="submit" name="intent" value="save" className="sr-only" tabIndex={-1}>
          {t("adminProductForm.save")}
        </button>
        {actionData?.problem ? (
          <FormErrors errors={[actionData.problem.key]} params={actionData.problem.params} />
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          {textField("name_en", t("adminProductForm.nameEn"))}
          {textField("name_zh", t("adminProductForm.nameZh"))}
          {areaField("description_en", t("adminProductForm.descriptionEn"))}
          {areaField("description_zh", t("adminProductForm.descriptionZh"))}
        </div>
        <PriceFields draft={draft} errors={errors} rates={loaderData.rates} />
        <div className="grid gap-4 sm:grid-cols-2 sm:items-end">
          <Field
            label={t("adminProductForm.category")}
            htmlFor="product-category_id"
            errors={errors.category_id}
            errorId="product-category_id-error"
          >
            <select id="product-category_id" name="category_id" defaultValue={draft.category_id} className={inputClass}>
              <option value="">{t("adminProductForm.noCategory")}</option>
              {loaderData.categories.map((category) => (
                <option key={category.id} value={String(category.id)}>
                  {category.name_en} / {category.name_zh}
                </option>
              ))}
            </select>
          </Field>
          <label className="flex items-center gap-2 text-sm font-medium text-stone-800">
            <input type="checkbox" name="is_featured" defaultChecked={draft.is_featured} className="size-4" />
            {t("adminProductForm.featured")}
          </label>
        </div>

        <fieldset className="flex flex-col gap-3">
          <legend className="text-lg font-semibold">{t("adminProductForm.variants")}</legend>
          {draft.variants.length === 0 ? (
            <div className="max-w-xs">
              {textField("stock", t("adminProductForm.stock"), t("adminProductForm.stockHint"))}
            </div>
          ) : (
            <ul className="flex flex-col gap-4">
              {draft.variants.map((variant, index) => {
                const colorName = `variants[${index}].color`;
                const stockName = `variants[${index}].stock`;
                const colorZhName = `variants[${index}].color_zh`;
                return (
                  <li
                    // biome-ignore lint/suspicious/noArrayIndexKey: rows are re-rendered from the server by position
                    key={index}
                    className="grid grid-cols-2 items-start gap-3 border-b border-stone-200 pb-4 last:border-0 last:pb-0 sm:grid-cols-[1fr_1fr_8rem_auto] sm:border-0 sm:pb-0"
                  >
                    <Field
                      label={t("adminProductForm.color")}
                      htmlFor={`variant-${index}-color`}
                      errors={errors[colorName]}
                      errorId={`variant-${index}-color-error`}
                    >
                      <input
                        id={`variant-${index}-color`}
                        name={colorName}
                        type="text"
                        defaultValue={variant.color}
                        aria-invalid={errors[colorName] ? true : undefined}
                        aria-describedby={errors[colorName] ? `variant-${index}-color-error` : undefined}
                        className={inputClass}
                      />
                    </Field>
                    <Field
                      label={t("adminProductForm.colorZh")}
                      htmlFor={`variant-${index}-color_zh`}
                      errors={errors[colorZhName]}
                      errorId={`variant-${index}-color_zh-error`}
                    >
                      <input
                        id={`variant-${index}-color_zh`}
                        name={colorZhName}
                        type="text"
                        lang="zh-Hant-HK"
                        defaultValue={variant.color_zh}
                        aria-invalid={errors[colorZhName] ? true : undefined}
                        aria-describedby={errors[colorZhName] ? `variant-${index}-color_zh-error` : "variant-zh-hint"}
                        className={inputClass}
                      />
                    </Field>
                    <Field
                      label={t("adminProductForm.stock")}
                      htmlFor={`variant-${index}-stock`}
                      errors={errors[stockName]}
                      errorId={`variant-${index}-stock-error`}
                    >
                      <input
                        id={`variant-${index}-stock`}
                        name={stockName}
                        type="number"
                        min={0}
                        step={1}
                        defaultValue={variant.stock}
                        aria-invalid={errors[stockName] ? true : undefined}
                        aria-describedby={errors[stockName] ? `variant-${index}-stock-error` : undefined}
                        className={inputClass}
                      />
                    </Field>
                    <button
                      type="submit"
                      name="intent"
                      value={`remove-variant-${index}`}
                      formNoValidate
                      className={`${buttonClass} self-end sm:mt-6 sm:self-start`}
                    >
                      {t("adminProductForm.removeVariant")}
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
          {draft.variants.length > 0 ? (
            <p id="variant-zh-hint" className="text-xs text-stone-600">
              {t("adminProductForm.colorZhHint")}
            </p>
          ) : null}
          <ErrorList errors={errors.variants} />
          <div className="flex items-center gap-4">
            <button type="submit" name="intent" value="add-variant" formNoValidate className={buttonClass}>
              {t("adminProductForm.addVariant")}
            </button>
            <StockTotal initial={totalStock} />
          </div>
        </fieldset>

        <fieldset className="flex flex-col gap-3">
          <legend className="text-lg font-semibold">{t("adminProductForm.images")}</legend>
          {draft.images.length === 0 ? (
            <p className="text-sm text-stone-500">{t("adminProductForm.noImages")}</p>
          ) : null}
          <ol className="flex flex-col gap-2">
            {draft.images.map((image, index) => (
              <li key={image.key} className="flex flex-wrap items-center gap-3">
                <input type="hidden" name={`images[${index}]`} value={image.key} />
                <img
                  src={image.url}
                  alt={t("adminProductForm.imageAlt", { number: index + 1 })}
                  className="size-16 rounded border border-stone-200 object-cover"
                />
                <button
                  type="submit"
                  name="intent"
                  value={`image-up-${index}`}
                  formNoValidate
                  disabled={index === 0}
                  className={buttonClass}
                >
                  {t("adminProductForm.moveUp")}
                </button>
                <button
                  type="submit"
                  name="intent"
                  value={`image-down-${index}`}
                  formNoValidate
                  disabled={index === draft.images.length - 1}
                  className={buttonClass}
                >
                  {t("adminProductForm.moveDown")}
                </button>
                <button
                  type="submit"
                  name="intent"
                  value={`image-remove-${index}`}
                  formNoValidate
                  className={buttonClass}
                >
                  {t("adminProductForm.removeImage")}
                </button>
              </li>
            ))}
          </ol>
          <NewImagesInput
            free={free}
            hint={t("adminProductForm.addImagesHintWithFree", {
              hint: t("adminProductForm.addImagesHint"),
              free: t("adminProductForm.imagesFree", { count: Math.max(0, free) }),
            })}
          />
          {errors.newImages?.length ? (
            <ul className="text-sm text-red-700">
              {errors.newImages.map((key) => (
                <li key={key}>{translateKey(t, key, actionData?.problem?.params)}</li>
              ))}
            </ul>
          ) : null}
          <ErrorList errors={errors.images} />
        </fieldset>

        <div className="flex justify-end gap-3">
          <Link to="/admin/products" className={buttonClass}>
            {t("adminProductForm.cancel")}
          </Link>
          <StatusButton name="intent" value="save" pendingText={t("adminProductForm.saving")}>
            {t("adminProductForm.save")}
          </StatusButton>
        </div>
      </Form>
    </div>
  );
}

export function meta({ loaderData }: { loaderData?: { title?: string } }) {
  return [{ title: loaderData?.title ?? "Admin" }, { name: "robots", content: "noindex" }];
}
