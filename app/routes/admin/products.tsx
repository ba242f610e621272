import type { MouseEvent } from "react";
import { Form, useSubmit } from "react-router";
import { DeleteConfirmation } from "~/components/admin/delete-confirmation";
import { AdminPageHeader } from "~/components/admin/page-header";
import { ProductTable } from "~/components/admin/product-table";
import { SortInputs } from "~/components/admin/sort-header";
import { Button, ButtonLink } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/field";
import { Pagination } from "~/components/ui/pagination";
import { SearchForm } from "~/components/ui/search-form";
import { services } from "~/context";
import { formAction, refuse, succeed, UserError } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { parseId } from "~/lib/ids";
import { type ListSort, PRODUCT_SORTS, type ProductSortKey, parseSort, sortParams } from "~/lib/list-sort";
import { localized } from "~/lib/localize";
import { privatePageMeta } from "~/lib/meta";
import { translateKey } from "~/lib/translate-key";
import { getCurrency } from "~/middleware/currency";
import { getInstance, getLanguage } from "~/middleware/i18next";
import {
  adminListPath,
  colourSummary,
  deleteProduct,
  findProductName,
  listAdminProducts,
  stockLevel,
  updateProductCategory,
} from "~/models/products/admin-list.server";
import { normalizeSearch } from "~/models/products/catalog.server";
import { adminOnly, requireAdmin } from "~/request/auth.server";
import { productListActionSchema } from "~/schemas/product";
import type { Route } from "./+types/products";

/** GET /admin/products?q=&category=&sort=&dir=&page=(&delete=id: the confirmation step without JavaScript). */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { db } = services(context);
  const url = new URL(request.url);
  const q = normalizeSearch(url.searchParams.get("q"));
  const categoryId = parseId(url.searchParams.get("category"));
  const language = getLanguage(context);
  const sort = parseSort(PRODUCT_SORTS, url.searchParams);
  const listing = await listAdminProducts(db, {
    sort,
    search: q,
    categoryId,
    page: Number(url.searchParams.get("page") ?? 1),
    currency: getCurrency(context),
    language,
  });
  const deleteId = parseId(url.searchParams.get("delete"));
  const t = getInstance(context).t;
  return {
    ...listing,
    // The colour summary and the stock badge level are worked out here, on the server.
    products: listing.products.map((product) => ({
      ...product,
      colourSummary: colourSummary(product.colors),
      stockLevel: stockLevel(product.total_stock),
    })),
    q,
    categoryId,
    sort,
    language,
    toDelete: deleteId === null ? null : await findProductName(db, deleteId),
    returnTo: listUrl(q, categoryId, sort, listing.page),
    title: `${t("adminProducts.title")} | ${t("admin.title")}`,
  };
}

/** The list URL with its cleaned parameters: where list actions and "Cancel" lead back to. */
function listUrl(q: string, categoryId: number | null, sort: ListSort<ProductSortKey>, page: number): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (categoryId !== null) params.set("category", String(categoryId));
  for (const [name, value] of sortParams(sort)) params.set(name, value);
  if (page > 1) params.set("page", String(page));
  return adminListPath(`/admin/products?${params.toString()}`);
}

/** intent=category (productId, categoryId) or intent=delete (productId); then back to the list. */
export const action = formAction(
  {
    schema: productListActionSchema,
    authorize: adminOnly,
  },
  async ({ context, form, submission, value, auth: admin }) => {
    const { db, storage } = services(context);
    const redirectTo = adminListPath(value.returnTo);
    try {
      if (value.intent === "category") {
        await updateProductCategory(db, admin, value.productId, value.categoryId);
        return succeed(context, form, { redirectTo, flash: { type: "success", key: "adminProducts.categoryUpdated" } });
      }
      await deleteProduct(db, storage, admin, value.productId);
      return succeed(context, form, { redirectTo, flash: { type: "success", key: "adminProducts.deleted" } });
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      // "Failed to delete product: Product not found": the model's reason inside the action's message.
      const reason = getInstance(context).t(error.problem.key as never);
      const key = value.intent === "delete" ? "adminProducts.deleteFailed" : "adminProducts.updateFailed";
      return refuse(submission, { key, params: { message: reason } }, error.status);
    }
  },
);

