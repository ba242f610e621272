import { type FieldMetadata, getInputProps } from "@conform-to/react";
import type { ReactNode } from "react";

/** A switch of a form (Published, Active): the checkbox in its label, and a line on what it does. */
export function CheckboxField({
  field,
  label,
  hint,
  className = "",
}: {
  field: FieldMetadata<string | boolean | undefined>;
  label: string;
  hint: ReactNode;
  className?: string;
}) {
  return (
    <div className={`flex flex-col gap-1 ${className}`.trim()}>
      <label className="flex items-center gap-2 text-sm font-medium text-stone-800">
        <input {...getInputProps(field, { type: "checkbox" })} className="size-4" />
        {label}
      </label>
      <p className="text-xs text-stone-500">{hint}</p>
    </div>
  );
}
