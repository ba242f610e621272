import { type DefaultValue, type FieldMetadata, getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "react-router";
import { CURRENCIES } from "#db/schema";
import { HeadingRow } from "~/components/admin/admin-table";
import { ImagePicker, StoredImage } from "~/components/admin/image-picker";
import { ShopAlertsSection } from "~/components/admin/shop-alerts-section";
import { MoneyInput, Section } from "~/components/admin/shop-form-parts";
import { ShopTextsSection } from "~/components/admin/shop-texts-section";
import { BackLink } from "~/components/ui/back-link";
import { Field, FormErrors, inputClass, StatusButton } from "~/components/ui/field";
import { services } from "~/context";
import { formAction, succeed } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { DERIVED_CURRENCIES } from "~/lib/money";
import { publicUrl } from "~/lib/storage.server";
import { translateKey } from "~/lib/translate-key";
import { getInstance } from "~/middleware/i18next";
import { loadShop, shopDetailsFormValues, updateShopDetails } from "~/models/settings/shop.server";
import { ownerOnly, requireOwner } from "~/request/auth.server";
import {
  feeField,
  freeAboveField,
  fromHkdField,
  LOGO_MAX_BYTES,
  rateField,
  type ShopDetailsForm,
  type ShopDetailsInput,
  shopDetailsSchema,
} from "~/schemas/shop";
import type { Route } from "./+types/shop-details";

/*
 * Settings → Shop details (/admin/settings/shop): the shop's name, address, e-mails, "Supported
 * By" mark, delivery charges per currency, exchange rates and the shop's own alerts. One multipart form: a refusal
 * re-renders it with the input kept and the messages next to the fields (400); a save redirects
 * here with a flash message.
 */

const PATH = "/admin/settings/shop";
/** The logo limit plus room for the text fields and the multipart framing. */
const BODY_LIMIT = LOGO_MAX_BYTES + 256 * 1024;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireOwner(context, request);
  const shop = await loadShop(services(context).db);
  const t = getInstance(context).t;
  return {
    values: shopDetailsFormValues(shop),
    defaultWindowHours: services(context).config.paymentWindowHours,
    logoUrl: publicUrl(shop.supportedBy.logoKey),
    supportEmail: shop.supportEmail,
    title: `${t("adminShop.title")} | ${t("admin.title")}`,
  };
}

/** Saves the form. The admin right is checked before the body is read. */
export const action = formAction(
  {
    schema: shopDetailsSchema,
    maxBytes: BODY_LIMIT,
    // A post too large to read is the logo's refusal, shown next to it.
    unread: {
      tooLarge: { key: "adminShop.errors.logoTooLarge", field: "supported_by_logo" },
      notAForm: { key: "adminShop.errors.uploadFailed", field: "supported_by_logo" },
    },
    authorize: ownerOnly,
  },
  async ({ context, form, value, auth }) => {
    const { db, storage } = services(context);
    const { ratesChanged } = await updateShopDetails(db, storage, value, { actorUserId: auth.id });
    return succeed(context, form, {
      redirectTo: PATH,
      flash: { type: "success", key: ratesChanged ? "adminShop.savedRates" : "adminShop.saved" },
    });
  },
);

/** A fee or threshold typed in a GBP, EUR or USD row: that currency's own, so its box is cleared. */
function untickFollowingRow(event: React.FormEvent<HTMLTableSectionElement>) {
  const input = event.target as HTMLInputElement;
  const currency = /^(?:fee|free_above)_(gbp|eur|usd)$/.exec(input.name)?.[1];
  const box = currency ? input.form?.elements.namedItem(`shipping_from_hkd_${currency}`) : null;
  if (box instanceof HTMLInputElement) box.checked = false;
}

export default function ShopDetailsPage(props: Route.ComponentProps) {
  // A save comes back here with the details as stored: a new form shows them (with JavaScript the
  // old one would keep what was typed, not a following currency's charge moved with HKD).
  return <ShopDetailsEditor key={JSON.stringify(props.loaderData.values)} {...props} />;
}

