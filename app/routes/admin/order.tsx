import { data, Link } from "react-router";
import { z } from "zod";
import { AdminSection } from "~/components/admin/admin-section";
import { OrderActions } from "~/components/admin/order-actions";
import { OrderDeadline } from "~/components/admin/order-deadline";
import { OrderHistory } from "~/components/admin/order-history";
import { OrderItems } from "~/components/admin/order-items";
import { OrderMessages } from "~/components/admin/order-messages";
import { OrderReceipt } from "~/components/admin/order-receipt";
import { OrderRefunds } from "~/components/admin/order-refunds";
import { OrderDocumentLinks } from "~/components/order-documents/document-links";
import { OrderStatusBadge } from "~/components/order-status-badge";
import { RefundBadge } from "~/components/refund-badge";
import { BackLink } from "~/components/ui/back-link";
import { FormErrors } from "~/components/ui/field";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { formAction, succeed } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { formatMoney } from "~/lib/money";
import { formatPersonName } from "~/lib/person-name";
import { safeRedirect } from "~/lib/redirect";
import { publicUrl } from "~/lib/storage.server";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { findAdminOrder, transitionOrder, transitionsFor } from "~/models/orders/desk.server";
import { mailsCustomer } from "~/models/orders/emails.server";
import { addOrderNote, listOrderNotes, orderTimeline } from "~/models/orders/notes.server";
import { deadlineState, extendPaymentDeadline } from "~/models/orders/payment-deadlines.server";
import { canRefund, listOrderRefunds, refundOrder, unitsPutBack } from "~/models/orders/refunds.server";
import { shownStatus } from "~/models/orders/status";
import { listOrderMessages } from "~/models/outbox/admin-list.server";
import { requireAdmin } from "~/request/auth.server";
import { extendDeadlineSchema } from "~/schemas/order-deadline";
import { orderNoteSchema } from "~/schemas/order-note";
import { orderStatusSchema } from "~/schemas/order-status";
import { refundSchema } from "~/schemas/refund";
import type { Route } from "./+types/order";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { db } = services(context);
  const found = await findAdminOrder(db, params.id);
  if (!found) throw data(null, { status: 404 });
  const [messages, notes, refunds, putBackRows] = await Promise.all([
    listOrderMessages(db, found.order.id),
    listOrderNotes(db, found.order.id),
    listOrderRefunds(db, found.order.id),
    unitsPutBack(db, found.order.id),
  ]);
  const putBack = Object.fromEntries(putBackRows);
  const t = getInstance(context).t;
  const url = new URL(request.url);
  return {
    ...found,
    lines: found.lines.map((line) => ({ ...line, image_url: publicUrl(line.image_path) })),
    messages,
    refunds,
    putBack,
    refundable: canRefund(found.order),
    timeline: orderTimeline(found.history, messages, notes),
    actions: transitionsFor(found.order),
    confirmingCancel: url.searchParams.get("cancel") === "1",
    deadline: deadlineState(found.order),
    language: getLanguage(context),
    title: `${t("adminOrders.orderTitle", { number: found.order.order_number })} | ${t("admin.title")}`,
  };
}

/** Where a status change leads back to: the list it came from (with its filters) or this order. */
function backTo(value: FormDataEntryValue | null, orderId: string): string {
  const fallback = `/admin/orders/${orderId}`;
  const path = safeRedirect(value, fallback);
  return path === "/admin/orders" || path.startsWith("/admin/orders?") || path === fallback ? path : fallback;
}

/** The order page's forms: a status change, or more time to pay (told apart by `intent`). */
const orderPageSchema = z.discriminatedUnion(
  "intent",
  [...orderStatusSchema.options, extendDeadlineSchema, refundSchema, orderNoteSchema],
  {
    error: "adminOrders.errors.notAllowed",
  },
);

/**
 * Mark paid, reject the receipt, mark shipped or delivered, cancel: each a compare-and-set; or
 * extend the payment deadline (extendPaymentDeadline, also a compare-and-set); or add a staff note.
 */
