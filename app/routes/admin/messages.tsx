import { getZodConstraint } from "@conform-to/zod/v4";
import { Form, Link, useLocation } from "react-router";
import { AdminTable } from "~/components/admin/admin-table";
import {
  eventLabel,
  LastError,
  MessageOrderLink,
  MessageStatusBadge,
  messageLang,
  nextAttemptText,
  ResendForm,
} from "~/components/admin/messages";
import { RetentionSection } from "~/components/admin/messages-retention";
import { AdminPageHeader } from "~/components/admin/page-header";
import { Button } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { formAction, succeed } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { listMessages, outboxCounts } from "~/models/outbox/admin-list.server";
import {
  formatCursor,
  MESSAGE_LIST_STATUSES,
  type MessageListStatus,
  parseCursor,
  parseMessageListStatus,
  parseOutboxChannel,
} from "~/models/outbox/list-filters";
import { outboxRetentionDays, setOutboxRetentionDays } from "~/models/outbox/retention.server";
import { ownerOnly, requireAdmin } from "~/request/auth.server";
import { retentionSchema } from "~/schemas/outbox";
import type { Route } from "./+types/messages";

const PATH = "/admin/messages";
const COLUMNS = ["when", "recipient", "subject", "status", "lastError", "order", "actions"] as const;

/**
 * GET /admin/messages?status=&channel=&q=&older=|newer= — the outbox, newest first, 50 a page.
 * Every filter is a query string (links and a GET form), so it works without JavaScript. Owner
 * and staff; the retention setting below the list is the owner's.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const { db } = services(context);
  const url = new URL(request.url);
  const status = parseMessageListStatus(url.searchParams.get("status"));
  const channel = parseOutboxChannel(url.searchParams.get("channel"));
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 200);
  const [page, counts, retentionDays] = await Promise.all([
    listMessages(db, {
      status,
      channel,
      q,
      older: parseCursor(url.searchParams.get("older")),
      newer: parseCursor(url.searchParams.get("newer")),
    }),
    outboxCounts(db),
    outboxRetentionDays(db),
  ]);
  const t = getInstance(context).t;
  return {
    messages: page.messages,
    older: page.older ? formatCursor(page.older) : null,
    newer: page.newer ? formatCursor(page.newer) : null,
    counts,
    status,
    channel,
    q,
    retentionDays,
    owner: admin.role === "owner",
    constraint: getZodConstraint(retentionSchema),
    language: getLanguage(context),
    title: `${t("adminMessages.title")} | ${t("admin.title")}`,
  };
}

/** The retention of sent messages, in days: the owner's (staff get 403 before the body is read). */
export const action = formAction({ schema: retentionSchema, authorize: ownerOnly }, async (args) => {
  const { request, context, form, value, auth } = args;
  await setOutboxRetentionDays(services(context).db, auth, value.days);
  return succeed(context, form, {
    redirectTo: `${PATH}${new URL(request.url).search}`,
    flash: { type: "success", key: "adminMessages.retention.saved", params: { days: value.days } },
  });
});

/** This list's address with some parameters changed (null removes one); the page's cursor always goes. */
function listHref(search: string, changes: Record<string, string | null>): string {
  const params = new URLSearchParams(search);
  params.delete("older");
  params.delete("newer");
  for (const [name, value] of Object.entries(changes)) {
    if (value === null || value === "") params.delete(name);
    else params.set(name, value);
  }
  const query = params.toString();
  return `${PATH}${query ? `?${query}` : ""}`;
}

