import { Link, useLocation } from "react-router";
import type { Column } from "~/components/admin/admin-table";
import { useTranslation } from "~/lib/i18n";
import { ariaSort, DIR_PARAM, type ListSort, SORT_PARAM, type SortColumns, sortHref } from "~/lib/list-sort";

/**
 * A list's column headers that sort (docs/decisions/058): `column(key, label)` is a header whose
 * label is a link to the list sorted by it (the other way when it already is), with a visible
 * arrow and `aria-sort` on the sorted one; `plain(label)` is a header that does not sort.
 */
export function useSortHeaders<K extends string>(columns: SortColumns<K>, sort: ListSort<K>) {
  const { t } = useTranslation();
  const location = useLocation();
  return (key: K, label: string): Column => {
    const shown = ariaSort(sort, key);
    return {
      ariaSort: shown,
      label: (
        <Link
          to={sortHref(columns, sort, key, location)}
          className="inline-flex items-center gap-1 uppercase hover:text-stone-900 hover:underline"
          data-sort={key}
        >
          {label}
          <span aria-hidden="true" className={shown ? "text-stone-900" : "text-stone-400"}>
            {shown === "ascending" ? "▲" : shown === "descending" ? "▼" : "↕"}
          </span>
          <span className="sr-only">
            {shown === "ascending"
              ? t("admin.sort.ascending")
              : shown === "descending"
                ? t("admin.sort.descending")
                : t("admin.sort.sortable")}
          </span>
        </Link>
      ),
    };
  };
}

/**
 * The same sort links for a "cards" table on a phone, whose header row is hidden: a row of links
 * above the cards, the sorted one marked (`aria-current`) with its arrow.
 */
export function SortLinks<K extends string>({
  columns,
  sort,
  labels,
}: {
  columns: SortColumns<K>;
  sort: ListSort<K>;
  labels: Record<K, string>;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <nav aria-label={t("admin.sort.label")} className="mt-3 flex flex-wrap items-center gap-2 text-sm sm:hidden">
      <span className="text-stone-600">{t("admin.sort.label")}:</span>
      {(Object.keys(columns) as K[]).map((key) => {
        const shown = ariaSort(sort, key);
        return (
          <Link
            key={key}
            to={sortHref(columns, sort, key, location)}
            aria-current={shown ? "true" : undefined}
            className={`rounded-md border px-2 py-1 ${shown ? "border-stone-800 font-semibold" : "border-stone-300"}`}
          >
            {labels[key]}
            {shown ? (
              <>
                <span aria-hidden="true"> {shown === "ascending" ? "▲" : "▼"}</span>
                <span className="sr-only">
                  {shown === "ascending" ? t("admin.sort.ascending") : t("admin.sort.descending")}
                </span>
              </>
            ) : null}
          </Link>
        );
      })}
    </nav>
  );
}

/** The list's sort, carried by its filter form (a search keeps the order the admin chose). */
export function SortInputs({ sort }: { sort: ListSort }) {
  if (!sort.key) return null;
  return (
    <>
      <input type="hidden" name={SORT_PARAM} value={sort.key} />
      <input type="hidden" name={DIR_PARAM} value={sort.dir} />
    </>
  );
}
