import type { ExpressionBuilder } from "kysely";
import type { DB } from "#db/connect.server";
import type { Database, OutboxChannel, OutboxStatus } from "#db/schema";
import type { MessageCursor, MessageListStatus } from "./list-filters";
import type { OutboxEmail } from "./queue.server";

/*
 * What Admin → Messages, the admin order page and the dashboard read of the outbox
 * (docs/decisions/044). Every list is newest first and paged by its last row (keyset), never by
 * an offset or a count of everything: with 100,000 messages a page reads its 50 rows through
 * one index (migration 0017), whatever the filter.
 */

export const MESSAGES_PER_PAGE = 50;
/** At most this many messages are listed on one order's page (an order produces a handful). */
export const ORDER_MESSAGES_LIMIT = 100;

const STORED: Record<Exclude<MessageListStatus, "all">, OutboxStatus[]> = {
  waiting: ["pending", "sending"],
  sent: ["sent"],
  failed: ["failed"],
};

export interface MessageFilter {
  status: MessageListStatus;
  channel: OutboxChannel | null;
  /** A prefix of the recipient's address, or of the order number (with or without `ORD-`). */
  q: string;
  /** The page of messages older than this row. */
  older?: MessageCursor | null;
  /** The page of messages newer than this row (the "Newer" link). */
  newer?: MessageCursor | null;
}

/** A message as a list shows it: everything but its content. */
export interface MessageListRow {
  id: string;
  channel: OutboxChannel;
  event: string;
  audience: string;
  recipient: string;
  language: string;
  subject: string;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: string;
  give_up_at: string;
  last_error: string | null;
  last_response_status: number | null;
  order_id: string | null;
  created_at: string;
  sent_at: string | null;
  failed_at: string | null;
  /** The order's number, when the message belongs to an order that still exists. */
  order_number: string | null;
}

const LIST_COLUMNS = [
  "id",
  "channel",
  "event",
  "audience",
  "recipient",
  "language",
  "subject",
  "status",
  "attempts",
  "next_attempt_at",
  "give_up_at",
  "last_error",
  "last_response_status",
  "order_id",
  "created_at",
  "sent_at",
  "failed_at",
] as const;

/** The text between `from` and the next string that sorts after every string starting with it. */
function prefixRange(prefix: string): [string, string] {
  return [prefix, `${prefix}\uffff`];
}

type Where = ExpressionBuilder<Database, "outbox_messages">;

/**
 * A search: the recipient starts with the term (as typed, or in lower case: shoppers' addresses
 * are stored in lower case), or the message belongs to an order whose number starts with it.
 * Each is an index range (outbox_recipient; orders' order_number, then outbox_order).
 */
function matchesSearch(db: DB, q: string) {
  const number = q.toUpperCase().startsWith("ORD-") ? q.toUpperCase() : `ORD-${q.toUpperCase()}`;
  const [numberFrom, numberTo] = prefixRange(number);
  const orders = db
    .selectFrom("orders")
    .select("id")
    .where("order_number", ">=", numberFrom)
    .where("order_number", "<", numberTo);
  return (eb: Where) =>
    eb.or([
      ...[...new Set([q, q.toLowerCase()])].map((term) => {
        const [from, to] = prefixRange(term);
        return eb.and([eb("recipient", ">=", from), eb("recipient", "<", to)]);
      }),
      eb("order_id", "in", orders),
    ]);
}

/** Order numbers of the orders `ids`, by id (one query for a page). */
async function orderNumbers(db: DB, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom("orders").select(["id", "order_number"]).where("id", "in", wanted).execute();
  return new Map(rows.map((row) => [row.id, row.order_number]));
}

/**
 * One page of the outbox, newest first, filtered by status, channel and a search; `older` and
 * `newer` are the cursors of the pages either side (null where there is none).
 */
