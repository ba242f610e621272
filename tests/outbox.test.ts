import { beforeEach, describe, expect, test, vi } from "vitest";
import { type DB, openDatabase } from "#db/connect.server";
import type { Services } from "~/context";
import { logger } from "~/lib/log.server";
import { type Mailer, type MailMessage, MemoryMailer, renderLocalizedEmail } from "~/lib/mail.server";
import {
  backoffMs,
  CLAIM_MS,
  claimMessage,
  deliverDueMessages,
  pruneSentMessages,
  resendMessage,
  runOutbox,
} from "~/models/outbox/deliver.server";
import { queueEmail, RETRY_WINDOW_MS } from "~/models/outbox/queue.server";
import { DEFAULT_SHOP } from "~/models/settings/shop.server";
import { createCustomer } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";

/*
 * The outbox (issue 26, docs/decisions/044) on a real database — SQLite, and PostgreSQL in the
 * `postgres` project: a message exists exactly when its transaction commits, is sent once, is
 * tried again with a growing wait for 24 hours when the transport fails, then marked failed.
 * Time is moved by passing `at`. The real SMTP server runs in tests/reliability/outbox.spec.ts.
 */

const MINUTE = 60 * 1000;

/** A mail transport that refuses the first `failures` messages, then takes them. */
class FlakyMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  calls = 0;
  constructor(private failures: number) {}
  async send(message: MailMessage): Promise<void> {
    this.calls++;
    if (this.failures > 0) {
      this.failures--;
      throw new Error("connect ECONNREFUSED 127.0.0.1:2525");
    }
    this.sent.push(message);
  }
}

async function message(to = "buyer@example.com", subject = "Order ORD-1 received"): Promise<MailMessage> {
  return renderLocalizedEmail(DEFAULT_SHOP, to, "en", () => ({ subject, heading: "Hello", paragraphs: ["Thanks."] }));
}

