import { type FieldMetadata, getInputProps } from "@conform-to/react";
import { FieldFor, inputClass } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";

type TextField = FieldMetadata<string | undefined>;

/**
 * The product's GTIN (barcode number) and MPN (manufacturer part number), both optional: the
 * shopping feeds and the product page's structured data carry them (docs/decisions/056). A GTIN
 * whose check digit is wrong is refused next to its field, the typed text kept.
 */
export function ProductIdentifierFields({ fields }: { fields: { gtin: TextField; mpn: TextField } }) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <FieldFor field={fields.gtin} label={t("adminProductForm.gtin")} hint={t("adminProductForm.gtinHint")}>
        <input
          {...getInputProps(fields.gtin, { type: "text" })}
          inputMode="numeric"
          autoComplete="off"
          className={inputClass}
        />
      </FieldFor>
      <FieldFor field={fields.mpn} label={t("adminProductForm.mpn")} hint={t("adminProductForm.mpnHint")}>
        <input {...getInputProps(fields.mpn, { type: "text" })} autoComplete="off" className={inputClass} />
      </FieldFor>
    </div>
  );
}
