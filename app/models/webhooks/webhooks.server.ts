import crypto from "node:crypto";
import { type DB, now } from "#db/connect.server";
import type { OutboxStatus, WebhookRow } from "#db/schema";
import { UserError } from "~/lib/problem";
import { WEBHOOK_EVENTS, type WebhookEvent, type WebhookInput } from "~/schemas/webhook";
import { auditAction } from "../audit.server";
import { queueWebhookPing } from "../outbox/webhooks.server";
import { deleteSetting, getSetting, putSetting } from "../settings/site-settings.server";
import { checkWebhookUrl, type ResolveHost } from "./addresses.server";

/*
 * Settings → Webhooks (docs/decisions/046): the owner's receivers of the shop's events. Each has
 * an address, a secret the shop generates (its deliveries are signed with it), the events it is
 * sent and a switch. Its deliveries are outbox messages (docs/decisions/044) with its id; its
 * delivery log is theirs. Every change is audited without the secret's value.
 */

/** A shop has a handful of receivers (chat, bookkeeping); more is a sign of something wrong. */
export const MAX_WEBHOOKS = 20;

/** The site setting of "allow http:// and private addresses": "1" when on. */
export const WEBHOOKS_ALLOW_PRIVATE_KEY = "webhooks_allow_private";

export interface Webhook {
  id: string;
  name: string;
  url: string;
  secret: string;
  events: WebhookEvent[];
  active: boolean;
  createdAt: string;
  updatedAt: string;
  secretCreatedAt: string;
}

function parseEvents(json: string): WebhookEvent[] {
  try {
    const stored: unknown = JSON.parse(json);
    if (!Array.isArray(stored)) return [];
    return WEBHOOK_EVENTS.filter((event) => stored.includes(event));
  } catch {
    return [];
  }
}

function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    secret: row.secret,
    events: parseEvents(row.events),
    active: row.active === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    secretCreatedAt: row.secret_created_at,
  };
}

/** What the audit log keeps of a webhook: never its secret. */
function audited(webhook: Pick<Webhook, "name" | "url" | "events" | "active">) {
  return { name: webhook.name, url: webhook.url, events: webhook.events, active: webhook.active };
}

