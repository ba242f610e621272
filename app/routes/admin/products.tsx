import type { MouseEvent } from "react";
import {
  type ActionFunctionArgs,
  data,
  Form,
  Link,
  type LoaderFunctionArgs,
  redirect,
  useActionData,
  useLoaderData,
  useSubmit,
} from "react-router";
import { AdminTable } from "~/components/admin/admin-table";
import { DeleteConfirmation } from "~/components/admin/delete-confirmation";
import { Pagination } from "~/components/ui/pagination";
import { services } from "~/context";
import { requireAdmin } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { useTranslation } from "~/lib/i18n";
import { colorName } from "~/lib/localize";
import { formatMoney } from "~/lib/money";
import { readForm } from "~/lib/read-form";
import { getCurrency } from "~/middleware/currency";
import { getInstance, getLanguage } from "~/middleware/i18next";
import {
  type AdminCategoryOption,
  AdminProductError,
  type AdminProductRow,
  adminListPath,
  colourSummary,
  deleteProduct,
  listAdminProducts,
  parseId,
  stockLevel,
  updateProductCategory,
} from "~/models/products/admin-list.server";
import { normalizeSearch } from "~/models/products/catalog.server";

/** GET /admin/products?q=&category=&page=(&delete=id: the confirmation step without JavaScript). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireAdmin(context, request);
  const { db } = services(context);
  const url = new URL(request.url);
  const q = normalizeSearch(url.searchParams.get("q"));
  const categoryId = parseId(url.searchParams.get("category"));
  const language = getLanguage(context);
  const listing = await listAdminProducts(db, {
    search: q,
    categoryId,
    page: Number(url.searchParams.get("page") ?? 1),
    currency: getCurrency(context),
    language,
  });
  const deleteId = parseId(url.searchParams.get("delete"));
  const toDelete = deleteId
    ? ((await db
        .selectFrom("products")
        .select(["id", "name_en", "name_zh"])
        .where("id", "=", deleteId)
        .executeTakeFirst()) ?? null)
    : null;
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
    language,
    toDelete,
    returnTo: listUrl(q, categoryId, listing.page),
    title: `${t("adminProducts.title")} | ${t("admin.title")}`,
  };
}

/** The list URL with its cleaned parameters: where list actions and "Cancel" lead back to. */
function listUrl(q: string, categoryId: number | null, page: number): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (categoryId !== null) params.set("category", String(categoryId));
  if (page > 1) params.set("page", String(page));
  return adminListPath(`/admin/products?${params.toString()}`);
}

function badRequest(message: string) {
  return data({ ok: false as const, message }, { status: 400 });
}

/** intent=category (productId, categoryId) or intent=delete (productId); then back to the list. */
export async function action({ request, context }: ActionFunctionArgs) {
  const admin = requireAdmin(context, request);
  const { db, storage } = services(context);
  const t = getInstance(context).t;
  const form = await readForm(request);
  const back = adminListPath(form.get("returnTo"));
  const intent = form.get("intent");
  const productId = parseId(form.get("productId"));
  if (intent !== "category" && intent !== "delete") return badRequest(t("error.badRequest"));
  if (productId === null) return badRequest(t("adminProducts.notFound"));
  try {
    if (intent === "category") {
      const categoryId = parseId(form.get("categoryId"));
      if (categoryId === null) return badRequest(t("adminProducts.badCategory"));
      await updateProductCategory(db, admin, productId, categoryId);
      setFlash(context, { type: "success", key: "adminProducts.categoryUpdated" });
      return redirect(back);
    }
    await deleteProduct(db, storage, admin, productId);
    setFlash(context, { type: "success", key: "adminProducts.deleted" });
    return redirect(back);
  } catch (error) {
    if (!(error instanceof AdminProductError)) throw error;
    const message = t(error.key);
    return badRequest(
      intent === "delete" ? t("adminProducts.deleteFailed", { message }) : t("adminProducts.updateFailed", { message }),
    );
  }
}

const BADGE = {
  high: "bg-green-100 text-green-800",
  low: "bg-yellow-100 text-yellow-800",
  none: "bg-red-100 text-red-800",
} as const;

function categoryName(category: AdminCategoryOption, language: "en" | "zh") {
  return language === "zh" ? category.name_zh : category.name_en;
}

