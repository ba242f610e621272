import { type DB, now } from "#db/connect.server";
import { UserError } from "~/lib/problem";
import { NOTE_MAX } from "~/schemas/order-note";
import { auditAction } from "../audit.server";

/**
 * Staff notes on an order (issue 29 item 5, docs/decisions/058): any admin (owner or staff)
 * writes one; the admin order page lists them among the order's history. Internal: nothing a
 * shopper sees (their order page, their e-mails) reads this table.
 */

export interface OrderNote {
  id: number;
  body: string;
  created_at: string;
  /** The author's e-mail; null once their account is deleted. */
  author: string | null;
}

/**
 * Adds a note to an order, audited (`order.note_added`, with the note's id and text). The text
 * is trimmed; empty or over 2,000 characters, or an order that does not exist, is a `UserError`.
 */
export async function addOrderNote(
  db: DB,
  author: { id: string },
  input: { orderId: string; body: string },
): Promise<OrderNote> {
  const body = input.body.trim();
  if (body.length === 0) throw new UserError("adminOrders.staffNotes.bodyRequired");
  if (body.length > NOTE_MAX) throw new UserError("adminOrders.staffNotes.bodyTooLong");
  if (!/^[0-9a-f-]{36}$/.test(input.orderId)) throw new UserError("adminOrders.errors.notFound", { status: 404 });
  return db.transaction().execute(async (trx) => {
    const order = await trx.selectFrom("orders").select("id").where("id", "=", input.orderId).executeTakeFirst();
    if (!order) throw new UserError("adminOrders.errors.notFound", { status: 404 });
    const createdAt = now();
    const { id } = await trx
      .insertInto("order_notes")
      .values({ order_id: order.id, author_user_id: author.id, body, created_at: createdAt })
      .returning("id")
      .executeTakeFirstOrThrow();
    await auditAction(trx, author.id, "order.note_added", order.id, { after: { note_id: id, body } });
    const user = await trx.selectFrom("users").select("email").where("id", "=", author.id).executeTakeFirst();
    return { id, body, created_at: createdAt, author: user?.email ?? null };
  });
}

/** An order's notes, oldest first, each with its author's e-mail. */
export async function listOrderNotes(db: DB, orderId: string): Promise<OrderNote[]> {
  return db
    .selectFrom("order_notes")
    .leftJoin("users", "users.id", "order_notes.author_user_id")
    .select(["order_notes.id", "order_notes.body", "order_notes.created_at", "users.email as author"])
    .where("order_notes.order_id", "=", orderId)
    .orderBy("order_notes.id")
    .execute();
}

/** One line of an order's history: a change (audit entry), a message that went out, or a note. */
export type TimelineEntry =
  | { kind: "audit"; at: string; action: string; actor: string | null }
  | { kind: "message"; at: string; id: string; channel: string; subject: string; recipient: string; language: string }
  | { kind: "note"; at: string; id: number; body: string; author: string | null };

/**
 * The order's history in time order (oldest first): its audit entries (but `order.note_added`,
 * which the note itself shows), the messages that were sent (at the time they went out) and the
 * staff notes. Entries at the same instant keep that order: change, message, note.
 */
export function orderTimeline(
  history: { action: string; actor: string | null; created_at: string }[],
  messages: {
    id: string;
    channel: string;
    subject: string;
    recipient: string;
    language: string;
    status: string;
    sent_at: string | null;
  }[],
  notes: OrderNote[],
): TimelineEntry[] {
  const entries: TimelineEntry[] = [
    ...history
      .filter((entry) => entry.action !== "order.note_added")
      .map((entry) => ({ kind: "audit" as const, at: entry.created_at, action: entry.action, actor: entry.actor })),
    ...messages
      .filter((message) => message.channel === "email" && message.status === "sent" && message.sent_at)
      .map((message) => ({
        kind: "message" as const,
        at: message.sent_at as string,
        id: message.id,
        channel: message.channel,
        subject: message.subject,
        recipient: message.recipient,
        language: message.language,
      })),
    ...notes.map((note) => ({ kind: "note" as const, at: note.created_at, ...note })),
  ];
  // A stable sort: within one instant, the order above.
  return entries.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}
