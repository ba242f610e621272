import type { TFunction } from "i18next";
import { Form, Link } from "react-router";
import type { OutboxChannel, OutboxStatus } from "#db/schema";
import { Badge, FAILURE_TONE, SUCCESS_TONE } from "~/components/admin/badges";
import { Button } from "~/components/ui/button";
import { formatDate } from "~/lib/dates";
import { useTranslation } from "~/lib/i18n";
import type { Language } from "~/locales";
import { HTML_LANG, isLanguage } from "~/locales/languages";
import type { MessageListRow } from "~/models/outbox/admin-list.server";

/*
 * The outbox as the admin sees it (Admin → Messages, a message's page, the admin order page):
 * what a message is about in words, its status, and its "send again" button.
 */

/** The `lang` of a message's own words (its subject): the recipient's language, not the page's. */
export function messageLang(language: string): string | undefined {
  return isLanguage(language) ? HTML_LANG[language] : undefined;
}

/** A message as the pages show it (the list row, serialised). */
export type ShownMessage = Pick<
  MessageListRow,
  | "id"
  | "channel"
  | "event"
  | "recipient"
  | "language"
  | "subject"
  | "status"
  | "attempts"
  | "next_attempt_at"
  | "last_error"
  | "last_response_status"
  | "order_id"
  | "order_number"
  | "created_at"
>;

/**
 * What caused a message, in words: `order.placed` → "Order received"; a webhook delivery is
 * "Webhook: …"; an event this list has no words for shows as it is stored.
 */
export function eventLabel(t: TFunction, channel: OutboxChannel, event: string): string {
  const known = (name: string) =>
    // biome-ignore lint/suspicious/noExplicitAny: the event is data; an unknown one falls back
    t(`adminMessages.events.${name.replace(/\./g, "_")}` as any, { defaultValue: "" }) as string;
  if (channel === "webhook") return t("adminMessages.eventWebhook", { event: known(event) || event });
  const words = known(event);
  if (words) return words;
  return event.startsWith("alert.") ? t("adminMessages.eventAlert", { event: event.slice(6) }) : event;
}

/** A message's status in words; a waiting message that has failed before is "waiting to retry". */
export function statusLabel(t: TFunction, status: OutboxStatus, attempts: number): string {
  return status === "pending" && attempts > 0 ? t("adminMessages.retrying") : t(`adminMessages.statuses.${status}`);
}

const TONES: Record<OutboxStatus, string> = {
  pending: "bg-amber-100 text-amber-900",
  sending: "bg-sky-100 text-sky-900",
  sent: SUCCESS_TONE,
  failed: FAILURE_TONE,
};

export function MessageStatusBadge({ status, attempts }: { status: OutboxStatus; attempts: number }) {
  const { t } = useTranslation();
  return (
    <Badge tone={TONES[status]} testId="message-status">
      {statusLabel(t, status, attempts)}
    </Badge>
  );
}

/** What "send again" does to a message in `status`, or null when it offers none. */
export function resendKind(message: Pick<ShownMessage, "status" | "channel">): "resend" | "now" | "copy" | null {
  if (message.status === "failed") return "resend";
  if (message.status === "pending") return "now";
  if (message.status === "sent" && message.channel === "email") return "copy";
  return null;
}

/**
 * The "send again" button: a plain form post to the message's page (works without JavaScript),
 * with the status the admin sees (nothing is sent when it has moved on since) and the page to
 * come back to. Nothing for a message that cannot be sent again.
 */
export function ResendForm({
  message,
  returnTo,
  size = "sm",
  className = "",
}: {
  message: Pick<ShownMessage, "id" | "status" | "channel" | "recipient">;
  returnTo?: string;
  size?: "sm" | "md";
  className?: string;
}) {
  const { t } = useTranslation();
  const kind = resendKind(message);
  if (!kind) return null;
  const label =
    kind === "resend"
      ? t("adminMessages.resend")
      : kind === "now"
        ? t("adminMessages.sendNow")
        : t("adminMessages.sendCopy");
  const name =
    kind === "now"
      ? t("adminMessages.sendNowFor", { recipient: message.recipient })
      : kind === "resend"
        ? t("adminMessages.resendFor", { recipient: message.recipient })
        : undefined;
  return (
    <Form method="post" action={`/admin/messages/${message.id}`} className={className}>
      <input type="hidden" name="intent" value="resend" />
      <input type="hidden" name="expected" value={message.status} />
      {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
      <Button size={size} variant={kind === "resend" ? "primary" : "secondary"} aria-label={name}>
        {label}
      </Button>
    </Form>
  );
}

/** The order a message belongs to: its number, a link to the admin order page. */
export function MessageOrderLink({ message }: { message: Pick<ShownMessage, "order_id" | "order_number"> }) {
  const { t } = useTranslation();
  if (!message.order_id) return <span className="text-stone-500">{t("adminMessages.none")}</span>;
  return (
    <Link to={`/admin/orders/${message.order_id}`} className="font-mono text-xs text-brand-700 hover:underline">
      {message.order_number ?? message.order_id.slice(0, 8)}
    </Link>
  );
}

/** The transport's last answer: its error, with the HTTP status a webhook got. */
export function LastError({ message }: { message: Pick<ShownMessage, "last_error" | "last_response_status"> }) {
  const { t } = useTranslation();
  if (!message.last_error) return <span className="text-stone-500">{t("adminMessages.none")}</span>;
  return (
    <span className="block break-words text-xs text-red-800 [overflow-wrap:anywhere]">
      {message.last_response_status ? `HTTP ${message.last_response_status} · ` : ""}
      {message.last_error}
    </span>
  );
}

/** When a waiting message is tried next; nothing for the others. */
export function nextAttemptText(message: Pick<ShownMessage, "status" | "next_attempt_at">, language: Language) {
  return message.status === "pending" ? formatDate(message.next_attempt_at, language, "dateTime") : null;
}

/**
 * The dashboard's warning while any message has failed for good: how many, and a link to them.
 * Nothing while none has.
 */
export function FailedMessagesWarning({ count, className = "" }: { count: number; className?: string }) {
  const { t } = useTranslation();
  if (count === 0) return null;
  return (
    <section
      aria-labelledby="failed-messages-heading"
      className={`rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-red-900 ${className}`}
      data-testid="failed-messages"
    >
      <h2 id="failed-messages-heading" className="font-semibold">
        {t("adminMessages.dashboard.failed", { count })}
      </h2>
      <p className="mt-1 text-sm">{t("adminMessages.dashboard.failedText")}</p>
      <p className="mt-2 text-sm">
        <Link
          to="/admin/messages?status=failed"
          className="font-semibold underline underline-offset-2 hover:no-underline"
        >
          {t("adminMessages.dashboard.failedLink")}
        </Link>
      </p>
    </section>
  );
}