/** A new signing secret: 32 random bytes, base64url, with a prefix that says what it is. */
export function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString("base64url")}`;
}

/** Whether webhooks may use http:// and private addresses (off unless the owner turned it on). */
export async function allowsPrivateAddresses(db: DB): Promise<boolean> {
  return (await getSetting(db, WEBHOOKS_ALLOW_PRIVATE_KEY)) === "1";
}

/**
 * Turns "allow http:// and private addresses" on or off. Turning it off does not change saved
 * webhooks: a delivery to an address no longer allowed is refused when it is sent.
 */
export async function setAllowPrivateAddresses(
  db: DB,
  allow: boolean,
  options: { actorUserId: string | null },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = (await getSetting(trx, WEBHOOKS_ALLOW_PRIVATE_KEY)) === "1";
    if (before === allow) return;
    if (allow) await putSetting(trx, WEBHOOKS_ALLOW_PRIVATE_KEY, "1");
    else await deleteSetting(trx, WEBHOOKS_ALLOW_PRIVATE_KEY);
    await auditAction(trx, options.actorUserId, "setting.webhooks_allow_private", WEBHOOKS_ALLOW_PRIVATE_KEY, {
      before: { allow: before },
      after: { allow },
    });
  });
}

/** A webhook with how its deliveries went, for the list. */
export interface WebhookListItem extends Webhook {
  lastDelivery: { status: OutboxStatus; at: string; responseStatus: number | null } | null;
  failed: number;
}

/** Every webhook, oldest first, with its last delivery and how many of its deliveries failed. */
export async function listWebhooks(db: DB): Promise<WebhookListItem[]> {
  const rows = await db.selectFrom("webhooks").selectAll().orderBy("created_at").orderBy("id").execute();
  if (rows.length === 0) return [];
  const failedCounts = await db
    .selectFrom("outbox_messages")
    .select((eb) => ["webhook_id", eb.fn.countAll<string | number>().as("count")])
    .where("channel", "=", "webhook")
    .where("status", "=", "failed")
    .where(
      "webhook_id",
      "in",
      rows.map((row) => row.id),
    )
    .groupBy("webhook_id")
    .execute();
  const failed = new Map(failedCounts.map((row) => [row.webhook_id, Number(row.count)]));
  return Promise.all(
    rows.map(async (row) => {
      const last = await db
        .selectFrom("outbox_messages")
        .select(["status", "created_at", "last_response_status"])
        .where("webhook_id", "=", row.id)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
      return {
        ...toWebhook(row),
        lastDelivery: last
          ? { status: last.status, at: last.created_at, responseStatus: last.last_response_status }
          : null,
        failed: failed.get(row.id) ?? 0,
      };
    }),
  );
}

/** One webhook, or null. */
export async function findWebhook(db: DB, id: string): Promise<Webhook | null> {
  const row = await db.selectFrom("webhooks").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toWebhook(row) : null;
}

/** What Settings shows of the webhooks: how many, how many active, how many deliveries failed. */
export async function webhooksSummary(db: DB): Promise<{ count: number; active: number; failed: number }> {
  const [hooks, failed] = await Promise.all([
    db.selectFrom("webhooks").select("active").execute(),
    db
      .selectFrom("outbox_messages")
      .select((eb) => eb.fn.countAll<string | number>().as("count"))
      .where("channel", "=", "webhook")
      .where("status", "=", "failed")
      .where("webhook_id", "is not", null)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    count: hooks.length,
    active: hooks.filter((row) => row.active === 1).length,
    failed: Number(failed.count),
  };
}

interface Actor {
  actorUserId: string | null;
}

/** How an address is checked: the shop's setting, and (tests) the resolver. */
async function checkedUrl(db: DB, url: string, resolve?: ResolveHost): Promise<string> {
  return checkWebhookUrl(url, { allowPrivate: await allowsPrivateAddresses(db), resolve });
}

/**
 * Adds a webhook with a new secret. The address is checked first (it may be resolved: outside
 * the transaction); a refusal is a `UserError` at the `url` field. At most MAX_WEBHOOKS.
 */
export async function createWebhook(
  db: DB,
  input: WebhookInput,
  actor: Actor,
  options: { resolve?: ResolveHost; at?: Date } = {},
): Promise<Webhook> {
  const url = await checkedUrl(db, input.url, options.resolve);
  const timestamp = now(options.at);
  const row: WebhookRow = {
    id: crypto.randomUUID(),
    name: input.name,
    url,
    secret: newWebhookSecret(),
    events: JSON.stringify(input.events),
    active: input.active ? 1 : 0,
    created_at: timestamp,
    updated_at: timestamp,
    secret_created_at: timestamp,
  };
  await db.transaction().execute(async (trx) => {
    const count = await trx
      .selectFrom("webhooks")
      .select((eb) => eb.fn.countAll<string | number>().as("count"))
      .executeTakeFirstOrThrow();
    if (Number(count.count) >= MAX_WEBHOOKS) {
      throw new UserError("adminWebhooks.errors.tooMany", { params: { max: MAX_WEBHOOKS }, status: 409 });
    }
    await trx.insertInto("webhooks").values(row).execute();
    await auditAction(trx, actor.actorUserId, "webhook.created", row.id, { after: audited(toWebhook(row)) });
  });
  return toWebhook(row);
}

const notFound = () => new UserError("adminWebhooks.errors.notFound", { status: 404 });

/**
 * Saves a webhook's name, address, events and switch. Its deliveries still waiting (or failed)
 * follow the new address: they are sent to the webhook as it is now.
 */
export async function updateWebhook(
  db: DB,
  id: string,
  input: WebhookInput,
  actor: Actor,
  options: { resolve?: ResolveHost; at?: Date } = {},
): Promise<void> {
  const url = await checkedUrl(db, input.url, options.resolve);
  const timestamp = now(options.at);
  await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("webhooks").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw notFound();
    const before = toWebhook(row);
    await trx
      .updateTable("webhooks")
      .set({
        name: input.name,
        url,
        events: JSON.stringify(input.events),
        active: input.active ? 1 : 0,
        updated_at: timestamp,
      })
      .where("id", "=", id)
      .execute();
    if (url !== row.url) {
      await trx
        .updateTable("outbox_messages")
        .set({ recipient: url, updated_at: timestamp })
        .where("webhook_id", "=", id)
        .where("status", "in", ["pending", "failed"])
        .execute();
    }
    await auditAction(trx, actor.actorUserId, "webhook.updated", id, {
      before: audited(before),
      after: audited({ ...input, url }),
    });
  });
}

/**
 * Gives a webhook a new secret: its next deliveries (retries too) are signed with it, and the
 * receiver must be given it. The audit entry says when, never what.
 */
export async function renewWebhookSecret(db: DB, id: string, actor: Actor, at: Date = new Date()): Promise<void> {
  const timestamp = now(at);
  await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("webhooks")
      .set({ secret: newWebhookSecret(), secret_created_at: timestamp, updated_at: timestamp })
      .where("id", "=", id)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw notFound();
    await auditAction(trx, actor.actorUserId, "webhook.secret_renewed", id, { after: { secretCreatedAt: timestamp } });
  });
}

/**
 * Removes a webhook with its deliveries and their log — except a delivery being sent at this
 * moment, which finishes (or, finding its webhook gone, fails).
 */
export async function deleteWebhook(db: DB, id: string, actor: Actor): Promise<Webhook> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("webhooks").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw notFound();
    const deliveries = trx
      .selectFrom("outbox_messages")
      .select("id")
      .where("webhook_id", "=", id)
      .where("status", "!=", "sending");
    await trx.deleteFrom("outbox_attempts").where("message_id", "in", deliveries).execute();
    await trx.deleteFrom("outbox_messages").where("webhook_id", "=", id).where("status", "!=", "sending").execute();
    await trx.deleteFrom("webhooks").where("id", "=", id).execute();
    const webhook = toWebhook(row);
    await auditAction(trx, actor.actorUserId, "webhook.deleted", id, { before: audited(webhook) });
    return webhook;
  });
}

/** The test button: a `ping` delivery queued for the webhook (active or not). Returns its delivery id. */
export async function queueTestDelivery(db: DB, id: string, at: Date = new Date()): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("webhooks").select(["id", "url"]).where("id", "=", id).executeTakeFirst();
    if (!row) throw notFound();
    return queueWebhookPing(trx, row, at);
  });
}

/** One delivery of a webhook's log, with every attempt. */
export interface WebhookDelivery {
  id: string;
  /** The event (`order.paid`), or `webhook.test` for the test button's ping. */
  event: string;
  deliveryId: string;
  status: OutboxStatus;
  attempts: number;
  createdAt: string;
  nextAttemptAt: string;
  lastError: string | null;
  lastResponseStatus: number | null;
  orderId: string | null;
  orderNumber: string | null;
  log: { at: string; ok: boolean; responseStatus: number | null; error: string | null; durationMs: number }[];
}

/** How many deliveries a webhook's page shows: the latest. */
export const DELIVERY_LOG_SIZE = 30;

/** A webhook's latest deliveries, newest first, each with its attempts, first to last. */
export async function listWebhookDeliveries(
  db: DB,
  webhookId: string,
  limit = DELIVERY_LOG_SIZE,
): Promise<WebhookDelivery[]> {
  const messages = await db
    .selectFrom("outbox_messages")
    .leftJoin("orders", "orders.id", "outbox_messages.order_id")
    .select([
      "outbox_messages.id",
      "outbox_messages.event",
      "outbox_messages.message_key",
      "outbox_messages.status",
      "outbox_messages.attempts",
      "outbox_messages.created_at",
      "outbox_messages.next_attempt_at",
      "outbox_messages.last_error",
      "outbox_messages.last_response_status",
      "outbox_messages.order_id",
      "orders.order_number",
    ])
    .where("outbox_messages.webhook_id", "=", webhookId)
    .orderBy("outbox_messages.created_at", "desc")
    .orderBy("outbox_messages.id", "desc")
    .limit(limit)
    .execute();
  if (messages.length === 0) return [];
  const attempts = await db
    .selectFrom("outbox_attempts")
    .selectAll()
    .where(
      "message_id",
      "in",
      messages.map((message) => message.id),
    )
    .orderBy("id")
    .execute();
  return messages.map((message) => ({
    id: message.id,
    event: message.event,
    deliveryId: message.message_key,
    status: message.status,
    attempts: message.attempts,
    createdAt: message.created_at,
    nextAttemptAt: message.next_attempt_at,
    lastError: message.last_error,
    lastResponseStatus: message.last_response_status,
    orderId: message.order_id,
    orderNumber: message.order_number,
    log: attempts
      .filter((attempt) => attempt.message_id === message.id)
      .map((attempt) => ({
        at: attempt.attempted_at,
        ok: attempt.ok === 1,
        responseStatus: attempt.response_status,
        error: attempt.error,
        durationMs: attempt.duration_ms,
      })),
  }));
}

/** Whether `messageId` is a delivery of `webhookId` (the log's "send again" acts on its own rows only). */
export async function isDeliveryOf(db: DB, webhookId: string, messageId: string): Promise<boolean> {
  const row = await db
    .selectFrom("outbox_messages")
    .select("id")
    .where("id", "=", messageId)
    .where("webhook_id", "=", webhookId)
    .executeTakeFirst();
  return row !== undefined;
}