async function row(db: DB, id: string) {
  return db.selectFrom("outbox_messages").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

async function attempts(db: DB, id: string) {
  return db.selectFrom("outbox_attempts").selectAll().where("message_id", "=", id).orderBy("id").execute();
}

function withMailer(svc: TestServices, mailer: Mailer): Services {
  return { ...svc, mailer };
}

// A failed attempt is logged; the tests read the attempt log instead.
beforeEach(() => {
  vi.spyOn(logger, "error").mockImplementation(() => {});
  vi.spyOn(logger, "warn").mockImplementation(() => {});
  return () => vi.restoreAllMocks();
});

const META = { event: "order.placed", audience: "customer", language: "en" } as const;

describe("queueing a message", () => {
  test("is part of the caller's transaction: rolled back, there is no message; committed, it is sent once", async () => {
    const svc = await freshTestServices();
    await expect(
      svc.db.transaction().execute(async (trx) => {
        await queueEmail(trx, await message(), META);
        throw new Error("the order failed");
      }),
    ).rejects.toThrow("the order failed");
    expect(await svc.db.selectFrom("outbox_messages").select("id").execute()).toEqual([]);

    const id = await svc.db.transaction().execute(async (trx) => queueEmail(trx, await message(), META));
    expect((await row(svc.db, id)).status).toBe("pending");
    expect(await deliverDueMessages(svc)).toEqual({ sent: 1, retry: 0, failed: 0 });
    expect(await deliverDueMessages(svc)).toEqual({ sent: 0, retry: 0, failed: 0 });
    expect(svc.mailer.sent).toHaveLength(1);
    const sent = svc.mailer.sent[0] as MailMessage;
    const stored = await row(svc.db, id);
    expect(stored.status).toBe("sent");
    expect(sent.messageId).toBe(stored.message_key);
    expect(sent.messageId).toMatch(/^<[0-9a-f-]{36}@harbourtactical\.hk>$/);
    expect(sent.replyTo).toBe(DEFAULT_SHOP.supportEmail);
    expect(sent.subject).toBe("Order ORD-1 received");
    expect(sent.text).toContain("Thanks.");
  });

  test("keeps the order it belongs to and who it is for", async () => {
    const svc = await freshTestServices();
    const id = await queueEmail(svc.db, await message(), {
      ...META,
      audience: "shop",
      orderId: "order-1",
      language: "zh",
    });
    expect(await row(svc.db, id)).toMatchObject({
      channel: "email",
      audience: "shop",
      order_id: "order-1",
      language: "zh",
      recipient: "buyer@example.com",
      attempts: 0,
    });
  });
});

describe("a failing transport", () => {
  test("fails 3 times then succeeds: one e-mail, four attempts logged, each wait twice the last", async () => {
    const svc = await freshTestServices();
    const mailer = new FlakyMailer(3);
    const start = new Date();
    const id = await queueEmail(svc.db, await message(), META, start);
    let at = start;
    for (const wait of [1, 2, 4]) {
      expect(await deliverDueMessages(withMailer(svc, mailer), at)).toEqual({ sent: 0, retry: 1, failed: 0 });
      const stored = await row(svc.db, id);
      expect(stored.status).toBe("pending");
      expect(stored.last_error).toContain("ECONNREFUSED");
      expect(Date.parse(stored.next_attempt_at) - at.getTime()).toBe(wait * MINUTE);
      // Not due before its time.
      expect(await deliverDueMessages(withMailer(svc, mailer), new Date(at.getTime() + wait * MINUTE - 1000))).toEqual({
        sent: 0,
        retry: 0,
        failed: 0,
      });
      at = new Date(stored.next_attempt_at);
    }
    expect(await deliverDueMessages(withMailer(svc, mailer), at)).toEqual({ sent: 1, retry: 0, failed: 0 });
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.calls).toBe(4);
    const log = await attempts(svc.db, id);
    expect(log.map((a) => a.ok)).toEqual([0, 0, 0, 1]);
    expect(log[0]?.error).toContain("ECONNREFUSED");
    const stored = await row(svc.db, id);
    expect(stored).toMatchObject({ status: "sent", attempts: 4, last_error: null });
  });

  test("is tried for 24 hours, then the message is marked failed", async () => {
    const svc = await freshTestServices();
    const mailer = new FlakyMailer(Number.POSITIVE_INFINITY);
    const start = new Date();
    const id = await queueEmail(svc.db, await message(), META, start);
    let at = start;
    let tries = 0;
    for (;;) {
      const result = await deliverDueMessages(withMailer(svc, mailer), at);
      tries++;
      if (result.failed === 1) break;
      expect(result.retry).toBe(1);
      at = new Date((await row(svc.db, id)).next_attempt_at);
      expect(tries).toBeLessThan(40);
    }
    const stored = await row(svc.db, id);
    expect(stored.status).toBe("failed");
    expect(Date.parse(stored.failed_at ?? "") - start.getTime()).toBe(RETRY_WINDOW_MS);
    // The waits grow to two hours, so a day holds about twenty attempts, not hundreds.
    expect(tries).toBeGreaterThan(10);
    expect(tries).toBeLessThan(25);
    expect(backoffMs(1)).toBe(MINUTE);
    expect(backoffMs(30)).toBe(120 * MINUTE);
    // A failed message is not sent by later runs, until an admin sends it again; the shop's alert
    // about it (queued when it failed, while the transport was still down) is.
    const good = new MemoryMailer();
    expect(await deliverDueMessages(withMailer(svc, good), new Date(at.getTime() + 60 * MINUTE))).toMatchObject({
      sent: 1,
    });
    expect(good.sent.map((mail) => [mail.to, mail.subject])).toEqual([
      [DEFAULT_SHOP.supportEmail, "Not sent: Order ORD-1 received"],
    ]);
    const admin = await createCustomer(svc.db);
    await resendMessage(svc.db, admin, id, new Date(at.getTime() + 60 * MINUTE));
    expect(await deliverDueMessages(withMailer(svc, good), new Date(at.getTime() + 60 * MINUTE))).toMatchObject({
      sent: 1,
    });
    expect(good.sent[1]?.messageId).toBe(stored.message_key);
    const audit = await svc.db.selectFrom("audit_log").select("action").where("entity_id", "=", id).execute();
    expect(audit.map((a) => a.action)).toEqual(["outbox_message.resent"]);
    // Seen as failed by an admin whose page is out of date: it has been sent meanwhile.
    await expect(resendMessage(svc.db, admin, id, new Date(), "failed")).rejects.toMatchObject({
      problem: { key: "adminMessages.errors.changedMeanwhile", params: { status: "sent" } },
    });
  });
});

