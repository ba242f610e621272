import { DiscountForm, type DiscountFormValues } from "~/components/admin/discount-form";
import { AdminPageHeader } from "~/components/admin/page-header";
import { notFound } from "~/components/layout/route-error-boundary";
import { BackLink } from "~/components/ui/back-link";
import { services } from "~/context";
import { formAction, succeed } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { parseId } from "~/lib/ids";
import { localized } from "~/lib/localize";
import { privatePageMeta } from "~/lib/meta";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { listAllCategories } from "~/models/categories.server";
import { createDiscount, findDiscount, updateDiscount } from "~/models/discounts/admin.server";
import { adminOnly, requireAdmin } from "~/request/auth.server";
import { centsToText, discountSchema, isoToHongKongLocal, percentToText } from "~/schemas/discount";
import type { Route } from "./+types/discount-form";

/*
 * Admin → Discounts → Add a code (/admin/discounts/new) and Edit (/admin/discounts/:id): owner
 * and staff (docs/decisions/048). The model refuses a code already taken and products that do
 * not exist, next to their fields; every save is audited.
 */

const money = (cents: number | null) => (cents === null ? "" : centsToText(cents));

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { db } = services(context);
  const t = getInstance(context).t;
  const language = getLanguage(context);
  const categories = (await listAllCategories(db)).map((category) => ({
    id: category.id,
    name: localized(category, "name", language),
  }));
  const id = params.id === undefined ? null : parseId(params.id);
  if (params.id !== undefined) {
    const detail = id === null ? null : await findDiscount(db, id);
    if (!detail) throw notFound({ title: t("adminDiscounts.title"), text: t("adminDiscounts.errors.notFound") });
    const { row } = detail;
    const defaults: DiscountFormValues = {
      code: row.code,
      kind: row.kind,
      percent: percentToText(row.percent_bp),
      free_shipping: row.kind !== "free_shipping" && row.free_shipping === 1 ? "on" : undefined,
      amount_hkd: money(row.amount_hkd_cents),
      amount_gbp: money(row.amount_gbp_cents),
      amount_eur: money(row.amount_eur_cents),
      amount_usd: money(row.amount_usd_cents),
      min_hkd: money(row.min_hkd_cents),
      min_gbp: money(row.min_gbp_cents),
      min_eur: money(row.min_eur_cents),
      min_usd: money(row.min_usd_cents),
      starts_at: isoToHongKongLocal(row.starts_at),
      ends_at: isoToHongKongLocal(row.ends_at),
      max_uses: row.max_uses === null ? "" : String(row.max_uses),
      max_uses_per_customer: row.max_uses_per_customer === null ? "" : String(row.max_uses_per_customer),
      applies_to: row.applies_to,
      categories: detail.categoryIds.map(String),
      products: detail.productIds.join(", "),
      active: row.active === 1 ? "on" : undefined,
    };
    return {
      id: row.id,
      code: row.code,
      defaults,
      categories,
      title: `${t("adminDiscounts.editTitle", { code: row.code })} | ${t("admin.title")}`,
    };
  }
  const defaults: DiscountFormValues = { kind: "percent", applies_to: "all", active: "on", categories: [] };
  return { id: null, code: null, defaults, categories, title: `${t("adminDiscounts.newTitle")} | ${t("admin.title")}` };
}

/** Saves the form: a new code, or the code of the page. Staff may, like the owner. */
export const action = formAction(
  { schema: discountSchema, authorize: adminOnly },
  async ({ context, form, value, auth, params }) => {
    const { db } = services(context);
    if (params.id !== undefined) {
      const id = parseId(params.id);
      if (id === null) throw notFound();
      await updateDiscount(db, auth, id, value);
      return succeed(context, form, {
        redirectTo: "/admin/discounts",
        flash: { type: "success", key: "adminDiscounts.updated", params: { code: value.code } },
      });
    }
    await createDiscount(db, auth, value);
    return succeed(context, form, {
      redirectTo: "/admin/discounts",
      flash: { type: "success", key: "adminDiscounts.created", params: { code: value.code } },
    });
  },
);

export default function AdminDiscountForm({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { id, code, defaults, categories } = loaderData;
  return (
    <div className="max-w-4xl">
      <BackLink to="/admin/discounts">{t("adminDiscounts.backToList")}</BackLink>
      <div className="mt-2">
        <AdminPageHeader
          title={code ? t("adminDiscounts.editTitle", { code }) : t("adminDiscounts.newTitle")}
          intro={t("adminDiscounts.intro")}
        />
      </div>
      <DiscountForm
        key={id ?? "new"}
        id={id ? `discount-${id}` : "discount-new"}
        defaults={defaults}
        categories={categories}
        lastResult={actionData?.result}
      />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Admin");
