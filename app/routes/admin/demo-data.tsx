import { AdminSection } from "~/components/admin/admin-section";
import { DeleteConfirmation } from "~/components/admin/delete-confirmation";
import { FormAlert } from "~/components/ui/field";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { formAction, succeed } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { localized } from "~/lib/localize";
import { privatePageMeta } from "~/lib/meta";
import { translateKey } from "~/lib/translate-key";
import type { Language } from "~/locales";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { isDemoDataEmpty, removeDemoData, summarizeDemoData } from "~/models/demo-data.server";
import { ownerOnly, requireOwner } from "~/request/auth.server";
import type { Flash } from "~/request/flash.server";
import { removeDemoDataSchema } from "~/schemas/settings-demo-data";
import type { Route } from "./+types/demo-data";

const PATH = "/admin/demo-data";
const LIST_LOCALES: Record<Language, string> = { en: "en-GB", zh: "zh-HK" };

/** What "Remove demo data" would remove, and the form that does it. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireOwner(context, request);
  const { db } = services(context);
  const summary = await summarizeDemoData(db);
  const language = getLanguage(context);
  const t = getInstance(context).t;
  const list = new Intl.ListFormat(LIST_LOCALES[language], { type: "conjunction" });
  return {
    summary: {
      ...summary,
      keptCategories: list.format(summary.keptCategories.map((category) => localized(category, "name", language))),
      editedProducts: summary.editedProducts.map((product) => ({
        id: product.id,
        name: localized(product, "name", language),
        edited: formatDate(product.updated_at, language, "dateTime"),
      })),
    },
    empty: isDemoDataEmpty(summary),
    /** Removing the demo account leaves the shop without any account shoppers can pay into. */
    noAccountLeft: summary.bankAccounts > 0 && summary.ownBankAccounts === 0,
    title: `${t("adminDemoData.title")} | ${t("admin.title")}`,
  };
}

/**
 * Removes the demo data: only the page's own button (intent=remove, confirmed=1) does it. An
 * edited demo product the page listed and the owner unticked goes too; every other one stays.
 */
export const action = formAction(
  {
    schema: removeDemoDataSchema,
    authorize: ownerOnly,
  },
  async ({ context, form, value, auth }) => {
    const { db, storage } = services(context);
    const keep = new Set(value.keep ?? []);
    const removeEdited = (value.edited ?? []).filter((id) => !keep.has(id));
    const removed = await removeDemoData(db, storage, { actorUserId: auth.id, removeEdited });
    const flash: Flash =
      isDemoDataEmpty(removed) && removed.keptProducts === 0
        ? { type: "info", key: "adminDemoData.nothingRemoved" }
        : {
            type: "success",
            key: "adminDemoData.removed",
            detailKey: removed.keptProducts > 0 ? "adminDemoData.removedDetailKept" : "adminDemoData.removedDetail",
            params: {
              products: removed.products,
              categories: removed.categories,
              blogPosts: removed.blogPosts,
              bankAccounts: removed.bankAccounts,
              kept: removed.keptProducts,
            },
          };
    return succeed(context, form, { redirectTo: "/admin", flash });
  },
);

