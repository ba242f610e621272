import type { ReactNode } from "react";

export interface Column {
  label: ReactNode;
  className?: string;
  /** The column the table is sorted by (list-sort.ts). */
  ariaSort?: "ascending" | "descending";
}

/**
 * A table's header row: a `<th scope="col">` a column, with `cellClass` and the column's own
 * classes (a column is its label, or `{ label, className }`).
 */
export function HeadingRow({
  columns,
  cellClass = "px-3 py-2",
}: {
  columns: (ReactNode | Column)[];
  cellClass?: string;
}) {
  return (
    <tr>
      {columns.map((column, index) => {
        const {
          label,
          className = "",
          ariaSort,
        } = typeof column === "object" && column !== null && "label" in column
          ? (column as Column)
          : { label: column as ReactNode };
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the columns are a fixed list
          <th key={index} scope="col" className={`${cellClass} ${className}`.trim()} aria-sort={ariaSort}>
            {label}
          </th>
        );
      })}
    </tr>
  );
}

/**
 * Below 640 px a "cards" table shows each row as a card: the header row is hidden and every
 * cell is a block with its column's name (the cell's `data-label`) in a column on its left, so
 * the status and the actions are on screen without scrolling sideways. Plain CSS on the same
 * markup: one table for every width, the same forms and links, nothing that needs JavaScript.
 */
const CARDS = [
  "max-sm:block max-sm:min-w-0",
  "max-sm:[&>thead]:hidden",
  "max-sm:[&>tbody]:block",
  "max-sm:[&>tbody>tr]:block max-sm:[&>tbody>tr]:py-2",
  "max-sm:[&>tbody>tr>td]:relative max-sm:[&>tbody>tr>td]:block max-sm:[&>tbody>tr>td]:max-w-none",
  "max-sm:[&>tbody>tr>td]:py-1 max-sm:[&>tbody>tr>td]:pl-30 max-sm:[&>tbody>tr>td]:whitespace-normal",
  "max-sm:[&>tbody>tr>td:empty]:hidden",
  "max-sm:[&>tbody>tr>td]:before:absolute max-sm:[&>tbody>tr>td]:before:left-3 max-sm:[&>tbody>tr>td]:before:w-24",
  "max-sm:[&>tbody>tr>td]:before:pt-0.5 max-sm:[&>tbody>tr>td]:before:text-xs",
  "max-sm:[&>tbody>tr>td]:before:font-semibold max-sm:[&>tbody>tr>td]:before:uppercase",
  "max-sm:[&>tbody>tr>td]:before:text-stone-600 max-sm:[&>tbody>tr>td]:before:content-[attr(data-label)]",
].join(" ");

/**
 * The admin lists' table, with one header row; rows come as children (`<tr>` elements).
 * `layout="scroll"` (the default): on a phone it scrolls sideways inside its own box (the page
 * never does). `layout="cards"`: on a phone each row is a card (see CARDS); every `<td>` then
 * carries `data-label` with its column's name.
 * A scrolling table with no link or button inside passes `labelledBy` (the id of its heading):
 * its box becomes a named group in the tab order, so a keyboard can scroll it (WCAG 2.1.1).
 */
export function AdminTable({
  columns,
  minWidth,
  testId,
  tableTestId,
  className = "mt-2",
  layout = "scroll",
  labelledBy,
  children,
}: {
  columns: (ReactNode | Column)[];
  /** A Tailwind min-width class, e.g. "min-w-[44rem]": below it the table scrolls. */
  minWidth: string;
  testId?: string;
  tableTestId?: string;
  className?: string;
  layout?: "scroll" | "cards";
  /** The id of the element that names the table's box; makes the box focusable. */
  labelledBy?: string;
  children: ReactNode;
}) {
  const keyboardScroll = labelledBy ? ({ role: "group", "aria-labelledby": labelledBy, tabIndex: 0 } as const) : {};
  return (
    <div
      className={`${className} overflow-x-auto rounded-lg bg-white shadow-sm`}
      data-testid={testId}
      data-layout={layout}
      {...keyboardScroll}
    >
      <table
        className={`w-full ${minWidth} text-left text-sm ${layout === "cards" ? CARDS : ""}`}
        data-testid={tableTestId}
      >
        <thead className="border-b border-stone-200 bg-stone-50 text-xs uppercase text-stone-600">
          <HeadingRow columns={columns} />
        </thead>
        <tbody className="divide-y divide-stone-100">{children}</tbody>
      </table>
    </div>
  );
}
