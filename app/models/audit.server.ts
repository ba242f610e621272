import type { Kysely, Transaction } from "kysely";
import { now } from "#db/connect.server";
import type { Database } from "#db/schema";

export interface AuditEntry {
  actorUserId: string | null;
  /** What happened, as noun.verb: "product.created", "category.deleted", "order.paid". */
  action: string;
  entityType: string;
  entityId: string | number | null;
  before?: unknown;
  after?: unknown;
}

/** Every admin write is recorded with who, what, when and the before/after values. */
export async function recordAudit(db: Kysely<Database> | Transaction<Database>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto("audit_log")
    .values({
      actor_user_id: entry.actorUserId,
      action: entry.action,
      entity_type: entry.entityType,
      entity_id: entry.entityId === null ? null : String(entry.entityId),
      details: JSON.stringify({ before: entry.before ?? null, after: entry.after ?? null }),
      created_at: now(),
    })
    .execute();
}
