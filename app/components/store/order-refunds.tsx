import type { Currency } from "#db/schema";
import { HeadedPanel } from "~/components/ui/headed-panel";
import { formatDate } from "~/lib/dates";
import { useTranslation } from "~/lib/i18n";
import { formatMoney } from "~/lib/money";
import type { Language } from "~/locales";

/** A refund as its shopper sees it: how much, when and why (never who at the shop recorded it). */
export interface ShopperRefund {
  id: number;
  amount_cents: number;
  currency: Currency;
  reason: string;
  created_at: string;
}

/** The shopper's order page: the refunds of their order, oldest first (docs/decisions/057); nothing when none. */
export function ShopperOrderRefunds({ refunds, language }: { refunds: ShopperRefund[]; language: Language }) {
  const { t } = useTranslation();
  if (refunds.length === 0) return null;
  return (
    <HeadedPanel headingId="refunds-heading" title={t("refunds.shopperTitle")}>
      <ul className="mt-2 space-y-2 text-sm" data-testid="order-refunds">
        {refunds.map((refund) => (
          <li key={refund.id}>
            <p className="font-medium">
              {t("refunds.shopperLine", {
                amount: formatMoney(refund.amount_cents, refund.currency),
                date: formatDate(refund.created_at, language, "dateTime"),
              })}
            </p>
            <p className="whitespace-pre-line break-words text-stone-700">{refund.reason}</p>
          </li>
        ))}
      </ul>
    </HeadedPanel>
  );
}
