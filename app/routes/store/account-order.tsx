import { data, Form } from "react-router";
import { ShopperInvoiceLink } from "~/components/order-documents/document-links";
import { OrderStatusBadge } from "~/components/order-status-badge";
import { OrderSummary } from "~/components/order-summary";
import { RefundBadge } from "~/components/refund-badge";
import { ShopperOrderRefunds } from "~/components/store/order-refunds";
import { PaymentDetails } from "~/components/store/payment-details";
import { ReceiptInput } from "~/components/store/receipt-input";
import { addressOfOrder, ShipTo } from "~/components/store/ship-to";
import { BackLink } from "~/components/ui/back-link";
import { Button } from "~/components/ui/button";
import { ProblemAlert } from "~/components/ui/field";
import { HeadedPanel } from "~/components/ui/headed-panel";
import { orderTotals } from "~/components/ui/money-totals";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { formAction, succeed } from "~/lib/form-action.server";
import { fpsQrFor } from "~/lib/fps-qr.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { formatMoney } from "~/lib/money";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { deadlineState } from "~/models/orders/payment-deadlines.server";
import {
  awaitsReceipt,
  RECEIPT_FORM_LIMIT,
  RECEIPT_UNREAD,
  uploadReplacementReceipt,
} from "~/models/orders/receipts.server";
import { listOrderRefunds } from "~/models/orders/refunds.server";
import { findOrder, listOrderHistory } from "~/models/orders/shopper.server";
import { shownStatus } from "~/models/orders/status";
import { loadPaymentInstructions } from "~/models/payment-accounts.server";
import { getShop, shopName, titleWithShop } from "~/models/settings/shop.server";
import { requireUser } from "~/request/auth.server";
import { replaceReceiptSchema } from "~/schemas/receipt";
import type { Route } from "./+types/account-order";

/** The signed-in customer and their order; another customer's order is "not found", whatever its id. */
async function requireOwnOrder({ request, params, context }: Route.LoaderArgs | Route.ActionArgs) {
  const user = requireUser(context, request);
  const found = await findOrder(services(context).db, params.id, user.id);
  if (!found) throw data(null, { status: 404 });
  return { user, ...found };
}

export async function loader(args: Route.LoaderArgs) {
  const { context } = args;
  const { order, lines } = await requireOwnOrder(args);
  const { db, config } = services(context);
  const t = getInstance(context).t;
  const deadline = deadlineState(order);
  const shop = await getShop(context);
  // Waiting for a receipt: none sent yet (paid later) or the last one not accepted, deadline or
  // not (orders placed before deadlines have none). Meanwhile the page says how to pay.
  const awaitingReceipt = awaitsReceipt(order);
  const loaded = awaitingReceipt
    ? await loadPaymentInstructions(db, order.currency, { demoMode: config.demoMode, supportEmail: shop.supportEmail })
    : null;
  const instructions = loaded && loaded.kind !== "closed" ? loaded : null;
  return {
    order,
    lines,
    deadline,
    awaitingReceipt,
    instructions,
    // The order number rides in the code as its bill number, so the transfer names the order.
    fpsQr: instructions
      ? await fpsQrFor(instructions, order.total_cents, order.currency, order.order_number, {
          merchantName: shopName(shop, "en"),
        })
      : null,
    status: shownStatus(order),
    history: await listOrderHistory(services(context).db, order),
    // Who at the shop recorded a refund stays on the server.
    refunds: (await listOrderRefunds(db, order.id)).map(({ id, amount_cents, currency, reason, created_at }) => ({
      id,
      amount_cents,
      currency,
      reason,
      created_at,
    })),
    language: getLanguage(context),
    title: await titleWithShop(context, t("orders.orderTitle", { number: order.order_number })),
  };
}

/** The owner uploads the receipt of an order placed to pay later, or a new one after a rejection. */
export const action = formAction(
  {
    schema: replaceReceiptSchema,
    maxBytes: RECEIPT_FORM_LIMIT,
    uploadField: "receipt",
    unread: RECEIPT_UNREAD,
    authorize: (args: Route.ActionArgs) => requireOwnOrder(args),
  },
  async ({ context, form, value, auth: { user, order } }) => {
    const { db, storage, config } = services(context);
    await uploadReplacementReceipt(db, storage, config, { order, userId: user.id, file: value.receipt });
    return succeed(context, form, {
      redirectTo: `/account/orders/${order.id}`,
      flash: { type: "success", key: "orders.receiptReplaced", detailKey: "orders.receiptReplacedDetail" },
    });
  },
);

const HISTORY_TEXT = {
  placed: "orders.placed",
  receiptSent: "orders.receiptSentAt",
  paid: "orders.paidAt",
  shipped: "orders.shippedAt",
  delivered: "orders.deliveredAt",
  cancelled: "orders.cancelledAt",
  receiptReplaced: "orders.receiptReplacedAt",
  expired: "orders.expiredAt",
} as const;

