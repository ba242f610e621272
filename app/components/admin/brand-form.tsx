import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { AdminSection } from "~/components/admin/admin-section";
import { DeleteButton, DeleteConfirmation } from "~/components/admin/delete-confirmation";
import { ButtonLink } from "~/components/ui/button";
import { FieldFor, FormErrors, inputClass, ProblemAlert, StatusButton } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import type { Problem } from "~/lib/problem";
import type { AdminBrand } from "~/models/brands.server";
import { createBrandSchema, updateBrandSchema } from "~/schemas/brand";

/*
 * The Brands screen's parts (/admin/brands, docs/decisions/052): the add/rename form, a row of
 * the list with its product count, and the delete confirmation (the step without JavaScript).
 */

export const BRANDS_PATH = "/admin/brands";
const PATH = BRANDS_PATH;

type BrandShown = Pick<AdminBrand, "id" | "name" | "name_zh" | "slug" | "sort_order">;

/** "Tokyo Marui / 東京丸井", or the one name when it is the same in Chinese. */
function bothNames(brand: Pick<AdminBrand, "name" | "name_zh">): string {
  return brand.name_zh ? `${brand.name} / ${brand.name_zh}` : brand.name;
}

/** Add a brand, or rename one (both languages), its slug and its place in the order. */
export function BrandForm({
  brand,
  lastResult,
}: {
  brand: BrandShown | null;
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const { t } = useTranslation();
  const schema = brand ? updateBrandSchema : createBrandSchema;
  const [form, fields] = useForm({
    id: brand ? `brand-${brand.id}` : "brand-new",
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: brand
      ? { name: brand.name, name_zh: brand.name_zh ?? "", slug: brand.slug, sort_order: String(brand.sort_order) }
      : { sort_order: "0" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  return (
    <AdminSection id="brand-form" className="mt-6" heading={brand ? t("adminBrands.edit") : t("adminBrands.addNew")}>
      <Form
        method="post"
        action={brand ? `${PATH}?edit=${brand.id}` : `${PATH}?new=1`}
        {...getFormProps(form)}
        className="mt-4 grid gap-4 sm:grid-cols-2"
      >
        <div className="sm:col-span-2">
          <FormErrors errors={form.errors} />
        </div>
        <input type="hidden" name="intent" value={brand ? "update" : "create"} />
        {brand ? <input type="hidden" name="id" value={brand.id} /> : null}
        <FieldFor field={fields.name} label={t("adminBrands.name")} hint={t("adminBrands.nameHint")}>
          <input {...getInputProps(fields.name, { type: "text" })} className={inputClass} />
        </FieldFor>
        <FieldFor field={fields.name_zh} label={t("adminBrands.nameZh")} hint={t("adminBrands.nameZhHint")}>
          <input {...getInputProps(fields.name_zh, { type: "text" })} lang="zh-HK" className={inputClass} />
        </FieldFor>
        <FieldFor field={fields.slug} label={t("adminBrands.slug")} hint={t("adminBrands.slugHint")}>
          <input {...getInputProps(fields.slug, { type: "text" })} className={inputClass} />
        </FieldFor>
        <FieldFor field={fields.sort_order} label={t("adminBrands.sortOrder")} hint={t("adminBrands.sortOrderHint")}>
          <input {...getInputProps(fields.sort_order, { type: "number" })} step={1} className={inputClass} />
        </FieldFor>
        <div className="flex gap-3 sm:col-span-2">
          <StatusButton>{brand ? t("adminBrands.update") : t("adminBrands.create")}</StatusButton>
          <ButtonLink to={PATH} variant="secondary" className="font-normal">
            {t("adminBrands.cancel")}
          </ButtonLink>
        </div>
      </Form>
    </AdminSection>
  );
}

/** One brand of the list: its names, slug, order and product count; rename and delete. */
export function BrandRow({ brand, problem }: { brand: AdminBrand; problem: Problem | null }) {
  const { t } = useTranslation();
  const name = bothNames(brand);
  return (
    <li className="flex flex-col gap-3 rounded-lg bg-white p-4 shadow-sm" data-testid="brand-row">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1">
          <h3 className="font-semibold">
            {brand.name}
            {brand.name_zh ? (
              <span lang="zh-HK" className="ms-2 font-normal text-stone-700">
                {brand.name_zh}
              </span>
            ) : null}
          </h3>
          <p className="mt-1 text-xs text-stone-600">
            {t("adminBrands.sortLabel", { order: brand.sort_order })} ·{" "}
            <span data-testid="brand-products">{t("adminBrands.products", { count: brand.productCount })}</span> ·
            ?brand={brand.slug}
          </p>
        </div>
        <div className="flex shrink-0 items-center gap-2">
          <ButtonLink
            to={`${PATH}?edit=${brand.id}`}
            aria-label={t("adminBrands.editNamed", { name })}
            variant="secondary"
            size="sm"
            className="font-normal"
          >
            {t("adminBrands.editLink")}
          </ButtonLink>
          <DeleteButton
            action={PATH}
            fields={{ intent: "delete", id: brand.id }}
            question={t("adminBrands.confirmDelete", { name })}
            label={t("adminBrands.delete")}
            ariaLabel={t("adminBrands.deleteNamed", { name })}
          />
        </div>
      </div>
      {/* A refused delete (still in use) is said on the brand's own row. */}
      {problem ? <ProblemAlert problem={problem} /> : null}
    </li>
  );
}

export function BrandDeleteConfirmation({ brand }: { brand: AdminBrand }) {
  const { t } = useTranslation();
  return (
    <DeleteConfirmation
      heading={t("adminBrands.confirmDelete", { name: bothNames(brand) })}
      action={PATH}
      fields={{ intent: "delete", id: brand.id }}
      confirmLabel={t("adminBrands.confirmDeleteButton")}
      cancelLabel={t("adminBrands.cancel")}
      cancelTo={PATH}
    >
      {t("adminBrands.products", { count: brand.productCount })}
    </DeleteConfirmation>
  );
}
