import { Form } from "react-router";
import type { OrderRow } from "#db/schema";
import { AdminSection } from "~/components/admin/admin-section";
import { Button } from "~/components/ui/button";
import { ErrorList, inputClass } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import type { Problem } from "~/lib/problem";
import { EXTEND_CHOICES } from "~/schemas/order-deadline";

type DeadlineOrder = Pick<
  OrderRow,
  "status" | "payment_due_at" | "payment_reminder_due_at" | "payment_reminded_at" | "payment_expired_at"
>;

/**
 * The order's payment deadline for the admin: when it falls, whether the clock runs (no receipt
 * waiting) or is paused (a receipt waits for review), the reminder, and a form to give an unpaid
 * order more time (docs/decisions/034). An order the shop cancelled for want of payment says so.
 */
export function OrderDeadline({
  order,
  deadline,
  date,
  problem,
}: {
  order: DeadlineOrder;
  /** `deadlineState` of the order, from the loader (the server's clock decides "overdue"). */
  deadline: { running: boolean; overdue: boolean } | null;
  date: (value: string) => string;
  /** The refusal of the last extension (the model's, or the schema's error keys for `hours`), shown next to the choice. */
  problem: Problem | string[] | null;
}) {
  const { t } = useTranslation();
  if (order.payment_expired_at) {
    return (
      <AdminSection id="deadline" look="panel" heading={t("adminOrders.deadline.title")}>
        <p className="mt-2 text-sm" data-testid="order-deadline">
          {t("adminOrders.deadline.expired", { date: date(order.payment_expired_at) })}
        </p>
      </AdminSection>
    );
  }
  if (order.status !== "pending_payment") return null;
  const due = order.payment_due_at;
  const running = deadline?.running ?? false;
  const overdue = deadline?.overdue ?? false;
  const errors = Array.isArray(problem) ? problem : problem ? [problem.key] : null;
  return (
    <AdminSection id="deadline" look="panel" heading={t("adminOrders.deadline.title")}>
      <div className="mt-2 flex flex-col gap-1 text-sm" data-testid="order-deadline">
        {due ? (
          <p className="font-semibold">
            {t("adminOrders.deadline.due", { deadline: date(due) })}
            {overdue ? (
              <span className="ml-2 rounded bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800">
                {t("adminOrders.deadline.overdue")}
              </span>
            ) : null}
          </p>
        ) : (
          <p>{t("adminOrders.deadline.none")}</p>
        )}
        {due ? (
          <p className="text-stone-600">
            {t(running ? "adminOrders.deadline.running" : "adminOrders.deadline.paused")}
          </p>
        ) : null}
        {order.payment_reminded_at ? (
          <p className="text-stone-600">
            {t("adminOrders.deadline.reminded", { date: date(order.payment_reminded_at) })}
          </p>
        ) : order.payment_reminder_due_at && due && !overdue ? (
          <p className="text-stone-600">
            {t("adminOrders.deadline.reminderDue", { date: date(order.payment_reminder_due_at) })}
          </p>
        ) : null}
      </div>
      <Form method="post" className="mt-3 flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="extendDeadline" />
        <input type="hidden" name="expectedDueAt" value={due ?? ""} />
        <div className="flex flex-col gap-1">
          <label htmlFor="deadline-hours" className="text-sm font-medium">
            {t(due ? "adminOrders.deadline.extendBy" : "adminOrders.deadline.setBy")}
          </label>
          <select
            id="deadline-hours"
            name="hours"
            defaultValue="24"
            className={`${inputClass} w-auto`}
            aria-invalid={errors ? true : undefined}
            aria-describedby={errors ? "deadline-hours-error" : undefined}
          >
            {EXTEND_CHOICES.map((hours) => (
              <option key={hours} value={hours}>
                {hours % 24 === 0 && hours > 48
                  ? t("adminOrders.deadline.days", { count: hours / 24 })
                  : t("adminOrders.deadline.hours", { count: hours })}
              </option>
            ))}
          </select>
        </div>
        <Button variant="secondary" size="sm" data-testid="extend-deadline">
          {t(due ? "adminOrders.deadline.extend" : "adminOrders.deadline.set")}
        </Button>
        <div className="basis-full">
          <ErrorList id="deadline-hours-error" errors={errors} />
        </div>
      </Form>
    </AdminSection>
  );
}
