import { redirect } from "react-router";
import { CURRENCIES } from "#db/schema";
import { AdminSection } from "~/components/admin/admin-section";
import { Badge } from "~/components/admin/badges";
import { DeleteButton, DeleteConfirmation } from "~/components/admin/delete-confirmation";
import { AdminPageHeader } from "~/components/admin/page-header";
import { BackLink } from "~/components/ui/back-link";
import { ButtonLink } from "~/components/ui/button";
import { ProblemAlert } from "~/components/ui/field";
import { services } from "~/context";
import { countryName } from "~/lib/countries";
import { formAction, succeed } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { parseId } from "~/lib/ids";
import { privatePageMeta } from "~/lib/meta";
import { formatMoney } from "~/lib/money";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { deleteZone, listZones, zoneRate } from "~/models/shipping/zones.server";
import { ownerOnly, requireOwner } from "~/request/auth.server";
import { zoneRowSchema } from "~/schemas/shipping-zone";
import type { Route } from "./+types/shipping-zones";

/*
 * Settings → Shipping zones (/admin/settings/shipping, docs/decisions/047): every zone with its
 * countries and, per currency, its fee, free-shipping threshold and weight bands; add, edit,
 * delete. The owner's only: what every shopper pays for delivery. A zone that is the only place
 * some item may go cannot be deleted (the model refuses it with the item's name, 409).
 */

const ZONES_PATH = "/admin/settings/shipping";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireOwner(context, request);
  const { db } = services(context);
  const language = getLanguage(context);
  const t = getInstance(context).t;
  const zones = await listZones(db);
  const rows = [];
  for (const zone of zones) {
    const rates = [];
    for (const currency of CURRENCIES) {
      const rate = await zoneRate(db, zone.id, currency);
      if (!rate) continue;
      rates.push({
        currency,
        fee: formatMoney(rate.feeCents, currency),
        freeAbove: rate.freeAboveCents === null ? null : formatMoney(rate.freeAboveCents, currency),
        bands: rate.bands.length,
      });
    }
    rows.push({
      id: zone.id,
      nameEn: zone.nameEn,
      nameZh: zone.nameZh,
      restOfWorld: zone.restOfWorld,
      countries: zone.countries.map((code) => countryName(code, language)),
      rates,
    });
  }
  const deleteId = parseId(new URL(request.url).searchParams.get("delete"));
  const deleting = rows.find((zone) => zone.id === deleteId) ?? null;
  return {
    zones: rows,
    deleting: deleting ? { id: deleting.id, name: `${deleting.nameEn} / ${deleting.nameZh}` } : null,
    title: `${t("adminZones.title")} | ${t("admin.title")}`,
  };
}

/** Delete a zone: without JavaScript the first post leads to the confirmation step. */
export const action = formAction(
  { schema: zoneRowSchema, authorize: ownerOnly },
  async ({ context, form, value, auth }) => {
    if (value.confirmed !== "1") return redirect(`${ZONES_PATH}?delete=${value.id}`);
    await deleteZone(services(context).db, auth.id, value.id);
    return succeed(context, form, { redirectTo: ZONES_PATH, flash: { type: "success", key: "adminZones.deleted" } });
  },
);

export default function ShippingZones({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { zones, deleting } = loaderData;
  return (
    <div className="max-w-5xl">
      <BackLink to="/admin/settings">{t("adminZones.back")}</BackLink>
      <div className="mt-2">
        <AdminPageHeader title={t("adminZones.title")} intro={t("adminZones.intro")}>
          <ButtonLink to={`${ZONES_PATH}/new`}>{t("adminZones.add")}</ButtonLink>
        </AdminPageHeader>
      </div>
      {actionData?.problem ? (
        <div className="mt-4">
          <ProblemAlert problem={actionData.problem} />
        </div>
      ) : null}
      {deleting ? (
        <DeleteConfirmation
          heading={t("adminZones.confirmDelete", { name: deleting.name })}
          action={ZONES_PATH}
          fields={{ intent: "delete", id: deleting.id }}
          confirmLabel={t("adminZones.delete")}
          cancelLabel={t("adminZones.cancel")}
          cancelTo={ZONES_PATH}
        >
          {t("adminZones.deleteConsequence")}
        </DeleteConfirmation>
      ) : null}
      <AdminSection
        id="zones"
        look="bare"
        className="mt-6"
        heading={t("adminZones.listHeading")}
        empty={zones.length === 0 ? t("adminZones.empty") : undefined}
      >
        <ul className="mt-3 flex flex-col gap-3">
          {zones.map((zone) => {
            const name = `${zone.nameEn} / ${zone.nameZh}`;
            return (
              <li
                key={zone.id}
                data-testid="zone-row"
                className="flex flex-col gap-3 rounded-lg bg-white p-4 shadow-sm md:flex-row md:items-start"
              >
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <h3 className="text-base font-bold text-stone-900">{name}</h3>
                    {zone.restOfWorld ? (
                      <Badge tone="bg-stone-200 text-stone-700">{t("adminZones.restOfWorld")}</Badge>
                    ) : null}
                  </div>
                  <p className="mt-1 text-sm text-stone-700" data-testid="zone-countries">
                    {zone.restOfWorld
                      ? t("adminZones.everywhereElse")
                      : zone.countries.join(", ") || t("adminZones.noCountries")}
                  </p>
                  <dl className="mt-2 grid gap-x-6 gap-y-1 text-sm text-stone-700 sm:grid-cols-2">
                    {zone.rates.map((rate) => (
                      <div key={rate.currency} className="flex gap-2">
                        <dt className="w-10 text-stone-500">{rate.currency}</dt>
                        <dd data-testid={`zone-rate-${rate.currency}`}>
                          {[
                            rate.fee,
                            rate.freeAbove ? t("adminZones.freeAboveShort", { amount: rate.freeAbove }) : null,
                            rate.bands > 0 ? t("adminZones.bandsCount", { count: rate.bands }) : null,
                          ]
                            .filter(Boolean)
                            .join(" · ")}
                        </dd>
                      </div>
                    ))}
                  </dl>
                </div>
                <div className="flex flex-wrap items-center gap-2">
                  <ButtonLink
                    to={`${ZONES_PATH}/${zone.id}`}
                    variant="secondary"
                    size="sm"
                    aria-label={t("adminZones.editNamed", { name })}
                  >
                    {t("adminZones.edit")}
                  </ButtonLink>
                  <DeleteButton
                    action={ZONES_PATH}
                    fields={{ intent: "delete", id: zone.id }}
                    question={t("adminZones.confirmDelete", { name })}
                    label={t("adminZones.delete")}
                    ariaLabel={t("adminZones.deleteNamed", { name })}
                  />
                </div>
              </li>
            );
          })}
        </ul>
      </AdminSection>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Admin");
