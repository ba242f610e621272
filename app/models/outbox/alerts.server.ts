import type { DB } from "#db/connect.server";
import type { ShopEvent } from "./events.server";

/**
 * The shop's own alerts: one e-mail per notification address for the events the owner chose
 * (Settings → Shop details), in the admin language chosen there.
 * TODO(issue 26, this session): built by the alerts helper; nothing is queued until then.
 */
export async function queueShopAlerts(_trx: DB, _event: ShopEvent): Promise<void> {}
