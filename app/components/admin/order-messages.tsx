import { Link } from "react-router";
import { AdminSection } from "~/components/admin/admin-section";
import { AdminTable } from "~/components/admin/admin-table";
import { eventLabel, LastError, MessageStatusBadge, ResendForm, type ShownMessage } from "~/components/admin/messages";
import { formatDate } from "~/lib/dates";
import { useTranslation } from "~/lib/i18n";
import type { Language } from "~/locales";

const COLUMNS = ["when", "recipient", "subject", "status", "lastError", "actions"] as const;

/**
 * The messages an order produced (the admin order page): when, to whom, what, whether it went
 * out and the last error, a link to each message's page, and "send again" for a failed one.
 */
export function OrderMessages({
  orderId,
  orderNumber,
  messages,
  language,
}: {
  orderId: string;
  orderNumber: string;
  messages: ShownMessage[];
  language: Language;
}) {
  const { t } = useTranslation();
  const label = (column: (typeof COLUMNS)[number]) => t(`adminMessages.columns.${column}`);
  return (
    <AdminSection
      id="messages"
      look="bare"
      heading={t("adminMessages.order.heading")}
      intro={t("adminMessages.order.intro")}
      empty={messages.length === 0 ? t("adminMessages.order.empty") : undefined}
    >
      <AdminTable columns={COLUMNS.map(label)} minWidth="min-w-[44rem]" layout="cards" tableTestId="order-messages">
        {messages.map((message) => (
          <tr key={message.id} data-testid="order-message-row" className="align-top">
            <td data-label={label("when")} className="whitespace-nowrap px-3 py-2 text-xs">
              {formatDate(message.created_at, language, "dateTime")}
            </td>
            <td data-label={label("recipient")} className="px-3 py-2 [overflow-wrap:anywhere]">
              {message.recipient}
            </td>
            <td data-label={label("subject")} className="px-3 py-2">
              <Link
                to={`/admin/messages/${message.id}`}
                className="text-brand-700 hover:underline"
                aria-label={t("adminMessages.detailsFor", { recipient: message.recipient })}
              >
                {message.subject}
              </Link>
              <div className="text-xs text-stone-600">{eventLabel(t, message.channel, message.event)}</div>
            </td>
            <td data-label={label("status")} className="px-3 py-2">
              <MessageStatusBadge status={message.status} attempts={message.attempts} />
            </td>
            <td data-label={label("lastError")} className="max-w-56 px-3 py-2">
              <LastError message={message} />
            </td>
            <td data-label={label("actions")} className="px-3 py-2">
              {message.status === "failed" ? (
                <ResendForm message={message} returnTo={`/admin/orders/${orderId}`} />
              ) : (
                <span className="text-stone-500">{t("adminMessages.none")}</span>
              )}
            </td>
          </tr>
        ))}
      </AdminTable>
      {messages.length > 0 ? (
        <p className="mt-2 text-sm">
          <Link
            to={`/admin/messages?q=${encodeURIComponent(orderNumber)}`}
            className="text-brand-700 underline underline-offset-2 hover:no-underline"
          >
            {t("adminMessages.order.viewAll")}
          </Link>
        </p>
      ) : null}
    </AdminSection>
  );
}
