import type { FieldMetadata, FormMetadata } from "@conform-to/react";
import { type ChangeEvent, useEffect, useState } from "react";
import { buttonClass } from "~/components/ui/button";
import { ErrorList, Field, inputClass } from "~/components/ui/field";
import { DEFAULT_COLOR } from "~/lib/colors";
import { useTranslation } from "~/lib/i18n";
import { colorName } from "~/lib/localize";
import { translateKey } from "~/lib/translate-key";
import type { Language } from "~/locales";
import {
  KEPT_IMAGE_FIELD,
  type KeptImages,
  MAX_PRODUCT_IMAGES,
  type ProductFormInput,
  REMOVE_KEPT_IMAGE_FIELD,
} from "~/schemas/product";

/**
 * The image keys of a form value that belong to the product (in their order, each once): a key
 * the page did not hand out is never shown, so it is not sent back either (the model ignores
 * unknown keys as well).
 */
export function shownImageKeys(keys: unknown, urls: Record<string, string>): string[] {
  const list = Array.isArray(keys) ? keys : [];
  return list.filter(
    (key, index): key is string => typeof key === "string" && key in urls && list.indexOf(key) === index,
  );
}

/** An image item of the form's value: a bare key, or `{ key, color }`. */
function imageItem(value: unknown): { key: unknown; color: string } {
  if (value && typeof value === "object" && "key" in value) {
    const color = "color" in value && typeof value.color === "string" ? value.color : "";
    return { key: value.key, color };
  }
  return { key: value, color: "" };
}

/** A colour the images can be tagged with: its English name (the value) and Chinese name. */
export interface ImageColorOption {
  color: string;
  color_zh?: string | null;
}

/** The named colours of the form's colour rows as saved or last submitted (each once, named). */
export function imageColorOptions(rows: unknown[]): ImageColorOption[] {
  const seen = new Set<string>();
  const options: ImageColorOption[] = [];
  for (const row of rows) {
    if (!row || typeof row !== "object" || !("color" in row) || typeof row.color !== "string") continue;
    const color = row.color.trim();
    if (!color || color === DEFAULT_COLOR || seen.has(color)) continue;
    seen.add(color);
    const zh = "color_zh" in row && typeof row.color_zh === "string" ? row.color_zh.trim() : "";
    options.push({ color, color_zh: zh || null });
  }
  return options;
}

/**
 * The file input for new images. Its hint says how many places are free; with JavaScript the
 * chosen files show as thumbnails before saving (object URLs, revoked when the choice changes or
 * the form goes away) and the hint counts them against the free places.
 */
