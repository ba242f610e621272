import { type FieldMetadata, getSelectProps } from "@conform-to/react";
import { FieldFor, inputClass } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";

/** A brand the product form offers (docs/decisions/052). */
export interface BrandChoice {
  id: number;
  name: string;
  name_zh: string | null;
}

/** The product form's Brand select: none, or one of the managed list (Admin → Brands). */
export function ProductBrandField({
  field,
  brands,
}: {
  field: FieldMetadata<string | undefined, Record<string, unknown>, string[]>;
  brands: BrandChoice[];
}) {
  const { t } = useTranslation();
  return (
    <FieldFor field={field} label={t("adminProductForm.brand")}>
      <select {...getSelectProps(field)} className={inputClass}>
        <option value="">{t("adminProductForm.noBrand")}</option>
        {brands.map((brand) => (
          <option key={brand.id} value={String(brand.id)}>
            {brand.name_zh ? `${brand.name} / ${brand.name_zh}` : brand.name}
          </option>
        ))}
      </select>
    </FieldFor>
  );
}
