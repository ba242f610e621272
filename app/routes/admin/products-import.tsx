import { data, Form } from "react-router";
import { z } from "zod";
import { AdminPageHeader } from "~/components/admin/page-header";
import { BackLink } from "~/components/ui/back-link";
import { Button } from "~/components/ui/button";
import { Field, FormAlert, inputClass } from "~/components/ui/field";
import { services } from "~/context";
import { type FormAnswer, formAction, succeed, UserError } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { translateKey } from "~/lib/translate-key";
import { getInstance } from "~/middleware/i18next";
import {
  applyProductImport,
  type ImportError,
  type ImportPlan,
  MAX_IMPORT_BYTES,
  MAX_LISTED_ERRORS,
  planProductImport,
  readStagedProductCsv,
  removeStagedProductCsv,
  stageProductCsv,
} from "~/models/products/csv.server";
import { adminOnly, requireAdmin } from "~/request/auth.server";
import type { Route } from "./+types/products-import";

/** The file, plus room for the other fields and the multipart envelope. */
const BODY_LIMIT = MAX_IMPORT_BYTES + 64 * 1024;
const TOO_LARGE = { key: "adminProductCsv.errors.tooLarge", field: "file" };

/** Step 1 uploads a file for a preview; step 2 confirms a preview by its token. */
const importSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("preview"),
      file: z.instanceof(File, { error: "adminProductCsv.errors.fileRequired" }),
    }),
    z.object({ intent: z.literal("confirm"), token: z.string({ error: "error.badRequest" }).max(100) }),
  ],
  { error: "error.badRequest" },
);

/** What the page shows of a plan: counts, the first errors, and the token when it may be confirmed. */
export interface ImportPreview {
  created: number;
  updated: number;
  unchanged: number;
  rows: number;
  errors: ImportError[];
  moreErrors: number;
  token: string | null;
}

function previewOf(plan: ImportPlan, token: string | null): ImportPreview {
  return {
    created: plan.creates.length,
    updated: plan.updates.length,
    unchanged: plan.unchanged,
    rows: plan.rows,
    errors: plan.errors.slice(0, MAX_LISTED_ERRORS),
    moreErrors: Math.max(0, plan.errors.length - MAX_LISTED_ERRORS),
    token,
  };
}

/** GET /admin/products/import: the upload form. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const t = getInstance(context).t;
  return { title: `${t("adminProductCsv.title")} | ${t("admin.title")}` };
}

/**
 * intent=preview (file): parses and checks the file, writes nothing; a file without errors is
 * kept in private storage under a token bound to this admin. intent=confirm (token): reads that
 * file again, checks it again and writes it all in one transaction, then back to the list.
 */
export const action = formAction(
  { schema: importSchema, maxBytes: BODY_LIMIT, authorize: adminOnly, unread: { tooLarge: TOO_LARGE } },
  async ({ context, form, value, auth: admin }) => {
    const { db, storage, config } = services(context);
    if (value.intent === "preview") {
      if (value.file.size > MAX_IMPORT_BYTES) throw new UserError(TOO_LARGE.key, { ...TOO_LARGE, status: 413 });
      const bytes = Buffer.from(await value.file.arrayBuffer());
      const plan = await planProductImport(db, bytes);
      const token = plan.errors.length === 0 ? await stageProductCsv(storage, admin.id, bytes) : null;
      return data(
        { result: undefined, problem: null, preview: previewOf(plan, token) } as FormAnswer & {
          preview: ImportPreview;
        },
        { status: plan.errors.length === 0 ? 200 : 400 },
      );
    }
    const bytes = await readStagedProductCsv(storage, admin.id, value.token);
    const plan = await planProductImport(db, bytes);
    if (plan.errors.length > 0) {
      await removeStagedProductCsv(storage, admin.id, value.token);
      return data(
        { result: undefined, problem: null, preview: previewOf(plan, null) } as FormAnswer & {
          preview: ImportPreview;
        },
        { status: 409 },
      );
    }
    const counts = await applyProductImport(db, plan, admin.id, config);
    await removeStagedProductCsv(storage, admin.id, value.token);
    return succeed(context, form, {
      redirectTo: "/admin/products",
      flash: { type: "success", key: "adminProductCsv.imported", params: { ...counts } },
    });
  },
);

