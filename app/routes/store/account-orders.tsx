import { Link } from "react-router";
import { OrderStatusBadge } from "~/components/order-status-badge";
import { BackLink } from "~/components/ui/back-link";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { formatMoney } from "~/lib/money";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { listOrdersForUser } from "~/models/orders/shopper.server";
import { titleWithShop } from "~/models/settings/shop.server";
import { requireUser } from "~/request/auth.server";
import type { Route } from "./+types/account-orders";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const t = getInstance(context).t;
  return {
    orders: await listOrdersForUser(services(context).db, user.id),
    language: getLanguage(context),
    title: await titleWithShop(context, t("orders.title")),
  };
}

export default function AccountOrders({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { orders, language } = loaderData;
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <BackLink to="/account">{t("account.title")}</BackLink>
      <h1 className="mt-2 text-3xl font-bold">{t("orders.title")}</h1>
      {orders.length === 0 ? (
        <p className="mt-6 text-stone-600">{t("orders.empty")}</p>
      ) : (
        <div className="mt-6 overflow-x-auto rounded-lg border border-stone-200 bg-white">
          <table className="w-full text-left text-sm">
            <thead className="bg-stone-50 text-stone-600">
              <tr>
                <th className="px-4 py-2">{t("orders.number")}</th>
                <th className="px-4 py-2">{t("orders.date")}</th>
                <th className="px-4 py-2">{t("orders.status")}</th>
                <th className="px-4 py-2">{t("orders.items")}</th>
                <th className="px-4 py-2 text-right">{t("orders.total")}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {orders.map((order) => (
                <tr key={order.id} data-testid="order-row">
                  <td className="px-4 py-2 font-mono">
                    <Link to={`/account/orders/${order.id}`} className="text-brand-700 hover:underline">
                      {order.order_number}
                    </Link>
                  </td>
                  <td className="px-4 py-2">{formatDate(order.created_at, language)}</td>
                  <td className="min-w-32 px-4 py-2">
                    <OrderStatusBadge status={order.shown_status} />
                  </td>
                  <td className="px-4 py-2">{Number(order.items)}</td>
                  <td className="px-4 py-2 text-right font-semibold">
                    {formatMoney(order.total_cents, order.currency)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Orders");
