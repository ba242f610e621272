import { getFormProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, redirect } from "react-router";
import { DeleteButton, DeleteConfirmation } from "~/components/admin/delete-confirmation";
import { BackLink } from "~/components/ui/back-link";
import { Field, FormErrors, inputClass, StatusButton } from "~/components/ui/field";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { formAction, succeed } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { loadSearchSynonyms, resetSearchSynonyms, saveSearchSynonyms } from "~/models/settings/search-synonyms.server";
import { ownerOnly, requireOwner } from "~/request/auth.server";
import {
  formatSynonymGroups,
  parseSynonymGroups,
  SYNONYM_LIMITS,
  searchSynonymsActionSchema,
  searchSynonymsSchema,
} from "~/schemas/search-synonyms";
import type { Route } from "./+types/search-synonyms";

/*
 * Settings → Search synonyms (/admin/settings/search): the owner's groups of words that search
 * treats as one (docs/decisions/043), as a text of one group a line, or back to the default
 * list. The owner's, like every setting. A plain form: a refusal re-renders it with the text kept
 * and the messages (with their line numbers) under it (400); a save redirects here with a flash.
 */

const PATH = "/admin/settings/search";
/** The longest text percent-encoded (a Chinese character is 9 bytes so), plus room. */
const BODY_LIMIT = SYNONYM_LIMITS.text * 9 + 16 * 1024;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireOwner(context, request);
  const synonyms = await loadSearchSynonyms(services(context).db);
  const t = getInstance(context).t;
  return {
    text: formatSynonymGroups(synonyms.groups),
    groups: synonyms.groups.length,
    editedText: synonyms.editedAt ? formatDate(synonyms.editedAt, getLanguage(context), "dateTime") : null,
    confirmReset: new URL(request.url).searchParams.has("reset"),
    title: `${t("adminSearch.title")} | ${t("admin.title")}`,
  };
}

/** Saves the owner's list or restores the default one. The owner's right is checked before the body is read. */
export const action = formAction(
  { schema: searchSynonymsActionSchema, maxBytes: BODY_LIMIT, authorize: ownerOnly },
  async ({ context, form, value, auth }) => {
    const { db } = services(context);
    if (value.intent === "reset") {
      // Without JavaScript there is no confirm(): the confirmation is a second step on the page.
      if (value.confirmed !== "1") return redirect(`${PATH}?reset#reset`);
      await resetSearchSynonyms(db, { actorUserId: auth.id });
      return succeed(context, form, { redirectTo: PATH, flash: { type: "success", key: "adminSearch.resetDone" } });
    }
    await saveSearchSynonyms(db, parseSynonymGroups(value.synonyms).groups, { actorUserId: auth.id });
    return succeed(context, form, { redirectTo: PATH, flash: { type: "success", key: "adminSearch.saved" } });
  },
);

export default function SearchSynonymsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { text, groups, editedText, confirmReset } = loaderData;
  return (
    <div className="max-w-4xl">
      <BackLink to="/admin/settings#search-heading">{t("adminSearch.back")}</BackLink>
      <h1 className="mt-2 text-2xl font-bold">{t("adminSearch.title")}</h1>
      <p className="mt-1 text-sm text-stone-600">{t("adminSearch.intro")}</p>
      <p className="mt-2 text-sm text-stone-600" data-testid="synonyms-state">
        {t("adminSearch.count", { count: groups })} ·{" "}
        {editedText ? t("adminSearch.stateEdited", { date: editedText }) : t("adminSearch.stateDefault")}
      </p>
      {confirmReset ? (
        <DeleteConfirmation
          id="reset"
          heading={t("adminSearch.reset")}
          action={PATH}
          fields={{ intent: "reset" }}
          confirmLabel={t("adminSearch.reset")}
          cancelLabel={t("adminSearch.keep")}
          cancelTo={PATH}
        >
          <p>{t("adminSearch.resetHint")}</p>
        </DeleteConfirmation>
      ) : null}
      {/* A new form once the saved list changes: the box then shows the list as saved (tidied). */}
      <SynonymsForm key={text} text={text} lastResult={actionData?.result} />
      {editedText && !confirmReset ? (
        <div className="mt-8 border-t border-stone-200 pt-6">
          <DeleteButton
            action={PATH}
            fields={{ intent: "reset" }}
            question={t("adminSearch.resetHint")}
            label={t("adminSearch.reset")}
            ariaLabel={t("adminSearch.reset")}
          />
          <p className="mt-1 text-xs text-stone-500">{t("adminSearch.resetHint")}</p>
        </div>
      ) : null}
    </div>
  );
}

/** The list as text in one box: Conform checks it in the browser when JavaScript runs, the server always. */
function SynonymsForm({
  text,
  lastResult,
}: {
  text: string;
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    id: "search-synonyms",
    lastResult,
    defaultValue: { synonyms: text },
    constraint: getZodConstraint(searchSynonymsSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: searchSynonymsSchema }),
  });
  const synonyms = fields.synonyms;
  return (
    <Form method="post" action={PATH} {...getFormProps(form)} className="mt-6 flex flex-col gap-4">
      <input type="hidden" name="intent" value="save" />
      <FormErrors errors={form.errors} />
      <div className="rounded-lg bg-white p-6 shadow-sm">
        <Field
          label={t("adminSearch.label")}
          htmlFor={synonyms.id}
          hint={t("adminSearch.hint")}
          errors={synonyms.errors}
          errorId={synonyms.errorId}
        >
          <textarea
            {...getTextareaProps(synonyms)}
            rows={18}
            spellCheck={false}
            className={`${inputClass} font-mono text-sm`}
          />
        </Field>
      </div>
      <div>
        <StatusButton pendingText={t("adminSearch.saving")}>{t("adminSearch.save")}</StatusButton>
      </div>
    </Form>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Admin");
