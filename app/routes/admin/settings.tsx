import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect, useLocation, useNavigation } from "react-router";
import { z } from "zod";
import { CURRENCIES } from "#db/schema";
import { DeleteButton, DeleteConfirmation } from "~/components/admin/delete-confirmation";
import { ImagePicker } from "~/components/admin/image-picker";
import { Field, FormErrors, inputClass, StatusButton } from "~/components/ui/field";
import { services } from "~/context";
import { requireAdmin } from "~/lib/auth.server";
import { formatDate } from "~/lib/dates";
import { setFlash } from "~/lib/flash.server";
import { useTranslation } from "~/lib/i18n";
import { BodyTooLargeError, IMAGE_PRESETS, ImageError, readFormData, storeImage } from "~/lib/images.server";
import { formatMoney } from "~/lib/money";
import { translateKey } from "~/lib/translate-key";
import { getInstance, getLanguage } from "~/middleware/i18next";
import {
  type BankAccount,
  createBankAccount,
  deleteBankAccount,
  findBankAccount,
  findHeroImage,
  listBankAccounts,
  makePrimaryBankAccount,
  resetHeroImage,
  updateBankAccount,
  updateHeroImage,
} from "~/models/admin-settings.server";
import { listContentPages } from "~/models/content-page.server";
import { loadShop, shopName } from "~/models/shop.server";
import {
  createBankAccountSchema,
  HERO_MAX_BYTES,
  heroImageSchema,
  settingsActionSchema,
  updateBankAccountSchema,
} from "~/schemas/bank-account";
import type { Route } from "./+types/settings";

const PATH = "/admin/settings";
/** The hero image limit plus room for the multipart framing. */
const BODY_LIMIT = Math.max(HERO_MAX_BYTES, IMAGE_PRESETS.hero.maxBytes) + 256 * 1024;
const HERO_TOO_LARGE = "adminSettings.errors.heroTooLarge";

