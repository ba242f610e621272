import type { SubmissionResult } from "@conform-to/react";
import type { getZodConstraint } from "@conform-to/zod/v4";
import { useEffect, useId, useRef, useState } from "react";
import type { z } from "zod";
import type { FormField } from "./field";

/** A storefront form: its id, its form-level errors (e.g. 'Login failed') and the `<form>`'s own attributes. */
export interface ServerForm {
  id: string;
  errors: string[] | undefined;
  /** Spread on the `<Form>`: its id, and no browser checks (the server's messages show instead). */
  props: { id: string; noValidate: true };
}

export interface ServerField extends FormField {
  errors: string[] | undefined;
  initialValue: string | undefined;
}

type Values = Record<string, unknown>;

/**
 * A storefront form, validated on the server only (docs/decisions/015 and 045): the action
 * parses with the shared schema (`formAction`) and answers 400 with Conform's reply; this gives
 * the fields what Conform's `useForm` gave them, without shipping Conform to the browser:
 * - ids as Conform makes them (`<form id>-<name>`, `…-error` for the error list), so a `Field`
 *   wires label, `aria-invalid` and `aria-describedby` the same way;
 * - the errors of the action's last reply, next to their fields, and the form's own errors;
 * - the values the form starts with: the user's input the reply sends back (never a hidden
 *   password), else `defaultValue`. Kept from the first render, as Conform keeps them: with
 *   JavaScript the browser still holds what the user typed; on a new form id they start over;
 * - the schema's HTML constraints from the loader (`getZodConstraint`);
 * - after a refusal answered without a reload, the focus on the first field in error.
 * Fields are flat (`fields.email`), which is all the storefront's forms have.
 */
export function useServerForm<Schema extends z.ZodType<unknown, Record<string, unknown>>>(
  lastResult: SubmissionResult<string[]> | undefined,
  constraint: ReturnType<typeof getZodConstraint>,
  options: { id?: string; defaultValue?: Partial<Record<keyof z.input<Schema>, string>> } = {},
): [ServerForm, { [Name in keyof z.input<Schema>]-?: ServerField }] {
  const generatedId = useId();
  const id = options.id ?? generatedId;
  const [start, setStart] = useState<{ id: string; values: Values }>(() => ({
    id,
    values: lastResult?.initialValue ?? options.defaultValue ?? {},
  }));
  let values = start.values;
  if (start.id !== id) {
    values = options.defaultValue ?? {};
    setStart({ id, values });
  }
  const errors = lastResult?.error ?? {};
  useFocusOnFirstError(id, lastResult);

  const field = (name: string): ServerField => {
    const value = values[name];
    return {
      ...constraint[name],
      id: `${id}-${name}`,
      name,
      errorId: `${id}-${name}-error`,
      errors: errors[name] ?? undefined,
      initialValue: typeof value === "string" ? value : undefined,
    };
  };
  const fields = new Proxy({} as { [Name in keyof z.input<Schema>]-?: ServerField }, {
    get: (_, name) => (typeof name === "string" ? field(name) : undefined),
  });
  return [{ id, errors: errors[""] ?? undefined, props: { id, noValidate: true } }, fields];
}

/**
 * With JavaScript a refusal comes back without a reload: the focus moves to the first field the
 * reply finds fault with, as Conform did (not on the first render, nor for a form-level error).
 */
function useFocusOnFirstError(formId: string, lastResult: SubmissionResult<string[]> | undefined) {
  const shown = useRef(lastResult);
  useEffect(() => {
    if (lastResult === shown.current) return;
    shown.current = lastResult;
    if (lastResult?.status !== "error") return;
    const form = document.forms.namedItem(formId);
    for (const element of form?.elements ?? []) {
      const control =
        element instanceof HTMLTextAreaElement ||
        element instanceof HTMLSelectElement ||
        (element instanceof HTMLInputElement && !["submit", "button", "reset", "hidden"].includes(element.type));
      if (control && lastResult.error?.[(element as HTMLInputElement).name]) {
        (element as HTMLInputElement).focus();
        return;
      }
    }
  }, [formId, lastResult]);
}
