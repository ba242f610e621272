import type { ReactNode } from "react";
import { AdminSection } from "~/components/admin/admin-section";
import { AdminTable } from "~/components/admin/admin-table";
import { Badge, FAILURE_TONE, SUCCESS_TONE } from "~/components/admin/badges";
import { eventLabel, LastError, MessageOrderLink, nextAttemptText } from "~/components/admin/messages";
import { formatDate } from "~/lib/dates";
import { useTranslation } from "~/lib/i18n";
import type { Language } from "~/locales";
import type { MessageAttempt, MessageDetail } from "~/models/outbox/admin-list.server";

/** What a message is: its cause, recipient, language, times, identity and order (a message's page). */
export function MessageFacts({ message, language }: { message: MessageDetail["message"]; language: Language }) {
  const { t } = useTranslation();
  const date = (value: string | null) => (value ? formatDate(value, language, "dateTime") : null);
  const facts: [string, ReactNode][] = [
    [t("adminMessages.detail.event"), eventLabel(t, message.channel, message.event)],
    [
      t("adminMessages.detail.audience"),
      t(`adminMessages.audiences.${message.audience}` as "adminMessages.audiences.customer", {
        defaultValue: message.audience,
      }),
    ],
    [t("adminMessages.detail.channel"), t(`adminMessages.channels.${message.channel}`)],
    [
      t("adminMessages.detail.language"),
      t(`adminMessages.detail.languages.${message.language}` as "adminMessages.detail.languages.en", {
        defaultValue: message.language,
      }),
    ],
    [t("adminMessages.detail.order"), <MessageOrderLink key="order" message={message} />],
    [t("adminMessages.detail.queued"), date(message.created_at)],
    [t("adminMessages.detail.nextAttempt"), nextAttemptText(message, language)],
    [t("adminMessages.detail.triedUntil"), message.status === "pending" ? date(message.give_up_at) : null],
    [t("adminMessages.detail.sentAt"), date(message.sent_at)],
    [t("adminMessages.detail.failedAt"), date(message.failed_at)],
    [
      message.channel === "email" ? t("adminMessages.detail.messageId") : t("adminMessages.detail.deliveryId"),
      <code key="id" className="text-xs [overflow-wrap:anywhere]">
        {message.message_key}
      </code>,
    ],
    [t("adminMessages.detail.lastError"), message.last_error ? <LastError key="error" message={message} /> : null],
  ];
  return (
    <AdminSection id="about" look="panel" heading={t("adminMessages.detail.about")}>
      <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        {facts
          .filter(([, value]) => value !== null && value !== "")
          .map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-stone-500">{label}</dt>
              <dd className="mb-2 min-w-0 break-words sm:mb-0">{value}</dd>
            </div>
          ))}
      </dl>
    </AdminSection>
  );
}

/** The delivery log: every attempt with its outcome, the answer and the error (a message's page). */
export function MessageAttempts({ attempts, language }: { attempts: MessageAttempt[]; language: Language }) {
  const { t } = useTranslation();
  const columns = (["when", "outcome", "response", "error", "duration"] as const).map((column) =>
    t(`adminMessages.detail.attemptColumns.${column}`),
  );
  return (
    <AdminSection
      id="attempts"
      look="bare"
      heading={t("adminMessages.detail.attemptsHeading")}
      intro={t("adminMessages.detail.attemptsIntro")}
      empty={attempts.length === 0 ? t("adminMessages.detail.attemptsEmpty") : undefined}
    >
      <AdminTable columns={columns} minWidth="min-w-[40rem]" layout="cards" tableTestId="attempts-table">
        {attempts.map((attempt) => (
          <tr key={attempt.id} data-testid="attempt-row" className="align-top">
            <td data-label={columns[0]} className="whitespace-nowrap px-3 py-2 text-xs">
              {formatDate(attempt.attempted_at, language, "dateTime")}
            </td>
            <td data-label={columns[1]} className="px-3 py-2">
              <Badge tone={attempt.ok ? SUCCESS_TONE : FAILURE_TONE}>
                {attempt.ok ? t("adminMessages.detail.accepted") : t("adminMessages.detail.refused")}
              </Badge>
            </td>
            <td data-label={columns[2]} className="px-3 py-2 tabular-nums">
              {attempt.response_status ?? t("adminMessages.none")}
            </td>
            <td data-label={columns[3]} className="px-3 py-2 text-xs [overflow-wrap:anywhere]">
              {attempt.error ?? t("adminMessages.none")}
            </td>
            <td data-label={columns[4]} className="whitespace-nowrap px-3 py-2 tabular-nums">
              {t("adminMessages.detail.milliseconds", { count: attempt.duration_ms })}
            </td>
          </tr>
        ))}
      </AdminTable>
    </AdminSection>
  );
}
