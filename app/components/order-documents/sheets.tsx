import type { TFunction } from "i18next";
import type { ReactNode } from "react";
import { ShopMark } from "~/components/shop-mark";
import { formatDate } from "~/lib/dates";
import { formatMoney } from "~/lib/money";
import { HTML_LANG } from "~/locales";
import type {
  DocumentAddress,
  DocumentShop,
  Invoice,
  OrderDocument,
  PackingSlip,
  SlipLine,
} from "~/models/orders/documents.server";

/*
 * The printed documents of an order (docs/decisions/060), one A4 sheet each: written with `t`
 * of the ORDER's language (not the reader's), so a Chinese order's slip is Chinese whoever
 * prints it. On screen a sheet is a white page; on paper only the sheets print, one a page.
 */

/** One sheet: the order's language on the element, a page break after it on paper. */
function Sheet({ document, label, children }: { document: OrderDocument; label: string; children: ReactNode }) {
  return (
    <article
      lang={HTML_LANG[document.language]}
      aria-label={label}
      data-document={document.kind}
      data-order-number={document.orderNumber}
      className="mx-auto w-full max-w-[210mm] break-inside-avoid-page bg-white p-5 text-[13px] leading-snug text-stone-900 shadow-sm ring-1 ring-stone-200 sm:p-10 print:max-w-none print:break-after-page print:p-0 print:shadow-none print:ring-0 print:last:break-after-auto"
    >
      {children}
    </article>
  );
}

function ShopHeading({ shop, details }: { shop: DocumentShop; details: boolean }) {
  return (
    <div className="min-w-0 flex-1">
      <p className="flex items-center gap-2 text-lg font-bold tracking-tight text-brand-900">
        <ShopMark className="h-9 w-9 shrink-0" />
        <span className="[overflow-wrap:anywhere]">{shop.name}</span>
      </p>
      {details ? (
        <div className="mt-1 text-xs text-stone-600">
          <p>{shop.address}</p>
          <p>{shop.email}</p>
        </div>
      ) : null}
    </div>
  );
}

function Address({ title, address, t }: { title: string; address: DocumentAddress; t: TFunction }) {
  return (
    <section>
      <h2 className="text-xs font-semibold uppercase tracking-wide text-stone-500">{title}</h2>
      <address className="mt-1 not-italic" data-testid="ship-to">
        <p className="font-semibold">{address.name}</p>
        {address.lines.map((line) => (
          <p key={line}>{line}</p>
        ))}
        {address.phone ? <p>{t("orderDocuments.phone", { phone: address.phone })}</p> : null}
        <p className="[overflow-wrap:anywhere]">{t("orderDocuments.email", { email: address.email })}</p>
      </address>
    </section>
  );
}

/** The item cell: name, colour, the second option (size…) and, on the slip, nothing priced. */
function ItemCell({ line, t, withSku }: { line: SlipLine; t: TFunction; withSku: boolean }) {
  return (
    <td className="py-2 pr-3 align-top">
      <p className="font-medium">{line.name}</p>
      {line.colour ? (
        <p className="text-xs text-stone-600">{t("orderDocuments.colour", { value: line.colour })}</p>
      ) : null}
      {line.option ? (
        <p className="text-xs text-stone-600">
          {line.option.name
            ? t("orderDocuments.option", { name: line.option.name, value: line.option.value })
            : line.option.value}
        </p>
      ) : null}
      {withSku && line.sku ? (
        <p className="font-mono text-xs text-stone-600">
          {t("orderDocuments.sku")} {line.sku}
        </p>
      ) : null}
    </td>
  );
}

const TH = "py-1.5 pr-3 text-left text-xs font-semibold uppercase tracking-wide text-stone-500 last:pr-0";

