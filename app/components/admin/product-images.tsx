import type { FieldMetadata, FormMetadata } from "@conform-to/react";
import { type ChangeEvent, useEffect, useState } from "react";
import { buttonClass } from "~/components/ui/button";
import { ErrorList, Field } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import { translateKey } from "~/lib/translate-key";
import { MAX_PRODUCT_IMAGES, type ProductFormInput } from "~/schemas/product";

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

/**
 * The file input for new images; with JavaScript the chosen files show as thumbnails before
 * saving (object URLs, revoked when the choice changes or the form goes away).
 */
function NewImagesInput({ free, hint }: { free: number; hint: string }) {
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
  return (
    <Field label={t("adminProductForm.addImages")} htmlFor="product-newImages" hint={hint}>
      <input
        id="product-newImages"
        name="newImages"
        type="file"
        multiple
        accept="image/jpeg,image/png,image/webp"
        disabled={free <= 0}
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
  problemParams,
}: {
  form: FormMetadata<ProductFormInput, string[]>;
  images: FieldMetadata<string[] | undefined, ProductFormInput, string[]>;
  /** Errors of the file input (the image pipeline's refusal comes back on "newImages"). */
  newImageErrors?: string[];
  urls: Record<string, string>;
  /** The parameters of the image pipeline's refusal (e.g. the size limit), for its message. */
  problemParams?: Record<string, string | number>;
}) {
  const { t } = useTranslation();
  // The list as Conform holds it (its list intents change it), without keys that are not the product's.
  const keys = shownImageKeys(
    images.getFieldList().map((item) => item.initialValue),
    urls,
  );
  const free = MAX_PRODUCT_IMAGES - keys.length;
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="text-lg font-semibold">{t("adminProductForm.images")}</legend>
      {keys.length === 0 ? <p className="text-sm text-stone-500">{t("adminProductForm.noImages")}</p> : null}
      <ol className="flex flex-col gap-2">
        {keys.map((key, index) => (
          <li key={key} className="flex flex-wrap items-center gap-3">
            <input type="hidden" name={`${images.name}[${index}]`} value={key} />
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
          </li>
        ))}
      </ol>
      <NewImagesInput
        free={free}
        hint={t("adminProductForm.addImagesHintWithFree", {
          hint: t("adminProductForm.addImagesHint"),
          free: t("adminProductForm.imagesFree", { count: Math.max(0, free) }),
        })}
      />
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
