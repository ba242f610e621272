import { getZodConstraint } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { BackLink } from "~/components/ui/back-link";
import { FieldFor, FormErrors, inputClass, StatusButton, textareaProps } from "~/components/ui/field";
import { useServerForm } from "~/components/ui/use-server-form";
import { services } from "~/context";
import { formAction, succeed } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import { loadAgeText, saveAgeText } from "~/models/orders/age.server";
import { ownerOnly, requireOwner } from "~/request/auth.server";
import { ageTextSchema, DEFAULT_AGE_TEXT } from "~/schemas/age-text";
import type { Route } from "./+types/age-text";

/*
 * Settings → Age confirmation (/admin/settings/age): the text of the checkbox a checkout with an
 * 18+ item asks the shopper to tick, in English and Chinese. The owner's, like every setting
 * (docs/decisions/049): it is a statement the shop relies on. An empty box goes back to the
 * default text. A plain form: a refusal comes back with the text kept (400).
 */

const PATH = "/admin/settings/age";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireOwner(context, request);
  const text = await loadAgeText(services(context).db);
  const t = getInstance(context).t;
  return {
    text,
    constraint: getZodConstraint(ageTextSchema),
    title: `${t("adminAge.title")} | ${t("admin.title")}`,
  };
}

export const action = formAction(
  { schema: ageTextSchema, authorize: ownerOnly },
  async ({ context, form, value, auth }) => {
    await saveAgeText(services(context).db, auth.id, { en: value.text_en, zh: value.text_zh });
    return succeed(context, form, { redirectTo: PATH, flash: { type: "success", key: "adminAge.saved" } });
  },
);

export default function AgeTextPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { text, constraint } = loaderData;
  const [form, fields] = useServerForm<typeof ageTextSchema>(actionData?.result, constraint, {
    id: `age-text-${text.text_en.length}-${text.text_zh.length}`,
    defaultValue: { text_en: text.text_en, text_zh: text.text_zh },
  });
  return (
    <div className="max-w-3xl">
      <BackLink to="/admin/settings">{t("adminAge.back")}</BackLink>
      <h1 className="mt-2 text-2xl font-bold">{t("adminAge.title")}</h1>
      <p className="mt-1 text-sm text-stone-600">{t("adminAge.intro")}</p>
      <Form method="post" action={PATH} {...form.props} className="mt-6 flex flex-col gap-4">
        <FormErrors errors={form.errors} />
        <div className="flex flex-col gap-4 rounded-lg bg-white p-6 shadow-sm">
          <FieldFor field={fields.text_en} label={t("adminAge.textEn")} hint={DEFAULT_AGE_TEXT.en}>
            <textarea {...textareaProps(fields.text_en)} rows={3} lang="en" className={inputClass} />
          </FieldFor>
          <FieldFor field={fields.text_zh} label={t("adminAge.textZh")} hint={DEFAULT_AGE_TEXT.zh}>
            <textarea {...textareaProps(fields.text_zh)} rows={3} lang="zh-Hant" className={inputClass} />
          </FieldFor>
          <p className="text-xs text-stone-500">{t("adminAge.emptyHint")}</p>
        </div>
        <div>
          <StatusButton>{t("adminAge.save")}</StatusButton>
        </div>
      </Form>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Admin");
