import type { ShouldRevalidateFunction } from "react-router";
import { AdminSection } from "~/components/admin/admin-section";
import { MessageAttempts, MessageFacts } from "~/components/admin/message-detail";
import { MessageStatusBadge, messageLang, ResendForm, resendKind } from "~/components/admin/messages";
import { notFound } from "~/components/layout/route-error-boundary";
import { BackLink } from "~/components/ui/back-link";
import { ProblemAlert } from "~/components/ui/field";
import { services } from "~/context";
import { formAction, succeed } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { safeRedirect } from "~/lib/redirect";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { findMessage } from "~/models/outbox/admin-list.server";
import { resendMessage } from "~/models/outbox/deliver.server";
import { requireAdmin } from "~/request/auth.server";
import { resendMessageSchema } from "~/schemas/outbox";
import type { Route } from "./+types/message";

const MESSAGE_NOT_FOUND = {
  title: "adminMessages.errors.notFoundTitle",
  text: "adminMessages.errors.notFoundText",
};

/** GET /admin/messages/:id — one message: what it is, its content and its delivery attempts. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const found = await findMessage(services(context).db, params.id);
  if (!found) throw notFound(MESSAGE_NOT_FOUND);
  const t = getInstance(context).t;
  return {
    ...found,
    language: getLanguage(context),
    title: `${t("adminMessages.detail.title", { recipient: found.message.recipient })} | ${t("admin.title")}`,
  };
}

/**
 * Where "send again" leads back to: the page its button was on (the filtered list, an order's
 * page), or the page of the message that goes out (the copy of a sent e-mail).
 */
function backTo(value: string | undefined, messageId: string): string {
  const fallback = `/admin/messages/${messageId}`;
  const path = safeRedirect(value, fallback);
  return path === "/admin/messages" || path.startsWith("/admin/messages?") || /^\/admin\/orders\/[\w-]+$/.test(path)
    ? path
    : fallback;
}

/**
 * Send again (resendMessage, docs/decisions/044): a failed or waiting message goes out now; a sent
 * e-mail as a new copy. Owner and staff. Refusals: 404 (gone), 409 (moved on since the admin saw
 * it, being sent, a delivered webhook).
 */
export const action = formAction(
  {
    schema: resendMessageSchema,
    authorize: ({ request, context }: Route.ActionArgs) => requireAdmin(context, request),
  },
  async ({ context, params, form, value, auth }) => {
    const sent = await resendMessage(services(context).db, auth, params.id ?? "", new Date(), value.expected);
    return succeed(context, form, {
      redirectTo: backTo(value.returnTo, sent.id),
      flash: {
        type: "success",
        key: sent.copy ? "adminMessages.copied" : "adminMessages.resent",
        detailKey: sent.copy ? "adminMessages.copiedDetail" : "adminMessages.resentDetail",
        params: { recipient: sent.recipient },
      },
    });
  },
);

/**
 * After a refusal because the message moved on (409), the page shows it as it is now, as the
 * server's answer to a plain form post does; other refusals keep the page as it was.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  actionStatus === 409 || defaultShouldRevalidate;

export default function AdminMessage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { message, text, body, attempts, language } = loaderData;
  const problem = actionData?.problem;
  // "Changed meanwhile" names the message's status now, in the reader's language.
  const status = problem?.params?.status;
  const shownProblem =
    problem && typeof status === "string"
      ? {
          ...problem,
          params: { ...problem.params, status: t(`adminMessages.statuses.${status}` as "adminMessages.statuses.sent") },
        }
      : problem;
  const kind = resendKind(message);
  const explanation =
    kind === "resend"
      ? "adminMessages.detail.resendFailed"
      : kind === "now"
        ? "adminMessages.detail.resendPending"
        : kind === "copy"
          ? "adminMessages.detail.resendSent"
          : message.status === "sending"
            ? "adminMessages.detail.sendingNow"
            : "adminMessages.detail.webhookSent";
  return (
    <div className="max-w-5xl">
      <BackLink to="/admin/messages">{t("adminMessages.detail.back")}</BackLink>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="min-w-0 text-xl font-bold [overflow-wrap:anywhere] sm:text-2xl">
          {t("adminMessages.detail.title", { recipient: message.recipient })}
        </h1>
        <MessageStatusBadge status={message.status} attempts={message.attempts} />
      </div>
      <p className="mt-1 break-words text-stone-700" lang={messageLang(message.language)}>
        {message.subject}
      </p>

      {shownProblem ? (
        <div className="mt-4" data-testid="resend-problem">
          <ProblemAlert problem={shownProblem} />
        </div>
      ) : null}

      <div className="mt-6 grid gap-6 lg:grid-cols-[1fr_20rem]">
        <div className="flex min-w-0 flex-col gap-6">
          <MessageFacts message={message} language={language} />
          <MessageAttempts attempts={attempts} language={language} />
          {text !== null ? (
            <AdminSection id="content" look="panel" heading={t("adminMessages.detail.textHeading")}>
              <pre className="mt-3 max-h-[32rem] overflow-auto whitespace-pre-wrap break-words rounded bg-stone-50 p-3 font-sans text-sm [overflow-wrap:anywhere]">
                {text}
              </pre>
            </AdminSection>
          ) : null}
          {body !== null ? (
            <AdminSection id="content" look="panel" heading={t("adminMessages.detail.bodyHeading")}>
              <pre className="mt-3 max-h-[32rem] overflow-auto whitespace-pre-wrap break-all rounded bg-stone-50 p-3 text-xs">
                {body}
              </pre>
            </AdminSection>
          ) : null}
        </div>
        <div className="order-first flex min-w-0 flex-col gap-6 lg:order-none">
          <AdminSection id="resend" look="panel" heading={t("adminMessages.detail.resendHeading")}>
            <p className="mt-2 text-sm text-stone-700">{t(explanation)}</p>
            <ResendForm message={message} size="md" className="mt-4" />
          </AdminSection>
        </div>
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Message");
