import { type FieldMetadata, getInputProps } from "@conform-to/react";
import { type ChangeEvent, useEffect, useState } from "react";
import { useTranslation } from "~/lib/i18n";
import type { Problem } from "~/lib/problem";
import { translateKey } from "~/lib/translate-key";

/**
 * An image field's messages, translated: the image pipeline's refusal when it names this field
 * (it comes with its parameters, e.g. the size limit), else the field's own errors.
 */
export function useImageErrors(
  problem: Problem | null | undefined,
  field: { name: string; errors?: string[] },
): string[] | undefined {
  const { t } = useTranslation();
  return problem?.field === field.name
    ? [translateKey(t, problem.key, problem.params)]
    : field.errors?.map((key) => translateKey(t, key));
}

/**
 * A file input for one image with a local preview of the chosen file (when JavaScript runs),
 * its hint and its errors next to it. What is stored already (and removing it) stays with the
 * form that owns the image.
 */
export function ImagePicker({
  field: { id, name, errorId },
  label,
  hint,
  errors,
  accept = "image/jpeg,image/png,image/webp",
  previewAlt = "",
  clearLabel,
  previewClassName = "h-20 w-20 rounded-md object-cover",
}: {
  /** The Conform field (or the like): the input's id and name, and its error list's id. */
  field: { id: string; name: string; errorId: string };
  label: string;
  hint: string;
  /** Already translated messages. */
  errors?: string[];
  accept?: string;
  previewAlt?: string;
  /** Offer to forget the chosen file (empties the input). */
  clearLabel?: string;
  previewClassName?: string;
}) {
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    return () => {
      if (preview) URL.revokeObjectURL(preview);
    };
  }, [preview]);
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    setPreview(file ? URL.createObjectURL(file) : null);
  };
  const clear = () => {
    const input = document.getElementById(id) as HTMLInputElement | null;
    if (input) input.value = "";
    setPreview(null);
  };
  const hintId = `${id}-hint`;
  const invalid = Boolean(errors?.length);
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className="text-sm font-medium text-stone-800">
        {label}
      </label>
      {preview ? (
        <div className="flex flex-wrap items-center gap-3">
          <img src={preview} alt={previewAlt} className={previewClassName} />
          {clearLabel ? (
            <button type="button" onClick={clear} className="text-sm text-red-700 underline">
              {clearLabel}
            </button>
          ) : null}
        </div>
      ) : null}
      <input
        id={id}
        name={name}
        type="file"
        accept={accept}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid ? `${errorId} ${hintId}` : hintId}
        onChange={onChange}
        className="max-w-full text-sm"
      />
      <p id={hintId} className="text-xs text-stone-500">
        {hint}
      </p>
      {invalid ? (
        <ul id={errorId} className="space-y-0.5 text-sm text-red-700">
          {errors?.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The image stored already, with the checkbox that removes it when the form is saved. */
export function StoredImage({
  src,
  alt,
  className,
  remove,
  removeLabel,
  testId,
}: {
  src: string;
  alt: string;
  className: string;
  remove: FieldMetadata<string | boolean | undefined>;
  removeLabel: string;
  testId?: string;
}) {
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm">
      <img src={src} alt={alt} data-testid={testId} className={className} />
      <label className="flex items-center gap-2">
        <input {...getInputProps(remove, { type: "checkbox" })} className="size-4" />
        {removeLabel}
      </label>
    </div>
  );
}