function positiveId(value: string | null): number | null {
  if (!value || !/^\d{1,12}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { db } = services(context);
  const url = new URL(request.url);
  const editId = positiveId(url.searchParams.get("edit"));
  const deleteId = positiveId(url.searchParams.get("delete"));
  const [shop, pages, hero, accounts, editing, deleting] = await Promise.all([
    loadShop(db),
    listContentPages(db),
    findHeroImage(db),
    listBankAccounts(db),
    editId ? findBankAccount(db, editId) : null,
    deleteId ? findBankAccount(db, deleteId) : null,
  ]);
  const language = getLanguage(context);
  const t = getInstance(context).t;
  return {
    hero: { ...hero, updatedText: hero.updatedAt ? formatDate(hero.updatedAt, language, "dateTime") : null },
    accounts: accounts.map((account) => ({
      ...account,
      createdText: formatDate(account.created_at, language, "dateTime"),
    })),
    editing,
    deleting,
    title: `${t("adminSettings.title")} | ${t("admin.title")}`,
    shop: {
      name: shopName(shop, language),
      supportEmail: shop.supportEmail,
      senderEmail: shop.senderEmail,
      delivery: CURRENCIES.map((currency) => {
        const rule = shop.shipping[currency];
        return {
          currency,
          fee: formatMoney(rule.feeCents, currency),
          free: rule.freeAboveCents === null ? null : formatMoney(rule.freeAboveCents, currency),
        };
      }),
    },
    pages: pages.map((page) => ({
      slug: page.slug,
      editedText: page.editedAt ? formatDate(page.editedAt, language, "date") : null,
    })),
  };
}

type Problem = { key: string; params?: Record<string, string | number> };
type Intent = "create" | "update" | "delete" | "make_primary" | "hero" | "hero_reset" | null;

/** The hero upload, the reset, and the bank account writes. The admin right is checked before the body is read. */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = requireAdmin(context, request);
  const { db, storage } = services(context);
  let form: FormData;
  try {
    form = await readFormData(request, BODY_LIMIT);
  } catch (error) {
    // Too large, or not a form at all (no boundary, cut short, another content type): a 4xx.
    const tooLarge = error instanceof BodyTooLargeError;
    const empty = parseWithZod(new FormData(), { schema: z.object({}) });
    return data(
      {
        intent: "hero" as Intent,
        result: empty.reply({
          fieldErrors: { hero: [tooLarge ? HERO_TOO_LARGE : "adminSettings.errors.uploadFailed"] },
        }),
        heroProblem: null as Problem | null,
      },
      { status: tooLarge ? 413 : 400 },
    );
  }
  const submission = parseWithZod(form, { schema: settingsActionSchema });
  const raw = String(form.get("intent") ?? "");
  const intent: Intent = (["create", "update", "delete", "make_primary", "hero", "hero_reset"] as const).includes(
    raw as never,
  )
    ? (raw as Intent)
    : null;
  const reply = (options: Parameters<typeof submission.reply>[0], heroProblem: Problem | null = null) =>
    data({ intent, result: submission.reply(options), heroProblem }, { status: 400 });
  if (submission.status !== "success") return reply({});
  const value = submission.value;
  const actor = { actorUserId: admin.id };

  switch (value.intent) {
    case "hero": {
      let key: string;
      try {
        key = await storeImage(storage, value.hero, "hero", { folder: "hero" });
      } catch (error) {
        if (!(error instanceof ImageError)) throw error;
        const problem =
          error.code === "tooLarge" ? { key: HERO_TOO_LARGE } : { key: error.messageKey, params: error.params };
        return reply({ fieldErrors: { hero: [problem.key] } }, problem);
      }
      await updateHeroImage(db, storage, key, actor);
      setFlash(context, { type: "success", key: "adminSettings.heroUpdated" });
      return redirect(PATH);
    }
    case "hero_reset": {
      await resetHeroImage(db, storage, actor);
      setFlash(context, { type: "success", key: "adminSettings.heroReset" });
      return redirect(PATH);
    }
    case "delete": {
      // Without JavaScript there is no confirm(): the confirmation is a second page.
      if (value.confirmed !== "1") return redirect(`${PATH}?delete=${value.id}#bank-delete`);
      const result = await deleteBankAccount(db, value.id, actor);
      if (!result.ok) return reply({ formErrors: ["adminSettings.errors.deleteFailed", result.problem.key] });
      setFlash(context, { type: "success", key: "adminSettings.accountDeleted" });
      return redirect(PATH);
    }
    case "make_primary": {
      const result = await makePrimaryBankAccount(db, value.id, actor);
      if (!result.ok) return reply({ formErrors: ["adminSettings.errors.saveFailed", result.problem.key] });
      setFlash(context, { type: "success", key: "adminSettings.accountMadePrimary" });
      return redirect(PATH);
    }
    default: {
      const result =
        value.intent === "create"
          ? await createBankAccount(db, value, actor)
          : await updateBankAccount(db, value.id, value, actor);
      if (!result.ok) {
        const { field, key } = result.problem;
        return reply(field ? { fieldErrors: { [field]: [key] } } : { formErrors: [key] });
      }
      setFlash(context, {
        type: "success",
        key: value.intent === "create" ? "adminSettings.accountAdded" : "adminSettings.accountUpdated",
      });
      return redirect(PATH);
    }
  }
}

