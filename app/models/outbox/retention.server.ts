import type { DB } from "#db/connect.server";
import { auditAction } from "../audit.server";
import { getSetting, putSetting } from "../settings/site-settings.server";
import { DEFAULT_RETENTION_DAYS } from "./deliver.server";

/*
 * How long sent messages are kept (Admin → Messages, the owner's): the scheduler's outbox job
 * removes those sent longer ago, with their delivery log (pruneSentMessages). Failed and waiting
 * messages are never removed by it.
 */

export const RETENTION_SETTING = "outbox_retention_days";
export const MIN_RETENTION_DAYS = 1;
export const MAX_RETENTION_DAYS = 3650;

function validDays(value: number): boolean {
  return Number.isInteger(value) && value >= MIN_RETENTION_DAYS && value <= MAX_RETENTION_DAYS;
}

/** The retention in days: the owner's setting, or 90 when none (or a value out of range) is stored. */
export async function outboxRetentionDays(db: DB): Promise<number> {
  const stored = Number(await getSetting(db, RETENTION_SETTING));
  return validDays(stored) ? stored : DEFAULT_RETENTION_DAYS;
}

/** Sets the retention (1–3650 days), audited with the value before and after. */
export async function setOutboxRetentionDays(db: DB, actor: { id: string }, days: number): Promise<void> {
  if (!validDays(days)) throw new RangeError(`retention of ${days} days is out of range`);
  await db.transaction().execute(async (trx) => {
    const before = await outboxRetentionDays(trx);
    await putSetting(trx, RETENTION_SETTING, String(days));
    await auditAction(trx, actor.id, "setting.outbox_retention_updated", RETENTION_SETTING, {
      before: { days: before },
      after: { days },
    });
  });
}
