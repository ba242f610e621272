import { notFound } from "~/components/layout/route-error-boundary";
import { OrderDocumentsPage } from "~/components/order-documents/documents-page";
import { services } from "~/context";
import { privatePageMeta } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import { documentTexts, invoiceAvailable, invoiceOf, loadOrdersForDocuments } from "~/models/orders/documents.server";
import { getShop, titleWithShop } from "~/models/settings/shop.server";
import { requireUser } from "~/request/auth.server";
import type { Route } from "./+types/account-order-invoice";

/**
 * GET /account/orders/{id}/invoice: the shopper's own invoice, once the order was paid
 * (docs/decisions/060), in the order's language. Signed out: sign in first; anyone else's order,
 * or one not paid yet, does not exist (404), as on the order page.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const { db } = services(context);
  const found = (await loadOrdersForDocuments(db, [params.id], user.id)).get(params.id);
  if (!found || !invoiceAvailable(found.order)) throw notFound();
  const invoice = invoiceOf(found, await getShop(context));
  const { t } = getInstance(context);
  return {
    documents: [invoice],
    texts: documentTexts([invoice]),
    missing: [],
    back: { to: `/account/orders/${invoice.orderId}`, label: "orderDocuments.backToOrder" as const },
    problem: null,
    title: await titleWithShop(context, `${t("orderDocuments.invoice")} ${invoice.orderNumber}`),
  };
}

export default function AccountOrderInvoice({ loaderData }: Route.ComponentProps) {
  return <OrderDocumentsPage {...loaderData} />;
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Invoice");
