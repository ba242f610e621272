import { redirect } from "react-router";
import { CATEGORY_UNREAD, CategoryForm, CATEGORIES_PATH as PATH } from "~/components/admin/category-form";
import { CategoryDeleteConfirmation, CategoryRow } from "~/components/admin/category-list";
import { AdminPageHeader } from "~/components/admin/page-header";
import { ButtonLink } from "~/components/ui/button";
import { FormErrors } from "~/components/ui/field";
import { services } from "~/context";
import { formAction, succeed, UserError } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { parseId } from "~/lib/ids";
import { IMAGE_PRESETS, storeChosenImage } from "~/lib/images.server";
import { privatePageMeta } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import {
  createCategory,
  deleteCategory,
  findAdminCategory,
  listAllCategories,
  updateCategory,
} from "~/models/categories.server";
import { categoryZoneIds, listZoneChoices } from "~/models/orders/restrictions.server";
import { adminOnly, requireAdmin } from "~/request/auth.server";
import { categoryActionSchema } from "~/schemas/category";
import type { Route } from "./+types/categories";

/** The image limit plus room for the text fields and the multipart framing. */
const BODY_LIMIT = IMAGE_PRESETS.category.maxBytes + 256 * 1024;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { db } = services(context);
  const url = new URL(request.url);
  const editId = parseId(url.searchParams.get("edit"));
  const deleteId = parseId(url.searchParams.get("delete"));
  const [categories, editing, deleting] = await Promise.all([
    listAllCategories(db),
    editId ? findAdminCategory(db, editId) : null,
    deleteId ? findAdminCategory(db, deleteId) : null,
  ]);
  const t = getInstance(context).t;
  return {
    categories,
    editing,
    zones: await listZoneChoices(db),
    zoneIds: editing ? await categoryZoneIds(db, editing.id) : [],
    creating: !editing && url.searchParams.get("new") === "1",
    deleting,
    title: `${t("adminCategories.title")} | ${t("admin.title")}`,
  };
}

/** Create, update and delete. The admin right is checked before the body is read. */
export const action = formAction(
  {
    schema: categoryActionSchema,
    maxBytes: BODY_LIMIT,
    unread: CATEGORY_UNREAD,
    authorize: adminOnly,
  },
  async ({ context, form, value, auth }) => {
    const { db, storage } = services(context);
    const actor = { actorUserId: auth.id };

    if (value.intent === "delete") {
      // Without JavaScript there is no confirm(): the confirmation is a second page.
      if (value.confirmed !== "1") return redirect(`${PATH}?delete=${value.id}`);
      try {
        await deleteCategory(db, storage, value.id, actor);
      } catch (error) {
        if (!(error instanceof UserError)) throw error;
        throw new UserError("adminCategories.errors.deleteFailed", {
          detailKey: error.problem.key,
          params: error.problem.params,
        });
      }
      return succeed(context, form, { redirectTo: PATH, flash: { type: "success", key: "adminCategories.deleted" } });
    }

    // An image is optional; a chosen one goes through the pipeline before anything is saved.
    const imageKey = await storeChosenImage(storage, form.get("image"), "category", {
      folder: "categories",
      field: "image",
    });
    if (value.intent === "create") await createCategory(db, storage, value, { ...actor, imageKey });
    else await updateCategory(db, storage, value.id, value, { ...actor, imageKey, removeImage: value.remove_image });
    return succeed(context, form, {
      redirectTo: PATH,
      flash: {
        type: "success",
        key: value.intent === "create" ? "adminCategories.created" : "adminCategories.updated",
      },
    });
  },
);

export default function CategoryManager({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { categories, editing, creating, deleting } = loaderData;
  const formOpen = creating || editing !== null;
  // Which form the answer belongs to: the reply carries the submitted intent (none when the body was refused unread).
  const intent = actionData?.result?.initialValue?.intent;
  const deleteErrors = intent === "delete" ? actionData?.result?.error?.[""] : undefined;
  const uploadProblem = intent === undefined ? actionData?.result?.error?.[""] : undefined;
  return (
    <div className="max-w-5xl">
      <AdminPageHeader title={t("adminCategories.title")} intro={t("adminCategories.intro")}>
        {formOpen ? null : <ButtonLink to={`${PATH}?new=1`}>{t("adminCategories.add")}</ButtonLink>}
      </AdminPageHeader>

      {deleteErrors ? (
        <div className="mt-4">
          <FormErrors errors={deleteErrors} params={actionData?.problem?.params} />
        </div>
      ) : null}
      {uploadProblem && !formOpen ? (
        <div className="mt-4">
          <FormErrors errors={uploadProblem} />
        </div>
      ) : null}

      {deleting ? <CategoryDeleteConfirmation category={deleting} /> : null}

      {formOpen ? (
        <CategoryForm
          key={editing ? `edit-${editing.id}` : "new"}
          category={editing}
          zones={loaderData.zones}
          zoneIds={loaderData.zoneIds}
          lastResult={actionData && intent !== "delete" ? actionData.result : undefined}
          problem={intent !== "delete" ? (actionData?.problem ?? null) : null}
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

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Admin");
