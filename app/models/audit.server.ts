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

/** An audited action named `entity.verb` ("category.deleted", "order.paid"). */
export type AuditAction = `${string}.${string}`;

/**
 * `recordAudit` for an action whose entity type is its first part ("blog_post.updated" is about
 * a "blog_post"): who did it, to which entity, with the values before and after.
 */
export function auditAction(
  db: Kysely<Database> | Transaction<Database>,
  actorUserId: string | null,
  action: AuditAction,
  entityId: string | number | null,
  change: { before?: unknown; after?: unknown },
): Promise<void> {
  const entityType = action.slice(0, action.indexOf("."));
  return recordAudit(db, { actorUserId, action, entityType, entityId, ...change });
}
