import type { DB } from "#db/connect.server";
import type { OutboxEmail } from "~/models/outbox/queue.server";

/** One e-mail as the outbox holds it: who it is for, why, and its rendered text. */
export interface QueuedEmail {
  id: string;
  to: string;
  subject: string;
  event: string;
  audience: string;
  language: string;
  orderId: string | null;
  text: string;
  html: string;
  replyTo?: string;
  from?: string;
}

/**
 * The e-mails in the outbox, oldest first (whatever their delivery state), filtered by what is
 * given: what a model queued in its transaction, read without sending it (docs/decisions/044).
 */
export async function queuedEmails(
  db: DB,
  filter: { to?: string; event?: string; audience?: string; orderId?: string } = {},
): Promise<QueuedEmail[]> {
  let query = db.selectFrom("outbox_messages").selectAll().where("channel", "=", "email");
  if (filter.to) query = query.where("recipient", "=", filter.to);
  if (filter.event) query = query.where("event", "=", filter.event);
  if (filter.audience) query = query.where("audience", "=", filter.audience);
  if (filter.orderId) query = query.where("order_id", "=", filter.orderId);
  const rows = await query.orderBy("created_at").orderBy("id").execute();
  return rows.map((row) => {
    const payload = JSON.parse(row.payload) as OutboxEmail;
    return {
      id: row.id,
      to: row.recipient,
      subject: row.subject,
      event: row.event,
      audience: row.audience,
      language: row.language,
      orderId: row.order_id,
      text: payload.text,
      html: payload.html,
      replyTo: payload.replyTo,
      from: payload.from,
    };
  });
}
