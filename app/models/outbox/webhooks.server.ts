import type { DB } from "#db/connect.server";
import type { ShopEvent } from "./events.server";

/**
 * One delivery per active webhook subscribed to the event (Settings → Webhooks).
 * TODO(issue 26, this session): built by the webhooks helper; nothing is queued until then.
 */
export async function queueWebhookEvents(_trx: DB, _event: ShopEvent): Promise<void> {}
