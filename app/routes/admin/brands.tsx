import { redirect } from "react-router";
import { BrandDeleteConfirmation, BrandForm, BrandRow, BRANDS_PATH as PATH } from "~/components/admin/brand-form";
import { AdminPageHeader } from "~/components/admin/page-header";
import { ButtonLink } from "~/components/ui/button";
import { ProblemAlert } from "~/components/ui/field";
import { services } from "~/context";
import { formAction, succeed } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { parseId } from "~/lib/ids";
import { privatePageMeta } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import { createBrand, deleteBrand, listBrands, updateBrand } from "~/models/brands.server";
import { adminOnly, requireAdmin } from "~/request/auth.server";
import { brandActionSchema } from "~/schemas/brand";
import type { Route } from "./+types/brands";

/*
 * Brands (/admin/brands, docs/decisions/052): the managed list with how many products use each;
 * add, rename in both languages, order, delete. Owner and staff, like categories. A brand
 * products still use is not deleted (409, said on its row).
 */

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { db } = services(context);
  const url = new URL(request.url);
  const brands = await listBrands(db);
  const editId = parseId(url.searchParams.get("edit"));
  const deleteId = parseId(url.searchParams.get("delete"));
  const t = getInstance(context).t;
  const editing = brands.find((brand) => brand.id === editId) ?? null;
  return {
    brands,
    editing,
    creating: !editing && url.searchParams.get("new") === "1",
    deleting: brands.find((brand) => brand.id === deleteId) ?? null,
    title: `${t("adminBrands.title")} | ${t("admin.title")}`,
  };
}

/** Add, rename and delete. The admin right is checked before the body is read. */
export const action = formAction({ schema: brandActionSchema, authorize: adminOnly }, async (args) => {
  const { context, form, value, auth } = args;
  const { db } = services(context);
  const actor = { actorUserId: auth.id };
  if (value.intent === "delete") {
    // Without JavaScript there is no confirm(): the confirmation is a second page.
    if (value.confirmed !== "1") return redirect(`${PATH}?delete=${value.id}`);
    const deleted = await deleteBrand(db, value.id, actor);
    return succeed(context, form, {
      redirectTo: PATH,
      flash: { type: "success", key: "adminBrands.deleted", params: { name: deleted.name } },
    });
  }
  const saved =
    value.intent === "create" ? await createBrand(db, value, actor) : await updateBrand(db, value.id, value, actor);
  return succeed(context, form, {
    redirectTo: PATH,
    flash: {
      type: "success",
      key: value.intent === "create" ? "adminBrands.created" : "adminBrands.updated",
      params: { name: saved.name },
    },
  });
});

export default function Brands({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { brands, editing, creating, deleting } = loaderData;
  const formOpen = creating || editing !== null;
  // Which form the answer belongs to: the reply carries the submitted intent and id.
  const submitted = actionData?.result?.initialValue;
  const deleteProblem = submitted?.intent === "delete" ? (actionData?.problem ?? null) : null;
  const deleteId = Number(submitted?.id);
  return (
    <div className="max-w-5xl">
      <AdminPageHeader title={t("adminBrands.title")} intro={t("adminBrands.intro")}>
        {formOpen ? null : <ButtonLink to={`${PATH}?new=1`}>{t("adminBrands.add")}</ButtonLink>}
      </AdminPageHeader>

      {deleteProblem && !brands.some((brand) => brand.id === deleteId) ? (
        <div className="mt-4">
          <ProblemAlert problem={deleteProblem} />
        </div>
      ) : null}
      {deleting && !deleteProblem ? <BrandDeleteConfirmation brand={deleting} /> : null}

      {formOpen ? (
        <BrandForm
          key={editing ? `edit-${editing.id}` : "new"}
          brand={editing}
          lastResult={submitted?.intent !== "delete" ? actionData?.result : undefined}
        />
      ) : null}

      <section aria-labelledby="brand-list-heading" className="mt-8">
        <h2 id="brand-list-heading" className="sr-only">
          {t("adminBrands.title")}
        </h2>
        {brands.length === 0 ? (
          <p className="rounded-lg bg-white p-6 text-stone-600 shadow-sm">{t("adminBrands.empty")}</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {brands.map((brand) => (
              <BrandRow key={brand.id} brand={brand} problem={brand.id === deleteId ? deleteProblem : null} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Admin");
