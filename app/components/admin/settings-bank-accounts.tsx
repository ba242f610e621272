import { getFormProps, getInputProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { DeleteButton, DeleteConfirmation } from "~/components/admin/delete-confirmation";
import { ButtonLink } from "~/components/ui/button";
import { Field, FieldFor, FormErrors, inputClass, StatusButton } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import { translateKey } from "~/lib/translate-key";
import type { BankAccount } from "~/models/payment-accounts.server";
import { createBankAccountSchema, updateBankAccountSchema } from "~/schemas/bank-account";
import { SETTINGS_PATH as PATH } from "./settings-hero";

export function BankAccountForm({
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
          <FieldFor
            field={fields.bank_address}
            label={t("adminSettings.banking.bankAddress")}
            hint={t("adminSettings.banking.optional")}
          >
            <textarea {...getTextareaProps(fields.bank_address)} rows={2} className={inputClass} />
          </FieldFor>
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
            <ButtonLink to={PATH} variant="secondary" className="font-normal">
              {t("adminSettings.banking.cancelEdit")}
            </ButtonLink>
          ) : null}
        </div>
      </Form>
    </section>
  );
}

export function BankAccountRow({
  account,
  editing,
}: {
  account: BankAccount & { createdText: string };
  editing: boolean;
}) {
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
        <ButtonLink
          to={`${PATH}?edit=${account.id}#bank-form`}
          aria-label={t("adminSettings.banking.editNamed", { name })}
          variant="secondary"
          size="sm"
          className="font-normal"
        >
          {t("adminSettings.banking.edit")}
        </ButtonLink>
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

export function BankDeleteConfirmation({ account }: { account: BankAccount }) {
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
