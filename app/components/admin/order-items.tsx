import { Link } from "react-router";
import type { OrderLineRow } from "#db/schema";
import { AdminSection } from "~/components/admin/admin-section";
import { HeadingRow } from "~/components/admin/admin-table";
import { MoneyTotals, orderTotals } from "~/components/ui/money-totals";
import { Thumbnail } from "~/components/ui/thumbnail";
import { useTranslation } from "~/lib/i18n";
import { localized } from "~/lib/localize";
import type { Language } from "~/locales";

/** The order's lines (with a link to each product still there) and its totals. */
export function OrderItems({
  lines,
  money,
  language,
  order,
}: {
  lines: (OrderLineRow & { image_url: string | null })[];
  money: (cents: number) => string;
  language: Language;
  order: Parameters<typeof orderTotals>[0];
}) {
  const { t } = useTranslation();
  return (
    <AdminSection id="items" look="panel" heading={t("adminOrders.items")}>
      <div className="mt-3 overflow-x-auto">
        <table className="w-full min-w-[32rem] text-left text-sm">
          <thead className="text-xs uppercase text-stone-500">
            <HeadingRow
              cellClass="py-1 pr-3 last:pr-0"
              columns={[
                <span key="image" className="sr-only">
                  {t("adminOrders.image")}
                </span>,
                t("adminOrders.product"),
                t("adminOrders.quantity"),
                { label: t("adminOrders.unitPrice"), className: "text-right" },
                { label: t("adminOrders.lineTotal"), className: "text-right" },
              ]}
            />
          </thead>
          <tbody>
            {lines.map((line) => (
              <tr key={line.id} className="border-t border-stone-100" data-testid="order-line">
                <td className="py-2 pr-3">
                  <Thumbnail
                    src={line.image_url}
                    width={48}
                    height={48}
                    className="h-12 w-12 rounded"
                    placeholder="bg-stone-100"
                  />
                </td>
                <td className="py-2 pr-3">
                  {line.product_id ? (
                    <Link to={`/admin/products/edit/${line.product_id}`} className="font-medium hover:underline">
                      {localized(line, "name", language)}
                    </Link>
                  ) : (
                    <span className="font-medium">
                      {localized(line, "name", language)}{" "}
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
                  {line.option_value ? (
                    <div className="text-xs text-stone-600" data-line-option>
                      {line.option_name ?? ""}:{" "}
                      {line.option_value_zh ? `${line.option_value} · ${line.option_value_zh}` : line.option_value}
                    </div>
                  ) : null}
                  {line.sku ? (
                    <div className="font-mono text-xs text-stone-600" data-line-sku>
                      {t("adminOrders.sku", { sku: line.sku })}
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
      {/* The discount code's line too (docs/decisions/048). */}
      <MoneyTotals
        money={money}
        totals={orderTotals(order)}
        className="mt-4 ml-auto max-w-xs space-y-1 border-t border-stone-200 pt-3 text-sm"
      />
    </AdminSection>
  );
}
