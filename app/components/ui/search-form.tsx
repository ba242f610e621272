import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { Button, buttonClass } from "./button";

/**
 * A GET search form (works without JavaScript: the query is in the URL): a labelled search
 * input keyed by the current query, its button, and "Clear" while a query is shown.
 */
export function SearchForm({
  id,
  action,
  q,
  label,
  placeholder,
  submitLabel,
  clear,
  className = "",
  children,
}: {
  id: string;
  /** Where the form goes; the current page when unset. */
  action?: string;
  q: string;
  label: string;
  placeholder: string;
  submitLabel: string;
  /** The page without the query and its label; shown only while there is a query. */
  clear?: { to: string; label: string };
  className?: string;
  /** More filters sent with the query (a category select), between the input and the button. */
  children?: ReactNode;
}) {
  return (
    <Form method="get" action={action} role="search" className={`flex flex-col gap-2 sm:flex-row ${className}`}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        name="q"
        defaultValue={q}
        key={q}
        maxLength={100}
        placeholder={placeholder}
        className="w-full rounded-md border border-stone-300 bg-white px-3 py-2 sm:max-w-sm"
      />
      {children}
      <div className="flex gap-2">
        <Button>{submitLabel}</Button>
        {q && clear ? (
          <Link to={clear.to} className={buttonClass("secondary")}>
            {clear.label}
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
