import { type FieldMetadata, getInputProps } from "@conform-to/react";
import type { ReactNode } from "react";
import { AdminSection } from "~/components/admin/admin-section";
import { inputClass } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import { translateKey } from "~/lib/translate-key";

/** One titled card of the Shop details form. */
export function Section({
  id,
  heading,
  intro,
  children,
}: {
  id: string;
  heading: string;
  intro?: string;
  children: ReactNode;
}) {
  return (
    <AdminSection id={id} heading={heading} intro={intro}>
      <div className="mt-4">{children}</div>
    </AdminSection>
  );
}

/** An amount input labelled for screen readers (the table's headers label it visually). */
export function MoneyInput({
  field,
  label,
  hint,
}: {
  field: FieldMetadata<string | undefined>;
  label: string;
  hint?: string;
}) {
  const { t } = useTranslation();
  const hintId = `${field.id}-hint`;
  const describedBy = [field.errors?.length ? field.errorId : null, hint ? hintId : null].filter(Boolean).join(" ");
  return (
    <div className="flex flex-col gap-1">
      <input
        {...getInputProps(field, { type: "text" })}
        aria-label={label}
        aria-describedby={describedBy || undefined}
        inputMode="decimal"
        className={`${inputClass} max-w-[10rem]`}
      />
      {hint ? (
        <p id={hintId} className="text-xs text-stone-500">
          {hint}
        </p>
      ) : null}
      {field.errors?.length ? (
        <ul id={field.errorId} className="space-y-0.5 text-sm text-red-700">
          {field.errors.map((key) => (
            <li key={key}>{translateKey(t, key)}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
