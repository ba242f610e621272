import type { TFunction } from "i18next";
import { useEffect, useRef, useState } from "react";
import type { Column } from "~/components/admin/admin-table";
import { buttonClass } from "~/components/ui/button";
import { useTranslation } from "~/lib/i18n";
import { useHydrated } from "~/lib/use-hydrated";

/** The id of the orders list's selection form: each row's checkbox belongs to it by `form=`. */
export const ORDER_SELECTION_FORM = "order-selection";

/** The checkboxes of the selection, wherever they sit on the page. */
function boxes(): HTMLInputElement[] {
  return [
    ...document.querySelectorAll<HTMLInputElement>(`input[type="checkbox"][form="${ORDER_SELECTION_FORM}"][name="id"]`),
  ];
}

/**
 * Bulk actions on the orders list (docs/decisions/061): one GET form whose checkboxes sit in the
 * table's rows (outside it, tied by `form=`, as each row already holds its own status forms), with
 * two buttons — print the chosen orders' packing slips (`/admin/orders/print?doc=packing-slip&id=…`)
 * or mark them shipped (`/admin/orders/ship?id=…`). Works without JavaScript; with it, a "select
 * all on this page" checkbox and a count of the chosen orders.
 */
export function OrderSelectionBar() {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const all = useRef<HTMLInputElement>(null);
  const [count, setCount] = useState(0);

  useEffect(() => {
    const update = () => {
      const list = boxes();
      const checked = list.filter((box) => box.checked).length;
      setCount(checked);
      if (all.current) {
        all.current.checked = list.length > 0 && checked === list.length;
        all.current.indeterminate = checked > 0 && checked < list.length;
      }
    };
    update();
    document.addEventListener("change", update);
    return () => document.removeEventListener("change", update);
  }, []);

  const toggleAll = (checked: boolean) => {
    for (const box of boxes()) box.checked = checked;
    setCount(checked ? boxes().length : 0);
  };

  return (
    <form
      id={ORDER_SELECTION_FORM}
      method="get"
      action="/admin/orders/ship"
      className="mt-3 flex flex-wrap items-center gap-3 rounded-lg border border-stone-200 bg-white p-3"
      aria-labelledby="order-selection-title"
    >
      <h2 id="order-selection-title" className="text-sm font-semibold">
        {t("bulkShipping.selectionTitle")}
      </h2>
      {hydrated ? (
        <>
          <label className="flex items-center gap-2 text-sm">
            <input
              ref={all}
              type="checkbox"
              className="size-4"
              onChange={(event) => toggleAll(event.currentTarget.checked)}
              data-testid="select-all-orders"
            />
            {t("bulkShipping.selectAll")}
          </label>
          <span className="text-sm text-stone-600" aria-live="polite" data-testid="selected-count">
            {t("bulkShipping.selected", { count })}
          </span>
        </>
      ) : (
        <span className="text-sm text-stone-600">{t("bulkShipping.selectionHint")}</span>
      )}
      <div className="flex flex-wrap gap-2 sm:ml-auto">
        <button
          type="submit"
          formAction="/admin/orders/print"
          formMethod="get"
          name="doc"
          value="packing-slip"
          className={buttonClass("secondary", "sm")}
        >
          {t("bulkShipping.printSlips")}
        </button>
        <button type="submit" className={buttonClass("primary", "sm")}>
          {t("bulkShipping.markShipped")}
        </button>
      </div>
    </form>
  );
}

/** The checkboxes' column header (bulk actions, docs/decisions/061): a name for screen readers, each box has its own label. */
export function selectHeader(t: TFunction): Column {
  return { label: <span className="sr-only">{t("bulkShipping.selectColumn")}</span>, className: "w-8" };
}

/** A row's first cell: its checkbox, the order's id, named for its number, in the selection form. */
export function OrderSelectCell({ id, number }: { id: string; number: string }) {
  const { t } = useTranslation();
  return (
    <td className="px-3 py-2" data-label={t("bulkShipping.selectColumn")}>
      <input
        type="checkbox"
        name="id"
        value={id}
        form={ORDER_SELECTION_FORM}
        className="size-5 sm:size-4"
        aria-label={t("bulkShipping.selectOrder", { number })}
        data-testid="order-select"
      />
    </td>
  );
}
