import type { ReactNode } from "react";
import type { UserStatus } from "#db/schema";
import { useTranslation } from "~/lib/i18n";

/** The pill a status is shown in; `tone` gives its colours. */
export function Badge({ tone, testId, children }: { tone: string; testId?: string; children: ReactNode }) {
  return (
    <span
      data-testid={testId}
      className={`inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ${tone}`}
    >
      {children}
    </span>
  );
}

export const SUCCESS_TONE = "bg-green-100 text-green-800";
export const FAILURE_TONE = "bg-red-100 text-red-800";

const CUSTOMER_TONES: Record<UserStatus, string> = {
  active: SUCCESS_TONE,
  inactive: "bg-stone-200 text-stone-700",
  blocked: FAILURE_TONE,
};

/** A customer's account status (active / inactive / blocked) in the reader's language. */
export function CustomerStatusBadge({ status }: { status: UserStatus }) {
  const { t } = useTranslation();
  return (
    <Badge tone={CUSTOMER_TONES[status]} testId="customer-status">
      {t(`adminCustomers.statuses.${status}`)}
    </Badge>
  );
}