function CategoryForm({
  product,
  categories,
  language,
  returnTo,
}: {
  product: AdminProductRow;
  categories: AdminCategoryOption[];
  language: "en" | "zh";
  returnTo: string;
}) {
  const { t } = useTranslation();
  const options = categories.filter((c) => c.is_active || c.id === product.category_id);
  return (
    <Form method="post" className="flex items-center gap-2" key={`${product.id}-${product.category_id ?? "none"}`}>
      <input type="hidden" name="intent" value="category" />
      <input type="hidden" name="productId" value={product.id} />
      <input type="hidden" name="returnTo" value={returnTo} />
      <select
        name="categoryId"
        defaultValue={product.category_id ?? ""}
        aria-label={t("adminProducts.changeCategoryFor", {
          name: language === "zh" ? product.name_zh : product.name_en,
        })}
        className="rounded-md border border-stone-300 bg-white px-2 py-1 text-sm"
        onChange={(event) => event.currentTarget.form?.requestSubmit()}
      >
        {product.category_id === null ? (
          <option value="" disabled>
            {t("adminProducts.noCategory")}
          </option>
        ) : null}
        {options.map((category) => (
          <option key={category.id} value={category.id}>
            {categoryName(category, language)}
          </option>
        ))}
      </select>
      <button
        type="submit"
        className="rounded-md border border-stone-300 px-2 py-1 text-xs font-medium hover:bg-stone-100"
      >
        {t("adminProducts.save")}
      </button>
    </Form>
  );
}

function ColoursCell({ summary, language }: { summary: ReturnType<typeof colourSummary>; language: "en" | "zh" }) {
  const { t } = useTranslation();
  if (summary.kind === "none") return <span className="text-stone-500">{t("adminProducts.noColors")}</span>;
  if (summary.kind === "out") return <span className="text-red-700">{t("adminProducts.outOfStock")}</span>;
  return (
    <ul className="flex flex-col gap-0.5">
      {summary.shown.map((c) => (
        <li key={c.color} className="whitespace-nowrap">
          {c.color === "Default" ? t("colors.Default") : colorName(c, language)} ({c.stock})
        </li>
      ))}
      {summary.more > 0 ? (
        <li className="text-stone-500">{t("adminProducts.moreColors", { count: summary.more })}</li>
      ) : null}
    </ul>
  );
}

function deleteHref(returnTo: string, id: number): string {
  const url = new URL(returnTo, "http://local.invalid");
  url.searchParams.set("delete", String(id));
  return `${url.pathname}${url.search}`;
}

/*
 * The route's types come from React Router's function types rather than ./+types/products,
 * so the module type-checks before and after the route is registered in app/routes.ts.
 */
const COLUMNS = ["image", "name", "category", "price", "colorsStock", "stock", "featured", "actions"] as const;

