import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "react-router";
import { AdminSection } from "~/components/admin/admin-section";
import { ImagePicker, useImageErrors } from "~/components/admin/image-picker";
import { Button } from "~/components/ui/button";
import { FormErrors, StatusButton } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import type { Problem, UnreadBodyProblems } from "~/lib/problem";
import { heroImageSchema } from "~/schemas/bank-account";

export const SETTINGS_PATH = "/admin/settings";
const PATH = SETTINGS_PATH;

export interface HeroSummary {
  key: string | null;
  url: string;
  updatedText: string | null;
}

/** A settings post refused before it was read (too large, not an upload at all) is the hero field's refusal. */
export const HERO_UNREAD: UnreadBodyProblems = {
  tooLarge: { key: "adminSettings.errors.heroTooLarge", field: "hero" },
  notAForm: { key: "adminSettings.errors.uploadFailed", field: "hero" },
};

export function HeroSection({
  hero,
  lastResult,
  problem,
}: {
  hero: HeroSummary;
  lastResult: SubmissionResult<string[]> | null | undefined;
  problem: Problem | null;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "hero-form",
    lastResult,
    constraint: getZodConstraint(heroImageSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: heroImageSchema }),
  });
  const uploading = navigation.state === "submitting" && navigation.formData?.get("intent") === "hero";
  const errors = useImageErrors(problem, fields.hero);
  return (
    <AdminSection
      id="appearance"
      look="part"
      heading={t("adminSettings.appearance.heading")}
      intro={t("adminSettings.appearance.intro")}
    >
      <div className="mt-4 grid gap-6 rounded-lg bg-white p-6 shadow-sm md:grid-cols-2">
        <figure className="flex flex-col gap-2">
          <figcaption className="text-sm font-medium text-stone-800">
            {t("adminSettings.appearance.current")}
          </figcaption>
          <img
            src={hero.url}
            alt={t("adminSettings.appearance.previewAlt")}
            data-testid="hero-preview"
            className="aspect-[3/2] w-full rounded-md bg-stone-200 object-cover"
          />
          <p className="text-xs text-stone-500">
            {hero.key && hero.updatedText
              ? t("adminSettings.appearance.currentCustom", { date: hero.updatedText })
              : t("adminSettings.appearance.currentDefault")}
          </p>
        </figure>
        <div className="flex flex-col gap-4">
          <Form method="post" action={PATH} encType="multipart/form-data" {...getFormProps(form)}>
            <input type="hidden" name="intent" value="hero" />
            <FormErrors errors={form.errors} />
            <div className="flex flex-col gap-2">
              <ImagePicker
                field={fields.hero}
                label={t("adminSettings.appearance.image")}
                hint={t("adminSettings.appearance.hint")}
                errors={errors}
                accept="image/png,image/jpeg,image/gif,image/webp"
                previewAlt={t("adminSettings.appearance.chosenAlt")}
                previewClassName="aspect-[3/2] w-40 rounded-md object-cover"
              />
            </div>
            <StatusButton
              pendingText={uploading ? t("adminSettings.appearance.uploading") : undefined}
              className="mt-4"
            >
              {t("adminSettings.appearance.upload")}
            </StatusButton>
          </Form>
          {hero.key ? (
            <Form method="post" action={PATH} className="border-t border-stone-200 pt-4">
              <input type="hidden" name="intent" value="hero_reset" />
              <Button variant="secondary" className="text-sm font-normal">
                {t("adminSettings.appearance.reset")}
              </Button>
              <p className="mt-1 text-xs text-stone-500">{t("adminSettings.appearance.resetHint")}</p>
            </Form>
          ) : null}
        </div>
      </div>
    </AdminSection>
  );
}
