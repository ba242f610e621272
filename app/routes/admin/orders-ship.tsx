import { data, redirect, useLocation } from "react-router";
import { type BulkShipAnswer, BulkShipForm, type KeptShipment } from "~/components/admin/bulk-ship-form";
import { AdminPageHeader } from "~/components/admin/page-header";
import { BackLink } from "~/components/ui/back-link";
import { services } from "~/context";
import { countryName } from "~/lib/countries";
import { formAction, succeed, UserError } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { listShipmentCandidates, type ShipmentInput, shipOrders } from "~/models/orders/bulk-shipping.server";
import { isOrderStatus } from "~/models/orders/desk.server";
import { requireAdmin } from "~/request/auth.server";
import { setFlash } from "~/request/flash.server";
import { bulkShipRowSchema, bulkShipRowsSchema, parseOrderIds } from "~/schemas/bulk-shipping";
import type { Route } from "./+types/orders-ship";

/**
 * GET /admin/orders/ship?id=…&id=… — the orders chosen on the list, one row each: those that can
 * be shipped with a carrier and a tracking number to enter, the others saying why not. Nothing
 * chosen goes back to the list with a message (docs/decisions/061).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const ids = parseOrderIds(new URL(request.url).searchParams.getAll("id"));
  if (ids.length === 0) {
    setFlash(context, {
      type: "error",
      key: "bulkShipping.noneSelected",
      detailKey: "bulkShipping.noneSelectedDetail",
    });
    throw redirect("/admin/orders");
  }
  const { orders, missing } = await listShipmentCandidates(services(context).db, ids);
  const language = getLanguage(context);
  const t = getInstance(context).t;
  return {
    orders: orders.map((order) => ({
      ...order,
      ship_to: order.country_code ? countryName(order.country_code, language) : order.country,
    })),
    missing: missing.length,
    title: `${t("bulkShipping.title")} | ${t("admin.title")}`,
  };
}

/** A row's problem when its own fields are fine but the order is not one to ship (a bad id or status). */
const ROW_PROBLEM_FIELDS = new Set(["id", "expected"]);

/**
 * Marks the rows' orders shipped, each on its own (shipOrders): a row with bad input (no tracking
 * number, too long) stays back with its errors, an order that changed meanwhile or is gone stays
 * back with the reason, the others ship. All shipped: back to the list with a message. Otherwise
 * the form again with what moved and, for each order that did not, why and what was typed: 400
 * when some input was bad, else 409.
 */
export const action = formAction(
  {
    schema: bulkShipRowsSchema,
    authorize: ({ request, context }: Route.ActionArgs) => requireAdmin(context, request),
  },
  async ({ context, form, submission, value, auth: admin }) => {
    if (value.orders.length === 0) throw new UserError("bulkShipping.errors.noneSelected", { status: 400 });
    const { db, config } = services(context);
    const kept: Record<string, KeptShipment> = {};
    const inputs: ShipmentInput[] = [];
    let badInput = false;
    value.orders.forEach((row, index) => {
      const typed = { carrier: row.carrier ?? "", tracking: row.tracking ?? "" };
      const parsed = bulkShipRowSchema.safeParse(row);
      if (parsed.success && isOrderStatus(parsed.data.expected)) {
        const { id, expected, carrier, tracking } = parsed.data;
        inputs.push({ orderId: id, expected, carrier, trackingNumber: tracking });
        return;
      }
      badInput = true;
      const errors: KeptShipment["errors"] = {};
      let problem: KeptShipment["problem"] = null;
      for (const issue of parsed.error?.issues ?? []) {
        const field = String(issue.path[0] ?? "");
        if (field === "carrier" || field === "tracking") errors[field] = [...(errors[field] ?? []), issue.message];
        else if (ROW_PROBLEM_FIELDS.has(field) && !problem) problem = { key: issue.message };
      }
      kept[row.id ?? `row-${index}`] = {
        ...typed,
        errors,
        problem: problem ?? { key: "bulkShipping.errors.checkFields" },
      };
    });
    const outcomes = await shipOrders(db, config, admin, inputs);
    const shipped: BulkShipAnswer["shipped"] = [];
    for (const [index, outcome] of outcomes.entries()) {
      const input = inputs[index];
      if (outcome.shipped) {
        const { order } = outcome;
        shipped.push({
          id: order.id,
          number: order.order_number,
          carrier: order.carrier,
          tracking: order.tracking_number,
        });
      } else {
        if (outcome.status === 400) badInput = true;
        kept[outcome.orderId] = {
          carrier: input?.carrier ?? "",
          tracking: input?.trackingNumber ?? "",
          errors: {},
          problem: outcome.problem,
        };
      }
    }
    if (Object.keys(kept).length === 0) {
      return succeed(context, form, {
        redirectTo: "/admin/orders",
        flash: {
          type: "success",
          key: "bulkShipping.done",
          params: { count: shipped.length },
          detailKey: "bulkShipping.doneDetail",
        },
      });
    }
    const answer: BulkShipAnswer = { result: submission.reply(), problem: null, shipped, kept };
    return data(answer, { status: badInput ? 400 : 409 });
  },
);

/** After a partial failure the list is read again: the orders that moved show as moved, fresh statuses. */
export function shouldRevalidate() {
  return true;
}

export default function ShipOrders({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const answer = actionData && "kept" in actionData ? (actionData as BulkShipAnswer) : undefined;
  return (
    <div className="max-w-6xl">
      <BackLink to="/admin/orders">{t("bulkShipping.back")}</BackLink>
      <div className="mt-2">
        <AdminPageHeader title={t("bulkShipping.title")} intro={t("bulkShipping.intro")} />
      </div>
      <BulkShipForm
        // A new list of rows (orders moved, statuses read again) starts the form afresh with its kept values.
        key={JSON.stringify([loaderData.orders.map((order) => [order.id, order.status]), answer?.kept ?? null])}
        action={`${location.pathname}${location.search}`}
        orders={loaderData.orders}
        missing={loaderData.missing}
        answer={answer}
        problem={actionData?.problem ?? null}
      />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Mark orders shipped");
