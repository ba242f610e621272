import type { ReactNode } from "react";

export interface Column {
  label: ReactNode;
  className?: string;
}

/**
 * The admin lists' table: it scrolls sideways inside its own box on a phone (the page never
 * does), with one header row. Rows come as children (`<tr>` elements).
 */
export function AdminTable({
  columns,
  minWidth,
  testId,
  tableTestId,
  className = "mt-2",
  children,
}: {
  columns: (ReactNode | Column)[];
  /** A Tailwind min-width class, e.g. "min-w-[44rem]": below it the table scrolls. */
  minWidth: string;
  testId?: string;
  tableTestId?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={`${className} overflow-x-auto rounded-lg bg-white shadow-sm`} data-testid={testId}>
      <table className={`w-full ${minWidth} text-left text-sm`} data-testid={tableTestId}>
        <thead className="border-b border-stone-200 bg-stone-50 text-xs uppercase text-stone-600">
          <tr>
            {columns.map((column, index) => {
              const { label, className: cellClass = "" } =
                typeof column === "object" && column !== null && "label" in column
                  ? (column as Column)
                  : { label: column as ReactNode };
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: the columns are a fixed list
                <th key={index} scope="col" className={`px-3 py-2 ${cellClass}`}>
                  {label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">{children}</tbody>
      </table>
    </div>
  );
}