export async function listMessages(
  db: DB,
  filter: MessageFilter,
  perPage: number = MESSAGES_PER_PAGE,
): Promise<{ messages: MessageListRow[]; older: MessageCursor | null; newer: MessageCursor | null }> {
  const q = filter.q.trim();
  const backwards = !filter.older && Boolean(filter.newer);
  const cursor = backwards ? filter.newer : filter.older;
  let query = db.selectFrom("outbox_messages").select(LIST_COLUMNS);
  if (filter.status !== "all") {
    query = query.where("status", "in", STORED[filter.status]);
  }
  if (filter.channel) query = query.where("channel", "=", filter.channel);
  if (q) query = query.where(matchesSearch(db, q));
  if (cursor) {
    query = query.where((eb) =>
      eb(eb.refTuple("created_at", "id"), backwards ? ">" : "<", eb.tuple(cursor.createdAt, cursor.id)),
    );
  }
  const direction = backwards ? "asc" : "desc";
  const rows = await query
    .orderBy("created_at", direction)
    .orderBy("id", direction)
    .limit(perPage + 1)
    .execute();
  const more = rows.length > perPage;
  const page = rows.slice(0, perPage);
  if (backwards) page.reverse();
  const numbers = await orderNumbers(
    db,
    page.map((row) => row.order_id),
  );
  const messages = page.map((row) => ({
    ...row,
    order_number: row.order_id ? (numbers.get(row.order_id) ?? null) : null,
  }));
  const first = messages[0];
  const last = messages.at(-1);
  const at = (row: MessageListRow | undefined) => (row ? { createdAt: row.created_at, id: row.id } : null);
  return {
    messages,
    // Going back, there are older ones (the page came from them); going on, only if one more was found.
    older: backwards || more ? at(last) : null,
    newer: backwards ? (more ? at(first) : null) : cursor ? at(first) : null,
  };
}

/** What is waiting and what has failed (the list's filter tabs, the dashboard's warning). */
export async function outboxCounts(db: DB): Promise<{ waiting: number; failed: number }> {
  const rows = await db
    .selectFrom("outbox_messages")
    .select(["status", (eb) => eb.fn.countAll<number>().as("n")])
    .where("status", "in", ["pending", "sending", "failed"])
    .groupBy("status")
    .execute();
  const count = (status: OutboxStatus) => Number(rows.find((row) => row.status === status)?.n ?? 0);
  return { waiting: count("pending") + count("sending"), failed: count("failed") };
}

/** How many messages have failed for good (the dashboard warns while any has). */
export async function countFailedMessages(db: DB): Promise<number> {
  const row = await db
    .selectFrom("outbox_messages")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", "failed")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The messages one order produced, newest first (the admin order page). */
export async function listOrderMessages(db: DB, orderId: string): Promise<MessageListRow[]> {
  const rows = await db
    .selectFrom("outbox_messages")
    .select(LIST_COLUMNS)
    .where("order_id", "=", orderId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(ORDER_MESSAGES_LIMIT)
    .execute();
  const numbers = await orderNumbers(db, [orderId]);
  return rows.map((row) => ({ ...row, order_number: numbers.get(orderId) ?? null }));
}

export interface MessageAttempt {
  id: number;
  attempted_at: string;
  ok: boolean;
  response_status: number | null;
  error: string | null;
  duration_ms: number;
}

export interface MessageDetail {
  message: MessageListRow & { message_key: string; claimed_until: string | null; updated_at: string };
  /** An e-mail's plain text (what the recipient reads), or null for a webhook. */
  text: string | null;
  /** A webhook's JSON body as it is POSTed, or null for an e-mail. */
  body: string | null;
  /** Every delivery attempt, first to last. */
  attempts: MessageAttempt[];
}

/** One message with its content and its delivery log; null when there is none (or it was pruned). */
export async function findMessage(db: DB, id: string): Promise<MessageDetail | null> {
  if (!/^[0-9A-Za-z-]{1,64}$/.test(id)) return null;
  const row = await db
    .selectFrom("outbox_messages")
    .select([...LIST_COLUMNS, "payload", "message_key", "claimed_until", "updated_at"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  const [attempts, numbers] = await Promise.all([
    db
      .selectFrom("outbox_attempts")
      .select(["id", "attempted_at", "ok", "response_status", "error", "duration_ms"])
      .where("message_id", "=", id)
      .orderBy("attempted_at")
      .orderBy("id")
      .execute(),
    orderNumbers(db, [row.order_id]),
  ]);
  const { payload, ...message } = row;
  let text: string | null = null;
  if (message.channel === "email") {
    try {
      text = (JSON.parse(payload) as OutboxEmail).text ?? "";
    } catch {
      text = "";
    }
  }
  return {
    message: { ...message, order_number: message.order_id ? (numbers.get(message.order_id) ?? null) : null },
    text,
    body: message.channel === "webhook" ? payload : null,
    attempts: attempts.map((attempt) => ({ ...attempt, ok: Number(attempt.ok) === 1 })),
  };
}
