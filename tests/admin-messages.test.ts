import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { DB } from "#db/connect.server";
import { eventLabel } from "~/components/admin/messages";
import { createTranslator, type Messages } from "~/lib/i18n";
import { logger } from "~/lib/log.server";
import { type Mailer, type MailMessage, MemoryMailer, renderLocalizedEmail } from "~/lib/mail.server";
import resources from "~/locales";
import { listMessages } from "~/models/outbox/admin-list.server";
import { deliverDueMessages } from "~/models/outbox/deliver.server";
import { queueEmail, queueWebhookDelivery, RETRY_WINDOW_MS } from "~/models/outbox/queue.server";
import { outboxRetentionDays, RETENTION_SETTING } from "~/models/outbox/retention.server";
import { DEFAULT_SHOP } from "~/models/settings/shop.server";
import type { CurrentUser } from "~/request/auth.server";
import { loader as dashboardLoader } from "~/routes/admin/dashboard";
import { action as messageAction, loader as messageLoader } from "~/routes/admin/message";
import { action as listAction, loader as listLoader } from "~/routes/admin/messages";
import { loader as orderLoader } from "~/routes/admin/order";
import { runJobsOnce } from "../server/scheduled-jobs";
import { createSignedIn, placeTestOrder as placeOrderWithMail } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { formOf, runRoute } from "./setup/route";

/**
 * Admin → Messages (issue 26): the outbox's list with its filters and pages, a message's page
 * with its delivery log, "send again" with its refusals, an order's messages on its page, the
 * dashboard's warning, and the retention setting the scheduler's outbox job prunes by. On a real
 * database (SQLite, and PostgreSQL in the `postgres` project); the messages are queued and
 * delivered (or failed) through the real outbox with a moved clock.
 */

const BASE = "http://localhost";
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let svc: TestServices;
let db: DB;
let owner: CurrentUser;
let staff: CurrentUser;
beforeEach(async () => {
  svc = await freshTestServices();
  db = svc.db;
  owner = await createSignedIn(db, { admin: true });
  staff = { ...(await createSignedIn(db, { admin: true })), role: "staff" };
  // A failed attempt is logged; the tests read the attempt log instead.
  vi.spyOn(logger, "error").mockImplementation(() => {});
  return () => vi.restoreAllMocks();
});

/**
 * An order, without the order-received e-mail and the shop's alert its placing queues: these
 * tests list the messages they queue themselves, at the times they choose.
 */
async function placeTestOrder(on: DB) {
  const placed = await placeOrderWithMail(on);
  await on.deleteFrom("outbox_messages").where("order_id", "=", placed.order.id).execute();
  return placed;
}

/** A mail transport that is down. */
class DownMailer implements Mailer {
  async send(_message: MailMessage): Promise<void> {
    throw new Error("connect ECONNREFUSED 127.0.0.1:2525");
  }
}

interface Queued {
  to?: string;
  subject?: string;
  event?: string;
  orderId?: string | null;
  at?: Date;
  language?: "en" | "zh";
}

/** An e-mail queued through the real outbox (rendered as the shop renders them). */
async function queued(options: Queued = {}): Promise<string> {
  const language = options.language ?? "en";
  const message = await renderLocalizedEmail(DEFAULT_SHOP, options.to ?? "buyer@example.com", language, () => ({
    subject: options.subject ?? "We received your order",
    heading: "Hello",
    paragraphs: ["Thanks for your order."],
  }));
  return queueEmail(
    db,
    message,
    { event: options.event ?? "order.placed", audience: "customer", language, orderId: options.orderId ?? null },
    options.at ?? new Date(),
  );
}

/** Sent at `at` through a working transport. */
async function sent(options: Queued = {}): Promise<string> {
  const id = await queued(options);
  await deliverDueMessages({ ...svc, mailer: new MemoryMailer() }, options.at ?? new Date());
  return id;
}

