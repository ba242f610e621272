import type { SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import type { OrderStatus } from "#db/schema";
import { AdminSection } from "~/components/admin/admin-section";
import { DeleteConfirmation } from "~/components/admin/delete-confirmation";
import { Field, inputClass, StatusButton } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import type { OrderTransition } from "~/models/orders/desk.server";
import { CARRIER_MAX } from "~/schemas/order-status";
import { CARRIER_LIST_ID, CarrierList } from "./carrier-list";

type Control = (props: {
  id: string;
  name: string;
  defaultValue: string | undefined;
  "aria-invalid": true | undefined;
  "aria-describedby": string;
  className: string;
}) => ReactNode;

/**
 * The status changes the order offers, each its own form (mark paid, shipped with a tracking
 * number, delivered, reject the receipt with a reason, cancel after a confirmation). Field
 * errors come back to the form whose intent was sent.
 */
export function OrderActions({
  order,
  actions,
  confirmingCancel,
  result,
}: {
  order: {
    id: string;
    status: OrderStatus;
    order_number: string;
    tracking_number: string | null;
    carrier: string | null;
  };
  actions: OrderTransition[];
  confirmingCancel: boolean;
  result: SubmissionResult<string[]> | undefined;
}) {
  const { t } = useTranslation();
  const sent = result?.initialValue?.intent;
  const fieldErrors = (intent: string, name: string) => (sent === intent ? result?.error?.[name] : undefined);
  const initial = (intent: string, name: string) =>
    sent === intent ? String(result?.initialValue?.[name] ?? "") : undefined;
  const hidden = <input type="hidden" name="expected" value={order.status} />;
  // The text a status change asks for (tracking number, reason), its errors when it came back.
  const input = (intent: OrderTransition, name: string, label: string, hint: string, control: Control) => (
    <Field label={label} htmlFor={name} hint={hint} errors={fieldErrors(intent, name)} errorId={`${name}-errors`}>
      {control({
        id: name,
        name,
        defaultValue: initial(intent, name),
        "aria-invalid": fieldErrors(intent, name) ? true : undefined,
        "aria-describedby": `${name}-errors`,
        className: inputClass,
      })}
    </Field>
  );
  // A status change that needs nothing but the button.
  const plain = (intent: OrderTransition, label: string) => (
    <Form method="post">
      {hidden}
      <StatusButton name="intent" value={intent} className="w-full">
        {label}
      </StatusButton>
    </Form>
  );
  return (
    <AdminSection id="actions" look="panel" heading={t("adminOrders.actions")}>
      {order.carrier ? (
        <p className="mt-2 text-sm" data-testid="order-carrier">
          {t("adminOrders.carrier")}: {order.carrier}
        </p>
      ) : null}
      {order.tracking_number ? (
        <p className="mt-2 text-sm">
          {t("adminOrders.tracking")}: <span className="font-mono">{order.tracking_number}</span>
        </p>
      ) : null}
      {actions.length === 0 ? <p className="mt-2 text-sm text-stone-600">{t("adminOrders.noActions")}</p> : null}
      <div className="mt-3 flex flex-col gap-4">
        {actions.includes("markPaid") ? plain("markPaid", t("adminOrders.markPaid")) : null}
        {actions.includes("markShipped") ? (
          <Form method="post" className="flex flex-col gap-2">
            {hidden}
            {input("markShipped", "carrier", t("adminOrders.carrier"), t("adminOrders.carrierHint"), (props) => (
              <input {...props} type="text" maxLength={CARRIER_MAX} list={CARRIER_LIST_ID} autoComplete="off" />
            ))}
            <CarrierList />
            {input("markShipped", "tracking", t("adminOrders.tracking"), t("adminOrders.trackingHint"), (props) => (
              <input {...props} maxLength={100} />
            ))}
            <StatusButton name="intent" value="markShipped" className="w-full">
              {t("adminOrders.markShipped")}
            </StatusButton>
          </Form>
        ) : null}
        {actions.includes("markDelivered") ? plain("markDelivered", t("adminOrders.markDelivered")) : null}
        {actions.includes("rejectReceipt") ? (
          <Form method="post" className="flex flex-col gap-2 border-t border-stone-200 pt-4">
            {hidden}
            {input(
              "rejectReceipt",
              "reason",
              t("adminOrders.rejectReason"),
              t("adminOrders.rejectReasonHint"),
              (props) => (
                <textarea {...props} rows={3} maxLength={500} required />
              ),
            )}
            <button
              type="submit"
              name="intent"
              value="rejectReceipt"
              className="rounded-md border border-red-300 bg-white px-4 py-2 font-semibold text-red-800 hover:bg-red-50"
            >
              {t("adminOrders.rejectReceipt")}
            </button>
          </Form>
        ) : null}
        {actions.includes("cancel") ? (
          confirmingCancel ? (
            <DeleteConfirmation
              id="cancel"
              headingLevel={3}
              heading={t("adminOrders.cancelConfirm", { number: order.order_number })}
              fields={{ intent: "cancel", expected: order.status }}
              confirmLabel={t("adminOrders.cancelYes")}
              cancelLabel={t("adminOrders.cancelNo")}
              cancelTo={`/admin/orders/${order.id}`}
            />
          ) : (
            <Link
              to="?cancel=1"
              className="border-t border-stone-200 pt-4 text-center text-sm font-semibold text-red-700 hover:underline"
            >
              {t("adminOrders.cancel")}
            </Link>
          )
        ) : null}
      </div>
    </AdminSection>
  );
}
