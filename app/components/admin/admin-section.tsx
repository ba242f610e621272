import type { ReactNode } from "react";
import { HeadedPanel } from "~/components/ui/headed-panel";

const LOOKS = {
  /** A white card. */
  card: { box: "rounded-lg bg-white p-6 shadow-sm", heading: "text-lg font-semibold" },
  /** No box of its own: a heading over its own table, list or cards. */
  bare: { box: "", heading: "text-lg font-semibold" },
  /** A main part of a long page (Settings): a larger heading over its own cards. */
  part: { box: "", heading: "text-xl font-semibold" },
  /** Something to act on before going on (the first-admin setup). */
  warning: {
    box: "rounded-lg border border-amber-300 bg-amber-50 p-6",
    heading: "text-lg font-semibold text-amber-900",
  },
} as const;

/**
 * A titled part of an admin page: a `<section>` named by its `<h2 id="{id}-heading">` (the id
 * links and tests point at), an optional line on what it is for, then its content (or, while
 * there is nothing to list, the `empty` sentence). `look` gives its box ("panel": the bordered
 * box the storefront's order pages use too), `className` its margins.
 */
export function AdminSection({
  id,
  heading,
  intro,
  look = "card",
  className = "",
  empty,
  children,
}: {
  id: string;
  heading: ReactNode;
  intro?: ReactNode;
  look?: keyof typeof LOOKS | "panel";
  className?: string;
  /** When set, the sentence said instead of the content (there is nothing to list). */
  empty?: ReactNode;
  children?: ReactNode;
}) {
  const body = (
    <>
      {intro ? <p className="mt-1 text-sm text-stone-600">{intro}</p> : null}
      {empty ? <p className="mt-2 rounded-lg bg-white p-6 text-stone-600 shadow-sm">{empty}</p> : children}
    </>
  );
  if (look === "panel") {
    return (
      <HeadedPanel headingId={`${id}-heading`} title={heading} className={className}>
        {body}
      </HeadedPanel>
    );
  }
  const classes = LOOKS[look];
  return (
    <section aria-labelledby={`${id}-heading`} className={`${classes.box} ${className}`.trim() || undefined}>
      <h2 id={`${id}-heading`} className={classes.heading}>
        {heading}
      </h2>
      {body}
    </section>
  );
}
