import { cloneElement, Fragment, isValidElement, type ReactNode } from "react";
import { useNavigation } from "react-router";
import { useTranslation } from "~/lib/i18n";
import { type Problem, readFieldMessage } from "~/lib/problem";
import { translateKey } from "~/lib/translate-key";

/**
 * Error messages are translation keys (from the shared Zod schemas), some with parameters
 * (`fieldMessage`); shown next to the field.
 */
export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  const { t } = useTranslation();
  if (!errors?.length) return null;
  return (
    <ul id={id} className="mt-1 space-y-0.5 text-sm text-red-700">
      {errors.map((error) => {
        const { key, params } = readFieldMessage(error);
        return <li key={error}>{translateKey(t, key, params)}</li>;
      })}
    </ul>
  );
}

interface FieldProps {
  label: string;
  hint?: string;
  errors?: string[] | null;
  /** The error list's id; `<htmlFor>-error` (Conform's own `errorId` for a field) when not given. */
  errorId?: string;
  /** The one form control (`input`, `select`, `textarea`): it gets the id and ARIA wiring. */
  children: ReactNode;
  htmlFor: string;
}

type ControlProps = {
  id?: string;
  "aria-invalid"?: boolean | "true" | "false";
  "aria-describedby"?: string;
};

/** Space-separated id lists joined without repeats or blanks. */
function joinIds(...lists: (string | undefined)[]): string | undefined {
  const ids = [...new Set(lists.flatMap((list) => list?.split(/\s+/) ?? []).filter(Boolean))];
  return ids.length ? ids.join(" ") : undefined;
}

/**
 * A labelled form control with its hint and errors, wired for assistive technology: the label
 * points at the control, and the control gets `aria-invalid` when there are errors and
 * `aria-describedby` naming the error list (when shown) and the hint. What the caller already
 * put on the control wins (`id`, `aria-invalid`) or is kept (`aria-describedby` ids come first).
 */
export function Field({ label, hint, errors, errorId, children, htmlFor }: FieldProps) {
  const invalid = Boolean(errors?.length);
  const errorListId = errorId ?? `${htmlFor}-error`;
  const hintId = hint ? `${htmlFor}-hint` : undefined;
  let control = children;
  if (isValidElement<ControlProps>(children) && children.type !== Fragment) {
    const own = children.props;
    control = cloneElement(children, {
      id: own.id ?? htmlFor,
      "aria-invalid": own["aria-invalid"] ?? (invalid ? true : undefined),
      "aria-describedby": joinIds(own["aria-describedby"], invalid ? errorListId : undefined, hintId),
    });
  }
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={htmlFor} className="text-sm font-medium text-stone-800">
        {label}
      </label>
      {control}
      {hint ? (
        <p id={hintId} className="text-xs text-stone-500">
          {hint}
        </p>
      ) : null}
      <ErrorList id={errorListId} errors={errors} />
    </div>
  );
}

export const inputClass =
  "w-full rounded-md border border-stone-300 bg-white px-3 py-2 text-stone-900 shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 aria-[invalid=true]:border-red-500";

/** A submit button that says it is working while its form is being sent. */
export function StatusButton({
  children,
  pendingText,
  name,
  value,
  className = "",
}: {
  children: ReactNode;
  pendingText?: string;
  name?: string;
  value?: string;
  className?: string;
}) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && (!name || navigation.formData?.get(name) === value);
  return (
    <button
      type="submit"
      name={name}
      value={value}
      disabled={pending}
      className={`rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-60 ${className}`}
    >
      {pending && pendingText ? pendingText : children}
    </button>
  );
}

/** A form-level message (e.g. 'Login failed') rendered with the form, so it shows without JavaScript. */
export function FormAlert({ title, detail }: { title: string; detail?: string }) {
  return (
    <div role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-red-900">
      <p className="font-medium">{title}</p>
      {detail ? <p className="text-sm">{detail}</p> : null}
    </div>
  );
}

