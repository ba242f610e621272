import type { ReactNode } from "react";
import { data, Form, Link } from "react-router";
import { AdminSection } from "~/components/admin/admin-section";
import { AdminTable } from "~/components/admin/admin-table";
import { Badge, CustomerStatusBadge, FAILURE_TONE, SUCCESS_TONE } from "~/components/admin/badges";
import { ORDER_STATUS_TONES } from "~/components/order-status-badge";
import { BackLink } from "~/components/ui/back-link";
import { Button } from "~/components/ui/button";
import { StatusButton } from "~/components/ui/field";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { formAction, succeed } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { formatMoney } from "~/lib/money";
import { translateKey } from "~/lib/translate-key";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { countryName, findCustomer, setCustomerBlocked } from "~/models/customers.server";
import { requireAdmin, requireOwner } from "~/request/auth.server";
import { blockCustomerSchema } from "~/schemas/customer";
import type { Route } from "./+types/customer";

const LIST = "/admin/customers";

/** Ids are UUIDs; anything else is not a customer (and never reaches a query). */
function customerId(value: string | undefined): string | null {
  return value && /^[0-9a-f-]{8,64}$/i.test(value) ? value.toLowerCase() : null;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const { db } = services(context);
  const id = customerId(params.id);
  const detail = id ? await findCustomer(db, id) : null;
  if (!detail) throw data(null, { status: 404 });
  const language = getLanguage(context);
  const { customer } = detail;
  const t = getInstance(context).t;
  return {
    ...detail,
    location: [customer.city, countryName(customer.country, language)].filter(Boolean).join(", ") || null,
    signIns: detail.signIns.map((event) => ({ ...event, countryName: countryName(event.country, language) })),
    isSelf: customer.id === admin.id,
    canBlock: admin.role === "owner",
    language,
    title: `${customer.email} | ${t("adminCustomers.title")} | ${t("admin.title")}`,
  };
}

/** intent=block or intent=unblock; then back to this page with a flash message. */
export const action = formAction(
  {
    schema: blockCustomerSchema,
    authorize: ({ request, context, params }: Route.ActionArgs) => {
      // Blocking is the owner's (staff may read the page).
      const admin = requireOwner(context, request);
      const id = customerId(params.id);
      if (!id) throw data(null, { status: 404 });
      return { admin, id };
    },
  },
  async ({ context, form, value, auth: { admin, id } }) => {
    await setCustomerBlocked(services(context).db, id, value.intent === "block", { actorUserId: admin.id });
    return succeed(context, form, {
      redirectTo: `${LIST}/${id}`,
      flash: { type: "success", key: value.intent === "block" ? "adminCustomers.blocked" : "adminCustomers.unblocked" },
    });
  },
);

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium uppercase text-stone-500">{label}</dt>
      <dd className="mt-0.5 break-words" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