export function PackingSlipSheet({ slip, t }: { slip: PackingSlip; t: TFunction }) {
  const units = slip.lines.reduce((sum, line) => sum + line.quantity, 0);
  return (
    <Sheet document={slip} label={`${t("orderDocuments.packingSlip")} ${slip.orderNumber}`}>
      <header className="flex flex-col gap-4 border-b border-stone-300 pb-4 sm:flex-row sm:items-start sm:justify-between print:flex-row print:items-start print:justify-between">
        <ShopHeading shop={slip.shop} details={false} />
        <div className="shrink-0 text-right">
          <h1 className="text-xl font-bold uppercase tracking-wide">{t("orderDocuments.packingSlip")}</h1>
          <div
            className="ml-auto mt-2 h-14 w-56 max-w-full [&>svg]:h-full [&>svg]:w-full"
            // Made on the server by bwip-js (attributes only): prints without JavaScript.
            // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's own SVG markup, from the order number
            dangerouslySetInnerHTML={{ __html: slip.barcodeSvg }}
          />
          <p className="font-mono text-sm font-semibold" data-testid="document-order-number">
            {slip.orderNumber}
          </p>
        </div>
      </header>
      <div className="mt-4 grid gap-4 sm:grid-cols-2 print:grid-cols-2">
        <Address title={t("orderDocuments.shipTo")} address={slip.shipTo} t={t} />
        <dl className="text-sm sm:text-right print:text-right">
          <dt className="text-xs font-semibold uppercase tracking-wide text-stone-500">
            {t("orderDocuments.orderDate")}
          </dt>
          <dd>{formatDate(slip.placedAt, slip.language, "longDate")}</dd>
        </dl>
      </div>
      <table className="mt-6 w-full border-collapse">
        <thead className="border-b border-stone-300">
          <tr>
            <th className={TH}>{t("orderDocuments.item")}</th>
            <th className={TH}>{t("orderDocuments.sku")}</th>
            <th className={`${TH} text-right`}>{t("orderDocuments.quantity")}</th>
          </tr>
        </thead>
        <tbody>
          {slip.lines.map((line) => (
            <tr key={line.id} className="border-b border-stone-200" data-testid="document-line">
              <ItemCell line={line} t={t} withSku={false} />
              <td className="py-2 pr-3 align-top font-mono text-xs [overflow-wrap:anywhere]">{line.sku ?? "—"}</td>
              <td className="py-2 text-right align-top text-base font-bold tabular-nums">{line.quantity}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={3} className="pt-2 text-right text-sm font-semibold">
              {t("orderDocuments.itemsTotal", { count: units })}
            </td>
          </tr>
        </tfoot>
      </table>
      {slip.note ? (
        <section className="mt-6 rounded border border-stone-300 p-3">
          <h2 className="text-xs font-semibold uppercase tracking-wide text-stone-500">{t("orderDocuments.note")}</h2>
          <p className="mt-1 whitespace-pre-line [overflow-wrap:anywhere]" data-testid="document-note">
            {slip.note}
          </p>
        </section>
      ) : null}
      <p className="mt-10 text-xs text-stone-500">{t("orderDocuments.packedBy")}</p>
    </Sheet>
  );
}

/** A label and an amount, right-aligned: the totals and the refunds. */
function AmountRow({
  label,
  value,
  className = "",
  testId,
}: {
  label: string;
  value: string;
  className?: string;
  testId?: string;
}) {
  return (
    <div className={`flex justify-between gap-6 py-0.5 ${className}`}>
      <dt className="[overflow-wrap:anywhere]">{label}</dt>
      <dd className="whitespace-nowrap tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

export function InvoiceSheet({ invoice, t }: { invoice: Invoice; t: TFunction }) {
  const money = (cents: number) => formatMoney(cents, invoice.currency);
  const date = (value: string) => formatDate(value, invoice.language, "longDate");
  return (
    <Sheet document={invoice} label={`${t("orderDocuments.invoice")} ${invoice.orderNumber}`}>
      <header className="flex flex-col gap-4 border-b border-stone-300 pb-4 sm:flex-row sm:items-start sm:justify-between print:flex-row print:items-start print:justify-between">
        <ShopHeading shop={invoice.shop} details />
        <div className="shrink-0 sm:text-right print:text-right">
          <h1 className="text-xl font-bold uppercase tracking-wide">{t("orderDocuments.invoice")}</h1>
          <dl className="mt-2 text-sm">
            <dt className="text-xs text-stone-500">{t("orderDocuments.invoiceNumber")}</dt>
            <dd className="font-mono font-semibold" data-testid="document-order-number">
              {invoice.orderNumber}
            </dd>
            <dt className="mt-1 text-xs text-stone-500">{t("orderDocuments.orderDate")}</dt>
            <dd>{date(invoice.placedAt)}</dd>
          </dl>
        </div>
      </header>
      <div className="mt-4">
        <Address title={t("orderDocuments.billTo")} address={invoice.shipTo} t={t} />
      </div>
      <div className="mt-6 overflow-x-auto print:overflow-visible">
        <table className="w-full min-w-[20rem] border-collapse">
          <thead className="border-b border-stone-300">
            <tr>
              <th className={TH}>{t("orderDocuments.item")}</th>
              <th className={`${TH} text-right`}>{t("orderDocuments.quantity")}</th>
              <th className={`${TH} text-right`}>{t("orderDocuments.unitPrice")}</th>
              <th className={`${TH} text-right`}>{t("orderDocuments.amount")}</th>
            </tr>
          </thead>
          <tbody>
            {invoice.lines.map((line) => (
              <tr key={line.id} className="border-b border-stone-200" data-testid="document-line">
                <ItemCell line={line} t={t} withSku />
                <td className="py-2 pr-3 text-right align-top tabular-nums">{line.quantity}</td>
                <td className="whitespace-nowrap py-2 pr-3 text-right align-top tabular-nums">
                  {money(line.unitPriceCents)}
                </td>
                <td className="whitespace-nowrap py-2 text-right align-top tabular-nums" data-testid="line-total">
                  {money(line.lineTotalCents)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl className="ml-auto mt-3 w-full max-w-xs text-sm">
        <AmountRow label={t("orderDocuments.subtotal")} value={money(invoice.linesCents)} testId="invoice-subtotal" />
        {invoice.discount ? (
          <AmountRow
            label={t("orderDocuments.discount", { code: invoice.discount.code })}
            value={money(-invoice.discount.cents)}
            testId="invoice-discount"
          />
        ) : null}
        <AmountRow
          label={t("orderDocuments.shipping")}
          value={invoice.shippingCents === 0 ? t("orderDocuments.free") : money(invoice.shippingCents)}
          testId="invoice-shipping"
        />
        <AmountRow
          label={t("orderDocuments.total")}
          value={money(invoice.totalCents)}
          className="mt-1 border-t border-stone-400 pt-1 text-base font-bold"
          testId="invoice-total"
        />
      </dl>
      <section className="mt-6 grid gap-4 sm:grid-cols-2 print:grid-cols-2">
        <div>
          <h2 className="text-xs font-semibold uppercase tracking-wide text-stone-500">
            {t("orderDocuments.payment")}
          </h2>
          <p className="mt-1">
            {t(invoice.currency === "HKD" ? "orderDocuments.paymentMethod" : "orderDocuments.paymentMethodTransfer")}
          </p>
          <p data-testid="invoice-paid">
            {invoice.paidAt ? t("orderDocuments.paidOn", { date: date(invoice.paidAt) }) : t("orderDocuments.unpaid")}
          </p>
          {invoice.cancelledAt ? (
            <p className="mt-1">{t("orderDocuments.cancelledOn", { date: date(invoice.cancelledAt) })}</p>
          ) : null}
        </div>
        {invoice.refunds.length > 0 ? (
          <div data-testid="invoice-refunds">
            <h2 className="text-xs font-semibold uppercase tracking-wide text-stone-500">
              {t("orderDocuments.refunds")}
            </h2>
            <dl className="mt-1 text-sm">
              {invoice.refunds.map((refund) => (
                <AmountRow
                  key={refund.id}
                  label={t("orderDocuments.refundLine", { date: date(refund.at), reason: refund.reason })}
                  value={money(-refund.amountCents)}
                  testId="invoice-refund"
                />
              ))}
              <AmountRow
                label={t("orderDocuments.refunded")}
                value={money(-invoice.refundedCents)}
                className="border-t border-stone-300 pt-1"
              />
              <AmountRow
                label={t("orderDocuments.keptTotal")}
                value={money(invoice.keptCents)}
                className="font-bold"
                testId="invoice-kept"
              />
            </dl>
          </div>
        ) : null}
      </section>
      <footer className="mt-10 border-t border-stone-200 pt-3 text-xs text-stone-600">
        <p>{t("orderDocuments.thanks")}</p>
        <p>{t("orderDocuments.contact", { email: invoice.shop.email })}</p>
      </footer>
    </Sheet>
  );
}
