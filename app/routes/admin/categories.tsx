import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import {
  type ActionFunctionArgs,
  data,
  Form,
  Link,
  type LoaderFunctionArgs,
  type MetaArgs,
  redirect,
  useActionData,
  useLoaderData,
  useNavigation,
} from "react-router";
import { z } from "zod";
import { DeleteButton, DeleteConfirmation } from "~/components/admin/delete-confirmation";
import { ImagePicker } from "~/components/admin/image-picker";
import { Field, FormErrors, inputClass, StatusButton } from "~/components/ui/field";
import { services } from "~/context";
import { requireAdmin } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { useTranslation } from "~/lib/i18n";
import { BodyTooLargeError, IMAGE_PRESETS, ImageError, readFormData, storeImage } from "~/lib/images.server";
import { useRootData } from "~/lib/root-data";
import { translateKey } from "~/lib/translate-key";
import { getInstance } from "~/middleware/i18next";
import {
  type AdminCategory,
  createCategory,
  deleteCategory,
  findAdminCategory,
  listAllCategories,
  updateCategory,
} from "~/models/admin-category.server";
import { categoryActionSchema, createCategorySchema, updateCategorySchema } from "~/schemas/category";

const PATH = "/admin/categories";
/** The image limit plus room for the text fields and the multipart framing. */
const BODY_LIMIT = IMAGE_PRESETS.category.maxBytes + 256 * 1024;

