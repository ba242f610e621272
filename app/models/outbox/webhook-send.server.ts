import type { OutboxMessageRow } from "#db/schema";
import type { Services } from "~/context";
import { DeliveryError } from "./delivery-error";

/**
 * POSTs one webhook delivery, signed (Settings → Webhooks).
 * TODO(issue 26, this session): built by the webhooks helper.
 */
export async function sendWebhook(
  _services: Services,
  _message: OutboxMessageRow,
): Promise<{ responseStatus: number | null }> {
  throw new DeliveryError("webhooks are not available yet");
}