/**
 * Failed for good: queued at `at` (a day ago unless given), its one attempt refused at the end of
 * its 24-hour window (the clock moved there).
 */
async function failed(options: Queued = {}): Promise<string> {
  const at = options.at ?? new Date(Date.now() - RETRY_WINDOW_MS);
  const id = await queued({ ...options, at });
  await deliverDueMessages({ ...svc, mailer: new DownMailer() }, new Date(at.getTime() + RETRY_WINDOW_MS));
  // Failing for good queues the shop's alert about it (tests/shop-alerts.test.ts); these tests
  // list only the messages they queue themselves.
  await db.deleteFrom("outbox_messages").where("event", "=", "alert.message.failed").execute();
  return id;
}

async function row(id: string) {
  return db.selectFrom("outbox_messages").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

const get = (path: string) => new Request(`${BASE}${path}`);
const post = (path: string, fields: Record<string, string>) =>
  new Request(`${BASE}${path}`, { method: "POST", body: formOf(fields) });

function statusOf(value: unknown): number | undefined {
  if (value instanceof Response) return value.status;
  return (value as { init?: { status?: number } } | undefined)?.init?.status;
}

type ListData = Awaited<ReturnType<typeof listLoader>>;

async function list(query = "", user: CurrentUser = owner): Promise<ListData> {
  const { result, thrown } = await runRoute(svc, listLoader, get(`/admin/messages${query}`), user);
  expect(thrown).toBeUndefined();
  return result as ListData;
}

describe("the list", () => {
  it("shows every message newest first with what the admin needs; filters by status, channel and search", async () => {
    const start = new Date(Date.now() - 3 * DAY);
    const { order } = await placeTestOrder(db);
    const delivered = await sent({ to: "paid@example.com", event: "order.paid", at: start, orderId: order.id });
    const broken = await failed({ to: "gone@example.com", at: new Date(start.getTime() + HOUR) });
    const waiting = await queued({ to: "later@example.com", at: new Date(start.getTime() + 2 * HOUR) });
    const webhook = await queueWebhookDelivery(
      db,
      {
        webhookId: "hook-1",
        url: "https://hooks.example.com/shop",
        eventName: "order.placed",
        body: '{"event":"order.placed"}',
        deliveryId: "delivery-1",
      },
      { event: "order.placed", language: "en", orderId: order.id },
      new Date(start.getTime() + 3 * HOUR),
    );

    const all = await list();
    expect(all.messages.map((m) => m.id)).toEqual([webhook, waiting, broken, delivered]);
    expect(all.counts).toEqual({ waiting: 2, failed: 1 });
    expect(all.older).toBeNull();
    expect(all.newer).toBeNull();
    const failedRow = all.messages.find((m) => m.id === broken);
    expect(failedRow).toMatchObject({
      status: "failed",
      attempts: 1,
      recipient: "gone@example.com",
      subject: "We received your order",
      last_error: "connect ECONNREFUSED 127.0.0.1:2525",
      order_id: null,
    });
    expect(all.messages.find((m) => m.id === delivered)).toMatchObject({
      status: "sent",
      event: "order.paid",
      order_number: order.order_number,
    });
    // The list carries no message's content.
    expect(JSON.stringify(all)).not.toContain("Thanks for your order");

    expect((await list("?status=waiting")).messages.map((m) => m.id)).toEqual([webhook, waiting]);
    expect((await list("?status=sent")).messages.map((m) => m.id)).toEqual([delivered]);
    expect((await list("?status=failed")).messages.map((m) => m.id)).toEqual([broken]);
    expect((await list("?channel=webhook")).messages.map((m) => m.id)).toEqual([webhook]);
    expect((await list("?status=waiting&channel=email")).messages.map((m) => m.id)).toEqual([waiting]);
    // A search: the start of the recipient (in any case), or of the order number (with or without ORD-).
    expect((await list("?q=GONE@")).messages.map((m) => m.id)).toEqual([broken]);
    expect((await list("?q=https://hooks.")).messages.map((m) => m.id)).toEqual([webhook]);
    expect((await list(`?q=${order.order_number}`)).messages.map((m) => m.id)).toEqual([webhook, delivered]);
    expect((await list(`?q=${order.order_number.slice(4, 12).toLowerCase()}`)).messages.map((m) => m.id)).toEqual([
      webhook,
      delivered,
    ]);
    expect((await list(`?q=${order.order_number}&status=sent`)).messages.map((m) => m.id)).toEqual([delivered]);
    expect((await list("?q=nobody")).messages).toEqual([]);
    // Anything else in the query is the unfiltered first page.
    const odd = await list("?status=bogus&channel=fax&older=not-a-cursor");
    expect(odd).toMatchObject({ status: "all", channel: null });
    expect(odd.messages).toHaveLength(4);
  });

  it("pages by the last row shown, older and back to newer, the same rows whatever was queued meanwhile", async () => {
    const start = Date.now() - DAY;
    const ids: string[] = [];
    const recipients = new Map<string, string>();
    // Two share a timestamp: the id orders them.
    for (let i = 0; i < 55; i++) {
      const id = await queued({ to: `buyer${i}@example.com`, at: new Date(start + Math.floor(i / 2) * 1000) });
      ids.push(id);
      recipients.set(id, `buyer${i}@example.com`);
    }
    const newestFirst = [...ids].sort((a, b) => {
      const [ra, rb] = [ids.indexOf(a), ids.indexOf(b)];
      const [ta, tb] = [Math.floor(ra / 2), Math.floor(rb / 2)];
      return ta !== tb ? tb - ta : b < a ? -1 : 1;
    });
    const first = await list();
    expect(first.messages.map((m) => m.id)).toEqual(newestFirst.slice(0, 50));
    expect(first.newer).toBeNull();
    expect(first.older).toBeTruthy();
    // A message queued meanwhile does not push a row from page 1 onto page 2.
    await queued({ to: "late@example.com" });
    const second = await list(`?older=${encodeURIComponent(first.older as string)}`);
    expect(second.messages.map((m) => m.id)).toEqual(newestFirst.slice(50));
    expect(second.older).toBeNull();
    expect(second.newer).toBeTruthy();
    const back = await list(`?newer=${encodeURIComponent(second.newer as string)}`);
    expect(back.messages.map((m) => m.id)).toEqual(newestFirst.slice(0, 50));
    expect(back.older).toBe(first.older);
    // The late one is newer still.
    expect(back.newer).toBeTruthy();
    const top = await list(`?newer=${encodeURIComponent(back.newer as string)}`);
    expect(top.messages.map((m) => m.recipient)).toEqual(["late@example.com"]);
    expect(top.newer).toBeNull();

    // The model pages the same way with any page size, with a filter.
    const buyer1 = newestFirst.filter((id) => /^buyer1\d*@/.test(recipients.get(id) ?? ""));
    expect(buyer1).toHaveLength(11);
    const small = await listMessages(db, { status: "waiting", channel: "email", q: "buyer1", older: null }, 3);
    expect(small.messages.map((m) => m.id)).toEqual(buyer1.slice(0, 3));
    const next = await listMessages(db, { status: "waiting", channel: "email", q: "buyer1", older: small.older }, 3);
    expect(next.messages.map((m) => m.id)).toEqual(buyer1.slice(3, 6));
  });

  it("is for owners and staff; anyone else is sent to the admin sign-in", async () => {
    await failed();
    expect((await list("", staff)).messages).toHaveLength(1);
    for (const user of [null, await createSignedIn(db)]) {
      const { thrown } = await runRoute(svc, listLoader, get("/admin/messages"), user);
      expect(statusOf(thrown)).toBe(302);
      expect((thrown as Response).headers.get("Location")).toBe("/admin/login");
    }
  });
});

describe("a message's page", () => {
  it("shows the e-mail's text and every attempt with its error", async () => {
    const at = new Date();
    const { order } = await placeTestOrder(db);
    const id = await queued({ to: "flaky@example.com", orderId: order.id, at: new Date(at.getTime() - 2 * HOUR) });
    await deliverDueMessages({ ...svc, mailer: new DownMailer() }, new Date(at.getTime() - 2 * HOUR));
    await deliverDueMessages({ ...svc, mailer: new MemoryMailer() }, new Date(at.getTime() - HOUR));
    const { result, thrown } = await runRoute(svc, messageLoader, get(`/admin/messages/${id}`), staff, { id });
    expect(thrown).toBeUndefined();
    const page = result as Awaited<ReturnType<typeof messageLoader>>;
    expect(page.message).toMatchObject({ id, status: "sent", attempts: 2, order_number: order.order_number });
    expect(page.message.message_key).toMatch(/^<[0-9a-f-]{36}@/);
    expect(page.text).toContain("Thanks for your order.");
    expect(page.body).toBeNull();
    expect(page.attempts.map((a) => [a.ok, a.error])).toEqual([
      [false, "connect ECONNREFUSED 127.0.0.1:2525"],
      [true, null],
    ]);
  });

  it("answers 404 for a message that is not there (pruned, or a wrong link), in the page's own words", async () => {
    for (const id of ["0b6f1a4e-8a57-4a43-9f1e-2f9a3f6d1c00", "../etc", "x".repeat(80)]) {
      const { thrown } = await runRoute(svc, messageLoader, get(`/admin/messages/${id}`), owner, { id });
      expect(statusOf(thrown)).toBe(404);
      expect((thrown as { data: { title: string } }).data.title).toBe("adminMessages.errors.notFoundTitle");
    }
  });
});

describe("send again", () => {
  async function resend(id: string, fields: Record<string, string>, user: CurrentUser | null = owner) {
    return runRoute(svc, messageAction, post(`/admin/messages/${id}`, { intent: "resend", ...fields }), user, { id });
  }

  it("sends a failed message again with its Message-ID, back to the page it came from, audited", async () => {
    const id = await failed({ to: "gone@example.com" });
    const before = await row(id);
    const { result, flash } = await resend(
      id,
      { expected: "failed", returnTo: "/admin/messages?status=failed" },
      staff,
    );
    expect(statusOf(result)).toBe(302);
    expect((result as Response).headers.get("Location")).toBe("/admin/messages?status=failed");
    expect(flash).toMatchObject({
      type: "success",
      key: "adminMessages.resent",
      detailKey: "adminMessages.resentDetail",
    });
    expect((await row(id)).status).toBe("pending");
    const audit = await db.selectFrom("audit_log").selectAll().where("entity_id", "=", id).execute();
    expect(audit.map((entry) => [entry.action, entry.actor_user_id])).toEqual([["outbox_message.resent", staff.id]]);

    const mailer = new MemoryMailer();
    expect(await deliverDueMessages({ ...svc, mailer })).toMatchObject({ sent: 1 });
    expect(mailer.sent.map((m) => [m.to, m.messageId])).toEqual([["gone@example.com", before.message_key]]);
    const after = await list("?status=sent");
    expect(after.messages.map((m) => m.id)).toEqual([id]);
    expect(after.messages[0]?.attempts).toBe(2);
  });

  it("sends a sent e-mail again as a new copy with a Message-ID of its own; the original stays", async () => {
    const { order } = await placeTestOrder(db);
    const id = await sent({ to: "lost@example.com", orderId: order.id, subject: "Payment confirmed" });
    const { result, flash } = await resend(id, { expected: "sent" });
    const copies = await db.selectFrom("outbox_messages").selectAll().where("id", "!=", id).execute();
    expect(copies).toHaveLength(1);
    const copy = copies[0] as (typeof copies)[number];
    expect(copy).toMatchObject({
      status: "pending",
      recipient: "lost@example.com",
      subject: "Payment confirmed",
      order_id: order.id,
      event: "order.placed",
      attempts: 0,
    });
    expect(copy.message_key).not.toBe((await row(id)).message_key);
    expect(copy.payload).toBe((await row(id)).payload);
    expect((await row(id)).status).toBe("sent");
    // No page to come back to: the copy's page.
    expect((result as Response).headers.get("Location")).toBe(`/admin/messages/${copy.id}`);
    expect(flash).toMatchObject({ key: "adminMessages.copied" });
    const mailer = new MemoryMailer();
    await deliverDueMessages({ ...svc, mailer });
    expect(mailer.sent.map((m) => m.messageId)).toEqual([copy.message_key]);
  });

  it("refuses, changing nothing: gone (404), moved on since the admin saw it (409), a delivered webhook (409)", async () => {
    const gone = await resend("0b6f1a4e-8a57-4a43-9f1e-2f9a3f6d1c00", { expected: "failed" });
    expect(statusOf(gone.result)).toBe(404);
    expect((gone.result as { data: { problem: { key: string } } }).data.problem.key).toBe(
      "adminMessages.errors.notFound",
    );

    // Seen failed; sent again by someone else and delivered meanwhile.
    const id = await sent();
    const stale = await resend(id, { expected: "failed", returnTo: "/admin/messages" });
    expect(statusOf(stale.result)).toBe(409);
    expect((stale.result as { data: { problem: unknown } }).data.problem).toEqual({
      key: "adminMessages.errors.changedMeanwhile",
      params: { status: "sent" },
    });
    // Being sent right now.
    const busy = await queued();
    await db.updateTable("outbox_messages").set({ status: "sending" }).where("id", "=", busy).execute();
    expect(statusOf((await resend(busy, { expected: "pending" })).result)).toBe(409);

    const webhook = await queueWebhookDelivery(
      db,
      {
        webhookId: "hook-1",
        url: "https://hooks.example.com/",
        eventName: "order.paid",
        body: "{}",
        deliveryId: "d-1",
      },
      { event: "order.paid", language: "en" },
    );
    // Its receiver answered 200 (the webhook sender is another part of the shop): marked so by hand.
    await db.updateTable("outbox_messages").set({ status: "sent" }).where("id", "=", webhook).execute();
    const delivered = await resend(webhook, { expected: "sent" });
    expect(statusOf(delivered.result)).toBe(409);
    expect((delivered.result as { data: { problem: { key: string } } }).data.problem.key).toBe(
      "adminMessages.errors.webhookDelivered",
    );
    expect(await db.selectFrom("outbox_messages").select("id").execute()).toHaveLength(3);
    expect(
      await db.selectFrom("audit_log").select("id").where("action", "=", "outbox_message.resent").execute(),
    ).toEqual([]);
  });

  it("is refused to anyone but an admin before the body is read; a bad form is a 400; returnTo stays in the admin", async () => {
    const id = await failed();
    for (const user of [null, await createSignedIn(db)]) {
      const { thrown } = await resend(id, { expected: "failed" }, user);
      expect(statusOf(thrown)).toBe(403);
    }
    expect((await row(id)).status).toBe("failed");
    const bad: Record<string, string>[] = [
      { expected: "sending" },
      { expected: "" },
      { intent: "nothing", expected: "failed" },
    ];
    for (const fields of bad) {
      expect(statusOf((await resend(id, fields)).result)).toBe(400);
    }
    expect((await row(id)).status).toBe("failed");
    const outside = await resend(id, { expected: "failed", returnTo: "//evil.example/admin/messages" });
    expect((outside.result as Response).headers.get("Location")).toBe(`/admin/messages/${id}`);
    await db.updateTable("outbox_messages").set({ status: "failed" }).where("id", "=", id).execute();
    const { order } = await placeTestOrder(db);
    const toOrder = await resend(id, { expected: "failed", returnTo: `/admin/orders/${order.id}` });
    expect((toOrder.result as Response).headers.get("Location")).toBe(`/admin/orders/${order.id}`);
  });
});

describe("the admin order page", () => {
  it("lists the messages of that order only, newest first, with their status and last error", async () => {
    const { order } = await placeTestOrder(db);
    const { order: other } = await placeTestOrder(db);
    const start = new Date(Date.now() - DAY);
    const confirmation = await sent({ to: order.email, orderId: order.id, at: start });
    const rejected = await failed({
      to: order.email,
      orderId: order.id,
      event: "order.receipt_rejected",
      at: new Date(start.getTime() + HOUR),
    });
    await sent({ to: other.email, orderId: other.id, at: start });
    const { result } = await runRoute(svc, orderLoader, get(`/admin/orders/${order.id}`), staff, { id: order.id });
    const page = result as Awaited<ReturnType<typeof orderLoader>>;
    expect(page.messages.map((m) => [m.id, m.status, m.last_error])).toEqual([
      [rejected, "failed", "connect ECONNREFUSED 127.0.0.1:2525"],
      [confirmation, "sent", null],
    ]);
    expect(page.messages[0]).toMatchObject({ order_number: order.order_number, event: "order.receipt_rejected" });
  });
});

describe("the dashboard", () => {
  it("counts the failed messages while there are any", async () => {
    const read = async () =>
      (
        (await runRoute(svc, dashboardLoader, get("/admin"), staff)).result as Awaited<
          ReturnType<typeof dashboardLoader>
        >
      ).failedMessages;
    await sent();
    await queued();
    expect(await read()).toBe(0);
    const first = await failed();
    await failed();
    expect(await read()).toBe(2);
    await runRoute(
      svc,
      messageAction,
      post(`/admin/messages/${first}`, { intent: "resend", expected: "failed" }),
      staff,
      {
        id: first,
      },
    );
    expect(await read()).toBe(1);
  });
});

describe("retention", () => {
  async function setRetention(days: string, user: CurrentUser = owner) {
    return runRoute(svc, listAction, post("/admin/messages?status=sent", { intent: "retention", days }), user);
  }

  it("is 90 days until the owner sets it (1–3650), audited; staff see it but may not change it", async () => {
    expect((await list()).retentionDays).toBe(90);
    expect((await list("", staff)).owner).toBe(false);
    const { result, flash } = await setRetention("30");
    expect((result as Response).headers.get("Location")).toBe("/admin/messages?status=sent");
    expect(flash).toMatchObject({ key: "adminMessages.retention.saved", params: { days: 30 } });
    expect(await outboxRetentionDays(db)).toBe(30);
    expect((await list()).retentionDays).toBe(30);
    const audit = await db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "setting.outbox_retention_updated")
      .execute();
    expect(audit.map((entry) => [entry.actor_user_id, JSON.parse(entry.details ?? "null")])).toEqual([
      [owner.id, { before: { days: 90 }, after: { days: 30 } }],
    ]);

    const refused = await setRetention("1", staff);
    expect(statusOf(refused.thrown)).toBe(403);
    for (const days of ["0", "3651", "1.5", "abc", ""]) {
      const answer = await setRetention(days);
      expect(statusOf(answer.result), days).toBe(400);
      expect(
        (answer.result as { data: { result: { error: Record<string, string[]> } } }).data.result.error.days,
      ).toEqual(["adminMessages.retention.range"]);
    }
    expect(await outboxRetentionDays(db)).toBe(30);
    expect((await setRetention("3650")).flash).toMatchObject({ params: { days: 3650 } });
    // A value that is not a number of days in the table (written by hand) is the default.
    await db.updateTable("site_settings").set({ value: "forever" }).where("key", "=", RETENTION_SETTING).execute();
    expect(await outboxRetentionDays(db)).toBe(90);
  });

  it("is what the scheduler's outbox job prunes sent messages by", async () => {
    const start = new Date("2026-01-01T00:00:00Z");
    const old = await sent({ to: "old@example.com", at: start });
    const recent = await sent({ to: "recent@example.com", at: new Date(start.getTime() + 20 * DAY) });
    const stuck = await failed({ to: "stuck@example.com", at: new Date(start.getTime() + DAY) });
    await setRetention("30");
    // 31 days on: past 30 days for the first only (the default 90 would keep both).
    const results = await runJobsOnce(svc, new Date(start.getTime() + 31 * DAY));
    expect(results.outbox).toMatchObject({ pruned: 1 });
    const left = await db.selectFrom("outbox_messages").select("id").execute();
    expect(left.map((r) => r.id).sort()).toEqual([recent, stuck].sort());
    expect(await db.selectFrom("outbox_attempts").select("id").where("message_id", "=", old).execute()).toEqual([]);
  });
});

