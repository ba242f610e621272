import { data } from "react-router";
import { AdminErrorBoundary } from "~/components/layout/admin-error-boundary";
import { errorPageHeaders, notFound } from "~/components/layout/route-error-boundary";
import { OrderDocumentsPage } from "~/components/order-documents/documents-page";
import { services } from "~/context";
import { privatePageMeta } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import {
  type DocumentKind,
  documentOf,
  documentTexts,
  isDocumentKind,
  loadOrdersForDocuments,
  MAX_PRINT_SELECTION,
} from "~/models/orders/documents.server";
import { getShop } from "~/models/settings/shop.server";
import { requireAdmin } from "~/request/auth.server";
import type { Route } from "./+types/order-documents";

/** An id as the page may name it back: at most 60 characters of what was sent. */
const shownId = (id: string) => (id.length > 60 ? `${id.slice(0, 60)}…` : id);

/**
 * Packing slips and invoices for owner and staff (docs/decisions/060), three URLs:
 * `/admin/orders/{id}/packing-slip`, `/admin/orders/{id}/invoice`, and the selection
 * `/admin/orders/print?doc=packing-slip|invoice&id=…&id=…` (the orders list's checkboxes,
 * a plain GET), one document per printed page. An id of a selection that is no order is named
 * on the page; a selection with no kind, no id or more than MAX_PRINT_SELECTION ids is a 400
 * that says so.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const url = new URL(request.url);
  const path = url.pathname.replace(/\.data$/, "");
  const single = params.id !== undefined;
  const kind: unknown = single ? (path.endsWith("/invoice") ? "invoice" : "packing-slip") : url.searchParams.get("doc");
  const ids = single ? [params.id ?? ""] : [...new Set(url.searchParams.getAll("id").map((id) => id.trim()))];
  const { t } = getInstance(context);
  const back = single
    ? { to: `/admin/orders/${params.id}`, label: "orderDocuments.backToOrder" as const }
    : { to: "/admin/orders", label: "orderDocuments.backToOrders" as const };
  const refuse = (key: string, params?: Record<string, string | number>) =>
    data(
      {
        documents: [],
        texts: {},
        missing: [],
        back,
        problem: { key, params },
        title: `${t("orderDocuments.errors.title")} | ${t("admin.title")}`,
      },
      { status: 400 },
    );
  if (!isDocumentKind(kind)) return refuse("orderDocuments.errors.kind");
  const chosen = ids.filter(Boolean);
  if (chosen.length === 0) return refuse("orderDocuments.errors.none");
  if (chosen.length > MAX_PRINT_SELECTION) {
    return refuse("orderDocuments.errors.tooMany", { max: MAX_PRINT_SELECTION, count: chosen.length });
  }
  const { db } = services(context);
  const [found, shop] = await Promise.all([loadOrdersForDocuments(db, chosen), getShop(context)]);
  if (single && found.size === 0) throw notFound();
  const documents = chosen.flatMap((id) => {
    const order = found.get(id);
    return order ? [documentOf(kind as DocumentKind, order, shop)] : [];
  });
  const name = t(kind === "invoice" ? "orderDocuments.invoice" : "orderDocuments.packingSlip");
  const plural = t(kind === "invoice" ? "orderDocuments.invoices" : "orderDocuments.packingSlips");
  return {
    documents,
    texts: documentTexts(documents),
    missing: chosen.filter((id) => !found.has(id)).map(shownId),
    back,
    problem: null,
    title: `${single && documents[0] ? `${name} ${documents[0].orderNumber}` : `${plural} (${documents.length})`} | ${t("admin.title")}`,
  };
}

export default function AdminOrderDocuments({ loaderData }: Route.ComponentProps) {
  return <OrderDocumentsPage {...loaderData} />;
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Documents");

/** A thrown 503's Retry-After reaches the error page's answer. */
export const headers = errorPageHeaders;

/** A missing order: the error alone (no admin menu), with the way back to the orders. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} shell={undefined} />;
}
