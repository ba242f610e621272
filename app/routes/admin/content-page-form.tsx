import { type FieldMetadata, getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect } from "react-router";
import { DeleteButton, DeleteConfirmation } from "~/components/admin/delete-confirmation";
import { BackLink } from "~/components/ui/back-link";
import { Field, FormErrors, inputClass, StatusButton } from "~/components/ui/field";
import { isContentPageSlug, PAGE_PLACEHOLDERS } from "~/content/pages";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { formAction, succeed } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { HTML_LANG } from "~/locales/languages";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { findContentPage, resetContentPage, saveContentPage } from "~/models/settings/content-pages.server";
import { requireOwner } from "~/request/auth.server";
import { contentPageActionSchema, contentPageSchema, PAGE_BODY_MAX } from "~/schemas/content-page";
import type { Route } from "./+types/content-page-form";

/*
 * /admin/settings/pages/:slug: the owner's text of one policy page (shipping, returns, FAQ,
 * contact, privacy, terms) in both languages, or back to the default text. A plain form: a
 * refusal re-renders it with the input kept (400); a save redirects here with a flash message.
 */

function parseSlug(params: { slug?: string }) {
  const slug = params.slug ?? "";
  if (!isContentPageSlug(slug)) throw data(null, { status: 404 });
  return slug;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireOwner(context, request);
  const slug = parseSlug(params);
  const page = await findContentPage(services(context).db, slug);
  const t = getInstance(context).t;
  const name = t(`footer.${slug}`);
  return {
    slug,
    name,
    text: page.text,
    editedText: page.editedAt ? formatDate(page.editedAt, getLanguage(context), "dateTime") : null,
    confirmReset: new URL(request.url).searchParams.has("reset"),
    title: `${t("adminShop.page.title", { page: name })} | ${t("admin.title")}`,
  };
}

/** Both bodies at their longest, percent-encoded (a Chinese character is 9 bytes so), plus room. */
const BODY_LIMIT = 2 * PAGE_BODY_MAX * 9 + 64 * 1024;

/** Saves the owner's text or resets the page. The admin right is checked before the body is read. */
export const action = formAction(
  {
    schema: contentPageActionSchema,
    maxBytes: BODY_LIMIT,
    authorize: ({ context, request, params }: Route.ActionArgs) => ({
      admin: requireOwner(context, request),
      slug: parseSlug(params),
    }),
  },
  async ({ context, form, value, auth: { admin, slug } }) => {
    const { db } = services(context);
    const path = `/admin/settings/pages/${slug}`;
    if (value.intent === "reset") {
      // Without JavaScript there is no confirm(): the confirmation is a second step on the page.
      if (value.confirmed !== "1") return redirect(`${path}?reset#reset`);
      await resetContentPage(db, slug, { actorUserId: admin.id });
      return succeed(context, form, { redirectTo: path, flash: { type: "success", key: "adminShop.page.resetDone" } });
    }
    await saveContentPage(
      db,
      slug,
      {
        en: { title: value.title_en, description: value.description_en, body: value.body_en },
        zh: { title: value.title_zh, description: value.description_zh, body: value.body_zh },
      },
      { actorUserId: admin.id },
    );
    return succeed(context, form, { redirectTo: path, flash: { type: "success", key: "adminShop.page.saved" } });
  },
);

export default function ContentPageForm({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { slug, name, text, editedText, confirmReset } = loaderData;
  const path = `/admin/settings/pages/${slug}`;
  const [form, fields] = useForm({
    id: `page-${slug}`,
    lastResult: actionData?.result,
    defaultValue: {
      title_en: text.en.title,
      description_en: text.en.description,
      body_en: text.en.body,
      title_zh: text.zh.title,
      description_zh: text.zh.description,
      body_zh: text.zh.body,
    },
    constraint: getZodConstraint(contentPageSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: contentPageSchema }),
  });
  const language = (key: "en" | "zh") => {
    const title = fields[`title_${key}`];
    const description = fields[`description_${key}`];
    const body = fields[`body_${key}`];
    return (
      <fieldset className="min-w-0 rounded-lg bg-white p-6 shadow-sm" lang={HTML_LANG[key]}>
        {/* A floated legend sits inside the card instead of on its edge. */}
        <legend className="float-left w-full text-lg font-semibold">
          {t(key === "en" ? "adminShop.page.english" : "adminShop.page.chinese")}
        </legend>
        <div className="clear-both flex flex-col gap-4 pt-3">
          <TextInput field={title} label={t("adminShop.page.pageTitle")} />
          <TextInput
            field={description}
            label={t("adminShop.page.description")}
            hint={t("adminShop.page.descriptionHint")}
          />
          <Field label={t("adminShop.page.body")} htmlFor={body.id} errors={body.errors} errorId={body.errorId}>
            <textarea {...getTextareaProps(body)} rows={24} className={`${inputClass} font-mono text-sm`} />
          </Field>
        </div>
      </fieldset>
    );
  };
  return (
    <div className="max-w-6xl">
      <BackLink to="/admin/settings#pages-heading">{t("adminShop.back")}</BackLink>
      <h1 className="mt-2 text-2xl font-bold">{t("adminShop.page.title", { page: name })}</h1>
      <p className="mt-1 text-sm text-stone-600">{t("adminShop.page.intro", { path: `/${slug}` })}</p>
      <p className="mt-1 text-sm text-stone-600">
        {t("adminShop.page.placeholders", { list: PAGE_PLACEHOLDERS.map((p) => `{{${p}}}`).join(", ") })}
      </p>
      <p className="mt-2 text-sm text-stone-600" data-testid="page-state">
        {editedText ? t("adminShop.page.editedNote", { date: editedText }) : t("adminShop.page.defaultNote")}{" "}
        <a href={`/${slug}`} target="_blank" rel="noreferrer" className="text-brand-700 underline">
          {t("adminShop.page.view")}
        </a>
      </p>
      {confirmReset ? (
        <DeleteConfirmation
          id="reset"
          heading={t("adminShop.page.reset")}
          action={path}
          fields={{ intent: "reset" }}
          confirmLabel={t("adminShop.page.reset")}
          cancelLabel={t("adminShop.back")}
          cancelTo={path}
        >
          <p>{t("adminShop.page.resetHint")}</p>
        </DeleteConfirmation>
      ) : null}
      <Form method="post" action={path} {...getFormProps(form)} className="mt-6 flex flex-col gap-6">
        <input type="hidden" name="intent" value="save" />
        <FormErrors errors={form.errors} />
        <div className="grid gap-6 lg:grid-cols-2">
          {language("en")}
          {language("zh")}
        </div>
        <div>
          <StatusButton>{t("adminShop.page.save")}</StatusButton>
        </div>
      </Form>
      {editedText && !confirmReset ? (
        <div className="mt-8 border-t border-stone-200 pt-6">
          <DeleteButton
            action={path}
            fields={{ intent: "reset" }}
            question={t("adminShop.page.resetHint")}
            label={t("adminShop.page.reset")}
            ariaLabel={t("adminShop.page.reset")}
          />
          <p className="mt-1 text-xs text-stone-600">{t("adminShop.page.resetHint")}</p>
        </div>
      ) : null}
    </div>
  );
}

function TextInput({ field, label, hint }: { field: FieldMetadata<string | undefined>; label: string; hint?: string }) {
  return (
    <Field label={label} htmlFor={field.id} hint={hint} errors={field.errors} errorId={field.errorId}>
      <input {...getInputProps(field, { type: "text" })} className={inputClass} />
    </Field>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Admin");
