import { type DB, now } from "#db/connect.server";
import { isDatabaseUnavailable } from "#db/errors";
import type { OutboxMessageRow } from "#db/schema";
import type { Services } from "~/context";
import { DEFAULT_OUTBOX_CLAIM_SECONDS } from "~/lib/config.server";
import { logger } from "~/lib/log.server";
import { countDeliveryFailure } from "~/lib/metrics.server";
import { UserError } from "~/lib/problem";
import { auditAction } from "../audit.server";
import { DeliveryError } from "./delivery-error";
import { recordShopEvent } from "./events.server";
import { type OutboxAudience, type OutboxEmail, queueEmail, RETRY_WINDOW_MS } from "./queue.server";
import { wakeOutbox } from "./wake.server";
import { sendWebhook } from "./webhook-send.server";

export { DeliveryError };

/*
 * Sending what the outbox holds (docs/decisions/044). Delivery is at-least-once: a message is
 * claimed (pending → sending, a compare-and-set), sent, then marked sent. A process that dies
 * between the send and the mark leaves a claim that runs out (CLAIM_MS); the message is then sent
 * again with the same Message-ID / delivery id, which lets the receiver tell it is the same one.
 * A failed attempt is tried again later, each wait twice the last (1 minute up to 2 hours), for
 * 24 hours; after that the message is marked failed, the shop is told, and an admin can send it
 * again from Admin → Messages.
 */

/**
 * How long a claim holds by default (OUTBOX_CLAIM_SECONDS, `config.outboxClaimMs`): a send still
 * running after this is presumed dead and taken again. Longer than the slowest send can take
 * (the SMTP timeouts in mail.server.ts), so a live send is not duplicated.
 */
export const CLAIM_MS = DEFAULT_OUTBOX_CLAIM_SECONDS * 1000;
/** Messages one pass takes at most (a pass runs again as soon as it has finished). */
const BATCH = 25;
/**
 * The first wait after a failure by default (OUTBOX_RETRY_SECONDS, `config.outboxRetryMs`); each
 * following one doubles, up to MAX_BACKOFF_MS.
 */
const FIRST_BACKOFF_MS = 60 * 1000;
const MAX_BACKOFF_MS = 2 * 60 * 60 * 1000;
/** What is kept of a transport's error message. */
const ERROR_MAX_LENGTH = 1000;

/** The wait after the `attempts`-th failed attempt: 1, 2, 4… minutes (from `firstMs`), at most 2 hours. */
export function backoffMs(attempts: number, firstMs = FIRST_BACKOFF_MS): number {
  return Math.min(MAX_BACKOFF_MS, firstMs * 2 ** Math.max(0, attempts - 1));
}

type Send = (services: Services, message: OutboxMessageRow) => Promise<{ responseStatus: number | null }>;

async function sendEmail(services: Services, message: OutboxMessageRow): Promise<{ responseStatus: null }> {
  const email = JSON.parse(message.payload) as OutboxEmail;
  await services.mailer.send({
    from: email.from,
    replyTo: email.replyTo,
    to: message.recipient,
    subject: message.subject,
    text: email.text,
    html: email.html,
    messageId: message.message_key,
  });
  return { responseStatus: null };
}

const CHANNELS: Record<OutboxMessageRow["channel"], Send> = {
  email: sendEmail,
  webhook: sendWebhook,
};

/** Messages due at `at`: pending ones whose time has come, and claims that outlived their process. */
async function dueMessageIds(db: DB, at: Date, limit: number): Promise<string[]> {
  const timestamp = now(at);
  const [pending, stale] = await Promise.all([
    db
      .selectFrom("outbox_messages")
      .select("id")
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", timestamp)
      .orderBy("next_attempt_at")
      .limit(limit)
      .execute(),
    db
      .selectFrom("outbox_messages")
      .select("id")
      .where("status", "=", "sending")
      .where("claimed_until", "<=", timestamp)
      .orderBy("claimed_until")
      .limit(limit)
      .execute(),
  ]);
  return [...pending, ...stale].map((row) => row.id);
}

