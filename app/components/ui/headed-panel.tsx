import type { ReactNode } from "react";

/**
 * A white, bordered box named by its heading (`aria-labelledby`): the summary beside a page's
 * main column, a section of an order.
 */
export function HeadedPanel({
  as: Tag = "section",
  headingId,
  title,
  className = "",
  children,
}: {
  as?: "section" | "aside";
  /** The heading's id; unique on the page. */
  headingId: string;
  title: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Tag className={`rounded-lg border border-stone-200 bg-white p-5 ${className}`} aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </Tag>
  );
}