export default function AdminProducts() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation();
  const submit = useSubmit();
  const { products, categories, total, page, pages, q, categoryId, language, toDelete, returnTo } = loaderData;
  const filtered = Boolean(q) || categoryId !== null;
  const nameOf = (p: { name_en: string; name_zh: string }) => (language === "zh" ? p.name_zh : p.name_en);
  const label = (column: (typeof COLUMNS)[number]) => t(`adminProducts.columns.${column}`);

  /** With JavaScript: confirm() then POST; without, the link leads to the ?delete= step. */
  const confirmDelete = (event: MouseEvent<HTMLAnchorElement>, id: number) => {
    event.preventDefault();
    if (!window.confirm(t("adminProducts.confirmDelete"))) return;
    void submit({ intent: "delete", productId: String(id), returnTo }, { method: "post" });
  };

  return (
    <div className="max-w-7xl">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">{t("adminProducts.title")}</h1>
        <div className="flex flex-wrap gap-2">
          <Link
            to="/admin/categories"
            className="rounded-md border border-stone-300 bg-white px-3 py-2 text-sm font-medium hover:bg-stone-50"
          >
            {t("adminProducts.manageCategories")}
          </Link>
          <Link
            to="/admin/products/new"
            className="rounded-md bg-brand-600 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-700"
          >
            {t("adminProducts.newProduct")}
          </Link>
        </div>
      </div>

      {actionData && !actionData.ok ? (
        <p role="alert" className="mt-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-red-900">
          {actionData.message}
        </p>
      ) : null}

      {toDelete ? (
        <DeleteConfirmation
          heading={t("adminProducts.confirmDeleteTitle", { name: nameOf(toDelete) })}
          fields={{ intent: "delete", productId: toDelete.id, returnTo }}
          confirmLabel={t("adminProducts.delete")}
          cancelLabel={t("adminProducts.cancel")}
          cancelTo={returnTo}
        >
          {t("adminProducts.confirmDelete")}
        </DeleteConfirmation>
      ) : null}

      <Form method="get" role="search" className="mt-6 flex flex-col gap-2 sm:flex-row">
        <label htmlFor="admin-product-search" className="sr-only">
          {t("adminProducts.searchLabel")}
        </label>
        <input
          id="admin-product-search"
          type="search"
          name="q"
          defaultValue={q}
          key={q}
          maxLength={100}
          placeholder={t("adminProducts.searchPlaceholder")}
          className="w-full rounded-md border border-stone-300 bg-white px-3 py-2 sm:max-w-sm"
        />
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
                {categoryName(category, language)}
              </option>
            ))}
        </select>
        <button
          type="submit"
          className="rounded-md bg-stone-800 px-4 py-2 text-sm font-semibold text-white hover:bg-stone-700"
        >
          {t("adminProducts.filter")}
        </button>
      </Form>

      {total === 0 ? (
        <p className="mt-8 rounded-lg bg-white p-8 text-center text-stone-600 shadow-sm" data-testid="empty-state">
          {filtered ? t("adminProducts.noMatch") : t("adminProducts.noProducts")}
        </p>
      ) : (
        <>
          <p className="mt-4 text-sm text-stone-600" data-testid="product-count">
            {t("adminProducts.showing", { count: total })}
          </p>
          <AdminTable columns={COLUMNS.map(label)} minWidth="min-w-[60rem]" testId="products-table" layout="cards">
            {products.map((product) => {
              const level = product.stockLevel;
              return (
                <tr key={product.id} data-product-id={product.id}>
                  <td className="px-3 py-2" data-label={label("image")}>
                    {product.image_url ? (
                      <img
                        src={product.image_url}
                        alt=""
                        width={48}
                        height={48}
                        loading="lazy"
                        className="size-12 rounded object-cover"
                      />
                    ) : (
                      <div className="size-12 rounded bg-stone-200" aria-hidden="true" />
                    )}
                  </td>
                  <td className="px-3 py-2 font-medium" data-label={label("name")}>
                    {nameOf(product)}
                  </td>
                  <td className="px-3 py-2" data-label={label("category")}>
                    <div className="flex flex-col items-start gap-1">
                      <CategoryForm product={product} categories={categories} language={language} returnTo={returnTo} />
                      {product.hidden_from_shoppers ? (
                        <span
                          className="whitespace-nowrap rounded bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900"
                          data-testid="hidden-badge"
                        >
                          {t("adminProducts.hiddenInactive")}
                        </span>
                      ) : null}
                    </div>
                  </td>
                  <td className="whitespace-nowrap px-3 py-2" data-testid="price" data-label={label("price")}>
                    {formatMoney(product.price_cents, product.currency)}
                  </td>
                  <td className="px-3 py-2" data-testid="colours" data-label={label("colorsStock")}>
                    <ColoursCell summary={product.colourSummary} language={language} />
                  </td>
                  <td className="px-3 py-2" data-label={label("stock")}>
                    <span
                      data-testid="stock-badge"
                      data-level={level}
                      className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${BADGE[level]}`}
                    >
                      {product.total_stock}
                    </span>
                  </td>
                  <td className="px-3 py-2" data-label={label("featured")}>
                    {product.is_featured ? (
                      <span className="inline-block rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-900">
                        {t("adminProducts.featured")}
                      </span>
                    ) : null}
                  </td>
                  <td className="whitespace-nowrap px-3 py-2" data-label={label("actions")}>
                    <div className="flex gap-2">
                      <Link
                        to={`/admin/products/edit/${product.id}`}
                        className="rounded-md border border-stone-300 px-2 py-1 text-xs font-medium hover:bg-stone-100"
                      >
                        {t("adminProducts.edit")}
                      </Link>
                      <Link
                        to={deleteHref(returnTo, product.id)}
                        onClick={(event) => confirmDelete(event, product.id)}
                        className="rounded-md border border-red-300 px-2 py-1 text-xs font-medium text-red-700 hover:bg-red-50"
                      >
                        {t("adminProducts.delete")}
                      </Link>
                    </div>
                  </td>
                </tr>
              );
            })}
          </AdminTable>
          <Pagination page={page} pages={pages} />
        </>
      )}
    </div>
  );
}

export function meta({ loaderData }: { loaderData?: { title?: string } }) {
  return [{ title: loaderData?.title ?? "Products" }, { name: "robots", content: "noindex" }];
}
