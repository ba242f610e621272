import { parseWithZod } from "@conform-to/zod/v4";
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
import { publicUrl } from "~/lib/storage.server";
import { translateKey } from "~/lib/translate-key";
import { getInstance } from "~/middleware/i18next";
import { createProduct, findProductForEdit, type ProductForEdit, updateProduct } from "~/models/admin-product.server";
import { centsToText, MAX_PRODUCT_IMAGES, MAX_VARIANTS, productSchema } from "~/schemas/product";

/*
 * The admin product form at /admin/products/new and /admin/products/edit/:id. It works as
 * plain HTML: colour rows and the image order change through submit buttons named "intent"
 * that re-render the form with what was typed (nothing is saved until intent=save).
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
  variants: { color: string; stock: string }[];
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
  const onlyDefault = variants.length === 1 && variants[0]?.color === "Default";
  return {
    name_en: product.name_en,
    name_zh: product.name_zh,
    description_en: product.description_en,
    description_zh: product.description_zh,
    price_hkd: centsToText(product.price_hkd_cents),
    price_gbp: centsToText(product.price_gbp_cents),
    price_eur: centsToText(product.price_eur_cents),
    price_usd: centsToText(product.price_usd_cents),
    category_id: product.category_id === null ? "" : String(product.category_id),
    is_featured: product.is_featured === 1,
    stock: onlyDefault ? String(variants[0]?.stock ?? 0) : "0",
    variants: onlyDefault ? [] : variants.map((variant) => ({ color: variant.color, stock: String(variant.stock) })),
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
    variants.push({ color: text(form, `variants[${index}].color`), stock: text(form, `variants[${index}].stock`) });
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
    const first = draft.variants.length === 0 ? { color: "", stock: draft.stock } : { color: "", stock: "0" };
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

export default function ProductForm() {
  const { t } = useTranslation();
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<ProductFormActionData>();
  const draft = actionData?.draft ?? loaderData.draft;
  const errors = actionData?.errors ?? {};
  const isNew = loaderData.id === null;
  const free = MAX_PRODUCT_IMAGES - draft.images.length;
  const totalStock =
    draft.variants.length > 0
      ? draft.variants.reduce(
          (sum, variant) => sum + (/^\d+$/.test(variant.stock.trim()) ? Number(variant.stock) : 0),
          0,
        )
      : /^\d+$/.test(draft.stock.trim())
        ? Number(draft.stock)
        : 0;
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
        defaultValue={String(draft[name])}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `product-${name}-error` : undefined}
        className={inputClass}
        inputMode={name.startsWith("price_") ? "decimal" : undefined}
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
        <div className="grid gap-4 sm:grid-cols-4">
          {textField("price_hkd", t("adminProductForm.priceHkd"))}
          {textField("price_gbp", t("adminProductForm.priceGbp"), t("adminProductForm.convertHint"))}
          {textField("price_eur", t("adminProductForm.priceEur"), t("adminProductForm.convertHint"))}
          {textField("price_usd", t("adminProductForm.priceUsd"), t("adminProductForm.convertHint"))}
        </div>
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
            <ul className="flex flex-col gap-3">
              {draft.variants.map((variant, index) => {
                const colorName = `variants[${index}].color`;
                const stockName = `variants[${index}].stock`;
                return (
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows are re-rendered from the server by position
                  <li key={index} className="flex flex-wrap items-start gap-3">
                    <div className="flex-1">
                      <Field
                        label={t("adminProductForm.color")}
                        htmlFor={`variant-${index}-color`}
                        errors={errors[colorName]}
                      >
                        <input
                          id={`variant-${index}-color`}
                          name={colorName}
                          defaultValue={variant.color}
                          aria-invalid={errors[colorName] ? true : undefined}
                          className={inputClass}
                        />
                      </Field>
                    </div>
                    <div className="w-32">
                      <Field
                        label={t("adminProductForm.stock")}
                        htmlFor={`variant-${index}-stock`}
                        errors={errors[stockName]}
                      >
                        <input
                          id={`variant-${index}-stock`}
                          name={stockName}
                          type="number"
                          min={0}
                          step={1}
                          defaultValue={variant.stock}
                          aria-invalid={errors[stockName] ? true : undefined}
                          className={inputClass}
                        />
                      </Field>
                    </div>
                    <button
                      type="submit"
                      name="intent"
                      value={`remove-variant-${index}`}
                      formNoValidate
                      className={`${buttonClass} mt-6`}
                    >
                      {t("adminProductForm.removeVariant")}
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
          <ErrorList errors={errors.variants} />
          <div className="flex items-center gap-4">
            <button type="submit" name="intent" value="add-variant" formNoValidate className={buttonClass}>
              {t("adminProductForm.addVariant")}
            </button>
            <p className="text-sm text-stone-700" aria-live="polite">
              {t("adminProductForm.totalStock", { count: totalStock })}
            </p>
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
          <Field
            label={t("adminProductForm.addImages")}
            htmlFor="product-newImages"
            hint={t("adminProductForm.addImagesHintWithFree", {
              hint: t("adminProductForm.addImagesHint"),
              free: t("adminProductForm.imagesFree", { count: Math.max(0, free) }),
            })}
          >
            <input
              id="product-newImages"
              name="newImages"
              type="file"
              multiple
              accept="image/jpeg,image/png,image/webp"
              disabled={free <= 0}
              className="text-sm"
            />
          </Field>
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
