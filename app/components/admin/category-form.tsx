import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "react-router";
import { AdminSection } from "~/components/admin/admin-section";
import { CheckboxField } from "~/components/admin/checkbox-field";
import { ImagePicker, StoredImage, useImageErrors } from "~/components/admin/image-picker";
import { chosenZones, ShipZoneChoice } from "~/components/admin/ship-zone-choice";
import { ButtonLink } from "~/components/ui/button";
import { FieldFor, FormErrors, inputClass, StatusButton } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import type { Problem, UnreadBodyProblems } from "~/lib/problem";
import type { AdminCategory } from "~/models/categories.server";
import { createCategorySchema, updateCategorySchema } from "~/schemas/category";

export const CATEGORIES_PATH = "/admin/categories";
const PATH = CATEGORIES_PATH;

/** A body over the limit is refused before it is read: said in the Category Manager's words. */
export const CATEGORY_UNREAD: UnreadBodyProblems = { tooLarge: { key: "adminCategories.errors.uploadTooLarge" } };

/** The create and edit form: the names, descriptions, slug, order, image and status. */
export function CategoryForm({
  category,
  lastResult,
  problem,
  zones = [],
  zoneIds = [],
}: {
  category: AdminCategory | null;
  /** The shipping zones its products can be limited to, and those they are (docs/decisions/049). */
  zones?: { id: number; name_en: string; name_zh: string }[];
  zoneIds?: number[];
  lastResult: SubmissionResult<string[]> | null | undefined;
  /** The refusal of the last post, when it was this form's. */
  problem: Problem | null;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const schema = category ? updateCategorySchema : createCategorySchema;
  const [form, fields] = useForm({
    id: category ? `category-${category.id}` : "category-new",
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: category
      ? {
          name_en: category.name_en,
          name_zh: category.name_zh,
          description_en: category.description_en ?? "",
          description_zh: category.description_zh ?? "",
          sort_order: String(category.sort_order),
          is_active: category.is_active ? "on" : undefined,
          adult_only: category.adult_only ? "on" : undefined,
          slug: category.slug,
        }
      : { sort_order: "0", is_active: "on" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const uploading =
    navigation.state === "submitting" &&
    navigation.formData?.get("image") instanceof File &&
    ((navigation.formData.get("image") as File).size ?? 0) > 0;
  const action = category ? `${PATH}?edit=${category.id}` : `${PATH}?new=1`;
  const imageErrors = useImageErrors(problem, fields.image);
  return (
    <AdminSection
      id="category-form"
      className="mt-6"
      heading={category ? t("adminCategories.edit") : t("adminCategories.addNew")}
    >
      <Form
        method="post"
        action={action}
        encType="multipart/form-data"
        {...getFormProps(form)}
        className="mt-4 grid gap-4 sm:grid-cols-2"
      >
        <div className="sm:col-span-2">
          <FormErrors errors={form.errors} />
        </div>
        <input type="hidden" name="intent" value={category ? "update" : "create"} />
        {category ? <input type="hidden" name="id" value={category.id} /> : null}
        <FieldFor field={fields.name_en} label={t("adminCategories.nameEn")}>
          <input {...getInputProps(fields.name_en, { type: "text" })} className={inputClass} />
        </FieldFor>
        <FieldFor field={fields.name_zh} label={t("adminCategories.nameZh")}>
          <input {...getInputProps(fields.name_zh, { type: "text" })} lang="zh-HK" className={inputClass} />
        </FieldFor>
        <FieldFor field={fields.description_en} label={t("adminCategories.descriptionEn")}>
          <textarea {...getTextareaProps(fields.description_en)} rows={3} className={inputClass} />
        </FieldFor>
        <FieldFor field={fields.description_zh} label={t("adminCategories.descriptionZh")}>
          <textarea {...getTextareaProps(fields.description_zh)} rows={3} lang="zh-HK" className={inputClass} />
        </FieldFor>
        <FieldFor field={fields.slug} label={t("adminCategories.slug")} hint={t("adminCategories.slugHint")}>
          <input {...getInputProps(fields.slug, { type: "text" })} className={inputClass} />
        </FieldFor>
        <FieldFor
          field={fields.sort_order}
          label={t("adminCategories.sortOrder")}
          hint={t("adminCategories.sortOrderHint")}
        >
          <input {...getInputProps(fields.sort_order, { type: "number" })} step={1} className={inputClass} />
        </FieldFor>
        <div className="flex flex-col gap-2 sm:col-span-2">
          <ImagePicker
            field={fields.image}
            label={t("adminCategories.image")}
            hint={t("adminCategories.imageHint")}
            errors={imageErrors}
            clearLabel={t("adminCategories.removeImage")}
          />
          {category?.image_url ? (
            <StoredImage
              src={category.image_url}
              alt={t("adminCategories.currentImage")}
              className="h-16 w-16 rounded-md object-cover"
              remove={fields.remove_image}
              removeLabel={t("adminCategories.removeImage")}
            />
          ) : null}
        </div>
        <CheckboxField
          field={fields.is_active}
          label={t("adminCategories.active")}
          hint={t("adminCategories.activeHelp")}
          className="sm:col-span-2"
        />
        <CheckboxField
          field={fields.adult_only}
          label={t("adminCategories.adultOnly")}
          hint={t("adminCategories.adultOnlyHelp")}
          className="sm:col-span-2"
        />
        <ShipZoneChoice
          legend={t("adminCategories.shipZones")}
          hint={t("adminCategories.shipZonesHint")}
          zones={zones}
          chosen={chosenZones(lastResult, zoneIds)}
        />
        <div className="flex gap-3 sm:col-span-2">
          <StatusButton pendingText={uploading ? t("adminCategories.uploading") : undefined}>
            {category ? t("adminCategories.update") : t("adminCategories.create")}
          </StatusButton>
          <ButtonLink to={PATH} variant="secondary" className="font-normal">
            {t("adminCategories.cancel")}
          </ButtonLink>
        </div>
      </Form>
    </AdminSection>
  );
}
