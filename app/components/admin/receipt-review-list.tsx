import type { SubmissionResult } from "@conform-to/react";
import { useRef } from "react";
import { Link, useFetcher, useLocation } from "react-router";
import type { OrderStatus } from "#db/schema";
import { formatAge } from "~/components/admin/unpaid-summary";
import { OrderStatusBadge } from "~/components/order-status-badge";
import { Button } from "~/components/ui/button";
import { FetcherField } from "~/components/ui/fetcher-field";
import { ErrorList, FormErrors, inputClass } from "~/components/ui/field";
import { formatDate } from "~/lib/dates";
import { useTranslation } from "~/lib/i18n";
import { formatMoney } from "~/lib/money";
import { formatPersonName } from "~/lib/person-name";
import type { Problem } from "~/lib/problem";
import type { Language } from "~/locales";
import type { AdminOrderListRow } from "~/models/orders/desk.server";

/** What the list's action answers: a refusal (`result`, `problem`) or, for a fetcher, the decision. */
export interface ReviewAnswer {
  result?: SubmissionResult<string[]>;
  problem?: Problem | null;
  decided?: { id: string; number: string; transition: "markPaid" | "rejectReceipt"; status: OrderStatus };
}

type ReviewRow = Omit<AdminOrderListRow, "actions">;

/**
 * Rows the page showed stay until the filter changes: after a decision the revalidated list no
 * longer holds the order, but its row stays in place saying what was done.
 */
function useKeptRows(rows: ReviewRow[], key: string): ReviewRow[] {
  const kept = useRef<{ key: string; rows: ReviewRow[] } | null>(null);
  let list = rows;
  if (kept.current && kept.current.key === key) {
    const fresh = new Map(rows.map((row) => [row.id, row]));
    const before = new Set(kept.current.rows.map((row) => row.id));
    list = [...kept.current.rows.map((row) => fresh.get(row.id) ?? row), ...rows.filter((row) => !before.has(row.id))];
  }
  kept.current = { key, rows: list };
  return list;
}

/**
 * The receipt review queue: each order with its receipt to look at, "Mark paid", and "Reject"
 * with the reason the customer reads. Without JavaScript each is a plain post that comes back to
 * this list; with JavaScript a fetcher per row, and the row says what was done.
 */
