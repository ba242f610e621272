import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect } from "react-router";
import { DeleteConfirmation } from "~/components/admin/delete-confirmation";
import { OrderStatusBadge } from "~/components/admin/order-status-badge";
import { Field, FormErrors, inputClass, StatusButton } from "~/components/ui/field";
import { services } from "~/context";
import { requireAdmin } from "~/lib/auth.server";
import { formatDate } from "~/lib/dates";
import { setFlash } from "~/lib/flash.server";
import { useTranslation } from "~/lib/i18n";
import { formatMoney } from "~/lib/money";
import { formatPersonName } from "~/lib/person-name";
import { readForm } from "~/lib/read-form";
import { safeRedirect } from "~/lib/redirect";
import { publicUrl } from "~/lib/storage.server";
import { getInstance, getLanguage } from "~/middleware/i18next";
import {
  findAdminOrder,
  OrderTransitionError,
  sendOrderStatusEmail,
  transitionOrder,
  transitionsFor,
} from "~/models/admin-order.server";
import { orderStatusSchema } from "~/schemas/order-status";
import type { Route } from "./+types/order";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const found = await findAdminOrder(services(context).db, params.id);
  if (!found) throw data(null, { status: 404 });
  const t = getInstance(context).t;
  const url = new URL(request.url);
  return {
    ...found,
    lines: found.lines.map((line) => ({ ...line, image_url: publicUrl(line.image_path) })),
    actions: transitionsFor(found.order),
    confirmingCancel: url.searchParams.get("cancel") === "1",
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

/** Mark paid, reject the receipt, mark shipped or delivered, cancel: each a compare-and-set. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = requireAdmin(context, request);
  const { db, mailer, config } = services(context);
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: orderStatusSchema });
  const intent = String(form.get("intent") ?? "");
  if (submission.status !== "success") {
    return data({ intent, result: submission.reply(), problem: null }, { status: 400 });
  }
  const value = submission.value;
  try {
    const order = await transitionOrder(db, admin, {
      orderId: params.id,
      transition: value.intent,
      expected: value.expected,
      trackingNumber: value.intent === "markShipped" ? value.tracking : null,
      reason: value.intent === "rejectReceipt" ? value.reason : null,
    });
    let mailed = false;
    try {
      mailed = await sendOrderStatusEmail(db, mailer, config, order, value.intent);
    } catch (error) {
      // The change is made and recorded; a mail server that is down must not undo it.
      console.error(`order ${order.order_number}: status e-mail failed`, error);
    }
    setFlash(context, {
      type: "success",
      key: "adminOrders.updated",
      detailKey: mailed ? "adminOrders.updatedDetail" : undefined,
    });
    return redirect(backTo(form.get("returnTo"), order.id));
  } catch (error) {
    if (!(error instanceof OrderTransitionError)) throw error;
    const t = getInstance(context).t;
    const status = error.params.status;
    return data(
      {
        intent,
        result: submission.reply({ formErrors: [error.key] }),
        problem: {
          key: error.key,
          params: status ? { status: t(`orders.statuses.${status}` as "orders.statuses.paid") } : {},
        },
      },
      { status: error.key === "adminOrders.errors.notFound" ? 404 : 409 },
    );
  }
}

export default function AdminOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { order, lines, customer, history, actions, confirmingCancel, language } = loaderData;
  const date = (value: string) => formatDate(value, language, "dateTime");
  const money = (cents: number) => formatMoney(cents, order.currency);
  const fieldErrors = (intent: string, name: string) =>
    actionData?.intent === intent ? actionData.result.error?.[name] : undefined;
  const initial = (intent: string, name: string) =>
    actionData?.intent === intent ? String(actionData.result.initialValue?.[name] ?? "") : undefined;
  const info: [string, string | null][] = [
    ["adminOrders.name", formatPersonName(order.first_name, order.last_name)],
    ["adminOrders.email", order.email],
    ["adminOrders.phone", order.phone],
    ["adminOrders.address", order.address],
    ["adminOrders.city", order.city],
    ["adminOrders.postalCode", order.postal_code],
    ["adminOrders.country", order.country],
  ];
  const hidden = <input type="hidden" name="expected" value={order.status} />;
  return (
    <div className="max-w-6xl">
      <p className="text-sm">
        <Link to="/admin/orders" className="text-brand-700 hover:underline">
          ← {t("adminOrders.back")}
        </Link>
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="font-mono text-xl font-bold sm:text-2xl">
          {t("adminOrders.orderTitle", { number: order.order_number })}
        </h1>
        <OrderStatusBadge status={order.status} />
      </div>
      <p className="mt-1 text-sm text-stone-600">
        <span className="whitespace-nowrap">{t("adminOrders.placedOn", { date: date(order.created_at) })}</span> ·{" "}
        <span className="whitespace-nowrap">{t("adminOrders.lastUpdated", { date: date(order.updated_at) })}</span> ·{" "}
        <span className="font-semibold text-stone-900">{money(order.total_cents)}</span>
      </p>

      {actionData?.problem ? (
        <div className="mt-4">
          <FormErrors errors={[actionData.problem.key]} params={actionData.problem.params} />
        </div>
      ) : null}

      <div className="mt-6 grid gap-6 lg:grid-cols-[1fr_22rem]">
        <div className="flex min-w-0 flex-col gap-6">
          <section className="rounded-lg border border-stone-200 bg-white p-5" aria-labelledby="items-heading">
            <h2 id="items-heading" className="text-lg font-semibold">
              {t("adminOrders.items")}
            </h2>
            <div className="mt-3 overflow-x-auto">
              <table className="w-full min-w-[32rem] text-left text-sm">
                <thead className="text-xs uppercase text-stone-500">
                  <tr>
                    <th scope="col" className="py-1 pr-3">
                      <span className="sr-only">{t("adminOrders.image")}</span>
                    </th>
                    <th scope="col" className="py-1 pr-3">
                      {t("adminOrders.product")}
                    </th>
                    <th scope="col" className="py-1 pr-3">
                      {t("adminOrders.quantity")}
                    </th>
                    <th scope="col" className="py-1 pr-3 text-right">
                      {t("adminOrders.unitPrice")}
                    </th>
                    <th scope="col" className="py-1 text-right">
                      {t("adminOrders.lineTotal")}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {lines.map((line) => (
                    <tr key={line.id} className="border-t border-stone-100" data-testid="order-line">
                      <td className="py-2 pr-3">
                        {line.image_url ? (
                          <img src={line.image_url} alt="" className="h-12 w-12 rounded object-cover" loading="lazy" />
                        ) : (
                          <div className="h-12 w-12 rounded bg-stone-100" />
                        )}
                      </td>
                      <td className="py-2 pr-3">
                        {line.product_id ? (
                          <Link to={`/admin/products/edit/${line.product_id}`} className="font-medium hover:underline">
                            {language === "zh" ? line.name_zh : line.name_en}
                          </Link>
                        ) : (
                          <span className="font-medium">
                            {language === "zh" ? line.name_zh : line.name_en}{" "}
                            <span className="text-xs text-stone-500">{t("adminOrders.deletedProduct")}</span>
                          </span>
                        )}
                        {line.color !== "Default" ? (
                          <div className="text-xs text-stone-600">
                            {/* Both names: the admin may read either; the customer saw theirs. */}
                            {t("adminOrders.colorValue", {
                              color: line.color_zh ? `${line.color} · ${line.color_zh}` : line.color,
                            })}
                          </div>
                        ) : null}
                      </td>
                      <td className="py-2 pr-3">{line.quantity}</td>
                      <td className="whitespace-nowrap py-2 pr-3 text-right">{money(line.unit_price_cents)}</td>
                      <td className="whitespace-nowrap py-2 text-right font-medium">{money(line.line_total_cents)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <h3 className="sr-only">{t("adminOrders.summary")}</h3>
            <dl className="mt-4 ml-auto max-w-xs space-y-1 border-t border-stone-200 pt-3 text-sm">
              <div className="flex justify-between">
                <dt>{t("cart.subtotal")}</dt>
                <dd>{money(order.subtotal_cents)}</dd>
              </div>
              <div className="flex justify-between">
                <dt>{t("cart.shipping")}</dt>
                <dd>{order.shipping_cents === 0 ? t("cart.free") : money(order.shipping_cents)}</dd>
              </div>
              <div className="flex justify-between text-base font-bold">
                <dt>{t("cart.orderTotal")}</dt>
                <dd data-testid="order-total">{money(order.total_cents)}</dd>
              </div>
            </dl>
          </section>

          <section className="rounded-lg border border-stone-200 bg-white p-5" aria-labelledby="customer-heading">
            <h2 id="customer-heading" className="text-lg font-semibold">
              {t("adminOrders.customerInfo")}
            </h2>
            <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
              {info
                .filter(([, value]) => value)
                .map(([key, value]) => (
                  <div key={key} className="contents">
                    <dt className="text-stone-500">{t(key as "adminOrders.name")}</dt>
                    <dd className="break-words">{value}</dd>
                  </div>
                ))}
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
            </dl>
            {order.notes ? (
              <div className="mt-3 text-sm">
                <h3 className="font-medium">{t("adminOrders.notes")}</h3>
                <p className="whitespace-pre-line text-stone-700">{order.notes}</p>
              </div>
            ) : null}
          </section>

          <section className="rounded-lg border border-stone-200 bg-white p-5" aria-labelledby="history-heading">
            <h2 id="history-heading" className="text-lg font-semibold">
              {t("adminOrders.history")}
            </h2>
            {history.length === 0 ? (
              <p className="mt-2 text-sm text-stone-600">{t("adminOrders.historyEmpty")}</p>
            ) : (
              <ol className="mt-2 space-y-1 text-sm">
                {history.map((entry) => {
                  const name = entry.action.replace(/^order\./, "");
                  return (
                    <li key={`${entry.action}-${entry.created_at}`}>
                      <span className="text-stone-500">{date(entry.created_at)}</span> ·{" "}
                      {t(`adminOrders.historyActions.${name}` as "adminOrders.historyActions.placed", {
                        defaultValue: entry.action,
                      })}
                      {entry.actor ? (
                        <span className="text-stone-500"> · {t("adminOrders.historyBy", { email: entry.actor })}</span>
                      ) : null}
                    </li>
                  );
                })}
              </ol>
            )}
          </section>
        </div>

        {/* On a phone the actions and the receipt come first: they are what the admin is here for. */}
        <div className="order-first flex min-w-0 flex-col gap-6 lg:order-none">
          <section className="rounded-lg border border-stone-200 bg-white p-5" aria-labelledby="actions-heading">
            <h2 id="actions-heading" className="text-lg font-semibold">
              {t("adminOrders.actions")}
            </h2>
            {order.tracking_number ? (
              <p className="mt-2 text-sm">
                {t("adminOrders.tracking")}: <span className="font-mono">{order.tracking_number}</span>
              </p>
            ) : null}
            {actions.length === 0 ? <p className="mt-2 text-sm text-stone-600">{t("adminOrders.noActions")}</p> : null}
            <div className="mt-3 flex flex-col gap-4">
              {actions.includes("markPaid") ? (
                <Form method="post">
                  {hidden}
                  <StatusButton name="intent" value="markPaid" className="w-full">
                    {t("adminOrders.markPaid")}
                  </StatusButton>
                </Form>
              ) : null}
              {actions.includes("markShipped") ? (
                <Form method="post" className="flex flex-col gap-2">
                  {hidden}
                  <Field
                    label={t("adminOrders.tracking")}
                    htmlFor="tracking"
                    hint={t("adminOrders.trackingHint")}
                    errors={fieldErrors("markShipped", "tracking")}
                    errorId="tracking-errors"
                  >
                    <input
                      id="tracking"
                      name="tracking"
                      maxLength={100}
                      defaultValue={initial("markShipped", "tracking")}
                      aria-invalid={fieldErrors("markShipped", "tracking") ? true : undefined}
                      aria-describedby="tracking-errors"
                      className={inputClass}
                    />
                  </Field>
                  <StatusButton name="intent" value="markShipped" className="w-full">
                    {t("adminOrders.markShipped")}
                  </StatusButton>
                </Form>
              ) : null}
              {actions.includes("markDelivered") ? (
                <Form method="post">
                  {hidden}
                  <StatusButton name="intent" value="markDelivered" className="w-full">
                    {t("adminOrders.markDelivered")}
                  </StatusButton>
                </Form>
              ) : null}
              {actions.includes("rejectReceipt") ? (
                <Form method="post" className="flex flex-col gap-2 border-t border-stone-200 pt-4">
                  {hidden}
                  <Field
                    label={t("adminOrders.rejectReason")}
                    htmlFor="reason"
                    hint={t("adminOrders.rejectReasonHint")}
                    errors={fieldErrors("rejectReceipt", "reason")}
                    errorId="reason-errors"
                  >
                    <textarea
                      id="reason"
                      name="reason"
                      rows={3}
                      maxLength={500}
                      required
                      defaultValue={initial("rejectReceipt", "reason")}
                      aria-invalid={fieldErrors("rejectReceipt", "reason") ? true : undefined}
                      aria-describedby="reason-errors"
                      className={inputClass}
                    />
                  </Field>
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
          </section>

          <section className="rounded-lg border border-stone-200 bg-white p-5" aria-labelledby="receipt-heading">
            <h2 id="receipt-heading" className="text-lg font-semibold">
              {t("adminOrders.paymentReceipt")}
            </h2>
            {order.receipt_rejected_reason ? (
              <p className="mt-2 text-sm font-medium text-red-700">
                {t("adminOrders.rejectedBecause", { reason: order.receipt_rejected_reason })}
              </p>
            ) : null}
            {order.receipt_path ? (
              <>
                {order.receipt_uploaded_at ? (
                  <p className="mt-1 text-xs text-stone-500">
                    {t("adminOrders.uploadedAt", { date: date(order.receipt_uploaded_at) })}
                  </p>
                ) : null}
                <a href={`/admin/orders/${order.id}/receipt`} target="_blank" rel="noreferrer" className="mt-3 block">
                  <img
                    src={`/admin/orders/${order.id}/receipt`}
                    alt={t("adminOrders.receiptAlt", { number: order.order_number })}
                    className="max-h-96 w-full rounded border border-stone-200 object-contain"
                  />
                  <span className="sr-only">{t("adminOrders.openReceipt")}</span>
                </a>
                <a
                  href={`/admin/orders/${order.id}/receipt?download=1`}
                  download
                  className="mt-3 inline-block rounded-md border border-stone-300 px-3 py-1.5 text-sm font-medium hover:bg-stone-50"
                >
                  {t("adminOrders.downloadReceipt")}
                </a>
              </>
            ) : (
              <div className="mt-2 text-sm text-stone-600">
                <p className="font-medium">{t("adminOrders.noReceipt")}</p>
                <p>{t("adminOrders.noReceiptDetail")}</p>
              </div>
            )}
          </section>
        </div>
      </div>
    </div>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.title ?? "Order" }, { name: "robots", content: "noindex" }];
}
