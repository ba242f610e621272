import { type FieldMetadata, getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import { Section } from "~/components/admin/shop-form-parts";
import { FieldFor, inputClass } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import { ALERT_EVENTS, ALERT_FIELDS } from "~/schemas/shop";

type AlertFieldName = (typeof ALERT_FIELDS)[keyof typeof ALERT_FIELDS];

/**
 * Shop details → "Alerts to the shop" (issue 26): the notification addresses (one a line; empty:
 * the support e-mail), the events they are told of, and the language the alerts are written in.
 * app/models/outbox/alerts.server.ts sends them.
 */
export function ShopAlertsSection({
  fields,
  supportEmail,
}: {
  fields: Record<"alert_emails" | "alert_language", FieldMetadata<string | undefined>> &
    Record<AlertFieldName, FieldMetadata<string | boolean | undefined>>;
  /** The support e-mail as stored: where alerts go while no address is given. */
  supportEmail: string;
}) {
  const { t } = useTranslation();
  return (
    <Section id="alerts" heading={t("adminShop.alerts.heading")} intro={t("adminShop.alerts.intro")}>
      <div className="grid gap-6 sm:grid-cols-2">
        <FieldFor
          field={fields.alert_emails}
          label={t("adminShop.alerts.emails")}
          hint={t("adminShop.alerts.emailsHint", { email: supportEmail })}
        >
          <textarea
            {...getTextareaProps(fields.alert_emails)}
            rows={3}
            placeholder={supportEmail}
            autoComplete="off"
            spellCheck={false}
            className={`${inputClass} break-all`}
          />
        </FieldFor>
        <div className="flex flex-col gap-4">
          <fieldset>
            <legend className="text-sm font-medium text-stone-800">{t("adminShop.alerts.events")}</legend>
            <div className="mt-2 flex flex-col gap-2">
              {ALERT_EVENTS.map((event) => {
                const name = ALERT_FIELDS[event];
                const key = name.replace(/^alert_/, "") as "order_placed";
                return (
                  <label key={event} className="flex items-start gap-2 text-sm text-stone-800">
                    <input {...getInputProps(fields[name], { type: "checkbox" })} className="mt-0.5 size-4 shrink-0" />
                    {t(`adminShop.alerts.on.${key}`)}
                  </label>
                );
              })}
            </div>
            <p className="mt-2 text-xs text-stone-500">{t("adminShop.alerts.placedWithReceipt")}</p>
          </fieldset>
          <FieldFor field={fields.alert_language} label={t("adminShop.alerts.language")}>
            <select {...getSelectProps(fields.alert_language)} className={`${inputClass} max-w-[12rem]`}>
              <option value="en">English</option>
              <option value="zh" lang="zh-HK">
                中文
              </option>
            </select>
          </FieldFor>
        </div>
      </div>
    </Section>
  );
}
