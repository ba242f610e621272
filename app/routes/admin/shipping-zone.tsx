import { AdminPageHeader } from "~/components/admin/page-header";
import { ZoneForm, type ZoneFormValues } from "~/components/admin/zone-form";
import { notFound } from "~/components/layout/route-error-boundary";
import { BackLink } from "~/components/ui/back-link";
import { services } from "~/context";
import { countryOptions } from "~/lib/countries";
import { formAction, succeed } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { parseId } from "~/lib/ids";
import { privatePageMeta } from "~/lib/meta";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { loadShop } from "~/models/settings/shop.server";
import {
  createZone,
  followsHkd,
  listZones,
  loadZone,
  updateZone,
  type ZoneRate,
  zoneInputOf,
} from "~/models/shipping/zones.server";
import { ownerOnly, requireOwner } from "~/request/auth.server";
import { moneyText, ZONE_CURRENCIES, zoneSchema } from "~/schemas/shipping-zone";
import type { Route } from "./+types/shipping-zone";

/*
 * Settings → Shipping zones → Add a zone (/admin/settings/shipping/new) and Edit
 * (/admin/settings/shipping/:id): the owner's only (docs/decisions/047). A country another zone
 * has is refused at the countries (409), a missing zone is a 404; every save is audited.
 */

const ZONES_PATH = "/admin/settings/shipping";

function rateValues(rate: ZoneRate | null | undefined, key: string): ZoneFormValues {
  if (!rate) return {};
  return {
    [`fee_${key}`]: moneyText(rate.feeCents),
    [`free_above_${key}`]: moneyText(rate.freeAboveCents),
    [`bands_${key}`]: rate.bands.map((band) => ({ max_grams: String(band.maxGrams), fee: moneyText(band.feeCents) })),
  };
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireOwner(context, request);
  const { db } = services(context);
  const t = getInstance(context).t;
  const language = getLanguage(context);
  const zones = await listZones(db);
  const id = params.id === undefined ? null : parseId(params.id);
  const zone = id === null ? null : await loadZone(db, id);
  if (params.id !== undefined && !zone) {
    throw notFound({ title: t("adminZones.title"), text: t("adminZones.errors.notFound") });
  }
  // Which other zone has a country, named in the admin's language, so the list says so.
  const taken = new Map<string, string>();
  for (const other of zones) {
    if (other.id === zone?.id) continue;
    for (const code of other.countries) taken.set(code, language === "zh" ? other.nameZh : other.nameEn);
  }
  const countries = countryOptions(language).map((option) => ({
    ...option,
    otherZone: taken.get(option.code) ?? null,
  }));
  if (!zone) {
    const defaults: ZoneFormValues = { sort_order: String(zones.filter((z) => !z.restOfWorld).length + 1) };
    return {
      id: null,
      name: null,
      restOfWorld: false,
      defaults,
      countries,
      title: `${t("adminZones.newTitle")} | ${t("admin.title")}`,
    };
  }
  const { exchangeRates } = await loadShop(db);
  const hkd = zone.rates.HKD ?? null;
  let defaults: ZoneFormValues = {
    name_en: zone.nameEn,
    name_zh: zone.nameZh,
    sort_order: String(zone.sortOrder),
    countries: zone.countries,
    ...rateValues(hkd, "hkd"),
  };
  for (const key of ZONE_CURRENCIES.slice(1)) {
    const currency = key.toUpperCase() as "GBP" | "EUR" | "USD";
    const rate = zone.rates[currency];
    // A rule that is HKD's at today's rate shows empty: it keeps following HKD when saved again.
    if (rate && hkd && followsHkd(rate, hkd, exchangeRates[currency])) continue;
    defaults = { ...defaults, ...rateValues(rate, key) };
  }
  const name = `${zone.nameEn} / ${zone.nameZh}`;
  return {
    id: zone.id,
    name,
    restOfWorld: zone.restOfWorld,
    defaults,
    countries,
    title: `${t("adminZones.editTitle", { name })} | ${t("admin.title")}`,
  };
}

/** Saves the form: a new zone, or the zone of the page. */
export const action = formAction(
  { schema: zoneSchema, authorize: ownerOnly },
  async ({ context, form, value, auth, params }) => {
    const { db } = services(context);
    const input = zoneInputOf(value, (await loadShop(db)).exchangeRates);
    const name = `${value.name_en} / ${value.name_zh}`;
    if (params.id !== undefined) {
      const id = parseId(params.id);
      if (id === null) throw notFound();
      await updateZone(db, auth.id, id, input);
      return succeed(context, form, {
        redirectTo: ZONES_PATH,
        flash: { type: "success", key: "adminZones.updated", params: { name } },
      });
    }
    await createZone(db, auth.id, input);
    return succeed(context, form, {
      redirectTo: ZONES_PATH,
      flash: { type: "success", key: "adminZones.created", params: { name } },
    });
  },
);

export default function AdminZoneForm({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { id, name, defaults, countries, restOfWorld } = loaderData;
  return (
    <div className="max-w-4xl">
      <BackLink to={ZONES_PATH}>{t("adminZones.backToList")}</BackLink>
      <div className="mt-2">
        <AdminPageHeader
          title={name ? t("adminZones.editTitle", { name }) : t("adminZones.newTitle")}
          intro={t("adminZones.formIntro")}
        />
      </div>
      <ZoneForm
        key={id ?? "new"}
        id={id ? `zone-${id}` : "zone-new"}
        defaults={defaults}
        countries={countries}
        restOfWorld={restOfWorld}
        lastResult={actionData?.result}
      />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Admin");
