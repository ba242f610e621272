import { Form, Link } from "react-router";
import type { OutboxStatus } from "#db/schema";
import { Badge, FAILURE_TONE, SUCCESS_TONE } from "~/components/admin/badges";
import { Button } from "~/components/ui/button";
import { useTranslation } from "~/lib/i18n";
import { eventKey } from "~/schemas/webhook";

/** A delivery of the log as the page gets it: the model's, with its times written out. */
export interface DeliveryView {
  id: string;
  event: string;
  deliveryId: string;
  status: OutboxStatus;
  attempts: number;
  createdText: string;
  nextAttemptText: string;
  lastError: string | null;
  orderId: string | null;
  orderNumber: string | null;
  log: { atText: string; ok: boolean; responseStatus: number | null; error: string | null; durationMs: number }[];
}

const TONES: Record<OutboxStatus, string> = {
  pending: "bg-amber-100 text-amber-900",
  sending: "bg-sky-100 text-sky-900",
  sent: SUCCESS_TONE,
  failed: FAILURE_TONE,
};

/** A delivery that may be sent again from the log: failed, or waiting for its next try. */
export function canResend(delivery: Pick<DeliveryView, "status">): boolean {
  return delivery.status === "failed" || delivery.status === "pending";
}

/**
 * A webhook's delivery log: each delivery (newest first) with its event, status, delivery id and
 * order, every attempt with the receiver's answer, and "send again" — a plain form post.
 */
export function WebhookDeliveries({ deliveries, action }: { deliveries: DeliveryView[]; action: string }) {
  const { t } = useTranslation();
  return (
    <ol className="mt-3 flex flex-col gap-3" data-testid="webhook-deliveries">
      {deliveries.map((delivery) => {
        const status =
          delivery.status === "pending" && delivery.attempts > 0
            ? t("adminWebhooks.log.statuses.retrying")
            : t(`adminWebhooks.log.statuses.${delivery.status}`);
        return (
          <li key={delivery.id} className="rounded-lg bg-white p-4 shadow-sm" data-testid="webhook-delivery">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <h3 className="font-semibold">
                {t(`adminWebhooks.events.${eventKey(delivery.event)}` as "adminWebhooks.events.order_placed", {
                  defaultValue: delivery.event,
                })}
              </h3>
              <Badge tone={TONES[delivery.status]} testId="delivery-status">
                {status}
              </Badge>
              <span className="text-sm text-stone-600">{delivery.createdText}</span>
            </div>
            <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
              <dt className="text-stone-600">{t("adminWebhooks.log.deliveryId")}</dt>
              <dd>
                <code className="break-all text-xs" data-testid="delivery-id">
                  {delivery.deliveryId}
                </code>
              </dd>
            </dl>
            <p className="mt-1 text-sm text-stone-700">
              {t("adminWebhooks.log.attempts", { count: delivery.attempts })}
              {delivery.status === "pending" && delivery.attempts > 0
                ? ` · ${t("adminWebhooks.log.nextAttempt", { date: delivery.nextAttemptText })}`
                : null}
              {delivery.orderId && delivery.orderNumber ? (
                <>
                  {" · "}
                  <Link
                    to={`/admin/orders/${delivery.orderId}`}
                    className="text-brand-700 underline underline-offset-2 hover:no-underline"
                  >
                    {t("adminWebhooks.log.order", { number: delivery.orderNumber })}
                  </Link>
                </>
              ) : null}
            </p>
            {delivery.log.length > 0 ? (
              <ol
                className="mt-2 flex flex-col gap-1 border-l-2 border-stone-200 pl-3 text-sm"
                aria-label={t("adminWebhooks.log.attemptsLabel", { id: delivery.deliveryId })}
              >
                {delivery.log.map((attempt, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the attempts are a fixed list in their order
                  <li key={index} data-testid="delivery-attempt" className="break-words">
                    <span className="text-stone-600">{attempt.atText}</span>
                    {" · "}
                    <span className={attempt.ok ? "font-medium text-green-800" : "font-medium text-red-800"}>
                      {attempt.ok ? t("adminWebhooks.log.accepted") : t("adminWebhooks.log.refused")}
                    </span>
                    {" · "}
                    <span data-testid="attempt-status">
                      {attempt.responseStatus === null
                        ? t("adminWebhooks.log.noAnswer")
                        : t("adminWebhooks.log.httpStatus", { status: attempt.responseStatus })}
                    </span>
                    {" · "}
                    <span className="text-stone-600">
                      {t("adminWebhooks.log.duration", { count: attempt.durationMs })}
                    </span>
                    {attempt.error ? <span className="block text-stone-700">{attempt.error}</span> : null}
                  </li>
                ))}
              </ol>
            ) : null}
            {canResend(delivery) ? (
              <Form method="post" action={action} className="mt-3">
                <input type="hidden" name="message" value={delivery.id} />
                <Button
                  name="intent"
                  value="resend"
                  variant="secondary"
                  size="sm"
                  className="font-normal"
                  aria-label={t("adminWebhooks.log.resendNamed", { id: delivery.deliveryId })}
                >
                  {t("adminWebhooks.log.resend")}
                </Button>
              </Form>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