function ShopDetailsEditor({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [form, fields] = useForm<ShopDetailsInput, ShopDetailsForm>({
    id: "shop-details",
    lastResult: actionData?.result,
    defaultValue: loaderData.values as DefaultValue<ShopDetailsInput>,
    constraint: getZodConstraint(shopDetailsSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: shopDetailsSchema }),
  });
  const text = (field: FieldMetadata<string | undefined>, label: string, hint?: string, type = "text") => (
    <Field label={label} htmlFor={field.id} hint={hint} errors={field.errors} errorId={field.errorId}>
      <input {...getInputProps(field, { type: type as "text" })} autoComplete="off" className={inputClass} dir="auto" />
    </Field>
  );
  const saving = navigation.state === "submitting" && navigation.formAction === PATH;
  return (
    <div className="max-w-4xl">
      <BackLink to="/admin/settings">{t("adminShop.back")}</BackLink>
      <h1 className="mt-2 text-2xl font-bold">{t("adminShop.title")}</h1>
      <p className="mt-1 text-sm text-stone-600">{t("adminShop.intro")}</p>
      <Form
        method="post"
        action={PATH}
        encType="multipart/form-data"
        {...getFormProps(form)}
        className="mt-6 flex flex-col gap-8"
      >
        <FormErrors errors={form.errors} />
        <Section id="identity" heading={t("adminShop.identity.heading")}>
          <div className="grid gap-4 sm:grid-cols-2">
            {text(fields.name_en, t("adminShop.identity.nameEn"))}
            {text(fields.name_zh, t("adminShop.identity.nameZh"))}
            {text(fields.address_en, t("adminShop.identity.addressEn"), t("adminShop.identity.addressHint"))}
            {text(fields.address_zh, t("adminShop.identity.addressZh"), t("adminShop.identity.addressHint"))}
            {text(
              fields.support_email,
              t("adminShop.identity.supportEmail"),
              t("adminShop.identity.supportEmailHint"),
              "email",
            )}
            {text(
              fields.sender_email,
              t("adminShop.identity.senderEmail"),
              t("adminShop.identity.senderEmailHint"),
              "email",
            )}
          </div>
        </Section>

        <ShopTextsSection fields={fields} />

        <Section id="supporter" heading={t("adminShop.supporter.heading")} intro={t("adminShop.supporter.intro")}>
          <div className="grid gap-4 sm:grid-cols-2">
            {text(fields.supported_by_en, t("adminShop.supporter.nameEn"))}
            {text(fields.supported_by_zh, t("adminShop.supporter.nameZh"))}
            <div className="sm:col-span-2">
              {text(fields.supported_by_url, t("adminShop.supporter.url"), t("adminShop.supporter.urlHint"), "url")}
            </div>
            {loaderData.logoUrl ? (
              <div className="flex flex-col gap-2">
                <p className="text-sm font-medium text-stone-800">{t("adminShop.supporter.logoCurrent")}</p>
                <StoredImage
                  src={loaderData.logoUrl}
                  alt={t("adminShop.supporter.logoCurrent")}
                  testId="logo-current"
                  className="h-16 w-auto max-w-[12rem] rounded bg-stone-900 object-contain p-2"
                  remove={fields.supported_by_logo_remove}
                  removeLabel={t("adminShop.supporter.logoRemove")}
                />
              </div>
            ) : null}
            <ImagePicker
              field={fields.supported_by_logo}
              label={t("adminShop.supporter.logo")}
              hint={t("adminShop.supporter.logoHint")}
              errors={fields.supported_by_logo.errors?.map((key) => translateKey(t, key))}
              accept="image/png,image/jpeg,image/webp"
              previewAlt={t("adminShop.supporter.logoChosen")}
              previewClassName="h-16 w-auto max-w-[12rem] rounded bg-stone-900 object-contain p-2"
            />
          </div>
        </Section>

        <Section id="delivery" heading={t("adminShop.shipping.heading")} intro={t("adminShop.shipping.intro")}>
          <table className="w-full text-sm">
            <thead className="text-left text-stone-600">
              <HeadingRow
                cellClass="py-1 pr-3 font-medium last:pr-0"
                columns={[
                  t("adminShop.shipping.currency"),
                  t("adminShop.shipping.fee"),
                  t("adminShop.shipping.freeAbove"),
                ]}
              />
            </thead>
            {/* With JavaScript, typing a currency's own amount clears its "follows HK$" box. */}
            <tbody onInput={untickFollowingRow}>
              {CURRENCIES.map((currency) => {
                const fee = fields[feeField(currency)];
                const free = fields[freeAboveField(currency)];
                const follows = currency === "HKD" ? null : fields[fromHkdField(currency)];
                return (
                  <tr key={currency} className="align-top">
                    <th scope="row" className="py-2 pr-3 text-left font-medium">
                      {currency}
                      {/* Under the currency, so the amounts keep their width on a phone. */}
                      {follows ? (
                        <label className="mt-1 flex items-center gap-1.5 whitespace-nowrap text-xs font-normal text-stone-700">
                          <input
                            {...getInputProps(follows, { type: "checkbox" })}
                            aria-label={t("adminShop.shipping.fromHkdNamed", { currency })}
                            aria-describedby="from-hkd-hint"
                            className="size-4"
                          />
                          {t("adminShop.shipping.fromHkd")}
                        </label>
                      ) : null}
                    </th>
                    <td className="py-2 pr-3">
                      <MoneyInput field={fee} label={t("adminShop.shipping.feeNamed", { currency })} />
                    </td>
                    <td className="py-2">
                      <MoneyInput
                        field={free}
                        label={t("adminShop.shipping.freeAboveNamed", { currency })}
                        hint={t("adminShop.shipping.freeAboveHint")}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <p id="from-hkd-hint" className="mt-2 text-xs text-stone-600">
            {t("adminShop.shipping.fromHkdHint")}
          </p>
        </Section>

        <Section id="rates" heading={t("adminShop.rates.heading")} intro={t("adminShop.rates.intro")}>
          <div className="grid gap-4 sm:grid-cols-3">
            {DERIVED_CURRENCIES.map((currency) => {
              const field = fields[rateField(currency)];
              return (
                <Field
                  key={currency}
                  label={t("adminShop.rates.perHkd", { currency })}
                  htmlFor={field.id}
                  errors={field.errors}
                  errorId={field.errorId}
                >
                  <input {...getInputProps(field, { type: "text" })} inputMode="decimal" className={inputClass} />
                </Field>
              );
            })}
          </div>
        </Section>

        <Section id="payments" heading={t("adminShop.payments.heading")} intro={t("adminShop.payments.intro")}>
          <div className="max-w-xs">
            {text(
              fields.payment_window_hours,
              t("adminShop.payments.window"),
              t("adminShop.payments.windowHint", { hours: loaderData.defaultWindowHours }),
            )}
          </div>
        </Section>

        <ShopAlertsSection fields={fields} supportEmail={loaderData.supportEmail} />

        <div>
          <StatusButton pendingText={saving ? t("adminShop.saving") : undefined}>{t("adminShop.save")}</StatusButton>
        </div>
      </Form>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Admin");