describe("what a message is about, in words", () => {
  const translators = {
    en: createTranslator("en", resources.en.translation as unknown as Messages),
    zh: createTranslator("zh", resources.zh.translation as unknown as Messages),
  };

  it("names an event in both languages, a webhook's as a webhook, and shows one it has no words for as stored", () => {
    expect(eventLabel(translators.en, "email", "order.placed")).toBe("Order received");
    expect(eventLabel(translators.zh, "email", "order.placed")).toBe("已收到訂單");
    expect(eventLabel(translators.en, "email", "alert.order.placed")).toBe("Shop alert: new order");
    expect(eventLabel(translators.en, "webhook", "order.paid")).toBe("Webhook: Payment confirmed");
    expect(eventLabel(translators.zh, "webhook", "order.paid")).toBe("Webhook 通知：已確認付款");
    expect(eventLabel(translators.en, "email", "alert.stock.low")).toBe("Shop alert (stock.low)");
    expect(eventLabel(translators.en, "email", "something.new")).toBe("something.new");
  });

  it("has words for every event the shop's code queues a message for", () => {
    const files = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) return entry.name === "locales" ? [] : files(full);
        return /\.tsx?$/.test(entry.name) ? [full] : [];
      });
    const events = new Set<string>();
    for (const file of files(path.resolve("app"))) {
      const text = fs.readFileSync(file, "utf8");
      if (!/queue(Email|WebhookDelivery)\(/.test(text) || file.endsWith("queue.server.ts")) continue;
      for (const match of text.matchAll(/\bevent:\s*["']([a-z_]+(?:\.[a-z_]+)+)["']/g)) events.add(match[1] as string);
    }
    // Names built from a type: the shop's events (alerts, webhooks) and the account links' purposes.
    const union = (file: string, type: string) => {
      const source = fs.readFileSync(path.resolve(file), "utf8");
      const body = new RegExp(`type ${type} =([^;]+);`).exec(source)?.[1] ?? "";
      return [...body.matchAll(/"([a-z_.]+)"/g)].map((match) => match[1] as string);
    };
    const shopEvents = union("app/models/outbox/events.server.ts", "ShopEventType");
    const purposes = union("db/schema.ts", "AccountTokenPurpose");
    expect(shopEvents).toContain("order.placed");
    expect(purposes).toContain("reset");
    for (const type of shopEvents) events.add(type).add(`alert.${type}`);
    for (const purpose of purposes) events.add(`account.${purpose}`);
    for (const event of events) {
      for (const [language, t] of Object.entries(translators)) {
        expect(eventLabel(t, "email", event), `${event} in ${language}`).not.toBe(event);
        expect(eventLabel(t, "email", event), `${event} in ${language}`).not.toMatch(/\(/);
      }
    }
  });
});
