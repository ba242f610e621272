import crypto from "node:crypto";
import Database from "better-sqlite3";

/**
 * A message that failed for good, as the outbox leaves it (app/models/outbox/deliver.server.ts):
 * status failed, one refused attempt in its log. Written by hand because the real way takes 24
 * hours of refused attempts; the running shop never touches a failed message on its own, so the
 * row stays as written until someone sends it again. For a running shop's SQLite file (WAL lets it
 * write beside the shop). Returns its id.
 */
export function insertFailedMessage(
  databaseFile: string,
  options: { orderId: string | null; recipient: string },
): string {
  const db = new Database(databaseFile);
  try {
    db.pragma("busy_timeout = 10000");
    const id = crypto.randomUUID();
    // Its times are the test's now, the time of the order it belongs to (not a day before it).
    const failedAt = new Date();
    const queuedAt = failedAt;
    const iso = (date: Date) => date.toISOString();
    const payload = JSON.stringify({
      from: '"Harbour Tactical" <no-reply@harbourtactical.hk>',
      text: "We have received your order.",
      html: "<p>We have received your order.</p>",
    });
    db.transaction(() => {
      db.prepare(
        `INSERT INTO outbox_messages (id, channel, event, audience, recipient, language, subject, payload, message_key,
           order_id, webhook_id, status, attempts, next_attempt_at, give_up_at, claimed_until, last_error,
           last_response_status, created_at, updated_at, sent_at, failed_at)
         VALUES (?, 'email', 'order.placed', 'customer', ?, 'en', 'We received your order', ?, ?, ?, NULL, 'failed', 1,
           ?, ?, NULL, 'connect ECONNREFUSED 127.0.0.1:2525', NULL, ?, ?, NULL, ?)`,
      ).run(
        id,
        options.recipient,
        payload,
        `<${id}@harbourtactical.hk>`,
        options.orderId,
        iso(failedAt),
        iso(failedAt),
        iso(queuedAt),
        iso(failedAt),
        iso(failedAt),
      );
      db.prepare(
        `INSERT INTO outbox_attempts (message_id, attempted_at, ok, response_status, error, duration_ms)
         VALUES (?, ?, 0, NULL, 'connect ECONNREFUSED 127.0.0.1:2525', 12)`,
      ).run(id, iso(failedAt));
    })();
    return id;
  } finally {
    db.close();
  }
}
