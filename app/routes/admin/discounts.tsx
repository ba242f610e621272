import { Form, redirect } from "react-router";
import { AdminSection } from "~/components/admin/admin-section";
import { Badge, FAILURE_TONE, SUCCESS_TONE } from "~/components/admin/badges";
import { DeleteButton, DeleteConfirmation } from "~/components/admin/delete-confirmation";
import { AdminPageHeader } from "~/components/admin/page-header";
import { Button, ButtonLink } from "~/components/ui/button";
import { ProblemAlert } from "~/components/ui/field";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { formAction, succeed } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { parseId } from "~/lib/ids";
import { privatePageMeta } from "~/lib/meta";
import { formatMoney } from "~/lib/money";
import { getInstance, getLanguage } from "~/middleware/i18next";
import {
  type DiscountListItem,
  type DiscountStatus,
  deleteDiscount,
  listDiscounts,
  setDiscountActive,
} from "~/models/discounts/admin.server";
import { adminOnly, requireAdmin } from "~/request/auth.server";
import { discountRowSchema, percentToText } from "~/schemas/discount";
import type { Route } from "./+types/discounts";

/*
 * Admin → Discounts (/admin/discounts, owner and staff; docs/decisions/048): every code with its
 * status, uses against its limit and the revenue its paid orders brought; activate, deactivate,
 * delete (a used code is refused: deactivate it instead). Add and edit on their own page.
 */

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { db } = services(context);
  const language = getLanguage(context);
  const t = getInstance(context).t;
  const codes = await listDiscounts(db);
  const deleteId = parseId(new URL(request.url).searchParams.get("delete"));
  return {
    deleting: codes.find((code) => code.id === deleteId && !code.everUsed)?.code ?? null,
    deletingId: deleteId,
    codes: codes.map((code) => ({
      ...code,
      revenueText: code.revenue.map((r) => formatMoney(r.cents, r.currency)).join(" · "),
      amountText: code.amountHkdCents !== null ? formatMoney(code.amountHkdCents, "HKD") : "",
      startsText: code.startsAt ? formatDate(code.startsAt, language, "dateTime") : "",
      endsText: code.endsAt ? formatDate(code.endsAt, language, "dateTime") : "",
    })),
    title: `${t("adminDiscounts.title")} | ${t("admin.title")}`,
  };
}

/** A row's buttons: activate, deactivate, delete. Staff may, like the owner; each change audited by the model. */
export const action = formAction(
  { schema: discountRowSchema, authorize: adminOnly },
  async ({ context, form, value, auth }) => {
    const { db } = services(context);
    if (value.intent === "delete") {
      // Without JavaScript the first post leads to the confirmation step.
      if (value.confirmed !== "1") return redirect(`/admin/discounts?delete=${value.id}`);
      const code = await deleteDiscount(db, auth, value.id);
      return succeed(context, form, {
        redirectTo: "/admin/discounts",
        flash: { type: "success", key: "adminDiscounts.deleted", params: { code } },
      });
    }
    const active = value.intent === "activate";
    const code = await setDiscountActive(db, auth, value.id, active);
    return succeed(context, form, {
      redirectTo: "/admin/discounts",
      flash: {
        type: "success",
        key: active ? "adminDiscounts.activated" : "adminDiscounts.deactivated",
        params: { code },
      },
    });
  },
);

const STATUS_TONES: Record<DiscountStatus, string> = {
  active: SUCCESS_TONE,
  inactive: "bg-stone-200 text-stone-700",
  scheduled: "bg-sky-100 text-sky-900",
  expired: FAILURE_TONE,
  usedUp: "bg-amber-100 text-amber-900",
};

type Row = DiscountListItem & { revenueText: string; amountText: string; startsText: string; endsText: string };

function discountText(t: ReturnType<typeof useTranslation>["t"], code: Row): string {
  const money =
    code.kind === "percent"
      ? t("adminDiscounts.percentOff", { percent: percentToText(code.percentBp) })
      : code.kind === "fixed"
        ? t("adminDiscounts.amountOff", { amount: code.amountText })
        : t("adminDiscounts.freeShipping");
  return code.kind !== "free_shipping" && code.freeShipping
    ? t("adminDiscounts.plusFreeShipping", { discount: money })
    : money;
}