export const action = formAction(
  {
    schema: orderPageSchema,
    authorize: ({ request, context }: Route.ActionArgs) => requireAdmin(context, request),
  },
  async ({ context, params, form, value, auth: admin }) => {
    const { db, config } = services(context);
    if (value.intent === "refund") {
      const { order } = await refundOrder(db, config, admin, {
        orderId: params.id ?? "",
        amountCents: value.amount,
        reason: value.reason,
        expectedRefundedCents: value.expectedRefunded,
        restock: value.restock.map((row) => ({ lineId: row.line, quantity: row.quantity })),
      });
      return succeed(context, form, {
        redirectTo: `/admin/orders/${order.id}`,
        flash: {
          type: "success",
          key: "refunds.done",
          params: { amount: formatMoney(value.amount, order.currency) },
          detailKey: "refunds.doneDetail",
        },
      });
    }
    if (value.intent === "addNote") {
      await addOrderNote(db, admin, { orderId: params.id ?? "", body: value.body });
      return succeed(context, form, {
        redirectTo: `/admin/orders/${params.id}#history-heading`,
        flash: { type: "success", key: "adminOrders.staffNotes.added" },
      });
    }
    if (value.intent === "extendDeadline") {
      const extended = await extendPaymentDeadline(db, config, admin, {
        orderId: params.id ?? "",
        hours: value.hours,
        expectedDueAt: value.expectedDueAt,
      });
      return succeed(context, form, {
        redirectTo: `/admin/orders/${extended.id}`,
        flash: {
          type: "success",
          key: "adminOrders.deadline.extended",
          params: { deadline: formatDate(extended.payment_due_at ?? "", getLanguage(context), "dateTime") },
        },
      });
    }
    const order = await transitionOrder(db, config, admin, {
      orderId: params.id ?? "",
      transition: value.intent,
      expected: value.expected,
      trackingNumber: value.intent === "markShipped" ? value.tracking : null,
      carrier: value.intent === "markShipped" ? value.carrier : null,
      reason: value.intent === "rejectReceipt" ? value.reason : null,
    });
    return succeed(context, form, {
      redirectTo: backTo(form.get("returnTo"), order.id),
      flash: {
        type: "success",
        key: "adminOrders.updated",
        detailKey: mailsCustomer(value.intent) ? "adminOrders.updatedDetail" : undefined,
      },
    });
  },
);

