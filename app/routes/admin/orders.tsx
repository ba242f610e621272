import { Form, Link, useLocation } from "react-router";
import { ORDER_STATUSES } from "#db/schema";
import { AdminTable } from "~/components/admin/admin-table";
import { OrderDateFilter, OrderExportForm } from "~/components/admin/order-export";
import { OrderSelectCell, OrderSelectionBar, selectHeader } from "~/components/admin/order-selection";
import { AdminPageHeader } from "~/components/admin/page-header";
import { ReceiptReviewList, type ReviewAnswer } from "~/components/admin/receipt-review-list";
import { SortInputs, SortLinks, useSortHeaders } from "~/components/admin/sort-header";
import { UnpaidSummary } from "~/components/admin/unpaid-summary";
import { OrderStatusBadge } from "~/components/order-status-badge";
import { RefundBadge } from "~/components/refund-badge";
import { Button } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { Pagination } from "~/components/ui/pagination";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { formAction, succeed } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { ORDER_SORTS, parseSort } from "~/lib/list-sort";
import { privatePageMeta } from "~/lib/meta";
import { formatMoney } from "~/lib/money";
import { formatPersonName } from "~/lib/person-name";
import { getInstance, getLanguage } from "~/middleware/i18next";
import {
  listAdminOrders,
  parseAdminOrderSelection,
  receiptQueueSummary,
  transitionOrder,
  unpaidByAge,
} from "~/models/orders/desk.server";
import { mailsCustomer } from "~/models/orders/emails.server";
import { shownStatus } from "~/models/orders/status";
import { requireAdmin } from "~/request/auth.server";
import { receiptReviewSchema } from "~/schemas/receipt-review";
import type { Route } from "./+types/orders";

const COLUMNS = ["select", "number", "customer", "items", "total", "status", "receipt", "date", "actions"] as const;

/**
 * GET /admin/orders?status=&q=&from=&to=&sort=&dir=&page= — every filter is a query string, so it
 * works without JS. `status` is an order status, `review` (receipts waiting, oldest first) or
 * `overdue`; `from`/`to` are Hong Kong days the orders were placed on.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const { db } = services(context);
  const url = new URL(request.url);
  const { status, q, from = null, to = null } = parseAdminOrderSelection((name) => url.searchParams.get(name));
  const at = new Date();
  const sort = parseSort(ORDER_SORTS, url.searchParams);
  const page = Number(url.searchParams.get("page") ?? 1);
  const listing = await listAdminOrders(db, { status, q, from, to, page, sort }, at);
  const [queue, unpaid] = await Promise.all([receiptQueueSummary(db, at), unpaidByAge(db, at)]);
  const t = getInstance(context).t;
  return {
    ...listing,
    queue,
    unpaid,
    at: at.toISOString(),
    orders: listing.orders.map((order) => ({
      ...order,
      // The list offers the spec's two quick actions; the order page offers every change.
      actions: order.actions.filter((name) => name === "markPaid" || name === "markShipped"),
    })),
    status,
    q,
    sort,
    from,
    to,
    /** The export is the owner's (docs/decisions/059). */
    canExport: admin.role === "owner",
    language: getLanguage(context),
    title: `${t("adminOrders.title")} | ${t("admin.title")}`,
  };
}

/**
 * A decision from the receipt review queue: mark paid, or reject the receipt with a reason. The
 * same compare-and-set and e-mail as the order page; a plain post comes back to this list with
 * its filters, a fetcher gets the decision for its row.
 */