export default function AdminDiscounts({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { codes, deleting, deletingId } = loaderData;
  return (
    <div className="max-w-5xl">
      <AdminPageHeader title={t("adminDiscounts.title")} intro={t("adminDiscounts.intro")}>
        <ButtonLink to="/admin/discounts/new">{t("adminDiscounts.add")}</ButtonLink>
      </AdminPageHeader>
      {actionData?.problem ? (
        <div className="mt-4">
          <ProblemAlert problem={actionData.problem} />
        </div>
      ) : null}
      {deleting && deletingId ? (
        <DeleteConfirmation
          heading={t("adminDiscounts.confirmDelete", { code: deleting })}
          action="/admin/discounts"
          fields={{ intent: "delete", id: deletingId }}
          confirmLabel={t("adminDiscounts.delete")}
          cancelLabel={t("adminDiscounts.cancel")}
          cancelTo="/admin/discounts"
        />
      ) : null}
      <AdminSection
        id="codes"
        look="bare"
        className="mt-6"
        heading={t("adminDiscounts.listHeading")}
        empty={codes.length === 0 ? t("adminDiscounts.empty") : undefined}
      >
        <ul className="mt-3 flex flex-col gap-3">
          {codes.map((code) => (
            <li
              key={code.id}
              data-testid="discount-row"
              className="flex flex-col gap-3 rounded-lg bg-white p-4 shadow-sm md:flex-row md:items-start"
            >
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center gap-2">
                  <code className="text-base font-bold text-stone-900">{code.code}</code>
                  <Badge tone={STATUS_TONES[code.status]} testId="discount-status">
                    {t(`adminDiscounts.statuses.${code.status}`)}
                  </Badge>
                </div>
                <dl className="mt-2 grid gap-x-6 gap-y-1 text-sm text-stone-700 sm:grid-cols-2">
                  <div className="flex gap-2">
                    <dt className="text-stone-500">{t("adminDiscounts.columns.discount")}</dt>
                    <dd>{discountText(t, code)}</dd>
                  </div>
                  <div className="flex gap-2">
                    <dt className="text-stone-500">{t("adminDiscounts.columns.uses")}</dt>
                    <dd data-testid="discount-uses">
                      {code.maxUses === null
                        ? t("adminDiscounts.usesUnlimited", { count: code.usesCount })
                        : t("adminDiscounts.usesOf", { count: code.usesCount, max: code.maxUses })}
                    </dd>
                  </div>
                  <div className="flex gap-2">
                    <dt className="text-stone-500">{t("adminDiscounts.columns.revenue")}</dt>
                    <dd data-testid="discount-revenue">{code.revenueText || t("adminDiscounts.noRevenue")}</dd>
                  </div>
                  <div className="flex gap-2">
                    <dt className="text-stone-500">{t("adminDiscounts.columns.dates")}</dt>
                    <dd>
                      {[
                        code.startsText ? t("adminDiscounts.from", { date: code.startsText }) : "",
                        code.endsText ? t("adminDiscounts.until", { date: code.endsText }) : "",
                      ]
                        .filter(Boolean)
                        .join(" · ") || t("adminDiscounts.always")}
                    </dd>
                  </div>
                </dl>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <ButtonLink
                  to={`/admin/discounts/${code.id}`}
                  variant="secondary"
                  size="sm"
                  aria-label={t("adminDiscounts.editNamed", { code: code.code })}
                >
                  {t("adminDiscounts.edit")}
                </ButtonLink>
                <Form method="post">
                  <input type="hidden" name="id" value={code.id} />
                  <Button
                    name="intent"
                    value={code.status === "inactive" ? "activate" : "deactivate"}
                    variant="secondary"
                    size="sm"
                  >
                    {code.status === "inactive" ? t("adminDiscounts.activate") : t("adminDiscounts.deactivate")}
                  </Button>
                </Form>
                {code.everUsed ? (
                  <p className="text-xs text-stone-500 md:max-w-40">{t("adminDiscounts.usedKeep")}</p>
                ) : (
                  <DeleteButton
                    action="/admin/discounts"
                    fields={{ intent: "delete", id: code.id }}
                    question={t("adminDiscounts.confirmDelete", { code: code.code })}
                    label={t("adminDiscounts.delete")}
                    ariaLabel={t("adminDiscounts.deleteNamed", { code: code.code })}
                  />
                )}
              </div>
            </li>
          ))}
        </ul>
      </AdminSection>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Admin");
