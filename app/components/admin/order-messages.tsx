import { Link } from "react-router";
import { AdminSection } from "~/components/admin/admin-section";
import {
  eventLabel,
  LastError,
  MessageStatusBadge,
  messageLang,
  ResendForm,
  type ShownMessage,
} from "~/components/admin/messages";
import { formatDate } from "~/lib/dates";
import { useTranslation } from "~/lib/i18n";
import type { Language } from "~/locales";

/**
 * The messages an order produced (the admin order page): when, to whom, what, whether it went
 * out and the last error, a link to each message's page, and "send again" for a failed one.
 * One entry a message, the same at every width.
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
  return (
    <AdminSection id="messages" look="panel" heading={t("adminMessages.order.heading")}>
      <p className="mt-1 text-sm text-stone-600">
        {messages.length === 0 ? t("adminMessages.order.empty") : t("adminMessages.order.intro")}
      </p>
      {messages.length > 0 ? (
        <>
          <ul className="mt-3 divide-y divide-stone-100 text-sm" data-testid="order-messages">
            {messages.map((message) => (
              <li
                key={message.id}
                className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start"
                data-testid="order-message-row"
              >
                <div className="min-w-0 flex-1">
                  <Link
                    to={`/admin/messages/${message.id}`}
                    lang={messageLang(message.language)}
                    className="font-medium text-brand-700 hover:underline"
                  >
                    {message.subject}
                  </Link>
                  <p className="text-xs text-stone-600">
                    {eventLabel(t, message.channel, message.event)} ·{" "}
                    <span className="whitespace-nowrap">{formatDate(message.created_at, language, "dateTime")}</span>
                  </p>
                  <p className="text-xs text-stone-700 [overflow-wrap:anywhere]">
                    {t("adminMessages.order.to", { recipient: message.recipient })}
                  </p>
                  {message.last_error ? (
                    <div className="mt-1">
                      <LastError message={message} />
                    </div>
                  ) : null}
                </div>
                <div className="flex shrink-0 flex-wrap items-center gap-2">
                  <MessageStatusBadge status={message.status} attempts={message.attempts} />
                  {message.status === "failed" ? (
                    <ResendForm message={message} returnTo={`/admin/orders/${orderId}`} />
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
          <p className="mt-2 text-sm">
            <Link
              to={`/admin/messages?q=${encodeURIComponent(orderNumber)}`}
              className="text-brand-700 underline underline-offset-2 hover:no-underline"
            >
              {t("adminMessages.order.viewAll")}
            </Link>
          </p>
        </>
      ) : null}
    </AdminSection>
  );
}