export default function AdminCustomer({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { customer, orders, signIns, location, isSelf, canBlock, language } = loaderData;
  const none = t("adminCustomers.none");
  const blocked = customer.status === "blocked";
  const problem = actionData?.problem?.key ?? actionData?.result?.error?.intent?.[0];
  return (
    <div className="max-w-5xl">
      <BackLink to={LIST}>{t("adminCustomers.detail.back")}</BackLink>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="min-w-0 break-all text-2xl font-bold">{customer.email}</h1>
        <CustomerStatusBadge status={customer.status} />
      </div>

      {problem ? (
        <p role="alert" className="mt-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-red-900">
          {translateKey(t, problem)}
        </p>
      ) : null}

      <div className="mt-6 flex flex-col gap-6">
        <section className="rounded-lg bg-white p-6 shadow-sm" aria-label={t("adminCustomers.detail.heading")}>
          <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            <Fact label={t("adminCustomers.detail.email")}>{customer.email}</Fact>
            <Fact label={t("adminCustomers.detail.name")} testId="customer-name">
              {customer.name || none}
            </Fact>
            <Fact label={t("adminCustomers.detail.phone")} testId="customer-phone">
              {customer.phone ?? none}
            </Fact>
            <Fact label={t("adminCustomers.detail.status")}>{t(`adminCustomers.statuses.${customer.status}`)}</Fact>
            <Fact label={t("adminCustomers.detail.created")}>
              {formatDate(customer.created_at, language, "dateTime")}
            </Fact>
            <Fact label={t("adminCustomers.detail.lastLogin")}>
              {formatDate(customer.last_login_at, language, "dateTime")}
            </Fact>
            <Fact label={t("adminCustomers.detail.lastIp")}>
              <span className="font-mono text-sm">{customer.last_login_ip ?? none}</span>
            </Fact>
            <Fact label={t("adminCustomers.detail.location")} testId="customer-location">
              {location ?? none}
            </Fact>
            <Fact label={t("adminCustomers.detail.orderCount")}>{customer.order_count}</Fact>
            <Fact label={t("adminCustomers.detail.totalSpent")} testId="customer-total-spent">
              {customer.totals.length === 0
                ? none
                : customer.totals.map((total) => formatMoney(total.cents, total.currency)).join(" · ")}
            </Fact>
          </dl>
        </section>

        <AdminSection id="access" heading={t("adminCustomers.detail.access")}>
          {isSelf ? (
            <p className="mt-2 text-sm text-stone-600">
              {t("adminCustomers.detail.you")}. {t("adminCustomers.detail.selfHint")}
            </p>
          ) : !canBlock ? (
            <p className="mt-2 text-sm text-stone-600">{t("adminStaff.blockOwnerOnly")}</p>
          ) : (
            <Form method="post" className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-center">
              {blocked ? (
                <>
                  <StatusButton name="intent" value="unblock">
                    {t("adminCustomers.detail.unblock")}
                  </StatusButton>
                  <p className="text-sm text-stone-600">{t("adminCustomers.detail.unblockHint")}</p>
                </>
              ) : (
                <>
                  <Button variant="danger" name="intent" value="block">
                    {t("adminCustomers.detail.block")}
                  </Button>
                  <p className="text-sm text-stone-600">{t("adminCustomers.detail.blockHint")}</p>
                </>
              )}
            </Form>
          )}
        </AdminSection>

        <AdminSection
          id="orders"
          look="bare"
          heading={t("adminCustomers.detail.orders")}
          empty={orders.length === 0 ? t("adminCustomers.detail.ordersEmpty") : null}
        >
          <AdminTable
            columns={[
              t("adminCustomers.detail.orderNumber"),
              t("adminCustomers.detail.date"),
              t("adminCustomers.detail.orderStatus"),
              { label: t("adminCustomers.detail.total"), className: "text-right" },
            ]}
            minWidth="min-w-[32rem]"
            tableTestId="customer-orders"
          >
            {orders.map((order) => (
              <tr key={order.id}>
                <td className="whitespace-nowrap px-3 py-2">
                  <Link to={`/admin/orders/${order.id}`} className="font-mono text-brand-700 hover:underline">
                    {order.order_number}
                  </Link>
                </td>
                <td className="whitespace-nowrap px-3 py-2">{formatDate(order.created_at, language)}</td>
                <td className="px-3 py-2">
                  <Badge tone={ORDER_STATUS_TONES[order.status] ?? ""}>{t(`orders.statuses.${order.status}`)}</Badge>
                </td>
                <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">
                  {formatMoney(order.total_cents, order.currency)}
                </td>
              </tr>
            ))}
          </AdminTable>
          {customer.order_count > orders.length ? (
            <p className="mt-2 text-xs text-stone-600">
              {t("adminCustomers.detail.ordersMore", { count: orders.length })}
            </p>
          ) : null}
        </AdminSection>

        <AdminSection
          id="sign-ins"
          look="bare"
          heading={t("adminCustomers.detail.signIns")}
          intro={t("adminCustomers.detail.signInsIntro")}
          empty={signIns.length === 0 ? t("adminCustomers.detail.signInsEmpty") : null}
        >
          <AdminTable
            columns={[
              t("adminCustomers.detail.date"),
              t("adminCustomers.detail.ip"),
              t("adminCustomers.detail.country"),
              t("adminCustomers.detail.result"),
            ]}
            minWidth="min-w-[32rem]"
            tableTestId="customer-sign-ins"
            labelledBy="sign-ins-heading"
          >
            {signIns.map((event) => (
              <tr key={event.id}>
                <td className="whitespace-nowrap px-3 py-2">{formatDate(event.created_at, language, "dateTime")}</td>
                <td className="whitespace-nowrap px-3 py-2 font-mono text-xs">{event.ip ?? none}</td>
                <td className="px-3 py-2">{event.countryName ?? none}</td>
                <td className="px-3 py-2">
                  <Badge tone={event.success ? SUCCESS_TONE : FAILURE_TONE}>
                    {event.success ? t("adminCustomers.detail.success") : t("adminCustomers.detail.failure")}
                  </Badge>
                </td>
              </tr>
            ))}
          </AdminTable>
        </AdminSection>
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Customer");