function StatusTabs({ status, counts }: { status: MessageListStatus; counts: { waiting: number; failed: number } }) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <nav aria-label={t("adminMessages.statusNav")} className="mt-6">
      <ul className="flex flex-wrap gap-2">
        {MESSAGE_LIST_STATUSES.map((value) => {
          const count = value === "waiting" ? counts.waiting : value === "failed" ? counts.failed : null;
          const current = value === status;
          const alert = value === "failed" && counts.failed > 0;
          return (
            <li key={value}>
              <Link
                to={listHref(location.search, { status: value === "all" ? null : value })}
                aria-current={current ? "page" : undefined}
                data-testid={`status-${value}`}
                className={`inline-flex items-center gap-2 rounded-full border px-3 py-1.5 text-sm font-medium ${
                  current
                    ? "border-stone-900 bg-stone-900 text-white"
                    : alert
                      ? "border-red-300 bg-red-50 text-red-900 hover:bg-red-100"
                      : "border-stone-300 bg-white text-stone-800 hover:bg-stone-50"
                }`}
              >
                {t(`adminMessages.filters.${value}`)}
                {count !== null ? <span className="tabular-nums">({count})</span> : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export default function Messages({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const { messages, status, channel, q, counts, language, older, newer } = loaderData;
  const returnTo = `${location.pathname}${location.search}`;
  const label = (column: (typeof COLUMNS)[number]) => t(`adminMessages.columns.${column}`);
  const date = (value: string) => formatDate(value, language, "dateTime");
  const pageLink = "rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm hover:bg-stone-100";
  return (
    <div className="max-w-7xl">
      <AdminPageHeader title={t("adminMessages.title")} intro={t("adminMessages.intro")}>
        <Link
          to={returnTo}
          reloadDocument
          className="rounded-md border border-stone-300 bg-white px-4 py-2 text-sm font-semibold hover:bg-stone-50"
        >
          {t("adminMessages.refresh")}
        </Link>
      </AdminPageHeader>

      <StatusTabs status={status} counts={counts} />

      <Form
        method="get"
        className="mt-4 flex flex-wrap items-end gap-3 rounded-lg border border-stone-200 bg-white p-4"
      >
        {status !== "all" ? <input type="hidden" name="status" value={status} /> : null}
        <label className="flex min-w-0 flex-1 basis-56 flex-col gap-1 text-sm font-medium">
          {t("adminMessages.searchLabel")}
          <input
            type="search"
            name="q"
            defaultValue={q}
            maxLength={200}
            placeholder={t("adminMessages.searchPlaceholder")}
            className={inputClass}
          />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t("adminMessages.channelLabel")}
          <select name="channel" defaultValue={channel ?? ""} className={inputClass}>
            <option value="">{t("adminMessages.channels.all")}</option>
            <option value="email">{t("adminMessages.channels.email")}</option>
            <option value="webhook">{t("adminMessages.channels.webhook")}</option>
          </select>
        </label>
        <Button>{t("adminMessages.filter")}</Button>
        {q || channel ? (
          <Link
            to={listHref("", { status: status === "all" ? null : status })}
            className="px-2 py-2 text-sm text-brand-700 hover:underline"
          >
            {t("adminMessages.clear")}
          </Link>
        ) : null}
      </Form>

      {messages.length === 0 ? (
        <p className="mt-6 rounded-lg border border-dashed border-stone-300 bg-white p-8 text-center text-stone-600">
          {status === "failed" && !q && !channel ? t("adminMessages.emptyFailed") : t("adminMessages.empty")}
        </p>
      ) : (
        <AdminTable
          columns={COLUMNS.map(label)}
          minWidth="min-w-[58rem]"
          className="mt-4"
          layout="cards"
          testId="messages-table"
        >
          {messages.map((message) => {
            const next = nextAttemptText(message, language);
            return (
              <tr key={message.id} data-testid="message-row" className="align-top">
                <td className="whitespace-nowrap px-3 py-2 text-xs" data-label={label("when")}>
                  {date(message.created_at)}
                </td>
                <td className="max-w-56 px-3 py-2 [overflow-wrap:anywhere]" data-label={label("recipient")}>
                  {message.recipient}
                </td>
                <td className="max-w-64 px-3 py-2 break-words" data-label={label("subject")}>
                  <Link
                    to={`${PATH}/${message.id}`}
                    lang={messageLang(message.language)}
                    className="text-brand-700 hover:underline"
                  >
                    {message.subject}
                  </Link>
                  <div className="text-xs text-stone-600">{eventLabel(t, message.channel, message.event)}</div>
                </td>
                <td className="px-3 py-2" data-label={label("status")}>
                  <MessageStatusBadge status={message.status} attempts={message.attempts} />
                  <div className="mt-1 text-xs text-stone-600">
                    {t("adminMessages.attempts", { count: message.attempts })}
                  </div>
                  {next ? (
                    <div className="text-xs text-stone-600">{t("adminMessages.nextAttempt", { date: next })}</div>
                  ) : null}
                </td>
                <td className="max-w-64 px-3 py-2" data-label={label("lastError")}>
                  <LastError message={message} />
                </td>
                <td className="px-3 py-2" data-label={label("order")}>
                  <MessageOrderLink message={message} />
                </td>
                <td className="px-3 py-2" data-label={label("actions")}>
                  <div className="flex flex-wrap items-center gap-2">
                    <Link
                      to={`${PATH}/${message.id}`}
                      className="rounded border border-stone-300 px-2 py-1 text-xs font-medium hover:bg-stone-50"
                      aria-label={t("adminMessages.detailsFor", { recipient: message.recipient })}
                    >
                      {t("adminMessages.details")}
                    </Link>
                    {message.status === "failed" ? <ResendForm message={message} returnTo={returnTo} /> : null}
                  </div>
                </td>
              </tr>
            );
          })}
        </AdminTable>
      )}

      {older || newer ? (
        <nav aria-label={t("adminMessages.pagination")} className="mt-6 flex flex-wrap justify-center gap-2">
          {newer ? (
            <Link to={listHref(location.search, { newer })} rel="prev" className={pageLink}>
              {t("adminMessages.newer")}
            </Link>
          ) : null}
          {older ? (
            <Link to={listHref(location.search, { older })} rel="next" className={pageLink}>
              {t("adminMessages.older")}
            </Link>
          ) : null}
        </nav>
      ) : null}

      <RetentionSection
        days={loaderData.retentionDays}
        owner={loaderData.owner}
        constraint={loaderData.constraint}
        lastResult={actionData?.result}
      />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Messages");