export default function AdminProducts({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const { products, categories, total, page, pages, q, categoryId, sort, language, toDelete, returnTo } = loaderData;
  const filtered = Boolean(q) || categoryId !== null;
  // A refusal from the model, or the first message of a post the list's own forms never send.
  const problem = actionData?.problem;
  const firstError = Object.values(actionData?.result?.error ?? {}).find((errors) => errors?.length)?.[0];
  const alert = problem
    ? translateKey(t, problem.key, problem.params)
    : firstError
      ? translateKey(t, firstError)
      : null;

  /** With JavaScript: confirm() then POST; without, the link leads to the ?delete= step. */
  const confirmDelete = (event: MouseEvent<HTMLAnchorElement>, id: number) => {
    event.preventDefault();
    if (!window.confirm(t("adminProducts.confirmDelete"))) return;
    void submit({ intent: "delete", productId: String(id), returnTo }, { method: "post" });
  };

  return (
    <div className="max-w-7xl">
      <AdminPageHeader title={t("adminProducts.title")}>
        <div className="flex flex-wrap gap-2">
          <ButtonLink to="/admin/categories" variant="secondary" size="sm">
            {t("adminProducts.manageCategories")}
          </ButtonLink>
          {/* A download: a plain POST form (audited; no client navigation), with and without JavaScript. */}
          <Form method="post" action="/admin/products/export" reloadDocument>
            <Button variant="secondary" size="sm">
              {t("adminProductCsv.exportButton")}
            </Button>
          </Form>
          <ButtonLink to="/admin/products/import" variant="secondary" size="sm">
            {t("adminProductCsv.importLink")}
          </ButtonLink>
          <ButtonLink to="/admin/products/new" size="sm">
            {t("adminProducts.newProduct")}
          </ButtonLink>
        </div>
      </AdminPageHeader>

      {alert ? (
        <div className="mt-4">
          <FormAlert title={alert} />
        </div>
      ) : null}

      {toDelete ? (
        <DeleteConfirmation
          heading={t("adminProducts.confirmDeleteTitle", { name: localized(toDelete, "name", language) })}
          fields={{ intent: "delete", productId: toDelete.id, returnTo }}
          confirmLabel={t("adminProducts.delete")}
          cancelLabel={t("adminProducts.cancel")}
          cancelTo={returnTo}
        >
          {t("adminProducts.confirmDelete")}
        </DeleteConfirmation>
      ) : null}

      <SearchForm
        id="admin-product-search"
        q={q}
        label={t("adminProducts.searchLabel")}
        placeholder={t("adminProducts.searchPlaceholder")}
        submitLabel={t("adminProducts.filter")}
        className="mt-6"
      >
        <SortInputs sort={sort} />
        <label htmlFor="admin-product-category" className="sr-only">
          {t("adminProducts.categoryFilterLabel")}
        </label>
        <select
          id="admin-product-category"
          name="category"
          defaultValue={categoryId ?? ""}
          key={categoryId ?? "all"}
          className="rounded-md border border-stone-300 bg-white px-3 py-2"
        >
          <option value="">{t("adminProducts.allCategories")}</option>
          {categories
            .filter((c) => c.is_active || c.id === categoryId)
            .map((category) => (
              <option key={category.id} value={category.id}>
                {localized(category, "name", language)}
              </option>
            ))}
        </select>
      </SearchForm>

      {total === 0 ? (
        <p className="mt-8 rounded-lg bg-white p-8 text-center text-stone-600 shadow-sm" data-testid="empty-state">
          {filtered ? t("adminProducts.noMatch") : t("adminProducts.noProducts")}
        </p>
      ) : (
        <>
          <p className="mt-4 text-sm text-stone-600" data-testid="product-count">
            {t("adminProducts.showing", { count: total })}
          </p>
          <ProductTable
            products={products}
            categories={categories}
            language={language}
            returnTo={returnTo}
            sort={sort}
            onDelete={confirmDelete}
          />
          <Pagination page={page} pages={pages} />
        </>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Products");
