import { Fragment, type ReactNode } from "react";
import { FpsQrCode } from "~/components/store/fps-qr-code";
import type { FpsQr } from "~/lib/fps-qr.server";
import { useTranslation } from "~/lib/i18n";
import type { PaymentInstructions } from "~/models/payment-accounts.server";

/** `text` with each occurrence of `email` as a mailto link (the sentence is translated around it). */
export function withEmailLink(text: string, email: string): ReactNode {
  if (!email) return text;
  return text.split(email).map((part, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed sentence
    <Fragment key={index}>
      {index > 0 ? (
        <a href={`mailto:${email}`} className="underline">
          {email}
        </a>
      ) : null}
      {part}
    </Fragment>
  ));
}

/**
 * The transfer the shopper makes, in the order's currency: FPS (HKD), an international transfer
 * with SWIFT/BIC (GBP, EUR, USD), or whom to ask when the shop has no details for it. An HKD
 * payment to an FPS id the QR format can carry comes with its FPS QR code (`qr`, from `fpsQrFor`).
 * `reference` is the order's number (on the payment page, the one the order will have), for the
 * transfer's reference: the shop matches the transfer to the order by it.
 */
export function PaymentDetails({
  instructions,
  amount,
  currency,
  reference,
  qr = null,
}: {
  instructions: Exclude<PaymentInstructions, { kind: "closed" }>;
  amount: string;
  currency: string;
  reference: string;
  qr?: FpsQr | null;
}) {
  const { t } = useTranslation();
  const rows: { label: string; value: string | null; className?: string }[] =
    instructions.kind === "fps"
      ? [
          { label: t("payment.fpsId"), value: instructions.fpsId, className: "font-mono text-lg font-bold" },
          { label: t("payment.payee"), value: instructions.holder, className: "font-semibold" },
          { label: t("payment.bank"), value: instructions.bank },
          { label: t("payment.accountNumber"), value: instructions.accountNumber, className: "font-mono" },
        ]
      : instructions.kind === "international"
        ? [
            { label: t("payment.payee"), value: instructions.holder, className: "font-semibold" },
            { label: t("payment.bank"), value: instructions.bank },
            { label: t("payment.accountNumber"), value: instructions.accountNumber, className: "font-mono" },
            { label: t("payment.swift"), value: instructions.swift, className: "font-mono text-lg font-bold" },
            { label: t("payment.bankAddress"), value: instructions.bankAddress },
            { label: t("payment.routingNumber"), value: instructions.routingNumber, className: "font-mono" },
          ]
        : [];
  const demo = instructions.kind !== "contact" && instructions.demo;
  return (
    <section className="rounded-lg border border-stone-200 bg-white p-6" data-payment={instructions.kind}>
      <h2 className="text-lg font-semibold">{t("payment.instructions")}</h2>
      <p className="mt-1 text-sm text-stone-600">
        {instructions.kind === "fps"
          ? t("payment.instructionsText")
          : instructions.kind === "international"
            ? t("payment.internationalText", { currency })
            : withEmailLink(
                t("payment.contactText", { currency, email: instructions.supportEmail }),
                instructions.supportEmail,
              )}
      </p>
      {demo ? (
        <p
          data-testid="demo-account"
          className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          <strong>{t("payment.demoAccount")}</strong> {t("payment.demoAccountText")}
        </p>
      ) : null}
      <div className="mt-4 flex flex-col gap-6 sm:flex-row sm:items-start sm:justify-between">
        <dl
          className="grid grid-cols-[auto_1fr] content-start gap-x-6 gap-y-2 text-sm sm:flex-1"
          data-testid="bank-account"
        >
          {rows.map((row) =>
            row.value ? (
              <Fragment key={row.label}>
                <dt className="text-stone-500">{row.label}</dt>
                <dd className={`break-words ${row.className ?? ""}`}>{row.value}</dd>
              </Fragment>
            ) : null,
          )}
          <dt className="text-stone-500">{t("payment.amount")}</dt>
          <dd className="text-lg font-bold text-brand-700">{amount}</dd>
          <dt className="text-stone-500">{t("payment.reference")}</dt>
          <dd className="break-words font-mono font-semibold" data-testid="payment-reference">
            {reference}
          </dd>
        </dl>
        {qr ? <FpsQrCode svg={qr.svg} fpsId={qr.fpsId} amount={qr.amount} /> : null}
      </div>
    </section>
  );
}