type LoaderData = Route.ComponentProps["loaderData"];
type ActionData = Route.ComponentProps["actionData"];

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const { hero, accounts, editing, deleting } = loaderData;
  const listErrors =
    actionData?.intent === "delete" || actionData?.intent === "make_primary"
      ? actionData.result.error?.[""]
      : undefined;
  const bankResult = actionData?.intent === "create" || actionData?.intent === "update" ? actionData.result : undefined;
  return (
    <div className="max-w-5xl">
      <h1 className="text-2xl font-bold">{t("adminSettings.title")}</h1>
      <p className="mt-1 text-sm text-stone-600">{t("adminSettings.intro")}</p>

      <ShopSection shop={loaderData.shop} pages={loaderData.pages} />

      <HeroSection
        key={`hero-${hero.key ?? "default"}`}
        hero={hero}
        actionData={actionData?.intent === "hero" || actionData?.intent === "hero_reset" ? actionData : undefined}
      />

      <section aria-labelledby="banking-heading" className="mt-10">
        <h2 id="banking-heading" className="text-xl font-semibold">
          {t("adminSettings.banking.heading")}
        </h2>
        <p className="mt-1 text-sm text-stone-600">{t("adminSettings.banking.intro")}</p>

        {listErrors ? (
          <div className="mt-4">
            <FormErrors errors={listErrors} />
          </div>
        ) : null}
        {deleting ? <BankDeleteConfirmation account={deleting} /> : null}

        <BankAccountForm
          // A fresh form after every navigation: an added account does not stay typed in.
          key={`${editing ? `edit-${editing.id}` : "new"}-${location.key}`}
          account={editing}
          firstAccount={accounts.length === 0}
          lastResult={bankResult}
        />

        <h3 className="mt-8 text-lg font-semibold">{t("adminSettings.banking.saved")}</h3>
        {accounts.length === 0 ? (
          <p className="mt-3 rounded-lg bg-white p-6 text-stone-600 shadow-sm">{t("adminSettings.banking.empty")}</p>
        ) : (
          <ul className="mt-3 flex flex-col gap-3">
            {accounts.map((account) => (
              <BankAccountRow key={account.id} account={account} editing={editing?.id === account.id} />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="demo-data-heading" className="mt-10">
        <h2 id="demo-data-heading" className="text-xl font-semibold">
          {t("adminDemoData.settingsHeading")}
        </h2>
        <p className="mt-1 text-sm text-stone-600">{t("adminDemoData.settingsText")}</p>
        <Link
          to="/admin/demo-data"
          className="mt-2 inline-block font-medium text-brand-700 underline hover:no-underline"
        >
          {t("adminDemoData.settingsLink")}
        </Link>
      </section>
    </div>
  );
}

/** Settings → Shop details: what the shop says about itself, with the way to change it. */
function ShopSection({ shop, pages }: { shop: LoaderData["shop"]; pages: LoaderData["pages"] }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="shop-heading" className="mt-8">
      <h2 id="shop-heading" className="text-xl font-semibold">
        {t("adminShop.summary.heading")}
      </h2>
      <p className="mt-1 text-sm text-stone-600">{t("adminShop.summary.intro")}</p>
      <div className="mt-4 grid gap-6 rounded-lg bg-white p-6 shadow-sm md:grid-cols-2">
        <div className="min-w-0">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-stone-600">{t("adminShop.summary.name")}</dt>
            <dd className="break-words font-medium" data-testid="shop-name">
              {shop.name}
            </dd>
            <dt className="text-stone-600">{t("adminShop.summary.supportEmail")}</dt>
            <dd className="break-words">{shop.supportEmail}</dd>
            <dt className="text-stone-600">{t("adminShop.summary.senderEmail")}</dt>
            <dd className="break-words">{shop.senderEmail}</dd>
            <dt className="text-stone-600">{t("adminShop.summary.delivery")}</dt>
            <dd>
              <ul>
                {shop.delivery.map((row) => (
                  <li key={row.currency}>
                    {row.free
                      ? t("adminShop.summary.deliveryRule", { fee: row.fee, free: row.free })
                      : t("adminShop.summary.deliveryNeverFree", { fee: row.fee })}
                  </li>
                ))}
              </ul>
            </dd>
          </dl>
          <Link
            to="/admin/settings/shop"
            className="mt-4 inline-block rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
          >
            {t("adminShop.summary.edit")}
          </Link>
        </div>
        <div className="min-w-0">
          <h3 id="pages-heading" className="font-semibold">
            {t("adminShop.pages.heading")}
          </h3>
          <p className="text-sm text-stone-600">{t("adminShop.pages.intro")}</p>
          <ul className="mt-2 divide-y divide-stone-200 text-sm">
            {pages.map((page) => {
              const name = t(`footer.${page.slug}`);
              return (
                <li key={page.slug} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <span>
                    <span className="font-medium">{name}</span>{" "}
                    <span className="text-stone-600">
                      {page.editedText
                        ? t("adminShop.pages.edited", { date: page.editedText })
                        : t("adminShop.pages.default")}
                    </span>
                  </span>
                  <Link
                    to={`/admin/settings/pages/${page.slug}`}
                    aria-label={t("adminShop.pages.editNamed", { page: name })}
                    className="rounded-md border border-stone-300 px-3 py-1 hover:bg-stone-50"
                  >
                    {t("adminShop.pages.edit")}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      </div>
    </section>
  );
}

function HeroSection({ hero, actionData }: { hero: LoaderData["hero"]; actionData: ActionData | undefined }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "hero-form",
    lastResult: actionData?.result,
    constraint: getZodConstraint(heroImageSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: heroImageSchema }),
  });
  const uploading = navigation.state === "submitting" && navigation.formData?.get("intent") === "hero";
  const problem = actionData?.heroProblem;
  const errors = problem
    ? [translateKey(t, problem.key, problem.params)]
    : fields.hero.errors?.map((key) => translateKey(t, key));
  return (
    <section aria-labelledby="appearance-heading" className="mt-8">
      <h2 id="appearance-heading" className="text-xl font-semibold">
        {t("adminSettings.appearance.heading")}
      </h2>
      <p className="mt-1 text-sm text-stone-600">{t("adminSettings.appearance.intro")}</p>
      <div className="mt-4 grid gap-6 rounded-lg bg-white p-6 shadow-sm md:grid-cols-2">
        <figure className="flex flex-col gap-2">
          <figcaption className="text-sm font-medium text-stone-800">
            {t("adminSettings.appearance.current")}
          </figcaption>
          <img
            src={hero.url}
            alt={t("adminSettings.appearance.previewAlt")}
            data-testid="hero-preview"
            className="aspect-[3/2] w-full rounded-md bg-stone-200 object-cover"
          />
          <p className="text-xs text-stone-500">
            {hero.key && hero.updatedText
              ? t("adminSettings.appearance.currentCustom", { date: hero.updatedText })
              : t("adminSettings.appearance.currentDefault")}
          </p>
        </figure>
        <div className="flex flex-col gap-4">
          <Form method="post" action={PATH} encType="multipart/form-data" {...getFormProps(form)}>
            <input type="hidden" name="intent" value="hero" />
            <FormErrors errors={form.errors} />
            <div className="flex flex-col gap-2">
              <ImagePicker
                id={fields.hero.id}
                name={fields.hero.name}
                errorId={fields.hero.errorId}
                label={t("adminSettings.appearance.image")}
                hint={t("adminSettings.appearance.hint")}
                errors={errors}
                accept="image/png,image/jpeg,image/gif,image/webp"
                previewAlt={t("adminSettings.appearance.chosenAlt")}
                previewClassName="aspect-[3/2] w-40 rounded-md object-cover"
              />
            </div>
            <StatusButton
              pendingText={uploading ? t("adminSettings.appearance.uploading") : undefined}
              className="mt-4"
            >
              {t("adminSettings.appearance.upload")}
            </StatusButton>
          </Form>
          {hero.key ? (
            <Form method="post" action={PATH} className="border-t border-stone-200 pt-4">
              <input type="hidden" name="intent" value="hero_reset" />
              <button type="submit" className="rounded-md border border-stone-300 px-4 py-2 text-sm hover:bg-stone-50">
                {t("adminSettings.appearance.reset")}
              </button>
              <p className="mt-1 text-xs text-stone-500">{t("adminSettings.appearance.resetHint")}</p>
            </Form>
          ) : null}
        </div>
      </div>
    </section>
  );
}

function BankAccountForm({
  account,
  firstAccount,
  lastResult,
}: {
  account: BankAccount | null;
  firstAccount: boolean;
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const { t } = useTranslation();
  const schema = account ? updateBankAccountSchema : createBankAccountSchema;
  const [form, fields] = useForm({
    id: account ? `bank-account-${account.id}` : "bank-account-new",
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: account
      ? {
          bank_name: account.bank_name,
          account_holder: account.account_holder,
          account_number: account.account_number,
          fps_id: account.fps_id ?? "",
          swift_code: account.swift_code ?? "",
          routing_number: account.routing_number ?? "",
          bank_address: account.bank_address ?? "",
          is_primary: account.is_primary ? "on" : undefined,
        }
      : { is_primary: firstAccount ? "on" : undefined },
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const action = account ? `${PATH}?edit=${account.id}` : PATH;
  const text = (name: keyof typeof fields, label: string, hint?: string, autoComplete = "off") => {
    const field = fields[name];
    return (
      <Field label={label} htmlFor={field.id} hint={hint} errors={field.errors} errorId={field.errorId}>
        <input {...getInputProps(field, { type: "text" })} autoComplete={autoComplete} className={inputClass} />
      </Field>
    );
  };
  return (
    <section id="bank-form" aria-labelledby="bank-form-heading" className="mt-4 rounded-lg bg-white p-6 shadow-sm">
      <h3 id="bank-form-heading" className="text-lg font-semibold">
        {account ? t("adminSettings.banking.editHeading") : t("adminSettings.banking.addHeading")}
      </h3>
      <Form method="post" action={action} {...getFormProps(form)} className="mt-4 grid gap-4 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <FormErrors errors={form.errors} />
        </div>
        <input type="hidden" name="intent" value={account ? "update" : "create"} />
        {account ? <input type="hidden" name="id" value={account.id} /> : null}
        {text("bank_name", t("adminSettings.banking.bankName"))}
        {text("account_holder", t("adminSettings.banking.accountHolder"))}
        {text("account_number", t("adminSettings.banking.accountNumber"))}
        {text("fps_id", t("adminSettings.banking.fpsId"), t("adminSettings.banking.fpsHint"))}
        {text("swift_code", t("adminSettings.banking.swiftCode"), t("adminSettings.banking.swiftHint"))}
        {text("routing_number", t("adminSettings.banking.routingNumber"), t("adminSettings.banking.optional"))}
        <div className="sm:col-span-2">
          <Field
            label={t("adminSettings.banking.bankAddress")}
            htmlFor={fields.bank_address.id}
            hint={t("adminSettings.banking.optional")}
            errors={fields.bank_address.errors}
            errorId={fields.bank_address.errorId}
          >
            <textarea {...getTextareaProps(fields.bank_address)} rows={2} className={inputClass} />
          </Field>
        </div>
        <div className="flex flex-col gap-1 sm:col-span-2">
          <label className="flex items-center gap-2 text-sm font-medium text-stone-800">
            <input
              {...getInputProps(fields.is_primary, { type: "checkbox" })}
              aria-describedby={fields.is_primary.errors?.length ? fields.is_primary.errorId : undefined}
            />
            {t("adminSettings.banking.primary")}
          </label>
          <p className="text-xs text-stone-500">{t("adminSettings.banking.primaryHelp")}</p>
          {fields.is_primary.errors?.length ? (
            <ul id={fields.is_primary.errorId} className="space-y-0.5 text-sm text-red-700">
              {fields.is_primary.errors.map((key) => (
                <li key={key}>{translateKey(t, key)}</li>
              ))}
            </ul>
          ) : null}
        </div>
        <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
          <StatusButton>{account ? t("adminSettings.banking.update") : t("adminSettings.banking.add")}</StatusButton>
          {account ? (
            <Link to={PATH} className="rounded-md border border-stone-300 px-4 py-2 hover:bg-stone-50">
              {t("adminSettings.banking.cancelEdit")}
            </Link>
          ) : null}
        </div>
      </Form>
    </section>
  );
}

function BankAccountRow({ account, editing }: { account: LoaderData["accounts"][number]; editing: boolean }) {
  const { t } = useTranslation();
  const name = `${account.bank_name} ${account.account_number}`;
  const details: [string, string | null][] = [
    [t("adminSettings.banking.accountHolder"), account.account_holder],
    [t("adminSettings.banking.accountNumber"), account.account_number],
    [t("adminSettings.banking.fpsId"), account.fps_id],
    [t("adminSettings.banking.swiftCode"), account.swift_code],
    [t("adminSettings.banking.routingNumber"), account.routing_number],
    [t("adminSettings.banking.bankAddress"), account.bank_address],
  ];
  return (
    <li
      data-testid="bank-account-row"
      className={`flex flex-col gap-4 rounded-lg bg-white p-4 shadow-sm sm:flex-row sm:items-start ${
        account.is_primary ? "ring-2 ring-brand-500" : ""
      } ${editing ? "outline-2 outline-offset-2 outline-stone-400 outline-dashed" : ""}`}
    >
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <h4 className="font-semibold">{account.bank_name}</h4>
          {account.is_primary ? (
            <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-800">
              {t("adminSettings.banking.primaryBadge")}
            </span>
          ) : null}
          {account.is_demo ? (
            <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">
              {t("adminSettings.banking.demoBadge")}
            </span>
          ) : null}
        </div>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          {details.map(([label, value]) =>
            value ? (
              <div key={label} className="contents">
                <dt className="text-stone-500">{label}</dt>
                <dd className="break-words">{value}</dd>
              </div>
            ) : null,
          )}
        </dl>
        <p className="mt-2 text-xs text-stone-500">
          {t("adminSettings.banking.created", { date: account.createdText })}
        </p>
      </div>
      <div className="flex shrink-0 flex-wrap items-center gap-2">
        <Link
          to={`${PATH}?edit=${account.id}#bank-form`}
          aria-label={t("adminSettings.banking.editNamed", { name })}
          className="rounded-md border border-stone-300 px-3 py-1.5 text-sm hover:bg-stone-50"
        >
          {t("adminSettings.banking.edit")}
        </Link>
        {account.is_primary ? null : (
          <Form method="post" action={PATH}>
            <input type="hidden" name="intent" value="make_primary" />
            <input type="hidden" name="id" value={account.id} />
            <button
              type="submit"
              aria-label={t("adminSettings.banking.makePrimaryNamed", { name })}
              className="rounded-md border border-brand-500 px-3 py-1.5 text-sm text-brand-700 hover:bg-brand-50"
            >
              {t("adminSettings.banking.makePrimary")}
            </button>
          </Form>
        )}
        <DeleteForm account={account} name={name} />
      </div>
    </li>
  );
}

function DeleteForm({ account, name }: { account: BankAccount; name: string }) {
  const { t } = useTranslation();
  return (
    <DeleteButton
      action={PATH}
      fields={{ intent: "delete", id: account.id }}
      question={t("adminSettings.banking.confirmDelete")}
      label={t("adminSettings.banking.delete")}
      ariaLabel={t("adminSettings.banking.deleteNamed", { name })}
    />
  );
}

function BankDeleteConfirmation({ account }: { account: BankAccount }) {
  const { t } = useTranslation();
  return (
    <DeleteConfirmation
      id="bank-delete"
      headingLevel={3}
      heading={t("adminSettings.banking.confirmDelete")}
      action={PATH}
      fields={{ intent: "delete", id: account.id }}
      confirmLabel={t("adminSettings.banking.confirmDeleteButton")}
      cancelLabel={t("adminSettings.banking.cancel")}
      cancelTo={PATH}
    >
      <p>
        {account.bank_name} · {account.account_holder} · {account.account_number}
      </p>
      {account.is_primary ? <p className="mt-1">{t("adminSettings.banking.confirmDeletePrimary")}</p> : null}
    </DeleteConfirmation>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.title ?? "Admin" }, { name: "robots", content: "noindex" }];
}