export default function DemoData({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { summary, empty, noAccountLeft } = loaderData;
  // A refused post is a schema error (its key says what went wrong) or a refusal from the model.
  const refusal = actionData?.problem?.key ?? Object.values(actionData?.result?.error ?? {}).flat()[0];
  const rows: [string, string][] = [
    [t("adminDemoData.products"), String(summary.products)],
    [t("adminDemoData.categories"), String(summary.categories)],
    [t("adminDemoData.blogPosts"), String(summary.blogPosts)],
    [t("adminDemoData.bankAccount"), String(summary.bankAccounts)],
    [t("adminDemoData.heroImage"), t(summary.demoHero ? "adminDemoData.heroYes" : "adminDemoData.heroNo")],
    [t("adminDemoData.texts"), t(summary.demoTexts ? "adminDemoData.heroYes" : "adminDemoData.heroNo")],
  ];
  return (
    <div className="max-w-3xl">
      <h1 className="text-2xl font-bold">{t("adminDemoData.title")}</h1>
      <p className="mt-1 text-sm text-stone-600">{t("adminDemoData.intro")}</p>
      {refusal ? (
        <div className="mt-4">
          <FormAlert title={translateKey(t, refusal)} />
        </div>
      ) : null}
      {empty ? (
        <p className="mt-6 rounded-lg bg-white p-6 text-stone-700 shadow-sm" data-testid="demo-data-empty">
          {t("adminDemoData.nothing")}
        </p>
      ) : (
        <>
          <AdminSection id="demo-what" className="mt-6" heading={t("adminDemoData.whatHeading")}>
            <dl className="mt-3 grid grid-cols-[1fr_auto] gap-x-6 gap-y-2 text-sm" data-testid="demo-data-summary">
              {rows.map(([label, value]) => (
                <div key={label} className="contents">
                  <dt className="text-stone-700">{label}</dt>
                  <dd className="text-right font-semibold tabular-nums">{value}</dd>
                </div>
              ))}
            </dl>
            {summary.demoHero ? <p className="mt-4 text-sm text-stone-700">{t("adminDemoData.heroNote")}</p> : null}
            {summary.demoTexts ? <p className="mt-4 text-sm text-stone-700">{t("adminDemoData.textsNote")}</p> : null}
            {summary.keptCategories ? (
              <p className="mt-4 text-sm text-stone-700" data-testid="demo-data-kept">
                {t("adminDemoData.kept", { names: summary.keptCategories })}
              </p>
            ) : null}
          </AdminSection>
          <DeleteConfirmation
            id="demo-remove"
            heading={t("adminDemoData.confirmHeading")}
            action={PATH}
            fields={{ intent: "remove" }}
            confirmLabel={t("adminDemoData.confirm")}
            cancelLabel={t("adminDemoData.cancel")}
            cancelTo="/admin"
            choices={
              summary.editedProducts.length > 0 ? <EditedProductChoices products={summary.editedProducts} /> : null
            }
          >
            {noAccountLeft ? <p>{t("adminDemoData.noAccountLeft")}</p> : null}
          </DeleteConfirmation>
        </>
      )}
    </div>
  );
}

/**
 * The demo products the owner has edited, each with a ticked "Keep" box: posted with the
 * confirmation (plain HTML, so it works without JavaScript). `edited` says which were listed.
 */
function EditedProductChoices({ products }: { products: { id: number; name: string; edited: string }[] }) {
  const { t } = useTranslation();
  return (
    <fieldset className="rounded-md border border-stone-300 bg-white p-4 text-stone-900" data-testid="demo-edited">
      {/* Floated: the legend sits inside the box (not on its border) and wraps like a heading. */}
      <legend className="float-left w-full font-semibold">
        {t("adminDemoData.editedHeading", { count: products.length })}
      </legend>
      <p className="clear-both pt-1 text-sm text-stone-700">{t("adminDemoData.editedIntro")}</p>
      <ul className="mt-3 divide-y divide-stone-200">
        {products.map((product) => (
          <li key={product.id} className="py-2" data-testid="demo-edited-product">
            <input type="hidden" name="edited[]" value={product.id} />
            <label className="flex items-start gap-3">
              <input
                type="checkbox"
                name="keep[]"
                value={product.id}
                defaultChecked
                className="mt-1 h-4 w-4 shrink-0 accent-brand-700"
              />
              <span className="min-w-0">
                <span className="block font-medium break-words">
                  {t("adminDemoData.keepProduct", { name: product.name })}
                </span>
                <span className="block text-sm text-stone-600">
                  {t("adminDemoData.lastEdited", { date: product.edited })}
                </span>
              </span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Admin");