export function ReceiptReviewList({
  orders,
  at,
  language,
  answer,
}: {
  orders: ReviewRow[];
  at: string;
  language: Language;
  /** The action's answer to a plain post (no JavaScript): it names its order. */
  answer: ReviewAnswer | undefined;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const rows = useKeptRows(orders, location.search);
  if (rows.length === 0) {
    return (
      <p className="mt-6 rounded-lg border border-dashed border-stone-300 bg-white p-8 text-center text-stone-600">
        {t("adminOrders.queue.receipts", { count: 0 })}
      </p>
    );
  }
  return (
    <ul className="mt-3 flex flex-col gap-3" data-testid="review-list">
      {rows.map((order) => (
        <ReviewItem
          key={order.id}
          order={order}
          at={at}
          language={language}
          answer={answer?.result?.initialValue?.orderId === order.id ? answer : undefined}
        />
      ))}
    </ul>
  );
}

function ReviewItem({
  order,
  at,
  language,
  answer: postAnswer,
}: {
  order: ReviewRow;
  at: string;
  language: Language;
  answer: ReviewAnswer | undefined;
}) {
  const { t } = useTranslation();
  const fetcher = useFetcher<ReviewAnswer>({ key: `receipt-review-${order.id}` });
  const answer = fetcher.data ?? postAnswer;
  const decided = answer?.decided;
  const busy = fetcher.state !== "idle";
  const sent = answer?.result?.initialValue?.intent;
  const reasonErrors = sent === "rejectReceipt" ? answer?.result?.error?.reason : undefined;
  const formErrors = answer?.result?.error?.[""];
  const reasonId = `reason-${order.id}`;
  const problemParams =
    typeof answer?.problem?.params?.status === "string"
      ? {
          ...answer.problem.params,
          status: t(`orders.statuses.${answer.problem.params.status}` as "orders.statuses.paid"),
        }
      : answer?.problem?.params;
  const hidden = (
    <>
      <FetcherField />
      <input type="hidden" name="orderId" value={order.id} />
      <input type="hidden" name="expected" value="pending_payment" />
    </>
  );
  return (
    <li className="rounded-lg border border-stone-200 bg-white p-3 shadow-sm sm:p-4" data-testid="review-row">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <Link to={`/admin/orders/${order.id}`} className="font-mono text-sm text-brand-700 hover:underline">
          {order.order_number}
        </Link>
        <span className="font-semibold">{formatMoney(order.total_cents, order.currency)}</span>
      </div>
      <div className="mt-1 text-sm">
        <span className="font-medium">{formatPersonName(order.first_name, order.last_name)}</span>{" "}
        <span className="break-all text-stone-600">{order.email}</span>
      </div>
      <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-stone-700">
        {order.receipt_uploaded_at ? (
          <span>{t("adminOrders.queue.uploaded", { age: formatAge(order.receipt_uploaded_at, at, language) })}</span>
        ) : null}
        {order.payment_due_at ? (
          <span className={order.payment_due_at <= at ? "font-medium text-red-700" : undefined}>
            {t("adminOrders.queue.due", { date: formatDate(order.payment_due_at, language, "dateTime") })}
          </span>
        ) : null}
        <a
          href={`/admin/orders/${order.id}/receipt`}
          target="_blank"
          rel="noreferrer"
          className="font-medium text-brand-700 underline hover:text-brand-800"
          aria-label={t("adminOrders.queue.viewReceiptOf", { number: order.order_number })}
        >
          {t("adminOrders.queue.viewReceipt")}
        </a>
      </div>

      {decided ? (
        <p role="status" className="mt-3 flex flex-wrap items-center gap-2 text-sm font-medium text-green-800">
          <OrderStatusBadge status={decided.status} />
          {t(decided.transition === "markPaid" ? "adminOrders.queue.markedPaid" : "adminOrders.queue.rejected", {
            number: decided.number,
          })}
        </p>
      ) : (
        <>
          {answer?.problem && !answer.problem.field ? (
            <div className="mt-3">
              <FormErrors errors={[answer.problem.key]} params={problemParams} />
            </div>
          ) : formErrors ? (
            <div className="mt-3">
              <FormErrors errors={formErrors} />
            </div>
          ) : null}
          <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-start">
            {/* On a wide screen the button lines up with the reason's input, below its label. */}
            <fetcher.Form method="post" className="shrink-0 sm:pt-6">
              {hidden}
              <Button
                name="intent"
                value="markPaid"
                disabled={busy}
                className="w-full sm:w-auto"
                aria-label={t("adminOrders.markPaidFor", { number: order.order_number })}
              >
                {t("adminOrders.markPaid")}
              </Button>
            </fetcher.Form>
            <fetcher.Form method="post" className="flex min-w-0 flex-1 flex-col gap-1">
              {hidden}
              <label htmlFor={reasonId} className="text-sm font-medium text-stone-800">
                {t("adminOrders.rejectReason")}
              </label>
              <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
                <div className="flex min-w-0 flex-1 flex-col">
                  <input
                    id={reasonId}
                    name="reason"
                    maxLength={500}
                    defaultValue={sent === "rejectReceipt" ? String(answer?.result?.initialValue?.reason ?? "") : ""}
                    placeholder={t("adminOrders.queue.reasonPlaceholder")}
                    aria-invalid={reasonErrors ? true : undefined}
                    aria-describedby={reasonErrors ? `${reasonId}-error` : undefined}
                    className={inputClass}
                  />
                  <ErrorList id={`${reasonId}-error`} errors={reasonErrors} />
                </div>
                <button
                  type="submit"
                  name="intent"
                  value="rejectReceipt"
                  disabled={busy}
                  className="shrink-0 rounded-md border border-red-300 bg-white px-4 py-2 font-semibold text-red-800 hover:bg-red-50 disabled:opacity-60"
                  aria-label={t("adminOrders.queue.rejectFor", { number: order.order_number })}
                >
                  {t("adminOrders.queue.reject")}
                </button>
              </div>
            </fetcher.Form>
          </div>
        </>
      )}
    </li>
  );
}