describe("at-least-once across processes", () => {
  test("a claim whose process died is taken again after it runs out, with the same Message-ID", async () => {
    const svc = await freshTestServices();
    const start = new Date();
    const id = await queueEmail(svc.db, await message(), META, start);
    // A process claimed it, then died before it could mark it sent.
    expect(await claimMessage(svc.db, id, start)).not.toBeNull();
    expect(await deliverDueMessages(svc, new Date(start.getTime() + CLAIM_MS - 1000))).toMatchObject({ sent: 0 });
    expect(await deliverDueMessages(svc, new Date(start.getTime() + CLAIM_MS))).toMatchObject({ sent: 1 });
    expect(svc.mailer.sent[0]?.messageId).toBe((await row(svc.db, id)).message_key);
    expect((await row(svc.db, id)).attempts).toBe(2);
  });

  test("two processes delivering at once send each message once", async () => {
    const svc = await freshTestServices();
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await queueEmail(svc.db, await message(`buyer${i}@example.com`), META));
    const second = openDatabase(svc.config.databaseUrl);
    try {
      const mailers = [new MemoryMailer(), new MemoryMailer()] as const;
      const at = new Date();
      const [a, b] = await Promise.all([
        deliverDueMessages(withMailer(svc, mailers[0]), at),
        deliverDueMessages({ ...svc, db: second, mailer: mailers[1] }, at),
      ]);
      expect(a.sent + b.sent).toBe(30);
      const sent = [...mailers[0].sent, ...mailers[1].sent];
      expect(sent).toHaveLength(30);
      expect(new Set(sent.map((m) => m.to)).size).toBe(30);
    } finally {
      await second.destroy();
    }
  });
});

describe("retention", () => {
  test("sent messages older than the retention are removed with their log; failed and recent ones stay", async () => {
    const svc = await freshTestServices();
    const start = new Date("2026-01-01T00:00:00Z");
    const old = await queueEmail(svc.db, await message("old@example.com"), META, start);
    const failing = await queueEmail(svc.db, await message("failing@example.com"), META, start);
    await deliverDueMessages(withMailer(svc, new FlakyMailer(0)), start);
    // The second one is sent by the first pass too; make it a failure by hand to test it stays.
    await svc.db.updateTable("outbox_messages").set({ status: "failed" }).where("id", "=", failing).execute();
    const recent = await queueEmail(
      svc.db,
      await message("recent@example.com"),
      META,
      new Date("2026-03-25T00:00:00Z"),
    );
    await deliverDueMessages(svc, new Date("2026-03-25T00:00:00Z"));
    const result = await runOutbox(svc, new Date("2026-04-05T00:00:00Z"), 90);
    expect(result.pruned).toBe(1);
    const left = await svc.db.selectFrom("outbox_messages").select("id").orderBy("created_at").execute();
    expect(left.map((r) => r.id).sort()).toEqual([failing, recent].sort());
    expect(await attempts(svc.db, old)).toEqual([]);
    expect(await pruneSentMessages(svc.db, new Date("2026-04-05T00:00:00Z"), 90)).toBe(0);
  });
});