export default function AdminProductsImport({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const preview = actionData && "preview" in actionData ? (actionData.preview as ImportPreview) : null;
  const problem = actionData?.problem ?? null;
  const fileErrors = [...(actionData?.result?.error?.file ?? []), ...(problem?.field === "file" ? [problem.key] : [])];
  const formProblem = problem && problem.field !== "file" ? problem : null;
  const errorText = (error: ImportError) =>
    translateKey(t, error.key, {
      ...error.params,
      reason: error.params?.reason ? translateKey(t, String(error.params.reason)) : "",
    });

  return (
    <div className="max-w-4xl">
      <BackLink to="/admin/products">{t("adminProductCsv.back")}</BackLink>
      <AdminPageHeader title={t("adminProductCsv.title")} intro={t("adminProductCsv.intro")} />
      <ul className="mt-4 list-disc space-y-1 pl-5 text-sm text-stone-700">
        <li>{t("adminProductCsv.ruleGrouping")}</li>
        <li>{t("adminProductCsv.rulePrices")}</li>
        <li>{t("adminProductCsv.ruleImages")}</li>
        <li>{t("adminProductCsv.ruleShipping")}</li>
        <li>{t("adminProductCsv.ruleBrand")}</li>
      </ul>

      {formProblem ? (
        <div className="mt-4">
          <FormAlert title={translateKey(t, formProblem.key, formProblem.params)} />
        </div>
      ) : null}

      <Form method="post" encType="multipart/form-data" className="mt-6 space-y-4 rounded-lg bg-white p-4 shadow-sm">
        <input type="hidden" name="intent" value="preview" />
        <Field
          htmlFor="product-csv-file"
          label={t("adminProductCsv.fileLabel")}
          errors={fileErrors}
          hint={t("adminProductCsv.fileHint")}
        >
          <input type="file" name="file" accept=".csv,text/csv" required className={inputClass} />
        </Field>
        <Button>{t("adminProductCsv.previewButton")}</Button>
      </Form>

      {preview ? (
        <section
          className="mt-6 space-y-4 rounded-lg bg-white p-4 shadow-sm"
          aria-labelledby="import-preview"
          data-testid="import-preview"
        >
          <h2 id="import-preview" className="text-lg font-semibold">
            {t("adminProductCsv.previewTitle")}
          </h2>
          <ul className="space-y-1">
            <li>{t("adminProductCsv.willCreate", { count: preview.created })}</li>
            <li>{t("adminProductCsv.willUpdate", { count: preview.updated })}</li>
            <li>{t("adminProductCsv.unchanged", { count: preview.unchanged })}</li>
          </ul>
          <p className="text-sm text-stone-600">{t("adminProductCsv.ruleImages")}</p>
          {preview.errors.length > 0 ? (
            <div role="alert">
              <h3 className="font-semibold text-red-800">
                {t("adminProductCsv.errorsTitle", { count: preview.errors.length + preview.moreErrors })}
              </h3>
              <ul className="mt-2 space-y-1 text-sm text-red-800" data-testid="import-errors">
                {preview.errors.map((error, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: errors have no id; the list never reorders
                  <li key={index}>{t("adminProductCsv.lineError", { line: error.line, message: errorText(error) })}</li>
                ))}
              </ul>
              {preview.moreErrors > 0 ? (
                <p className="mt-2 text-sm text-red-800">
                  {t("adminProductCsv.moreErrors", { count: preview.moreErrors })}
                </p>
              ) : null}
            </div>
          ) : null}
          {preview.token ? (
            <Form method="post">
              <input type="hidden" name="intent" value="confirm" />
              <input type="hidden" name="token" value={preview.token} />
              <Button>{t("adminProductCsv.confirmButton")}</Button>
            </Form>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Import products");
