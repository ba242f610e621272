/**
 * The admin lists' sorting (issue 29 item 6, docs/decisions/058): one helper shared by the
 * products, orders and customers lists. The sort lives in the query string (`?sort=price&dir=asc`),
 * so a header is a plain link that works without JavaScript and an address can be shared. Only a
 * list's whitelisted columns sort; an unknown column falls back to the list's default order, an
 * unknown direction to the column's first. Each sorted column has an index (migration 0030).
 */

export type SortDirection = "asc" | "desc";

export interface ListSort<K extends string = string> {
  /** A whitelisted column, or null for the list's default order (newest first). */
  key: K | null;
  dir: SortDirection;
}

/** A list's sortable columns, each with the direction its header asks for first. */
export type SortColumns<K extends string> = Readonly<Record<K, SortDirection>>;

export const SORT_PARAM = "sort";
export const DIR_PARAM = "dir";

/** The sort a list's address asks for, or its default order when it names no sortable column. */
export function parseSort<K extends string>(columns: SortColumns<K>, params: URLSearchParams): ListSort<K> {
  const key = params.get(SORT_PARAM);
  if (!key || !Object.hasOwn(columns, key)) return { key: null, dir: "desc" };
  const dir = params.get(DIR_PARAM);
  return { key: key as K, dir: dir === "asc" || dir === "desc" ? dir : columns[key as K] };
}

/**
 * The address a column's header leads to: this list sorted by `key` (the other direction when it
 * is sorted by it already), every other parameter (filters, search) kept, back to page 1.
 */
export function sortHref<K extends string>(
  columns: SortColumns<K>,
  current: ListSort<K>,
  key: K,
  location: { pathname: string; search: string },
): string {
  const params = new URLSearchParams(location.search);
  const dir: SortDirection = current.key === key ? (current.dir === "asc" ? "desc" : "asc") : columns[key];
  params.set(SORT_PARAM, key);
  params.set(DIR_PARAM, dir);
  params.delete("page");
  return `${location.pathname}?${params.toString()}`;
}

/** The header's `aria-sort`: only on the column the list is sorted by. */
export function ariaSort<K extends string>(current: ListSort<K>, key: K): "ascending" | "descending" | undefined {
  if (current.key !== key) return undefined;
  return current.dir === "asc" ? "ascending" : "descending";
}

/** The sort's parameters for a form or a return address (none for the default order). */
export function sortParams(sort: ListSort): [string, string][] {
  return sort.key
    ? [
        [SORT_PARAM, sort.key],
        [DIR_PARAM, sort.dir],
      ]
    : [];
}

/** Products: by name (in the admin's language) or price (in the admin's currency). */
export const PRODUCT_SORTS = { name: "asc", price: "asc" } as const satisfies SortColumns<string>;
export type ProductSortKey = keyof typeof PRODUCT_SORTS;

/** Orders: by number, customer (e-mail), total, status or date. */
export const ORDER_SORTS = {
  number: "desc",
  customer: "asc",
  total: "desc",
  status: "asc",
  date: "desc",
} as const satisfies SortColumns<string>;
export type OrderSortKey = keyof typeof ORDER_SORTS;

/** Customers: by e-mail or status. */
export const CUSTOMER_SORTS = { email: "asc", status: "asc" } as const satisfies SortColumns<string>;
export type CustomerSortKey = keyof typeof CUSTOMER_SORTS;
