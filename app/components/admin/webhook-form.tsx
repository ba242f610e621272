import { getCollectionProps, getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { CheckboxField } from "~/components/admin/checkbox-field";
import { ErrorList, FieldFor, FormErrors, inputClass, StatusButton } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import { eventKey, WEBHOOK_EVENTS, WEBHOOK_LIMITS, type WebhookEvent, webhookSchema } from "~/schemas/webhook";

/** What the form starts with: a saved webhook, or nothing (a new one: active, no event yet). */
export interface WebhookFormValues {
  id: string;
  name: string;
  url: string;
  events: WebhookEvent[];
  active: boolean;
}

/**
 * The one editor of a webhook, for "Add a webhook" (intent=create) and a webhook's page
 * (intent=update): name, address, events, active. Conform checks it in the browser when
 * JavaScript runs; the server always checks it, and where the address leads (a refusal comes back
 * at the address field, with everything typed kept).
 */
export function WebhookForm({
  webhook,
  action,
  lastResult,
}: {
  webhook: WebhookFormValues | null;
  action: string;
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    id: webhook ? `webhook-${webhook.id}` : "webhook-new",
    lastResult,
    constraint: getZodConstraint(webhookSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: webhook
      ? { name: webhook.name, url: webhook.url, events: webhook.events, active: webhook.active ? "on" : undefined }
      : { name: "", url: "", events: [], active: "on" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: webhookSchema }),
  });
  const events = fields.events;
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="mt-4 flex flex-col gap-5">
      <FormErrors errors={form.errors} />
      <div className="grid gap-5 sm:grid-cols-2">
        <FieldFor field={fields.name} label={t("adminWebhooks.fields.name")} hint={t("adminWebhooks.fields.nameHint")}>
          <input
            {...getInputProps(fields.name, { type: "text" })}
            maxLength={WEBHOOK_LIMITS.name}
            autoComplete="off"
            className={inputClass}
          />
        </FieldFor>
        <FieldFor field={fields.url} label={t("adminWebhooks.fields.url")} hint={t("adminWebhooks.fields.urlHint")}>
          <input
            {...getInputProps(fields.url, { type: "text" })}
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://hooks.example.com/shop"
            className={`${inputClass} break-all`}
          />
        </FieldFor>
      </div>
      <fieldset aria-describedby={`${events.id}-hint`}>
        <legend className="text-sm font-medium text-stone-800">{t("adminWebhooks.fields.events")}</legend>
        <p id={`${events.id}-hint`} className="text-xs text-stone-500">
          {t("adminWebhooks.fields.eventsHint")}
        </p>
        <div className="mt-2 grid gap-x-6 gap-y-2 sm:grid-cols-2">
          {getCollectionProps(events, { type: "checkbox", options: [...WEBHOOK_EVENTS] }).map(({ key, ...props }) => (
            <label key={key} className="flex items-start gap-2 text-sm text-stone-800">
              {/* events[]: one name for the group's boxes (Conform reads it as the list `events`). */}
              <input {...props} name={`${events.name}[]`} className="mt-0.5 size-4 shrink-0" />
              <span>
                {t(`adminWebhooks.events.${eventKey(props.value)}` as "adminWebhooks.events.order_placed")}{" "}
                <code className="text-xs text-stone-500">{props.value}</code>
              </span>
            </label>
          ))}
        </div>
        <ErrorList id={events.errorId} errors={events.errors} />
      </fieldset>
      <CheckboxField
        field={fields.active}
        label={t("adminWebhooks.fields.active")}
        hint={t("adminWebhooks.fields.activeHint")}
      />
      <div>
        {/* The intent travels with the button, so only this form's button says it is working. */}
        <StatusButton
          name="intent"
          value={webhook ? "update" : "create"}
          pendingText={webhook ? t("adminWebhooks.edit.saving") : t("adminWebhooks.add.submitting")}
        >
          {webhook ? t("adminWebhooks.edit.save") : t("adminWebhooks.add.submit")}
        </StatusButton>
      </div>
    </Form>
  );
}