/**
 * Claims one message for sending at `at` for `claimMs`: a compare-and-set that holds only while
 * it is still due, so of several processes that try at once exactly one gets it. The claimed
 * row, or null.
 */
export async function claimMessage(db: DB, id: string, at: Date, claimMs = CLAIM_MS): Promise<OutboxMessageRow | null> {
  const timestamp = now(at);
  const claimed = await db
    .updateTable("outbox_messages")
    .set((eb) => ({
      status: "sending",
      claimed_until: now(new Date(at.getTime() + claimMs)),
      attempts: eb("attempts", "+", 1),
      updated_at: timestamp,
    }))
    .where("id", "=", id)
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "pending"), eb("next_attempt_at", "<=", timestamp)]),
        eb.and([eb("status", "=", "sending"), eb("claimed_until", "<=", timestamp)]),
      ]),
    )
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return null;
  return (await db.selectFrom("outbox_messages").selectAll().where("id", "=", id).executeTakeFirst()) ?? null;
}

/** The outcome of one attempt, written with its log line in one transaction. */
async function recordAttempt(
  { db, config }: Pick<Services, "db" | "config">,
  message: OutboxMessageRow,
  at: Date,
  durationMs: number,
  outcome: { ok: true; responseStatus: number | null } | { ok: false; error: string; responseStatus: number | null },
): Promise<"sent" | "retry" | "failed" | "lost"> {
  const timestamp = now(at);
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto("outbox_attempts")
      .values({
        message_id: message.id,
        attempted_at: timestamp,
        ok: outcome.ok ? 1 : 0,
        response_status: outcome.responseStatus,
        error: outcome.ok ? null : outcome.error,
        duration_ms: Math.round(durationMs),
      })
      .execute();
    // Only the claim this process holds is settled: a claim that ran out and was taken by another
    // process (this send took longer than CLAIM_MS) is that process's to settle.
    const mine = trx
      .updateTable("outbox_messages")
      .where("id", "=", message.id)
      .where("status", "=", "sending")
      .where("attempts", "=", message.attempts);
    if (outcome.ok) {
      const done = await mine
        .set({
          status: "sent",
          sent_at: timestamp,
          claimed_until: null,
          last_error: null,
          last_response_status: outcome.responseStatus,
          updated_at: timestamp,
        })
        .executeTakeFirst();
      return Number(done.numUpdatedRows) === 1 ? "sent" : "lost";
    }
    const giveUp = timestamp >= message.give_up_at;
    const next = new Date(
      Math.min(at.getTime() + backoffMs(message.attempts, config.outboxRetryMs), Date.parse(message.give_up_at)),
    );
    const done = await mine
      .set({
        status: giveUp ? "failed" : "pending",
        failed_at: giveUp ? timestamp : null,
        next_attempt_at: giveUp ? message.next_attempt_at : now(next),
        claimed_until: null,
        last_error: outcome.error,
        last_response_status: outcome.responseStatus,
        updated_at: timestamp,
      })
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) return "lost";
    // The shop is told of a message that failed for good — except of the alerts about failures
    // themselves, which would otherwise feed each other while the mail server is down.
    if (giveUp && !message.event.startsWith("alert.message.")) {
      await recordShopEvent(trx, {
        type: "message.failed",
        at,
        publicUrl: config.publicUrl,
        orderId: message.order_id,
        messageId: message.id,
      });
    }
    return giveUp ? "failed" : "retry";
  });
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, " ").trim().slice(0, ERROR_MAX_LENGTH) || "unknown error";
}

/**
 * How long a process keeps trying to write down a send's outcome while the database cannot take
 * it (a PostgreSQL restart): the message has gone out, and until its claim runs out no other
 * process sends it again — so the mark is tried again, 0.25, 0.5, 1, 2… s apart, until a second
 * before the claim ends. Past that the mark is given up and the message goes out once more with
 * the same Message-ID (at least once, decision 044).
 */
