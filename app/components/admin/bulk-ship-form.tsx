import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "react-router";
import { AdminTable } from "~/components/admin/admin-table";
import { CARRIER_LIST_ID, CarrierList } from "~/components/admin/carrier-list";
import { OrderStatusBadge } from "~/components/order-status-badge";
import { ErrorList, inputClass, ProblemAlert, StatusButton } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import { formatPersonName } from "~/lib/person-name";
import type { Problem } from "~/lib/problem";
import { translateKey } from "~/lib/translate-key";
import type { ShipmentCandidate } from "~/models/orders/bulk-shipping.server";
import { bulkShipSchema, TRACKING_MAX } from "~/schemas/bulk-shipping";
import { CARRIER_MAX } from "~/schemas/order-status";

/** What an order that did not move comes back with: what was typed, its field errors, why. */
export interface KeptShipment {
  carrier: string;
  tracking: string;
  errors: { carrier?: string[]; tracking?: string[] };
  problem: Problem | null;
}

/** The action's answer when not every order moved (docs/decisions/061). */
export interface BulkShipAnswer {
  result: SubmissionResult<string[]> | undefined;
  problem: Problem | null;
  /** The orders marked shipped by this post. */
  shipped: { id: string; number: string; carrier: string | null; tracking: string | null }[];
  /** The orders that did not move, by id (a row without a usable id by `row-<index>`). */
  kept: Record<string, KeptShipment>;
}

type Candidate = ShipmentCandidate & { ship_to: string };

const COLUMNS = ["number", "customer", "shipTo", "status", "carrier", "tracking"] as const;

/**
 * The "mark shipped" form: a row per chosen order — number, customer, where it goes, its status —
 * with a carrier (suggestions from a datalist) and a tracking number for each order that can be
 * shipped, and the reason for each that cannot. After a partial failure it says which orders
 * moved and which did not and why, and keeps what was typed for those. A table on a desk, cards
 * on a phone (AdminTable "cards"); a plain POST, checked by the same schema in the browser when
 * JavaScript runs.
 */
