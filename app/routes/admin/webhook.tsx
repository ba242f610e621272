import { Form, redirect } from "react-router";
import { AdminSection } from "~/components/admin/admin-section";
import { DeleteButton, DeleteConfirmation } from "~/components/admin/delete-confirmation";
import { WebhookDeliveries } from "~/components/admin/webhook-deliveries";
import { WebhookForm } from "~/components/admin/webhook-form";
import { WEBHOOKS_PATH, WebhookStateBadge, webhookPath } from "~/components/admin/webhook-list";
import { notFound } from "~/components/layout/route-error-boundary";
import { BackLink } from "~/components/ui/back-link";
import { ButtonLink } from "~/components/ui/button";
import { ProblemAlert, StatusButton } from "~/components/ui/field";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { formAction, succeed, UserError } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { resendMessage } from "~/models/outbox/deliver.server";
import {
  DELIVERY_LOG_SIZE,
  deleteWebhook,
  findWebhook,
  isDeliveryOf,
  listWebhookDeliveries,
  queueTestDelivery,
  renewWebhookSecret,
  updateWebhook,
} from "~/models/webhooks/webhooks.server";
import { ownerOnly, requireOwner } from "~/request/auth.server";
import { webhookActionSchema } from "~/schemas/webhook";
import type { Route } from "./+types/webhook";

/*
 * One webhook (/admin/settings/webhooks/:id, docs/decisions/046): its address and events, its
 * signing secret (and a new one), the test button, its delivery log with "send again", and
 * removal. The owner's. Without JavaScript, a new secret and removal are confirmed on a second
 * step of this page (?renew, ?remove); with it, by confirm().
 */

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireOwner(context, request);
  const { db } = services(context);
  const t = getInstance(context).t;
  const webhook = await findWebhook(db, params.id);
  if (!webhook) {
    throw notFound({ title: t("adminWebhooks.errors.notFoundTitle"), text: t("adminWebhooks.errors.notFound") });
  }
  const language = getLanguage(context);
  const when = (value: string) => formatDate(value, language, "dateTime");
  const deliveries = await listWebhookDeliveries(db, webhook.id);
  const search = new URL(request.url).searchParams;
  return {
    webhook: { ...webhook, secretCreatedText: when(webhook.secretCreatedAt) },
    deliveries: deliveries.map(({ createdAt, nextAttemptAt, log, ...delivery }) => ({
      ...delivery,
      createdText: when(createdAt),
      nextAttemptText: when(nextAttemptAt),
      log: log.map(({ at, ...attempt }) => ({ ...attempt, atText: when(at) })),
    })),
    logSize: DELIVERY_LOG_SIZE,
    renderedAt: Date.now(),
    confirm: search.has("remove") ? ("remove" as const) : search.has("renew") ? ("renew" as const) : null,
    title: `${webhook.name || t("adminWebhooks.unnamed")} | ${t("adminWebhooks.title")} | ${t("admin.title")}`,
  };
}

/** "Send again" of the log, in this page's words: a refusal of the outbox said as a delivery's. */
async function resend(db: Parameters<typeof resendMessage>[0], actorId: string, webhookId: string, messageId: string) {
  if (!(await isDeliveryOf(db, webhookId, messageId))) {
    throw new UserError("adminWebhooks.errors.deliveryGone", { status: 404 });
  }
  try {
    await resendMessage(db, { id: actorId }, messageId);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    if (error.status === 404) throw new UserError("adminWebhooks.errors.deliveryGone", { status: 404 });
    throw new UserError("adminWebhooks.errors.deliveryChanged", { status: 409 });
  }
}

/** intent=update, secret, delete (each confirmed), test, resend. The owner's right is checked before the body is read. */
export const action = formAction(
  { schema: webhookActionSchema, authorize: ownerOnly },
  async ({ context, form, value, auth, params }) => {
    const { db } = services(context);
    const id = params.id ?? "";
    const path = webhookPath(id);
    const actor = { actorUserId: auth.id };
    const done = (to: string, key: string, extra: { detailKey?: string; params?: Record<string, string> } = {}) =>
      succeed(context, form, { redirectTo: to, flash: { type: "success", key, ...extra } });
    switch (value.intent) {
      case "update":
        await updateWebhook(db, id, value, actor);
        return done(path, "adminWebhooks.edit.saved");
      case "secret":
        // Without JavaScript there is no confirm(): the confirmation is a second step on the page.
        if (value.confirmed !== "1") return redirect(`${path}?renew#renew-heading`);
        await renewWebhookSecret(db, id, actor);
        return done(`${path}#secret-heading`, "adminWebhooks.secret.renewed");
      case "delete": {
        if (value.confirmed !== "1") return redirect(`${path}?remove#remove-heading`);
        const removed = await deleteWebhook(db, id, actor);
        return done(WEBHOOKS_PATH, "adminWebhooks.remove.removed", {
          params: { name: removed.name || removed.url },
        });
      }
      case "test":
        await queueTestDelivery(db, id);
        return done(`${path}#deliveries-heading`, "adminWebhooks.test.queued", {
          detailKey: "adminWebhooks.test.queuedDetail",
        });
      default:
        await resend(db, auth.id, id, value.message);
        return done(`${path}#deliveries-heading`, "adminWebhooks.log.resent");
    }
  },
);