/** A refusal (`Problem`) as a form-level alert: its message and its detail line, in the reader's language. */
export function ProblemAlert({ problem }: { problem: Problem }) {
  const { t } = useTranslation();
  return (
    <FormAlert
      title={translateKey(t, problem.key, problem.params)}
      detail={problem.detailKey ? translateKey(t, problem.detailKey, problem.params) : undefined}
    />
  );
}

/**
 * Form-level errors from the server (Conform's form errors): the first key is the title, the
 * rest the detail, e.g. ['flash.loginFailed', 'flash.loginFailedDetail'].
 */
export function FormErrors({ errors, params }: { errors?: string[] | null; params?: Record<string, unknown> }) {
  const { t } = useTranslation();
  const [title, ...details] = errors ?? [];
  if (!title) return null;
  return (
    <FormAlert
      title={translateKey(t, title, params)}
      detail={details.map((key) => translateKey(t, key, params)).join(" ") || undefined}
    />
  );
}

/**
 * What a `Field` and its control need to know of a form field. Both Conform's `FieldMetadata`
 * (admin forms, validated in the browser too) and `useServerForm`'s fields (storefront forms,
 * validated on the server only: docs/decisions/015 and 045) satisfy it, so the shared parts
 * (`FieldFor`, `PasswordField`, `SignInFields`) take either.
 */
export interface FormField {
  id: string;
  name: string;
  /** The id of the field's error list. */
  errorId: string;
  errors?: string[] | null;
  /** The value the control starts with: the user's input kept after a refusal, or the default. */
  initialValue?: unknown;
  /** The schema's HTML constraints. */
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  min?: string | number;
  max?: string | number;
  step?: string | number;
  pattern?: string;
}

/**
 * The attributes of a field's text control: id, name, the schema's HTML constraints and its
 * starting value (what Conform's `getInputProps`/`getTextareaProps` give a text control). `Field`
 * adds `aria-invalid` and `aria-describedby`.
 */
function textControlProps(field: FormField) {
  const { id, name, initialValue, required, minLength, maxLength } = field;
  return {
    id,
    name,
    required: required || undefined,
    minLength,
    maxLength,
    defaultValue: typeof initialValue === "string" ? initialValue : undefined,
  };
}

/** An `<input>`'s attributes for a field (see `textControlProps`), with its type. */
export function inputProps(
  field: FormField,
  type: "text" | "email" | "password" | "tel" | "url" | "search" | "number",
) {
  const { min, max, step, pattern } = field;
  return { ...textControlProps(field), type, min, max, step, pattern };
}

/** A `<textarea>`'s attributes for a field (see `textControlProps`). */
export function textareaProps(field: FormField) {
  return textControlProps(field);
}

/** A `<select>`'s attributes for a field: id, name, `required` and the option chosen at first. */
export function selectProps(field: FormField) {
  const { id, name, required, defaultValue } = textControlProps(field);
  return { id, name, required, defaultValue };
}

/** A password input with its label, hint and errors (sign-in, account, reset). */
export function PasswordField({
  field,
  label,
  hint,
  autoComplete,
}: {
  field: FormField;
  label: string;
  hint?: string;
  autoComplete: "current-password" | "new-password";
}) {
  return (
    <Field label={label} htmlFor={field.id} hint={hint} errors={field.errors} errorId={field.errorId}>
      <input {...inputProps(field, "password")} autoComplete={autoComplete} className={inputClass} />
    </Field>
  );
}

/** A `Field` for a form field: the control's id, the errors and their list's id come from it. */
export function FieldFor({
  field,
  ...props
}: Omit<FieldProps, "htmlFor" | "errors" | "errorId"> & {
  field: Pick<FormField, "id" | "errors" | "errorId">;
}) {
  return <Field {...props} htmlFor={field.id} errors={field.errors} errorId={field.errorId} />;
}
