import type { MouseEvent } from "react";
import { Form, Link } from "react-router";
import { AdminTable } from "~/components/admin/admin-table";
import { SortLinks, useSortHeaders } from "~/components/admin/sort-header";
import { Thumbnail } from "~/components/ui/thumbnail";
import { DEFAULT_COLOR } from "~/lib/colors";
import { useTranslation } from "~/lib/i18n";
import { type ListSort, PRODUCT_SORTS, type ProductSortKey } from "~/lib/list-sort";
import { colorName, localized } from "~/lib/localize";
import { formatMoney } from "~/lib/money";
import type { Language } from "~/locales";
import type {
  AdminCategoryOption,
  AdminProductRow,
  colourSummary,
  stockLevel,
} from "~/models/products/admin-list.server";

/** A row of the admin product list, with what the server worked out for it. */
export type ProductTableRow = AdminProductRow & {
  colourSummary: ReturnType<typeof colourSummary>;
  stockLevel: ReturnType<typeof stockLevel>;
};

const BADGE = {
  high: "bg-green-100 text-green-800",
  low: "bg-yellow-100 text-yellow-800",
  none: "bg-red-100 text-red-800",
} as const;

const COLUMNS = ["image", "name", "category", "price", "colorsStock", "stock", "featured", "actions"] as const;

/** The category of one product: changes as soon as another is chosen (with JavaScript), or with Save. */
function CategoryForm({
  product,
  categories,
  language,
  returnTo,
}: {
  product: AdminProductRow;
  categories: AdminCategoryOption[];
  language: Language;
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
        aria-label={t("adminProducts.changeCategoryFor", { name: localized(product, "name", language) })}
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
            {localized(category, "name", language)}
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

function ColoursCell({ summary, language }: { summary: ProductTableRow["colourSummary"]; language: Language }) {
  const { t } = useTranslation();
  if (summary.kind === "none") return <span className="text-stone-500">{t("adminProducts.noColors")}</span>;
  if (summary.kind === "out") return <span className="text-red-700">{t("adminProducts.outOfStock")}</span>;
  return (
    <ul className="flex flex-col gap-0.5">
      {summary.shown.map((c) => (
        <li key={c.color} className="whitespace-nowrap">
          {c.color === DEFAULT_COLOR ? t("colors.Default") : colorName(c, language)} ({c.stock})
        </li>
      ))}
      {summary.more > 0 ? (
        <li className="text-stone-500">{t("adminProducts.moreColors", { count: summary.more })}</li>
      ) : null}
    </ul>
  );
}

/** "3 waiting": shoppers asked to be e-mailed when it is back (docs/decisions/055). */
function WaitingMarker({ count }: { count: number }) {
  const { t } = useTranslation();
  return (
    <span
      data-testid="waiting"
      title={t("stockAlerts.adminWaitingTitle")}
      className="mt-1 block whitespace-nowrap text-xs font-semibold text-amber-800"
    >
      {t("stockAlerts.adminWaiting", { count })}
    </span>
  );
}

function deleteHref(returnTo: string, id: number): string {
  const url = new URL(returnTo, "http://local.invalid");
  url.searchParams.set("delete", String(id));
  return `${url.pathname}${url.search}`;
}

/**
 * The admin product list as a table (cards on a phone). Delete is a link to the list's
 * confirmation step; with JavaScript it asks with confirm() and posts through `onDelete`.
 */
export function ProductTable({
  products,
  categories,
  language,
  returnTo,
  sort,
  onDelete,
}: {
  products: ProductTableRow[];
  categories: AdminCategoryOption[];
  language: Language;
  returnTo: string;
  /** The list's order: the name and price headers sort it (list-sort.ts). */
  sort: ListSort<ProductSortKey>;
  onDelete: (event: MouseEvent<HTMLAnchorElement>, id: number) => void;
}) {
  const { t } = useTranslation();
  const label = (column: (typeof COLUMNS)[number]) => t(`adminProducts.columns.${column}`);
  const cell = "px-3 py-2";
  const sortable = useSortHeaders(PRODUCT_SORTS, sort);
  const headers = COLUMNS.map((column) =>
    column === "name" || column === "price" ? sortable(column, label(column)) : label(column),
  );
  return (
    <>
      <SortLinks columns={PRODUCT_SORTS} sort={sort} labels={{ name: label("name"), price: label("price") }} />
      <AdminTable columns={headers} minWidth="min-w-[60rem]" testId="products-table" layout="cards">
        {products.map((product) => (
          <tr key={product.id} data-product-id={product.id}>
            <td className={cell} data-label={label("image")}>
              <Thumbnail src={product.image_url} width={48} height={48} className="size-12 rounded" />
            </td>
            <td className={`${cell} font-medium`} data-label={label("name")}>
              {localized(product, "name", language)}
            </td>
            <td className={cell} data-label={label("category")}>
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
            <td className={`whitespace-nowrap ${cell}`} data-testid="price" data-label={label("price")}>
              {formatMoney(product.price_cents, product.currency)}
            </td>
            <td className={cell} data-testid="colours" data-label={label("colorsStock")}>
              <ColoursCell summary={product.colourSummary} language={language} />
            </td>
            <td className={cell} data-label={label("stock")}>
              <span
                data-testid="stock-badge"
                data-level={product.stockLevel}
                className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${BADGE[product.stockLevel]}`}
              >
                {product.total_stock}
              </span>
              {product.waiting > 0 ? <WaitingMarker count={product.waiting} /> : null}
            </td>
            <td className={cell} data-label={label("featured")}>
              {product.is_featured ? (
                <span className="inline-block rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-900">
                  {t("adminProducts.featured")}
                </span>
              ) : null}
            </td>
            <td className={`whitespace-nowrap ${cell}`} data-label={label("actions")}>
              <div className="flex gap-2">
                <Link
                  to={`/admin/products/edit/${product.id}`}
                  className="rounded-md border border-stone-300 px-2 py-1 text-xs font-medium hover:bg-stone-100"
                >
                  {t("adminProducts.edit")}
                </Link>
                <Link
                  to={deleteHref(returnTo, product.id)}
                  onClick={(event) => onDelete(event, product.id)}
                  className="rounded-md border border-red-300 px-2 py-1 text-xs font-medium text-red-700 hover:bg-red-50"
                >
                  {t("adminProducts.delete")}
                </Link>
              </div>
            </td>
          </tr>
        ))}
      </AdminTable>
    </>
  );
}
