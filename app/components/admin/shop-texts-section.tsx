import { type FieldMetadata, getInputProps, getTextareaProps } from "@conform-to/react";
import { Section } from "~/components/admin/shop-form-parts";
import { FieldFor, inputClass } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";

type TextField = FieldMetadata<string | undefined>;

/**
 * Shop details → "Home page and footer": the home hero's headline and subtitle and the footer's
 * blurb, in English and Chinese (docs/decisions/042). Each left empty shows the storefront's fallback.
 */
export function ShopTextsSection({
  fields,
}: {
  fields: Record<
    "hero_title_en" | "hero_title_zh" | "hero_text_en" | "hero_text_zh" | "footer_text_en" | "footer_text_zh",
    TextField
  >;
}) {
  const { t } = useTranslation();
  const line = (field: TextField, label: string, lang?: string) => (
    <FieldFor field={field} label={label}>
      <input {...getInputProps(field, { type: "text" })} lang={lang} dir="auto" className={inputClass} />
    </FieldFor>
  );
  const box = (field: TextField, label: string, lang?: string) => (
    <FieldFor field={field} label={label}>
      <textarea {...getTextareaProps(field)} rows={3} lang={lang} dir="auto" className={inputClass} />
    </FieldFor>
  );
  return (
    <Section id="texts" heading={t("adminShop.texts.heading")} intro={t("adminShop.texts.intro")}>
      <div className="grid gap-4 sm:grid-cols-2">
        {line(fields.hero_title_en, t("adminShop.texts.heroTitleEn"))}
        {line(fields.hero_title_zh, t("adminShop.texts.heroTitleZh"), "zh-HK")}
        {box(fields.hero_text_en, t("adminShop.texts.heroTextEn"))}
        {box(fields.hero_text_zh, t("adminShop.texts.heroTextZh"), "zh-HK")}
        {box(fields.footer_text_en, t("adminShop.texts.footerTextEn"))}
        {box(fields.footer_text_zh, t("adminShop.texts.footerTextZh"), "zh-HK")}
      </div>
    </Section>
  );
}