export const action = formAction(
  {
    schema: receiptReviewSchema,
    authorize: ({ request, context }: Route.ActionArgs) => requireAdmin(context, request),
  },
  async ({ request, context, form, value, auth: admin }) => {
    const { db, config } = services(context);
    const order = await transitionOrder(db, config, admin, {
      orderId: value.orderId,
      transition: value.intent,
      expected: value.expected,
      reason: value.intent === "rejectReceipt" ? value.reason : null,
    });
    return succeed(context, form, {
      // The form posts to this list with its query string: back to the same filtered list.
      redirectTo: `/admin/orders${new URL(request.url).search}`,
      flash: {
        type: "success",
        key: "adminOrders.updated",
        detailKey: mailsCustomer(value.intent) ? "adminOrders.updatedDetail" : undefined,
      },
      payload: {
        decided: { id: order.id, number: order.order_number, transition: value.intent, status: shownStatus(order) },
      },
    });
  },
);

export default function OrdersManagement({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const { orders, total, page, pages, status, q, from, to, sort, canExport, language, queue, unpaid, at } = loaderData;
  const returnTo = `${location.pathname}${location.search}`;
  const label = (column: Exclude<(typeof COLUMNS)[number], "select">) => t(`adminOrders.columns.${column}`);
  const sortable = useSortHeaders(ORDER_SORTS, sort);
  const headers = COLUMNS.map((column) =>
    column === "select"
      ? selectHeader(t)
      : column === "items" || column === "receipt" || column === "actions"
        ? label(column)
        : sortable(column, label(column)),
  );
  return (
    <div className="max-w-6xl">
      <AdminPageHeader title={t("adminOrders.title")} intro={t("adminOrders.intro")}>
        <div className="flex flex-wrap items-start gap-3">
          <Link
            to={returnTo}
            reloadDocument
            className="rounded-md border border-stone-300 bg-white px-4 py-2 text-sm font-semibold hover:bg-stone-50"
          >
            {t("adminOrders.refresh")}
          </Link>
          {canExport ? <OrderExportForm filters={{ status, q, from, to }} /> : null}
        </div>
      </AdminPageHeader>

      <UnpaidSummary queue={queue} unpaid={unpaid} at={at} language={language} className="mt-4" />

      <Form
        method="get"
        className="mt-6 flex flex-wrap items-end gap-3 rounded-lg border border-stone-200 bg-white p-4"
      >
        <SortInputs sort={sort} />
        <label className="flex min-w-56 flex-1 flex-col gap-1 text-sm font-medium">
          {t("adminOrders.searchLabel")}
          <input
            type="search"
            name="q"
            defaultValue={q}
            maxLength={200}
            placeholder={t("adminOrders.searchPlaceholder")}
            className={inputClass}
          />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("adminOrders.statusLabel")}
          <select name="status" defaultValue={status ?? ""} className={inputClass}>
            <option value="">{t("adminOrders.allStatuses")}</option>
            {/* The statuses' one vocabulary (shownStatus); unpaid orders by where their payment stands. */}
            <option value="pending_payment">{t("adminOrders.queue.filterAwaiting")}</option>
            <option value="review">{t("orders.statuses.receipt_checking")}</option>
            <option value="rejected">{t("orders.statuses.receipt_rejected")}</option>
            <option value="overdue">{t("adminOrders.queue.filterOverdue")}</option>
            {ORDER_STATUSES.filter((value) => value !== "pending_payment").map((value) => (
              <option key={value} value={value}>
                {t(`orders.statuses.${value}`)}
              </option>
            ))}
          </select>
        </label>
        <OrderDateFilter from={from} to={to} />
        <Button>{t("adminOrders.filter")}</Button>
        {q || status || from || to ? (
          <Link to="/admin/orders" className="px-2 py-2 text-sm text-brand-700 hover:underline">
            {t("adminOrders.clear")}
          </Link>
        ) : null}
      </Form>

      <p className="mt-4 text-sm text-stone-600" aria-live="polite">
        {t("adminOrders.count", { count: total })}
        {status === "review" ? ` · ${t("adminOrders.queue.reviewIntro")}` : null}
        {status === "overdue" ? ` · ${t("adminOrders.queue.overdueIntro")}` : null}
      </p>

      {status === "review" ? (
        <ReceiptReviewList
          orders={orders}
          at={at}
          language={language}
          answer={actionData as ReviewAnswer | undefined}
        />
      ) : orders.length === 0 ? (
        <p className="mt-6 rounded-lg border border-dashed border-stone-300 bg-white p-8 text-center text-stone-600">
          {t("adminOrders.empty")}
        </p>
      ) : (
        <>
          <SortLinks
            columns={ORDER_SORTS}
            sort={sort}
            labels={{
              number: label("number"),
              customer: label("customer"),
              total: label("total"),
              status: label("status"),
              date: label("date"),
            }}
          />
          <OrderSelectionBar />
          <AdminTable columns={headers} minWidth="min-w-[56rem]" className="mt-3" layout="cards" testId="orders-table">
            {orders.map((order) => (
              <tr key={order.id} data-testid="order-row">
                <OrderSelectCell id={order.id} number={order.order_number} />
                <td className="px-3 py-2 font-mono text-xs" data-label={label("number")}>
                  <Link to={`/admin/orders/${order.id}`} className="text-brand-700 hover:underline">
                    {order.order_number}
                  </Link>
                </td>
                <td className="px-3 py-2" data-label={label("customer")}>
                  <div className="min-w-0">
                    <div className="font-medium">{formatPersonName(order.first_name, order.last_name)}</div>
                    <div className="break-words text-xs text-stone-600">{order.email}</div>
                  </div>
                </td>
                <td className="px-3 py-2" data-label={label("items")}>
                  {order.items}
                </td>
                <td className="whitespace-nowrap px-3 py-2 font-semibold" data-label={label("total")}>
                  {formatMoney(order.total_cents, order.currency)}
                </td>
                <td className="px-3 py-2" data-label={label("status")}>
                  <OrderStatusBadge status={order.shown_status} /> <RefundBadge order={order} />
                </td>
                <td className="px-3 py-2" data-label={label("receipt")}>
                  {order.receipt_rejected ? (
                    <span className="text-xs font-medium text-red-700">{t("adminOrders.receiptRejected")}</span>
                  ) : order.has_receipt ? (
                    <a
                      href={`/admin/orders/${order.id}/receipt`}
                      target="_blank"
                      rel="noreferrer"
                      className="text-brand-700 hover:underline"
                    >
                      {t("adminOrders.receiptView")}
                    </a>
                  ) : (
                    <span className="text-stone-500">{t("adminOrders.receiptNone")}</span>
                  )}
                </td>
                <td className="whitespace-nowrap px-3 py-2 text-xs" data-label={label("date")}>
                  {formatDate(order.created_at, language, "dateTime")}
                  {order.payment_due_at && order.payment_due_at <= at ? (
                    <div className="font-medium text-red-700">
                      {t("adminOrders.queue.due", { date: formatDate(order.payment_due_at, language, "dateTime") })}
                    </div>
                  ) : null}
                </td>
                <td className="px-3 py-2" data-label={label("actions")}>
                  <div className="flex flex-wrap items-center gap-2">
                    <Link
                      to={`/admin/orders/${order.id}`}
                      className="rounded border border-stone-300 px-2 py-1 text-xs font-medium hover:bg-stone-50"
                      aria-label={t("adminOrders.detailsFor", { number: order.order_number })}
                    >
                      {t("adminOrders.details")}
                    </Link>
                    {order.actions.map((name) => (
                      <Form key={name} method="post" action={`/admin/orders/${order.id}`}>
                        <input type="hidden" name="intent" value={name} />
                        <input type="hidden" name="expected" value={order.status} />
                        <input type="hidden" name="returnTo" value={returnTo} />
                        <Button
                          size="sm"
                          aria-label={t(
                            name === "markPaid" ? "adminOrders.markPaidFor" : "adminOrders.markShippedFor",
                            {
                              number: order.order_number,
                            },
                          )}
                        >
                          {t(`adminOrders.${name}`)}
                        </Button>
                      </Form>
                    ))}
                  </div>
                </td>
              </tr>
            ))}
          </AdminTable>
        </>
      )}
      <Pagination page={page} pages={pages} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Orders");