function positiveId(value: string | null): number | null {
  if (!value || !/^\d{1,12}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireAdmin(context, request);
  const { db } = services(context);
  const url = new URL(request.url);
  const editId = positiveId(url.searchParams.get("edit"));
  const deleteId = positiveId(url.searchParams.get("delete"));
  const [categories, editing, deleting] = await Promise.all([
    listAllCategories(db),
    editId ? findAdminCategory(db, editId) : null,
    deleteId ? findAdminCategory(db, deleteId) : null,
  ]);
  const t = getInstance(context).t;
  return {
    categories,
    editing,
    creating: !editing && url.searchParams.get("new") === "1",
    deleting,
    title: `${t("adminCategories.title")} | ${t("admin.title")}`,
  };
}

type Problem = { key: string; params?: Record<string, string | number> };

/** Create, update and delete. The admin right is checked before the body is read. */
export async function action({ request, context }: ActionFunctionArgs) {
  const admin = requireAdmin(context, request);
  const { db, storage } = services(context);
  let form: FormData;
  try {
    form = await readFormData(request, BODY_LIMIT);
  } catch (error) {
    // Too large, or not a form at all (no boundary, cut short, another content type): a 4xx.
    const tooLarge = error instanceof BodyTooLargeError;
    const empty = parseWithZod(new FormData(), { schema: z.object({}) });
    return data(
      {
        intent: null,
        result: empty.reply({ formErrors: [tooLarge ? "adminCategories.errors.uploadTooLarge" : "error.badRequest"] }),
        imageProblem: null as Problem | null,
        deleteProblem: null as Problem | null,
      },
      { status: tooLarge ? 413 : 400 },
    );
  }
  const submission = parseWithZod(form, { schema: categoryActionSchema });
  const intent = String(form.get("intent") ?? "");
  const reply = (
    options: Parameters<typeof submission.reply>[0],
    extra: { imageProblem?: Problem; deleteProblem?: Problem } = {},
    status = 400,
  ) =>
    data(
      {
        intent,
        result: submission.reply(options),
        imageProblem: extra.imageProblem ?? null,
        deleteProblem: extra.deleteProblem ?? null,
      },
      { status },
    );
  if (submission.status !== "success") return reply({});
  const value = submission.value;
  const actor = { actorUserId: admin.id };

  if (value.intent === "delete") {
    // Without JavaScript there is no confirm(): the confirmation is a second page.
    if (value.confirmed !== "1") return redirect(`${PATH}?delete=${value.id}`);
    const result = await deleteCategory(db, storage, value.id, actor);
    if (!result.ok) {
      return reply(
        { formErrors: ["adminCategories.errors.deleteFailed", result.problem.key] },
        { deleteProblem: { key: result.problem.key, params: result.problem.params } },
      );
    }
    setFlash(context, { type: "success", key: "adminCategories.deleted" });
    return redirect(PATH);
  }

  // An image is optional; a chosen one goes through the pipeline before anything is saved.
  let imageKey: string | null = null;
  const file = form.get("image");
  if (file instanceof File && (file.size > 0 || file.name !== "")) {
    try {
      imageKey = await storeImage(storage, file, "category", { folder: "categories" });
    } catch (error) {
      if (!(error instanceof ImageError)) throw error;
      return reply(
        { fieldErrors: { image: [error.messageKey] } },
        { imageProblem: { key: error.messageKey, params: error.params } },
      );
    }
  }

  const result =
    value.intent === "create"
      ? await createCategory(db, storage, value, { ...actor, imageKey })
      : await updateCategory(db, storage, value.id, value, { ...actor, imageKey, removeImage: value.remove_image });
  if (!result.ok) {
    const { field, key } = result.problem;
    return reply(field ? { fieldErrors: { [field]: [key] } } : { formErrors: [key] });
  }
  setFlash(context, {
    type: "success",
    key: value.intent === "create" ? "adminCategories.created" : "adminCategories.updated",
  });
  return redirect(PATH);
}

export default function CategoryManager() {
  const { t } = useTranslation();
  const { categories, editing, creating, deleting } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const formOpen = creating || editing !== null;
  const deleteErrors = actionData?.intent === "delete" ? actionData.result.error?.[""] : undefined;
  const uploadErrors = actionData?.intent === null ? actionData.result.error?.[""] : undefined;
  return (
    <div className="max-w-5xl">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">{t("adminCategories.title")}</h1>
          <p className="mt-1 text-sm text-stone-600">{t("adminCategories.intro")}</p>
        </div>
        {formOpen ? null : (
          <Link
            to={`${PATH}?new=1`}
            className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
          >
            {t("adminCategories.add")}
          </Link>
        )}
      </div>

      {deleteErrors ? (
        <div className="mt-4">
          <FormErrors errors={deleteErrors} params={actionData?.deleteProblem?.params} />
        </div>
      ) : null}
      {uploadErrors && !formOpen ? (
        <div className="mt-4">
          <FormErrors errors={uploadErrors} />
        </div>
      ) : null}

      {deleting ? <CategoryDeleteConfirmation category={deleting} /> : null}

      {formOpen ? (
        <CategoryForm
          key={editing ? `edit-${editing.id}` : "new"}
          category={editing}
          lastResult={actionData && actionData.intent !== "delete" ? actionData.result : undefined}
          imageProblem={actionData?.imageProblem ?? null}
        />
      ) : null}

      <section aria-labelledby="category-list-heading" className="mt-8">
        <h2 id="category-list-heading" className="sr-only">
          {t("adminCategories.title")}
        </h2>
        {categories.length === 0 ? (
          <p className="rounded-lg bg-white p-6 text-stone-600 shadow-sm">{t("adminCategories.empty")}</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {categories.map((category) => (
              <CategoryRow key={category.id} category={category} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/** The category's name and description in the reader's language first, the other name beside it. */
function inReaderLanguage(category: AdminCategory, language: string) {
  return language === "zh"
    ? { name: category.name_zh, other: category.name_en, otherLang: "en", description: category.description_zh }
    : { name: category.name_en, other: category.name_zh, otherLang: "zh-HK", description: category.description_en };
}

function CategoryRow({ category }: { category: AdminCategory }) {
  const { t } = useTranslation();
  const shown = inReaderLanguage(category, useRootData()?.language ?? "en");
  return (
    <li
      className="flex flex-col gap-4 rounded-lg bg-white p-4 shadow-sm sm:flex-row sm:items-start"
      data-testid="category-row"
    >
      {category.image_url ? (
        <img
          src={category.image_url}
          alt={shown.name}
          width={80}
          height={80}
          className="h-20 w-20 shrink-0 rounded-md object-cover"
        />
      ) : (
        <div className="flex h-20 w-20 shrink-0 items-center justify-center rounded-md bg-stone-100 text-xs text-stone-600">
          {t("adminCategories.noImage")}
        </div>
      )}
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-semibold">{shown.name}</h3>
          <span lang={shown.otherLang} className="text-stone-700">
            {shown.other}
          </span>
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-medium ${category.is_active ? "bg-green-100 text-green-800" : "bg-stone-200 text-stone-700"}`}
          >
            {category.is_active ? t("adminCategories.statusActive") : t("adminCategories.statusInactive")}
          </span>
        </div>
        <p className="mt-1 text-xs text-stone-500">
          {t("adminCategories.sortLabel", { order: category.sort_order })} ·{" "}
          {t("adminCategories.products", { count: category.product_count })} · /category/{category.slug}
        </p>
        {shown.description ? <p className="mt-2 text-sm text-stone-700">{shown.description}</p> : null}
        <p className="mt-1 truncate text-xs text-stone-500">
          {category.image_url ?? t("adminCategories.noImageUploaded")}
        </p>
      </div>
      <div className="flex shrink-0 items-center gap-2">
        <Link
          to={`${PATH}?edit=${category.id}`}
          aria-label={t("adminCategories.editNamed", { name: shown.name })}
          className="rounded-md border border-stone-300 px-3 py-1.5 text-sm hover:bg-stone-50"
        >
          {t("adminCategories.editLink")}
        </Link>
        <DeleteForm category={category} />
      </div>
    </li>
  );
}

function DeleteForm({ category }: { category: AdminCategory }) {
  const { t } = useTranslation();
  const language = useRootData()?.language ?? "en";
  return (
    <DeleteButton
      action={PATH}
      fields={{ intent: "delete", id: category.id }}
      question={t("adminCategories.confirmDelete")}
      label={t("adminCategories.delete")}
      ariaLabel={t("adminCategories.deleteNamed", { name: inReaderLanguage(category, language).name })}
    />
  );
}

function CategoryDeleteConfirmation({ category }: { category: AdminCategory }) {
  const { t } = useTranslation();
  return (
    <DeleteConfirmation
      heading={t("adminCategories.confirmDelete")}
      action={PATH}
      fields={{ intent: "delete", id: category.id }}
      confirmLabel={t("adminCategories.confirmDeleteButton")}
      cancelLabel={t("adminCategories.cancel")}
      cancelTo={PATH}
    >
      {category.name_en} · <span lang="zh-HK">{category.name_zh}</span>
    </DeleteConfirmation>
  );
}

function CategoryForm({
  category,
  lastResult,
  imageProblem,
}: {
  category: AdminCategory | null;
  lastResult: SubmissionResult<string[]> | null | undefined;
  imageProblem: Problem | null;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const schema = category ? updateCategorySchema : createCategorySchema;
  const [form, fields] = useForm({
    id: category ? `category-${category.id}` : "category-new",
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: category
      ? {
          name_en: category.name_en,
          name_zh: category.name_zh,
          description_en: category.description_en ?? "",
          description_zh: category.description_zh ?? "",
          sort_order: String(category.sort_order),
          is_active: category.is_active ? "on" : undefined,
          slug: category.slug,
        }
      : { sort_order: "0", is_active: "on" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const uploading =
    navigation.state === "submitting" &&
    navigation.formData?.get("image") instanceof File &&
    ((navigation.formData.get("image") as File).size ?? 0) > 0;
  const action = category ? `${PATH}?edit=${category.id}` : `${PATH}?new=1`;
  // The pipeline's refusal comes with its parameters (e.g. the size limit), so it is shown from the reply.
  const imageErrors = imageProblem
    ? [translateKey(t, imageProblem.key, imageProblem.params)]
    : fields.image.errors?.map((key) => translateKey(t, key));
  return (
    <section aria-labelledby="category-form-heading" className="mt-6 rounded-lg bg-white p-6 shadow-sm">
      <h2 id="category-form-heading" className="text-lg font-semibold">
        {category ? t("adminCategories.edit") : t("adminCategories.addNew")}
      </h2>
      <Form
        method="post"
        action={action}
        encType="multipart/form-data"
        {...getFormProps(form)}
        className="mt-4 grid gap-4 sm:grid-cols-2"
      >
        <div className="sm:col-span-2">
          <FormErrors errors={form.errors} />
        </div>
        <input type="hidden" name="intent" value={category ? "update" : "create"} />
        {category ? <input type="hidden" name="id" value={category.id} /> : null}
        <Field
          label={t("adminCategories.nameEn")}
          htmlFor={fields.name_en.id}
          errors={fields.name_en.errors}
          errorId={fields.name_en.errorId}
        >
          <input {...getInputProps(fields.name_en, { type: "text" })} className={inputClass} />
        </Field>
        <Field
          label={t("adminCategories.nameZh")}
          htmlFor={fields.name_zh.id}
          errors={fields.name_zh.errors}
          errorId={fields.name_zh.errorId}
        >
          <input {...getInputProps(fields.name_zh, { type: "text" })} lang="zh-HK" className={inputClass} />
        </Field>
        <Field
          label={t("adminCategories.descriptionEn")}
          htmlFor={fields.description_en.id}
          errors={fields.description_en.errors}
          errorId={fields.description_en.errorId}
        >
          <textarea {...getTextareaProps(fields.description_en)} rows={3} className={inputClass} />
        </Field>
        <Field
          label={t("adminCategories.descriptionZh")}
          htmlFor={fields.description_zh.id}
          errors={fields.description_zh.errors}
          errorId={fields.description_zh.errorId}
        >
          <textarea {...getTextareaProps(fields.description_zh)} rows={3} lang="zh-HK" className={inputClass} />
        </Field>
        <Field
          label={t("adminCategories.slug")}
          htmlFor={fields.slug.id}
          hint={t("adminCategories.slugHint")}
          errors={fields.slug.errors}
          errorId={fields.slug.errorId}
        >
          <input {...getInputProps(fields.slug, { type: "text" })} className={inputClass} />
        </Field>
        <Field
          label={t("adminCategories.sortOrder")}
          htmlFor={fields.sort_order.id}
          hint={t("adminCategories.sortOrderHint")}
          errors={fields.sort_order.errors}
          errorId={fields.sort_order.errorId}
        >
          <input {...getInputProps(fields.sort_order, { type: "number" })} step={1} className={inputClass} />
        </Field>
        <div className="flex flex-col gap-2 sm:col-span-2">
          <ImagePicker
            id={fields.image.id}
            name={fields.image.name}
            errorId={fields.image.errorId}
            label={t("adminCategories.image")}
            hint={t("adminCategories.imageHint")}
            errors={imageErrors}
            clearLabel={t("adminCategories.removeImage")}
          />
          {category?.image_url ? (
            <div className="flex items-center gap-3 text-sm">
              <img
                src={category.image_url}
                alt={t("adminCategories.currentImage")}
                className="h-16 w-16 rounded-md object-cover"
              />
              <label className="flex items-center gap-2">
                <input {...getInputProps(fields.remove_image, { type: "checkbox" })} />
                {t("adminCategories.removeImage")}
              </label>
            </div>
          ) : null}
        </div>
        <div className="flex flex-col gap-1 sm:col-span-2">
          <label className="flex items-center gap-2 text-sm font-medium text-stone-800">
            <input {...getInputProps(fields.is_active, { type: "checkbox" })} />
            {t("adminCategories.active")}
          </label>
          <p className="text-xs text-stone-500">{t("adminCategories.activeHelp")}</p>
        </div>
        <div className="flex gap-3 sm:col-span-2">
          <StatusButton pendingText={uploading ? t("adminCategories.uploading") : undefined}>
            {category ? t("adminCategories.update") : t("adminCategories.create")}
          </StatusButton>
          <Link to={PATH} className="rounded-md border border-stone-300 px-4 py-2 hover:bg-stone-50">
            {t("adminCategories.cancel")}
          </Link>
        </div>
      </Form>
    </section>
  );
}

export function meta({ loaderData }: MetaArgs<typeof loader>) {
  return [{ title: loaderData?.title ?? "Admin" }, { name: "robots", content: "noindex" }];
}
