import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form } from "react-router";
import type { OutboxStatus } from "#db/schema";
import { AdminSection } from "~/components/admin/admin-section";
import { Badge, FAILURE_TONE, SUCCESS_TONE } from "~/components/admin/badges";
import { ButtonLink } from "~/components/ui/button";
import { ErrorList, FormErrors, StatusButton } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";

/** Where Settings → Webhooks lives; a webhook's page is under it. */
export const WEBHOOKS_PATH = "/admin/settings/webhooks";

export function webhookPath(id: string): string {
  return `${WEBHOOKS_PATH}/${id}`;
}

/** A webhook of the list as the page gets it. */
export interface WebhookCard {
  id: string;
  name: string;
  url: string;
  events: string[];
  active: boolean;
  failed: number;
  lastDelivery: { status: OutboxStatus; atText: string; responseStatus: number | null } | null;
}

/** Active or paused, as a pill. */
export function WebhookStateBadge({ active }: { active: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge tone={active ? SUCCESS_TONE : "bg-stone-200 text-stone-700"} testId="webhook-state">
      {active ? t("adminWebhooks.active") : t("adminWebhooks.paused")}
    </Badge>
  );
}

/** The owner's webhooks, each a card with its address, events, last delivery and a link to it. */
export function WebhookList({ webhooks }: { webhooks: WebhookCard[] }) {
  const { t } = useTranslation();
  return (
    <AdminSection
      id="webhooks"
      look="bare"
      className="mt-6"
      heading={t("adminWebhooks.listHeading")}
      empty={webhooks.length === 0 ? t("adminWebhooks.empty") : undefined}
    >
      <ul className="mt-3 flex flex-col gap-3">
        {webhooks.map((webhook) => {
          const name = webhook.name || t("adminWebhooks.unnamed");
          const last = webhook.lastDelivery;
          return (
            <li
              key={webhook.id}
              data-testid="webhook-row"
              className="flex flex-col gap-3 rounded-lg bg-white p-4 shadow-sm sm:flex-row sm:items-start"
            >
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center gap-2">
                  <h3 className="font-semibold">{name}</h3>
                  <WebhookStateBadge active={webhook.active} />
                  {webhook.failed > 0 ? (
                    <Badge tone={FAILURE_TONE}>{t("adminWebhooks.failed", { count: webhook.failed })}</Badge>
                  ) : null}
                </div>
                <p className="mt-1 break-all font-mono text-sm text-stone-700">{webhook.url}</p>
                <p className="mt-1 break-words text-sm text-stone-600">
                  {t("adminWebhooks.eventCount", { count: webhook.events.length, events: webhook.events.join(", ") })}
                </p>
                <p className="mt-1 text-sm text-stone-600">
                  {last
                    ? t("adminWebhooks.lastDelivery", {
                        date: last.atText,
                        status: t(`adminWebhooks.log.statuses.${last.status}`),
                      })
                    : t("adminWebhooks.noDeliveries")}
                </p>
              </div>
              <ButtonLink
                to={webhookPath(webhook.id)}
                variant="secondary"
                size="sm"
                className="shrink-0 self-start font-normal"
                aria-label={t("adminWebhooks.openNamed", { name })}
              >
                {t("adminWebhooks.open")}
              </ButtonLink>
            </li>
          );
        })}
      </ul>
    </AdminSection>
  );
}

/**
 * "Allow http:// and private addresses": the shop-wide switch, its own small form (a checkbox and
 * Save), with what it is now said above it.
 */
export function NetworkForm({
  allowPrivate,
  lastResult,
}: {
  allowPrivate: boolean;
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    id: "webhook-network",
    lastResult,
    defaultValue: { allow_private: allowPrivate ? "on" : undefined },
  });
  const field = fields.allow_private;
  return (
    <AdminSection
      id="network"
      look="card"
      className="mt-8"
      heading={t("adminWebhooks.network.heading")}
      intro={t("adminWebhooks.network.intro")}
    >
      <p className="mt-3 text-sm font-medium" data-testid="network-state">
        {allowPrivate ? t("adminWebhooks.network.stateOn") : t("adminWebhooks.network.stateOff")}
      </p>
      <Form method="post" action={WEBHOOKS_PATH} {...getFormProps(form)} className="mt-3 flex flex-col gap-3">
        <FormErrors errors={form.errors} />
        <div className="flex flex-col gap-1">
          <label className="flex items-start gap-2 text-sm font-medium text-stone-800">
            <input
              {...getInputProps(field, { type: "checkbox" })}
              aria-describedby={`${field.id}-hint`}
              className="mt-0.5 size-4 shrink-0"
            />
            {t("adminWebhooks.network.label")}
          </label>
          <p id={`${field.id}-hint`} className="text-xs text-stone-500">
            {t("adminWebhooks.network.hint")}
          </p>
          <ErrorList id={field.errorId} errors={field.errors} />
        </div>
        <div>
          <StatusButton name="intent" value="network">
            {t("adminWebhooks.network.save")}
          </StatusButton>
        </div>
      </Form>
    </AdminSection>
  );
}
