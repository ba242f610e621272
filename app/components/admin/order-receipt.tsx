import type { OrderRow } from "#db/schema";
import { AdminSection } from "~/components/admin/admin-section";
import { buttonClass } from "~/components/ui/button";
import { useTranslation } from "~/lib/i18n";

/** The payment receipt the customer sent (or that there is none), to open or download. */
export function OrderReceipt({
  order,
  date,
}: {
  order: Pick<OrderRow, "id" | "order_number" | "receipt_path" | "receipt_uploaded_at" | "receipt_rejected_reason">;
  date: (value: string) => string;
}) {
  const { t } = useTranslation();
  return (
    <AdminSection id="receipt" look="panel" heading={t("adminOrders.paymentReceipt")}>
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
            className={buttonClass("secondary", "sm", "mt-3")}
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
    </AdminSection>
  );
}
