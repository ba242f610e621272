import { inputClass } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";

/** The orders list's filters as the page holds them (the export sends the same ones). */
export interface OrderListFilters {
  status: string | null;
  q: string;
  from: string | null;
  to: string | null;
}

/** The list's two date fields (Hong Kong days, inclusive), inside its GET filter form. */
export function OrderDateFilter({ from, to }: Pick<OrderListFilters, "from" | "to">) {
  const { t } = useTranslation();
  return (
    <>
      <label className="flex flex-col gap-1 text-sm font-medium">
        {t("adminOrders.dateFrom")}
        <input type="date" name="from" defaultValue={from ?? ""} className={inputClass} />
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        {t("adminOrders.dateTo")}
        <input type="date" name="to" defaultValue={to ?? ""} className={inputClass} />
      </label>
    </>
  );
}

/**
 * The owner's export of the orders the list's current filters select (docs/decisions/059): a
 * native form post whose answer is a file download, with or without JavaScript.
 */
export function OrderExportForm({ filters }: { filters: OrderListFilters }) {
  const { t } = useTranslation();
  const fields = Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1]));
  return (
    <form method="post" action="/admin/orders/export" className="flex flex-col gap-1 sm:items-end">
      {fields.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button
        type="submit"
        className="self-start rounded-md border border-stone-300 bg-white px-4 py-2 text-sm font-semibold hover:bg-stone-50 sm:self-end"
      >
        {t("adminOrders.exportCsv")}
      </button>
      <p className="max-w-xs text-xs text-stone-600 sm:text-right">{t("adminOrders.exportHint")}</p>
    </form>
  );
}