const SETTLE_MARGIN_MS = 1_000;
const SETTLE_FIRST_WAIT_MS = 250;
const SETTLE_MAX_WAIT_MS = 4_000;

async function settle<T>(write: () => Promise<T>, claimEndsAt: number): Promise<T> {
  for (let wait = SETTLE_FIRST_WAIT_MS; ; wait = Math.min(wait * 2, SETTLE_MAX_WAIT_MS)) {
    try {
      return await write();
    } catch (error) {
      const left = claimEndsAt - SETTLE_MARGIN_MS - Date.now();
      if (!isDatabaseUnavailable(error) || left < wait) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/**
 * Claims, sends and settles one message; what became of it (null: another process had it).
 * `elapsed` gives the pass's clock: `at` moved on by the real time the pass has taken, so a
 * claim made late in a long pass still runs for its whole length.
 */
export async function deliverMessage(
  services: Services,
  id: string,
  at: Date,
  elapsed: () => number = () => 0,
): Promise<"sent" | "retry" | "failed" | "lost" | null> {
  const claimMs = services.config.outboxClaimMs;
  const message = await claimMessage(services.db, id, new Date(at.getTime() + elapsed()), claimMs);
  if (!message) return null;
  const claimEndsAt = Date.now() + claimMs;
  const started = performance.now();
  let outcome:
    | { ok: true; responseStatus: number | null }
    | { ok: false; error: string; responseStatus: number | null };
  let failure: unknown = null;
  try {
    const send = CHANNELS[message.channel];
    if (!send) throw new DeliveryError(`unknown channel ${message.channel}`);
    const { responseStatus } = await send(services, message);
    outcome = { ok: true, responseStatus };
  } catch (error) {
    failure = error;
    countDeliveryFailure(message.channel);
    const responseStatus = error instanceof DeliveryError ? error.responseStatus : null;
    outcome = { ok: false, error: errorText(error), responseStatus };
  }
  const durationMs = performance.now() - started;
  const result = await settle(
    () => recordAttempt(services, message, new Date(at.getTime() + elapsed()), durationMs, outcome),
    claimEndsAt,
  );
  if (failure !== null) {
    logger[result === "failed" ? "error" : "warn"](
      { messageId: message.id, channel: message.channel, attempt: message.attempts },
      `outbox: ${message.channel} "${message.subject}" to ${message.recipient} failed (attempt ${message.attempts}, ${result === "failed" ? "given up" : "tried again later"}): ${errorText(failure)}`,
    );
  }
  return result;
}

export interface DeliveryResult {
  sent: number;
  retry: number;
  failed: number;
}

/**
 * Sends every message due at `at`, batch after batch, until none is left that this pass has not
 * already tried (a failure waits for its next attempt). Safe in any number of processes at once.
 */
export async function deliverDueMessages(services: Services, at: Date = new Date()): Promise<DeliveryResult> {
  const result: DeliveryResult = { sent: 0, retry: 0, failed: 0 };
  const tried = new Set<string>();
  // The pass's clock runs on from `at`, in whole seconds: a pass through a backlog can take longer
  // than a claim lasts, and a claim made late in it must still hold for its whole length.
  const passStarted = performance.now();
  const elapsed = () => Math.floor((performance.now() - passStarted) / 1000) * 1000;
  for (;;) {
    const ids = (await dueMessageIds(services.db, new Date(at.getTime() + elapsed()), BATCH)).filter(
      (id) => !tried.has(id),
    );
    if (ids.length === 0) return result;
    for (const id of ids) {
      tried.add(id);
      const outcome = await deliverMessage(services, id, at, elapsed);
      if (outcome === "sent" || outcome === "retry" || outcome === "failed") result[outcome]++;
    }
  }
}

/** Sent messages older than this many days are removed by the scheduler (outbox retention). */
export const DEFAULT_RETENTION_DAYS = 90;

/** Removes the messages sent before `retentionDays` days ago, with their delivery log. */
export async function pruneSentMessages(db: DB, at: Date, retentionDays = DEFAULT_RETENTION_DAYS): Promise<number> {
  const before = now(new Date(at.getTime() - retentionDays * 24 * 60 * 60 * 1000));
  return db.transaction().execute(async (trx) => {
    const old = trx
      .selectFrom("outbox_messages")
      .select("id")
      .where("status", "=", "sent")
      .where("sent_at", "<", before);
    await trx.deleteFrom("outbox_attempts").where("message_id", "in", old).execute();
    const removed = await trx
      .deleteFrom("outbox_messages")
      .where("status", "=", "sent")
      .where("sent_at", "<", before)
      .executeTakeFirst();
    return Number(removed.numDeletedRows);
  });
}

/** What "send again" did: the message that goes out now, and whether it is a new copy. */
export interface ResendResult {
  /** The message that goes out: the same one, or the copy of a sent e-mail. */
  id: string;
  copy: boolean;
  recipient: string;
}

/**
 * An admin sends a message again (docs/decisions/044, "Sending again"):
 * - a failed one, or one still waiting, is due at once with a new 24-hour retry window and the
 *   same Message-ID: it is still the one message;
 * - a sent e-mail goes out as a new copy (a new outbox row with a new Message-ID, for the
 *   shopper who says it never arrived), the original left as it was;
 * - a sent webhook delivery is refused (409): its receiver accepted it, and a copy with the same
 *   delivery id would be dropped as a duplicate.
 * `expected` is the status the admin saw: when the message has moved on since (another admin
 * sent it again, it went out meanwhile), nothing is done and the answer is 409 with its status
 * now — as when it is being sent at this moment. 404 when it is gone. Audited.
 */
export async function resendMessage(
  db: DB,
  actor: { id: string },
  id: string,
  at: Date = new Date(),
  expected?: OutboxMessageRow["status"],
): Promise<ResendResult> {
  const timestamp = now(at);
  const result = await db.transaction().execute(async (trx): Promise<ResendResult> => {
    const message = await trx.selectFrom("outbox_messages").selectAll().where("id", "=", id).executeTakeFirst();
    if (!message) throw new UserError("adminMessages.errors.notFound", { status: 404 });
    const changed = () =>
      new UserError("adminMessages.errors.changedMeanwhile", { params: { status: message.status }, status: 409 });
    if (expected && message.status !== expected) throw changed();
    if (message.status === "sent") {
      if (message.channel !== "email") throw new UserError("adminMessages.errors.webhookDelivered", { status: 409 });
      const email = JSON.parse(message.payload) as OutboxEmail;
      const copyId = await queueEmail(
        trx,
        { ...email, to: message.recipient, subject: message.subject },
        {
          event: message.event,
          audience: message.audience as OutboxAudience,
          language: message.language,
          orderId: message.order_id,
        },
        at,
      );
      await auditAction(trx, actor.id, "outbox_message.resent", id, {
        before: { status: "sent" },
        after: { copy: copyId, status: "pending" },
      });
      return { id: copyId, copy: true, recipient: message.recipient };
    }
    const updated = await trx
      .updateTable("outbox_messages")
      .set({
        status: "pending",
        next_attempt_at: timestamp,
        give_up_at: now(new Date(at.getTime() + RETRY_WINDOW_MS)),
        claimed_until: null,
        failed_at: null,
        updated_at: timestamp,
      })
      .where("id", "=", id)
      .where("status", "in", ["failed", "pending"])
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw changed();
    await auditAction(trx, actor.id, "outbox_message.resent", id, {
      before: { status: message.status },
      after: { status: "pending" },
    });
    return { id, copy: false, recipient: message.recipient };
  });
  wakeOutbox();
  return result;
}

/** One run of the scheduler's outbox job: what is due (retries included), then the old sent messages. */
export async function runOutbox(
  services: Services,
  at: Date,
  retentionDays = DEFAULT_RETENTION_DAYS,
): Promise<DeliveryResult & { pruned: number }> {
  const delivered = await deliverDueMessages(services, at);
  const pruned = await pruneSentMessages(services.db, at, retentionDays);
  return { ...delivered, pruned };
}