export default function AdminWebhook({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { webhook, deliveries, confirm } = loaderData;
  const path = webhookPath(webhook.id);
  const intent = actionData?.result?.initialValue?.intent;
  const name = webhook.name || t("adminWebhooks.unnamed");
  return (
    <div className="max-w-4xl">
      <BackLink to={WEBHOOKS_PATH}>{t("adminWebhooks.backToList")}</BackLink>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="min-w-0 break-words text-2xl font-bold">{name}</h1>
        <WebhookStateBadge active={webhook.active} />
      </div>
      <p className="mt-1 break-all font-mono text-sm text-stone-700">{webhook.url}</p>
      {actionData?.problem && intent !== "update" ? (
        <div className="mt-4">
          <ProblemAlert problem={actionData.problem} />
        </div>
      ) : null}

      {confirm === "remove" ? (
        <DeleteConfirmation
          id="remove"
          heading={t("adminWebhooks.remove.question")}
          action={path}
          fields={{ intent: "delete" }}
          confirmLabel={t("adminWebhooks.remove.confirm")}
          cancelLabel={t("adminWebhooks.remove.keep")}
          cancelTo={path}
        >
          <p className="break-all">{webhook.url}</p>
        </DeleteConfirmation>
      ) : null}
      {confirm === "renew" ? (
        <DeleteConfirmation
          id="renew"
          heading={t("adminWebhooks.secret.renewQuestion")}
          action={path}
          fields={{ intent: "secret" }}
          confirmLabel={t("adminWebhooks.secret.renew")}
          cancelLabel={t("adminWebhooks.secret.keep")}
          cancelTo={`${path}#secret-heading`}
        />
      ) : null}

      <AdminSection id="settings" className="mt-6" heading={t("adminWebhooks.edit.heading")}>
        <WebhookForm
          key={webhook.updatedAt}
          webhook={webhook}
          action={path}
          lastResult={intent === "update" ? actionData?.result : undefined}
        />
      </AdminSection>

      <AdminSection id="secret" className="mt-6" heading={t("adminWebhooks.secret.heading")}>
        <p className="mt-1 text-sm text-stone-600">{t("adminWebhooks.secret.intro")}</p>
        {/* The whole secret in view at any width; one click selects it for copying. */}
        <dl className="mt-3 flex flex-col gap-1">
          <dt className="text-sm font-medium text-stone-800">{t("adminWebhooks.secret.label")}</dt>
          <dd>
            <code
              className="block select-all break-all rounded-md border border-stone-300 bg-stone-50 px-3 py-2 font-mono text-sm"
              data-testid="webhook-secret"
            >
              {webhook.secret}
            </code>
            <p className="mt-1 text-xs text-stone-500">
              {t("adminWebhooks.secret.created", { date: webhook.secretCreatedText })}
            </p>
          </dd>
        </dl>
        <div className="mt-4">
          <DeleteButton
            action={path}
            fields={{ intent: "secret" }}
            question={t("adminWebhooks.secret.renewQuestion")}
            label={t("adminWebhooks.secret.renew")}
            ariaLabel={t("adminWebhooks.secret.renew")}
          />
        </div>
      </AdminSection>

      <AdminSection id="test" className="mt-6" heading={t("adminWebhooks.test.heading")}>
        <p className="mt-1 text-sm text-stone-600">{t("adminWebhooks.test.intro")}</p>
        <Form method="post" action={path} className="mt-4">
          <StatusButton name="intent" value="test" pendingText={t("adminWebhooks.test.sending")}>
            {t("adminWebhooks.test.send")}
          </StatusButton>
        </Form>
      </AdminSection>

      <section aria-labelledby="deliveries-heading" className="mt-8">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="deliveries-heading" className="text-lg font-semibold">
            {t("adminWebhooks.log.heading")}
          </h2>
          {/*
            A link to this page's log with a token of this rendering: an address other than the
            current one, so the browser loads the page again instead of only scrolling to the log.
          */}
          <ButtonLink
            to={`${path}?log=${loaderData.renderedAt}#deliveries-heading`}
            variant="secondary"
            size="sm"
            className="font-normal"
          >
            {t("adminWebhooks.log.refresh")}
          </ButtonLink>
        </div>
        <p className="mt-1 text-sm text-stone-600">{t("adminWebhooks.log.intro", { count: loaderData.logSize })}</p>
        {deliveries.length === 0 ? (
          <p className="mt-3 rounded-lg bg-white p-6 text-stone-600 shadow-sm">{t("adminWebhooks.log.empty")}</p>
        ) : (
          <WebhookDeliveries deliveries={deliveries} action={path} />
        )}
      </section>

      <div className="mt-10 border-t border-stone-200 pt-6">
        <DeleteButton
          action={path}
          fields={{ intent: "delete" }}
          question={t("adminWebhooks.remove.question")}
          label={t("adminWebhooks.remove.button")}
          ariaLabel={t("adminWebhooks.remove.button")}
        />
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Admin");