export default function AdminOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { order, lines, customer, timeline, actions, confirmingCancel, language, deadline, messages } = loaderData;
  // The refund form's answer (the schema's 400 or the model's refusal) comes back to that form.
  const refundAnswer = actionData?.result?.initialValue?.intent === "refund" ? actionData : null;
  // The extension form's refusal: the model's (409) or the schema's (400), shown in its panel.
  const deadlineAnswer = actionData?.result?.initialValue?.intent === "extendDeadline" ? actionData : null;
  const pageProblem = deadlineAnswer || refundAnswer ? null : actionData?.problem;
  const date = (value: string) => formatDate(value, language, "dateTime");
  const money = (cents: number) => formatMoney(cents, order.currency);
  // "Changed meanwhile" names the order's status now, in the reader's language.
  const statusParams = (params: Record<string, string | number> | undefined) =>
    typeof params?.status === "string"
      ? { ...params, status: t(`orders.statuses.${params.status}` as "orders.statuses.paid") }
      : params;
  const info: [string, string | null][] = [
    ["adminOrders.name", formatPersonName(order.first_name, order.last_name)],
    ["adminOrders.email", order.email],
    ["adminOrders.phone", order.phone],
    ["adminOrders.address", order.address],
    ["adminOrders.city", order.city],
    ["adminOrders.postalCode", order.postal_code],
    ["adminOrders.country", order.country],
  ];
  return (
    <div className="max-w-6xl">
      <BackLink to="/admin/orders">{t("adminOrders.back")}</BackLink>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="font-mono text-xl font-bold sm:text-2xl">
          {t("adminOrders.orderTitle", { number: order.order_number })}
        </h1>
        <OrderStatusBadge status={shownStatus(order)} />
        <RefundBadge order={order} />
      </div>
      <p className="mt-1 text-sm text-stone-600">
        <span className="whitespace-nowrap">{t("adminOrders.placedOn", { date: date(order.created_at) })}</span> ·{" "}
        <span className="whitespace-nowrap">{t("adminOrders.lastUpdated", { date: date(order.updated_at) })}</span> ·{" "}
        <span className="font-semibold text-stone-900">{money(order.total_cents)}</span>
      </p>
      <OrderDocumentLinks orderId={order.id} />

      {pageProblem ? (
        <div className="mt-4">
          <FormErrors errors={[pageProblem.key]} params={statusParams(pageProblem.params)} />
        </div>
      ) : null}

      <div className="mt-6 grid gap-6 lg:grid-cols-[1fr_22rem]">
        <div className="flex min-w-0 flex-col gap-6">
          <OrderItems lines={lines} money={money} language={language} order={order} />

          <OrderRefunds
            // A new refunded total starts a fresh form: the amount left prefilled again, no reason.
            key={order.refunded_cents}
            order={order}
            lines={lines}
            refunds={loaderData.refunds}
            putBack={loaderData.putBack}
            refundable={loaderData.refundable}
            lastResult={refundAnswer?.result}
            date={date}
            money={money}
            language={language}
          />

          <AdminSection id="customer" look="panel" heading={t("adminOrders.customerInfo")}>
            <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
              {info
                .filter(([, value]) => value)
                .map(([key, value]) => (
                  <div key={key} className="contents">
                    <dt className="text-stone-500">{t(key as "adminOrders.name")}</dt>
                    <dd className="break-words">{value}</dd>
                  </div>
                ))}
              {/* Every name-value pair in its own div: a <dl> holds either div groups or bare dt/dd, never both. */}
              <div className="contents">
                <dt className="text-stone-500">{t("adminOrders.account")}</dt>
                <dd>
                  {customer ? (
                    <Link to={`/admin/customers/${customer.id}`} className="text-brand-700 hover:underline">
                      {customer.email} · <span className="whitespace-nowrap">{t("adminOrders.viewCustomer")}</span>
                    </Link>
                  ) : (
                    t("adminOrders.guest")
                  )}
                </dd>
              </div>
            </dl>
            {order.notes ? (
              <div className="mt-3 text-sm">
                <h3 className="font-medium">{t("adminOrders.notes")}</h3>
                <p className="whitespace-pre-line text-stone-700">{order.notes}</p>
              </div>
            ) : null}
            {order.age_confirmed_at ? (
              <p className="mt-3 text-sm text-stone-700" data-age-confirmed>
                {t("adminOrders.ageConfirmed", {
                  date: date(order.age_confirmed_at),
                  ip: order.age_confirmed_ip ?? t("adminOrders.ageConfirmedNoIp"),
                })}
              </p>
            ) : null}
          </AdminSection>

          <OrderHistory entries={timeline} date={date} result={actionData?.result} />

          <OrderMessages orderId={order.id} orderNumber={order.order_number} messages={messages} language={language} />
        </div>

        {/* On a phone the actions and the receipt come first: they are what the admin is here for. */}
        <div className="order-first flex min-w-0 flex-col gap-6 lg:order-none">
          <OrderActions
            order={order}
            actions={actions}
            confirmingCancel={confirmingCancel}
            result={actionData?.result}
          />

          <OrderDeadline
            order={order}
            deadline={deadline}
            date={date}
            problem={deadlineAnswer?.problem ?? deadlineAnswer?.result?.error?.hours ?? null}
          />

          <OrderReceipt order={order} date={date} />
        </div>
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Order");
