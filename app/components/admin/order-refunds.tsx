import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import type { Currency, OrderLineRow, OrderRow } from "#db/schema";
import { AdminSection } from "~/components/admin/admin-section";
import { FieldFor, FormErrors, inputClass, StatusButton } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import { localized, variantName } from "~/lib/localize";
import type { Language } from "~/locales";
import type { OrderRefundShown } from "~/models/orders/refunds.server";
import { centsToText } from "~/schemas/product";
import { REFUND_REASON_MAX, refundSchema } from "~/schemas/refund";

type RefundLine = Pick<
  OrderLineRow,
  "id" | "name_en" | "name_zh" | "color" | "color_zh" | "option_value" | "option_value_zh" | "quantity"
>;

/** "Name (colour / size)" of an order line in the reader's language. */
function itemName(line: RefundLine, language: Language): string {
  const variant = variantName(line, language);
  return `${localized(line, "name", language)}${variant ? ` (${variant})` : ""}`;
}

/**
 * The order's refunds (docs/decisions/057): each with its amount, reason, who recorded it and
 * when, and the units it put back; then, while money is left to give back on a paid order, the
 * refund form: the amount (what is left, to start with), the reason the customer reads, and per
 * line the units going back on sale (none on a cancelled order: its cancel put them back). A
 * plain POST to the order page (intent `refund`): without JavaScript the page comes back with the
 * errors next to their fields and the input kept.
 */
export function OrderRefunds({
  order,
  lines,
  refunds,
  putBack,
  refundable,
  lastResult,
  date,
  money,
  language,
}: {
  order: Pick<OrderRow, "status" | "total_cents" | "refunded_cents"> & { currency: Currency };
  lines: RefundLine[];
  refunds: OrderRefundShown[];
  /** Units of each line (by id) that refunds already put back. */
  putBack: Record<number, number>;
  refundable: boolean;
  /** The reply to the last refund sent, when it came back refused (the model's refusals in it too). */
  lastResult: SubmissionResult<string[]> | undefined;
  date: (value: string) => string;
  money: (cents: number) => string;
  language: Language;
}) {
  const { t } = useTranslation();
  const left = order.total_cents - order.refunded_cents;
  const cancelled = order.status === "cancelled";
  const restockable = cancelled
    ? []
    : lines.map((line) => ({ line, max: line.quantity - (putBack[line.id] ?? 0) })).filter(({ max }) => max > 0);
  const [form, fields] = useForm({
    id: "refund",
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: {
      amount: centsToText(Math.max(left, 0)),
      reason: "",
      restock: restockable.map(({ line }) => ({ line: String(line.id), quantity: "0" })),
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: refundSchema }),
  });
  const rows = fields.restock.getFieldList();
  const nameOf = new Map(lines.map((line) => [line.id, itemName(line, language)]));
  if (refunds.length === 0 && !refundable) return null;
  return (
    <AdminSection id="refunds" look="panel" heading={t("refunds.title")}>
      {order.refunded_cents > 0 ? (
        <p className="mt-2 text-sm font-semibold" data-testid="refund-summary">
          {t("refunds.summary", { refunded: money(order.refunded_cents), total: money(order.total_cents) })}
        </p>
      ) : null}
      {refunds.length === 0 ? (
        <p className="mt-2 text-sm text-stone-600">{t("refunds.none")}</p>
      ) : (
        <ol className="mt-2 space-y-2 text-sm" data-testid="refund-list">
          {refunds.map((refund) => (
            <li key={refund.id} className="border-l-2 border-stone-300 pl-2">
              <p>
                <span className="font-semibold">{money(refund.amount_cents)}</span> ·{" "}
                <span className="text-stone-500">{date(refund.created_at)}</span>
                {refund.actor ? (
                  <span className="break-all text-stone-500"> · {t("refunds.by", { email: refund.actor })}</span>
                ) : null}
              </p>
              <p className="whitespace-pre-line break-words text-stone-700">{refund.reason}</p>
              {refund.lines.map((line) => (
                <p key={line.order_line_id} className="text-stone-600">
                  {t("refunds.putBack", { count: line.quantity, item: nameOf.get(line.order_line_id) ?? "" })}
                </p>
              ))}
            </li>
          ))}
        </ol>
      )}
      {order.refunded_cents >= order.total_cents && order.refunded_cents > 0 ? (
        <p className="mt-2 text-sm text-stone-600">{t("refunds.fullyRefunded")}</p>
      ) : null}
      {refundable ? (
        <Form method="post" {...getFormProps(form)} className="mt-4 flex flex-col gap-3 border-t border-stone-200 pt-3">
          <h3 className="font-medium">{t("refunds.formTitle")}</h3>
          <p className="text-sm text-stone-600">{t("refunds.formIntro")}</p>
          <input type="hidden" name="intent" value="refund" />
          <input type="hidden" name="expectedRefunded" value={order.refunded_cents} />
          <FormErrors errors={form.errors} />
          <p className="text-sm">{t("refunds.left", { amount: money(left) })}</p>
          <FieldFor
            field={fields.amount}
            label={t("refunds.amount", { currency: order.currency })}
            hint={t("refunds.amountHint", { amount: money(left) })}
          >
            <input
              {...getInputProps(fields.amount, { type: "text" })}
              inputMode="decimal"
              autoComplete="off"
              className={inputClass}
            />
          </FieldFor>
          <FieldFor field={fields.reason} label={t("refunds.reason")}>
            <textarea
              id={fields.reason.id}
              name={fields.reason.name}
              defaultValue={fields.reason.initialValue as string | undefined}
              maxLength={REFUND_REASON_MAX}
              rows={3}
              className={inputClass}
            />
          </FieldFor>
          {cancelled ? (
            <p className="text-sm text-stone-600">{t("refunds.cancelledNoRestock")}</p>
          ) : restockable.length > 0 ? (
            <fieldset className="flex flex-col gap-2">
              <legend className="text-sm font-medium">{t("refunds.restockTitle")}</legend>
              <p className="text-xs text-stone-500">{t("refunds.restockHint")}</p>
              {restockable.map(({ line, max }, index) => {
                const row = rows[index]?.getFieldset();
                if (!row) return null;
                return (
                  <div key={line.id}>
                    <input type="hidden" name={row.line.name} value={line.id} />
                    <FieldFor
                      field={row.quantity}
                      label={t("refunds.restockLine", { item: itemName(line, language), max })}
                    >
                      <input
                        {...getInputProps(row.quantity, { type: "number" })}
                        min={0}
                        max={max}
                        step={1}
                        className={`${inputClass} w-28`}
                      />
                    </FieldFor>
                  </div>
                );
              })}
            </fieldset>
          ) : null}
          <StatusButton className="w-full">{t("refunds.submit")}</StatusButton>
        </Form>
      ) : null}
    </AdminSection>
  );
}