export function BulkShipForm({
  action,
  orders,
  missing,
  answer,
  problem,
}: {
  action: string;
  orders: Candidate[];
  missing: number;
  answer: BulkShipAnswer | undefined;
  problem: Problem | null;
}) {
  const { t } = useTranslation();
  const shippedNow = new Map((answer?.shipped ?? []).map((row) => [row.id, row]));
  const kept = answer?.kept ?? {};
  const editable = orders.filter((order) => order.blocker === null && !shippedNow.has(order.id));
  const indexOf = new Map(editable.map((order, index) => [order.id, index]));
  const [form, fields] = useForm({
    id: "bulk-ship",
    defaultValue: {
      orders: editable.map((order) => ({
        id: order.id,
        expected: order.status,
        carrier: kept[order.id]?.carrier ?? order.carrier ?? "",
        tracking: kept[order.id]?.tracking ?? order.tracking_number ?? "",
      })),
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: bulkShipSchema }),
  });
  const rows = fields.orders.getFieldList();
  const label = (column: (typeof COLUMNS)[number] | "shipping") => t(`bulkShipping.columns.${column}`);
  // "Changed meanwhile" names the order's status now, in the reader's language.
  const reason = (refusal: Problem) => {
    const params = refusal.params ?? {};
    const status =
      typeof params.status === "string" ? t(`orders.statuses.${params.status}` as "orders.statuses.paid") : undefined;
    return translateKey(t, refusal.key, status ? { ...params, status } : params);
  };
  const numberOf = new Map(orders.map((order) => [order.id, order.order_number]));
  const refused = Object.entries(kept);
  return (
    <div className="mt-4 flex flex-col gap-4">
      {problem ? <ProblemAlert problem={problem} /> : null}
      {answer && answer.shipped.length > 0 ? (
        <div
          role="status"
          className="rounded-md border border-green-300 bg-green-50 px-4 py-3 text-green-900"
          data-testid="bulk-shipped"
        >
          <p className="font-medium">{t("bulkShipping.movedTitle", { count: answer.shipped.length })}</p>
          <p className="font-mono text-sm">{answer.shipped.map((row) => row.number).join(", ")}</p>
        </div>
      ) : null}
      {refused.length > 0 ? (
        <div
          role="alert"
          className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-red-900"
          data-testid="bulk-refused"
        >
          <p className="font-medium">{t("bulkShipping.refusedTitle", { count: refused.length })}</p>
          <ul className="mt-1 list-disc pl-5 text-sm">
            {refused.map(([id, row]) => (
              <li key={id}>
                <span className="font-mono">{numberOf.get(id) ?? id}</span>:{" "}
                {row.problem ? reason(row.problem) : t("bulkShipping.errors.checkFields")}
              </li>
            ))}
          </ul>
          {editable.length > 0 ? <p className="mt-1 text-sm">{t("bulkShipping.refusedHint")}</p> : null}
        </div>
      ) : null}
      {missing > 0 ? <p className="text-sm text-stone-700">{t("bulkShipping.missing", { count: missing })}</p> : null}

      <Form method="post" action={action} {...getFormProps(form)} className="flex flex-col gap-4">
        <CarrierList />
        <p className="text-sm text-stone-600">{t("bulkShipping.carrierHint")}</p>
        <AdminTable
          columns={COLUMNS.map(label)}
          minWidth="min-w-[52rem]"
          className="mt-0"
          layout="cards"
          testId="bulk-ship-table"
        >
          {orders.map((order) => {
            const index = indexOf.get(order.id);
            const row = index === undefined ? undefined : rows[index]?.getFieldset();
            const moved = shippedNow.get(order.id);
            const server = kept[order.id];
            return (
              <tr key={order.id} data-testid="ship-row" data-order={order.order_number}>
                <td className="px-3 py-2 align-top font-mono text-xs" data-label={label("number")}>
                  <Link to={`/admin/orders/${order.id}`} className="text-brand-700 hover:underline">
                    {order.order_number}
                  </Link>
                </td>
                <td className="px-3 py-2 align-top" data-label={label("customer")}>
                  <div className="font-medium">{formatPersonName(order.first_name, order.last_name)}</div>
                  <div className="break-words text-xs text-stone-600">{order.email}</div>
                </td>
                <td className="px-3 py-2 align-top" data-label={label("shipTo")}>
                  {order.ship_to}
                </td>
                <td className="px-3 py-2 align-top" data-label={label("status")}>
                  <OrderStatusBadge status={moved ? "shipped" : order.shown_status} />
                </td>
                {row && index !== undefined ? (
                  <>
                    <td className="px-3 py-2 align-top" data-label={label("carrier")}>
                      <input type="hidden" name={row.id.name} value={order.id} />
                      <input type="hidden" name={row.expected.name} value={order.status} />
                      {server?.problem ? (
                        <p className="mb-1 text-sm font-medium text-red-700">{reason(server.problem)}</p>
                      ) : null}
                      <input
                        type="text"
                        id={row.carrier.id}
                        name={row.carrier.name}
                        defaultValue={String(row.carrier.initialValue ?? "")}
                        list={CARRIER_LIST_ID}
                        maxLength={CARRIER_MAX}
                        autoComplete="off"
                        aria-label={t("bulkShipping.carrierFor", { number: order.order_number })}
                        aria-invalid={(row.carrier.errors ?? server?.errors.carrier) ? true : undefined}
                        aria-describedby={row.carrier.errorId}
                        className={inputClass}
                      />
                      <ErrorList id={row.carrier.errorId} errors={row.carrier.errors ?? server?.errors.carrier} />
                    </td>
                    <td className="px-3 py-2 align-top" data-label={label("tracking")}>
                      <input
                        type="text"
                        id={row.tracking.id}
                        name={row.tracking.name}
                        defaultValue={String(row.tracking.initialValue ?? "")}
                        maxLength={TRACKING_MAX}
                        required
                        autoComplete="off"
                        aria-label={t("bulkShipping.trackingFor", { number: order.order_number })}
                        aria-invalid={(row.tracking.errors ?? server?.errors.tracking) ? true : undefined}
                        aria-describedby={row.tracking.errorId}
                        className={`${inputClass} font-mono`}
                      />
                      <ErrorList id={row.tracking.errorId} errors={row.tracking.errors ?? server?.errors.tracking} />
                    </td>
                  </>
                ) : (
                  <td colSpan={2} className="px-3 py-2 align-top text-sm" data-label={label("shipping")}>
                    {moved ? (
                      <span className="font-medium text-green-800" data-testid="shipped-now">
                        {[moved.carrier, moved.tracking].some(Boolean)
                          ? t("bulkShipping.shippedNowWith", {
                              details: [moved.carrier, moved.tracking].filter(Boolean).join(" · "),
                            })
                          : t("bulkShipping.shippedNow")}
                      </span>
                    ) : (
                      <span className="text-stone-600" data-testid="ship-blocked">
                        {/* Why it did not move just now, else why it cannot (the refusal names the status). */}
                        {server?.problem
                          ? reason(server.problem)
                          : order.blocker
                            ? t(`bulkShipping.blockers.${order.blocker}`)
                            : null}
                      </span>
                    )}
                  </td>
                )}
              </tr>
            );
          })}
        </AdminTable>
        <div className="flex flex-wrap items-center gap-3">
          {editable.length > 0 ? (
            <StatusButton>{t("bulkShipping.submit", { count: editable.length })}</StatusButton>
          ) : answer ? null : (
            <p className="text-sm text-stone-700">{t("bulkShipping.nothingToShip")}</p>
          )}
          <Link to="/admin/orders" className="text-sm text-brand-700 hover:underline">
            {t("bulkShipping.back")}
          </Link>
        </div>
      </Form>
    </div>
  );
}
