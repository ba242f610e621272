import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { useTranslation } from "~/lib/i18n";

/** The admin order page's way to the order's packing slip and invoice (docs/decisions/060). */
export function OrderDocumentLinks({ orderId }: { orderId: string }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("orderDocuments.documents")} className="mt-3 flex flex-wrap gap-2" data-testid="order-documents">
      <Link to={`/admin/orders/${orderId}/packing-slip`} className={buttonClass("secondary", "sm")}>
        {t("orderDocuments.openPackingSlip")}
      </Link>
      <Link to={`/admin/orders/${orderId}/invoice`} className={buttonClass("secondary", "sm")}>
        {t("orderDocuments.openInvoice")}
      </Link>
    </nav>
  );
}

/** The shopper's invoice link on their order page: only once the order was paid (as the invoice route says). */
export function ShopperInvoiceLink({ order }: { order: { id: string; paid_at: string | null } }) {
  const { t } = useTranslation();
  if (!order.paid_at) return null;
  return (
    <p className="mt-3">
      <Link
        to={`/account/orders/${order.id}/invoice`}
        className={buttonClass("secondary", "sm")}
        data-testid="invoice-link"
      >
        {t("orderDocuments.shopperInvoice")}
      </Link>
    </p>
  );
}