export default function AccountOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { order, lines, language, status, history, deadline, awaitingReceipt, instructions, fpsQr } = loaderData;
  const problem = actionData?.problem;
  const due = (value: string) => formatDate(value, language, "dateTime");
  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <BackLink to="/account/orders">{t("orders.backToOrders")}</BackLink>
      <h1 className="mt-2 font-mono text-2xl font-bold">{t("orders.orderTitle", { number: order.order_number })}</h1>
      <p className="mt-1">
        <OrderStatusBadge status={status} className="text-sm" /> <RefundBadge order={order} className="text-sm" />
      </p>
      <ShopperInvoiceLink order={order} />
      {deadline || order.payment_expired_at ? (
        <p
          className={`mt-4 rounded-lg border p-4 text-sm ${deadline?.running ? "border-amber-300 bg-amber-50 text-amber-950" : "border-stone-200 bg-white text-stone-700"}`}
          data-testid="payment-deadline"
        >
          {deadline
            ? t(
                deadline.running
                  ? deadline.overdue
                    ? "orders.deadlinePassed"
                    : "orders.deadlineRunning"
                  : "orders.deadlinePaused",
                { deadline: due(deadline.dueAt) },
              )
            : t("orders.expired", { deadline: due(order.payment_due_at ?? order.payment_expired_at ?? "") })}
        </p>
      ) : null}
      <div className="mt-6 grid gap-8 lg:grid-cols-[1fr_22rem]">
        <div className="flex flex-col gap-6">
          {instructions ? (
            <PaymentDetails
              instructions={instructions}
              amount={formatMoney(order.total_cents, order.currency)}
              currency={order.currency}
              reference={order.order_number}
              qr={fpsQr}
            />
          ) : null}
          <HeadedPanel headingId="receipt-heading" title={t("orders.receipt")}>
            {order.receipt_rejected_reason ? (
              <p className="mt-2 text-sm font-medium text-red-700" role="alert">
                {t("orders.receiptRejected", { reason: order.receipt_rejected_reason })}
              </p>
            ) : null}
            {order.receipt_path ? (
              <a href={`/account/orders/${order.id}/receipt`} className="mt-3 block" target="_blank" rel="noreferrer">
                <img
                  src={`/account/orders/${order.id}/receipt`}
                  alt={t("orders.receipt")}
                  className="max-h-80 rounded border border-stone-200"
                  loading="lazy"
                />
                <span className="mt-1 inline-block text-sm text-brand-700 hover:underline">
                  {t("orders.downloadReceipt")}
                </span>
              </a>
            ) : (
              <p className="mt-2 text-sm text-stone-500">{t("orders.noReceipt")}</p>
            )}
            {awaitingReceipt ? (
              <Form method="post" encType="multipart/form-data" className="mt-4 flex flex-col gap-3">
                {problem ? <ProblemAlert problem={problem} /> : null}
                <label htmlFor="receipt" className="text-sm font-medium">
                  {t(order.receipt_path ? "orders.newReceiptLabel" : "orders.receiptLabel")}
                </label>
                <ReceiptInput className="text-sm file:mr-3 file:rounded-md file:border-0 file:bg-stone-200 file:px-3 file:py-2" />
                <Button className="w-fit">{t(order.receipt_path ? "orders.uploadNew" : "orders.uploadReceipt")}</Button>
              </Form>
            ) : null}
          </HeadedPanel>
          <ShopperOrderRefunds refunds={loaderData.refunds} language={language} />
          <HeadedPanel headingId="history-heading" title={t("orders.history")}>
            <ul className="mt-2 space-y-1 text-sm" data-testid="order-history">
              {history.map((entry) => (
                <li key={`${entry.kind}-${entry.at}`}>
                  {formatDate(entry.at, language, "dateTime")} ·{" "}
                  {entry.kind === "receiptRejected"
                    ? t("orders.receiptRejectedAt", { reason: entry.reason })
                    : entry.kind === "deadlineExtended"
                      ? t("orders.deadlineExtendedAt", { deadline: formatDate(entry.deadline, language, "dateTime") })
                      : t(HISTORY_TEXT[entry.kind])}
                </li>
              ))}
              {order.carrier ? (
                <li data-testid="order-carrier">
                  {t("orders.carrier")}: {order.carrier}
                </li>
              ) : null}
              {order.tracking_number ? (
                <li>
                  {t("orders.tracking")}: <span className="font-mono">{order.tracking_number}</span>
                </li>
              ) : null}
            </ul>
          </HeadedPanel>
          <ShipTo
            title={t("orders.shipTo")}
            contact={{ ...addressOfOrder(order), email: order.email }}
            notes={order.notes}
          />
        </div>
        <OrderSummary
          lines={lines.map((line) => ({ ...line, key: line.id, lineTotalCents: line.line_total_cents }))}
          language={language}
          currency={order.currency}
          totals={orderTotals(order)}
        />
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Order");
