import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { useHydrated } from "~/lib/use-hydrated";

/**
 * The confirmation step of a delete (or another irreversible action) as a page section, so it
 * works without JavaScript: a POST with `fields` (plus confirmed=1) or a link back.
 */
export function DeleteConfirmation({
  heading,
  children,
  action,
  fields,
  confirmLabel,
  cancelLabel,
  cancelTo,
  id,
  headingLevel = 2,
  choices,
}: {
  heading: string;
  /** What is about to go: names, amounts, consequences. */
  children?: ReactNode;
  /** Fields posted with the confirmation (what to keep), above its buttons. */
  choices?: ReactNode;
  action?: string;
  fields: Record<string, string | number>;
  confirmLabel: string;
  cancelLabel: string;
  cancelTo: string;
  id?: string;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const headingId = `${id ?? "delete"}-heading`;
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      role="alertdialog"
      className="mt-6 rounded-lg border border-red-300 bg-red-50 p-6 text-red-900"
    >
      <Heading id={headingId} className="font-semibold">
        {heading}
      </Heading>
      {children ? <div className="mt-1 text-sm">{children}</div> : null}
      <Form method="post" action={action} className="mt-4 flex flex-wrap gap-3">
        {Object.entries({ ...fields, confirmed: "1" }).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {choices ? <div className="w-full">{choices}</div> : null}
        <button type="submit" className="rounded-md bg-red-600 px-4 py-2 font-semibold text-white hover:bg-red-700">
          {confirmLabel}
        </button>
        <Link
          to={cancelTo}
          className="rounded-md border border-stone-300 bg-white px-4 py-2 text-stone-900 hover:bg-stone-50"
        >
          {cancelLabel}
        </Link>
      </Form>
    </section>
  );
}

/**
 * The delete button of a list row. With JavaScript: confirm() with `question`, then the post
 * (confirmed). Without: the post comes back as the confirmation step above.
 */
export function DeleteButton({
  action,
  fields,
  question,
  label,
  ariaLabel,
}: {
  action: string;
  fields: Record<string, string | number>;
  question: string;
  label: string;
  ariaLabel: string;
}) {
  const hydrated = useHydrated();
  return (
    <Form
      method="post"
      action={action}
      onSubmit={(event) => {
        if (!window.confirm(question)) event.preventDefault();
      }}
    >
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {hydrated ? <input type="hidden" name="confirmed" value="1" /> : null}
      <button
        type="submit"
        aria-label={ariaLabel}
        className="rounded-md border border-red-300 px-3 py-1.5 text-sm text-red-700 hover:bg-red-50"
      >
        {label}
      </button>
    </Form>
  );
}