function NewImagesInput({ free }: { free: number }) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<{ url: string; name: string }[]>([]);
  useEffect(
    () => () => {
      for (const image of chosen) URL.revokeObjectURL(image.url);
    },
    [chosen],
  );
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.currentTarget.files ?? [])];
    setChosen(files.map((file) => ({ url: URL.createObjectURL(file), name: file.name })));
  };
  const room = Math.max(0, free);
  const count =
    chosen.length === 0
      ? t("adminProductForm.imagesFree", { count: room })
      : chosen.length <= room
        ? t("adminProductForm.imagesChosen", { count: chosen.length, free: room })
        : t("adminProductForm.imagesTooMany", { count: room, chosen: chosen.length });
  return (
    <Field
      label={t("adminProductForm.addImages")}
      htmlFor="product-newImages"
      hint={t("adminProductForm.addImagesHintWithFree", { hint: t("adminProductForm.addImagesHint"), free: count })}
    >
      <input
        id="product-newImages"
        name="newImages"
        type="file"
        multiple
        accept="image/jpeg,image/png,image/webp"
        disabled={room <= 0}
        onChange={onChange}
        className="max-w-full text-sm"
      />
      {chosen.length > 0 ? (
        <div className="mt-1">
          <p className="text-sm text-stone-700">{t("adminProductForm.chosenImages")}</p>
          <ul className="mt-2 flex flex-wrap gap-2">
            {chosen.map((image, index) => (
              <li key={image.url}>
                <img
                  src={image.url}
                  alt={t("adminProductForm.chosenImageAlt", { number: index + 1, name: image.name })}
                  className="size-16 rounded border border-stone-200 object-cover"
                />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Field>
  );
}

/**
 * Without JavaScript: the images chosen before an answer that saved nothing ("Add colour", a
 * missing name…), kept on the server (app/models/products/staged-images.server.ts). Each goes back
 * with the form as a hidden token; ticking "Leave out" drops it. Then what was not kept, and why.
 */
function KeptImagesList({ kept }: { kept: KeptImages }) {
  const { t } = useTranslation();
  return (
    <>
      {kept.staged.length > 0 ? (
        <div data-testid="kept-images">
          <p className="text-sm text-stone-700">{t("adminProductForm.keptImages")}</p>
          <ul className="mt-2 flex flex-wrap gap-4">
            {kept.staged.map((image, index) => (
              <li key={image.token} className="flex flex-col items-start gap-1 text-sm">
                <input type="hidden" name={KEPT_IMAGE_FIELD} value={`${image.token}:${image.name}`} />
                <img
                  src={image.preview}
                  alt={t("adminProductForm.keptImageAlt", { number: index + 1, name: image.name })}
                  className="size-16 rounded border border-stone-200 object-cover"
                />
                <label className="flex items-center gap-1.5">
                  <input type="checkbox" name={REMOVE_KEPT_IMAGE_FIELD} value={image.token} className="size-4" />
                  {t("adminProductForm.leaveOut")}
                  <span className="sr-only">{image.name}</span>
                </label>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {kept.refused.length > 0 || kept.skipped > 0 ? (
        <ul className="text-sm text-red-700" data-testid="images-not-kept">
          {kept.refused.map((file) => (
            <li key={`${file.name}-${file.key}`}>
              {t("adminProductForm.imageRefused", { name: file.name, reason: translateKey(t, file.key, file.params) })}
            </li>
          ))}
          {kept.skipped > 0 ? <li>{t("adminProductForm.imagesNotKept", { count: kept.skipped })}</li> : null}
        </ul>
      ) : null}
    </>
  );
}

const smallButton = buttonClass("secondary", "sm");

/**
 * The product's images in their order, moved and removed by Conform list intents (nothing is
 * deleted until the form is saved), and the input for new ones with the slots still free.
 */
export function ProductImages({
  form,
  images,
  newImageErrors,
  urls,
  colors,
  problemParams,
  kept,
}: {
  form: FormMetadata<ProductFormInput, string[]>;
  images: FieldMetadata<ProductFormInput["images"], ProductFormInput, string[]>;
  /** Errors of the file input (the image pipeline's refusal comes back on "newImages"). */
  newImageErrors?: string[];
  urls: Record<string, string>;
  /** The colours an image can be tagged with (the colour rows as saved or submitted). */
  colors: ImageColorOption[];
  /** The parameters of the image pipeline's refusal (e.g. the size limit), for its message. */
  problemParams?: Record<string, string | number>;
  /** New images kept on the server by the last answer (a page without JavaScript). */
  kept?: KeptImages;
}) {
  const { t, language } = useTranslation();
  // The list as Conform holds it (its list intents change it), without keys that are not the product's.
  const list = images.getFieldList().map((field) => ({ field, ...imageItem(field.initialValue) }));
  const keys = shownImageKeys(
    list.map((item) => item.key),
    urls,
  );
  const itemOf = (key: string) => list.find((item) => item.key === key);
  const free = MAX_PRODUCT_IMAGES - keys.length - (kept?.staged.length ?? 0);
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="text-lg font-semibold">{t("adminProductForm.images")}</legend>
      {keys.length === 0 && !kept?.staged.length ? (
        <p className="text-sm text-stone-500">{t("adminProductForm.noImages")}</p>
      ) : null}
      {keys.length > 0 && colors.length > 0 ? (
        <p id="product-imageColor-hint" className="text-sm text-stone-600">
          {t("adminProductForm.imageColorHint")}
        </p>
      ) : null}
      <ol className="flex flex-col gap-2">
        {keys.map((key, index) => (
          <li key={key} className="flex flex-wrap items-center gap-3">
            <input type="hidden" name={`${images.name}[${index}].key`} value={key} />
            <img
              src={urls[key]}
              alt={t("adminProductForm.imageAlt", { number: index + 1 })}
              className="size-16 rounded border border-stone-200 object-cover"
            />
            <button
              type="submit"
              {...form.reorder.getButtonProps({ name: images.name, from: index, to: index - 1 })}
              disabled={index === 0}
              className={smallButton}
            >
              {t("adminProductForm.moveUp")}
            </button>
            <button
              type="submit"
              {...form.reorder.getButtonProps({ name: images.name, from: index, to: index + 1 })}
              disabled={index === keys.length - 1}
              className={smallButton}
            >
              {t("adminProductForm.moveDown")}
            </button>
            <button type="submit" {...form.remove.getButtonProps({ name: images.name, index })} className={smallButton}>
              {t("adminProductForm.removeImage")}
            </button>
            {colors.length > 0 ? (
              <ImageColorSelect
                name={`${images.name}[${index}].color`}
                id={`product-image-${index}-color`}
                label={t("adminProductForm.imageColor", { number: index + 1 })}
                value={itemOf(key)?.color ?? ""}
                errors={form.allErrors[`${itemOf(key)?.field.name}.color`]}
                colors={colors}
                language={language as Language}
              />
            ) : null}
          </li>
        ))}
      </ol>
      {kept ? <KeptImagesList kept={kept} /> : null}
      <NewImagesInput free={free} />
      {newImageErrors?.length ? (
        <ul className="text-sm text-red-700">
          {newImageErrors.map((key) => (
            <li key={key}>{translateKey(t, key, problemParams)}</li>
          ))}
        </ul>
      ) : null}
      <ErrorList errors={images.errors} />
    </fieldset>
  );
}

/** The colour an image shows: every colour (empty) or one of the product's. */
function ImageColorSelect({
  name,
  id,
  label,
  value,
  errors,
  colors,
  language,
}: {
  name: string;
  id: string;
  label: string;
  value: string;
  errors?: string[];
  colors: ImageColorOption[];
  language: Language;
}) {
  const { t } = useTranslation();
  // A tag that is none of the colours shown (a colour renamed or removed) shows as every colour.
  const known = colors.some((option) => option.color === value);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-xs text-stone-600">
        {label}
      </label>
      <select
        id={id}
        name={name}
        defaultValue={known ? value : ""}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? `${id}-error` : "product-imageColor-hint"}
        className={`${inputClass} w-auto py-1.5 text-sm`}
      >
        <option value="">{t("adminProductForm.allColours")}</option>
        {colors.map((option) => (
          <option key={option.color} value={option.color}>
            {colorName(option, language)}
          </option>
        ))}
      </select>
      <ErrorList id={`${id}-error`} errors={errors} />
    </div>
  );
}
