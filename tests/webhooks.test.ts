import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type DB, now } from "#db/connect.server";
import { renderLocalizedEmail } from "~/lib/mail.server";
import { fieldMessage } from "~/lib/problem";
import { backoffMs, deliverDueMessages } from "~/models/outbox/deliver.server";
import { recordShopEvent, type ShopEvent } from "~/models/outbox/events.server";
import { queueEmail } from "~/models/outbox/queue.server";
import { DEFAULT_SHOP } from "~/models/settings/shop.server";
import { WEBHOOKS_ALLOW_PRIVATE_KEY } from "~/models/webhooks/webhooks.server";
import type { CurrentUser } from "~/request/auth.server";
import { action as webhookAction, loader as webhookLoader } from "~/routes/admin/webhook";
import { action as listAction, loader as listLoader } from "~/routes/admin/webhooks";
import type { WebhookEvent } from "~/schemas/webhook";
import { createSignedIn, placeTestOrder as placeOrderWithMail } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { formOf, runRoute } from "./setup/route";

/*
 * Settings → Webhooks (issue 26, docs/decisions/046) on a real database — SQLite, and PostgreSQL
 * in the `postgres` project: the owner adds, edits and removes webhooks (an address refused at its
 * field, the form kept), the shop's events queue one delivery per subscribed webhook, and a real
 * receiver on 127.0.0.1 checks every signature while it answers 500, 500, then 200.
 */

let svc: TestServices;
let OWNER: CurrentUser;
const PUBLIC_URL = "https://shop.example.hk";

beforeEach(async () => {
  svc = await freshTestServices({ publicUrl: PUBLIC_URL });
  OWNER = await createSignedIn(svc.db, { admin: true });
  // A refused delivery is logged on stderr; the tests read the delivery log instead.
  vi.spyOn(console, "error").mockImplementation(() => {});
  return () => vi.restoreAllMocks();
});

const LIST = "http://shop.test/admin/settings/webhooks";

function post(url: string, fields: Record<string, string | string[]>): Request {
  return new Request(url, { method: "POST", body: formOf(fields) });
}

/** The status of a thrown answer: a Response, or `data(…, { status })`. */
function statusOf(value: unknown): number | undefined {
  if (value instanceof Response) return value.status;
  return (value as { init?: { status?: number } } | undefined)?.init?.status;
}

/** What a form action answered when it did not redirect: its status and data. */
function answer(result: unknown) {
  const { data, init } = result as {
    data: { result: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> }; problem: unknown };
    init: { status: number };
  };
  return { status: init.status, errors: data.result.error ?? {}, values: data.result.initialValue ?? {} };
}

const EVENTS_PAID: WebhookEvent[] = ["order.paid"];

/** Adds a webhook through the page, as the owner; its id (from the redirect to its page). */
async function addWebhook(fields: { url: string; events?: WebhookEvent[]; name?: string; active?: boolean }) {
  const { result } = await runRoute(
    svc,
    listAction,
    post(LIST, {
      intent: "create",
      name: fields.name ?? "Books",
      url: fields.url,
      events: fields.events ?? EVENTS_PAID,
      ...(fields.active === false ? {} : { active: "on" }),
    }),
    OWNER,
  );
  const location = (result as Response).headers.get("Location") ?? "";
  const id = /\/admin\/settings\/webhooks\/([0-9a-f-]{36})$/.exec(location)?.[1];
  if (!id) throw new Error(`not added: ${JSON.stringify(answer(result))}`);
  return id;
}

async function allowPrivate(on = true) {
  await runRoute(svc, listAction, post(LIST, { intent: "network", ...(on ? { allow_private: "on" } : {}) }), OWNER);
}

async function webhookRow(id: string) {
  return svc.db.selectFrom("webhooks").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

async function deliveries(webhookId?: string) {
  let query = svc.db.selectFrom("outbox_messages").selectAll().where("channel", "=", "webhook");
  if (webhookId) query = query.where("webhook_id", "=", webhookId);
  return query.orderBy("created_at").orderBy("id").execute();
}

async function auditOf(id: string) {
  return svc.db
    .selectFrom("audit_log")
    .select(["action", "details"])
    .where("entity_id", "=", id)
    .orderBy("id")
    .execute();
}

/**
 * When the tests' events happen: now (a delivery's 24-hour retry window starts at its event, so a
 * fixed date would make every delivery "failed for good" a day later).
 */
const EVENT_AT = new Date(Math.floor(Date.now() / 1000) * 1000);

function event(type: ShopEvent["type"], orderId: string | null, extra: Partial<ShopEvent> = {}): ShopEvent {
  return { type, at: EVENT_AT, publicUrl: PUBLIC_URL, orderId, ...extra };
}

async function record(shopEvent: ShopEvent) {
  await svc.db.transaction().execute((trx) => recordShopEvent(trx, shopEvent));
}

/**
 * An order, without the e-mails its placing queues (the order received, the shop's alert): these
 * tests count the webhook deliveries they cause themselves.
 */
async function placeTestOrder(db: DB) {
  const placed = await placeOrderWithMail(db);
  await db.deleteFrom("outbox_messages").where("order_id", "=", placed.order.id).execute();
  return placed;
}

describe("adding, editing and removing a webhook", () => {
  it("refuses an address to the shop's own network at the URL field (400), with everything typed kept", async () => {
    for (const [url, kind, where] of [
      ["https://127.0.0.1/hook", "loopback", "127.0.0.1"],
      ["https://2130706433/hook", "loopback", "127.0.0.1"],
      ["https://[::ffff:127.0.0.1]/", "loopback", "::ffff:7f00:1"],
      ["https://10.0.0.5/hook", "private", "10.0.0.5"],
      ["https://169.254.169.254/latest", "link_local", "169.254.169.254"],
    ] as const) {
      const { result } = await runRoute(
        svc,
        listAction,
        post(LIST, { intent: "create", name: "Books", url, events: ["order.paid", "order.shipped"], active: "on" }),
        OWNER,
      );
      const refused = answer(result);
      expect(refused.status, url).toBe(400);
      expect(refused.errors.url).toEqual([fieldMessage(`adminWebhooks.errors.urlAddress.${kind}`, { where })]);
      expect(refused.values).toMatchObject({ name: "Books", url, events: ["order.paid", "order.shipped"] });
    }
    const http = answer(
      (
        await runRoute(
          svc,
          listAction,
          post(LIST, { intent: "create", url: "http://93.184.215.14/", events: "order.paid" }),
          OWNER,
        )
      ).result,
    );
    expect(http.errors.url).toEqual(["adminWebhooks.errors.urlHttps"]);
    const noEvents = answer(
      (await runRoute(svc, listAction, post(LIST, { intent: "create", url: "https://93.184.215.14/" }), OWNER)).result,
    );
    expect(noEvents.status).toBe(400);
    expect(noEvents.errors.events).toEqual(["adminWebhooks.errors.eventsRequired"]);
    expect(await svc.db.selectFrom("webhooks").select("id").execute()).toEqual([]);
  });

  it("adds one with a secret of its own, edits it and removes it, each audited without the secret", async () => {
    const id = await addWebhook({ url: "https://93.184.215.14/hook#top", events: ["order.shipped", "order.paid"] });
    const added = await webhookRow(id);
    expect(added).toMatchObject({ name: "Books", url: "https://93.184.215.14/hook", active: 1 });
    expect(JSON.parse(added.events)).toEqual(["order.paid", "order.shipped"]);
    expect(added.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    // The page shows it, its secret and an empty log.
    const page = await runRoute(svc, webhookLoader, new Request(`${LIST}/${id}`), OWNER, { id });
    expect(page.result).toMatchObject({ webhook: { id, secret: added.secret }, deliveries: [] });

    // An edit to a private address is refused at the field, and nothing changes.
    const refused = await runRoute(
      svc,
      webhookAction,
      post(`${LIST}/${id}`, { intent: "update", name: "Chat", url: "https://192.168.1.5/", events: "order.placed" }),
      OWNER,
      { id },
    );
    expect(answer(refused.result).errors.url).toEqual([
      fieldMessage("adminWebhooks.errors.urlAddress.private", { where: "192.168.1.5" }),
    ]);
    expect(await webhookRow(id)).toEqual(added);

    const edited = await runRoute(
      svc,
      webhookAction,
      post(`${LIST}/${id}`, { intent: "update", name: "Chat", url: "https://1.1.1.1/orders", events: "order.placed" }),
      OWNER,
      { id },
    );
    expect((edited.result as Response).headers.get("Location")).toBe(`/admin/settings/webhooks/${id}`);
    expect(edited.flash).toMatchObject({ key: "adminWebhooks.edit.saved" });
    expect(await webhookRow(id)).toMatchObject({ name: "Chat", url: "https://1.1.1.1/orders", active: 0 });

    // A new secret: a confirmation first (no JavaScript), then a new value.
    const ask = await runRoute(svc, webhookAction, post(`${LIST}/${id}`, { intent: "secret" }), OWNER, { id });
    expect((ask.result as Response).headers.get("Location")).toBe(`/admin/settings/webhooks/${id}?renew#renew-heading`);
    expect((await webhookRow(id)).secret).toBe(added.secret);
    await runRoute(svc, webhookAction, post(`${LIST}/${id}`, { intent: "secret", confirmed: "1" }), OWNER, { id });
    const renewed = (await webhookRow(id)).secret;
    expect(renewed).not.toBe(added.secret);
    expect(renewed).toMatch(/^whsec_/);

    const removed = await runRoute(
      svc,
      webhookAction,
      post(`${LIST}/${id}`, { intent: "delete", confirmed: "1" }),
      OWNER,
      { id },
    );
    expect((removed.result as Response).headers.get("Location")).toBe("/admin/settings/webhooks");
    expect(await svc.db.selectFrom("webhooks").select("id").execute()).toEqual([]);
    const gone = await runRoute(svc, webhookLoader, new Request(`${LIST}/${id}`), OWNER, { id });
    expect(statusOf(gone.thrown)).toBe(404);

    const audit = await auditOf(id);
    expect(audit.map((entry) => entry.action)).toEqual([
      "webhook.created",
      "webhook.updated",
      "webhook.secret_renewed",
      "webhook.deleted",
    ]);
    for (const entry of audit) {
      expect(entry.details).not.toContain(added.secret);
      expect(entry.details).not.toContain(renewed);
      expect(entry.details).not.toContain("whsec_");
    }
    expect(JSON.parse(audit[1]?.details ?? "{}")).toMatchObject({
      before: { url: "https://93.184.215.14/hook", events: ["order.paid", "order.shipped"], active: true },
      after: { name: "Chat", url: "https://1.1.1.1/orders", events: ["order.placed"], active: false },
    });
  });

  it("refuses staff (403) on the pages and their forms, and changes nothing", async () => {
    const id = await addWebhook({ url: "https://93.184.215.14/hook" });
    const staff: CurrentUser = { ...(await createSignedIn(svc.db, { admin: true })), role: "staff" };
    const before = await webhookRow(id);
    const audits = (await svc.db.selectFrom("audit_log").select("id").execute()).length;
    expect(statusOf((await runRoute(svc, listLoader, new Request(LIST), staff)).thrown)).toBe(403);
    expect(statusOf((await runRoute(svc, webhookLoader, new Request(`${LIST}/${id}`), staff, { id })).thrown)).toBe(
      403,
    );
    const writes: [typeof listAction | typeof webhookAction, string, Record<string, string>][] = [
      [listAction, LIST, { intent: "network", allow_private: "on" }],
      [listAction, LIST, { intent: "create", url: "https://1.1.1.1/", events: "order.paid" }],
      [webhookAction, `${LIST}/${id}`, { intent: "delete", confirmed: "1" }],
      [webhookAction, `${LIST}/${id}`, { intent: "secret", confirmed: "1" }],
      [webhookAction, `${LIST}/${id}`, { intent: "test" }],
    ];
    for (const [action, url, fields] of writes) {
      expect(statusOf((await runRoute(svc, action, post(url, fields), staff, { id })).thrown), url).toBe(403);
    }
    expect(await svc.db.selectFrom("webhooks").selectAll().execute()).toEqual([before]);
    expect(await deliveries()).toEqual([]);
    expect((await svc.db.selectFrom("audit_log").select("id").execute()).length).toBe(audits);
    expect(
      await svc.db.selectFrom("site_settings").select("key").where("key", "=", WEBHOOKS_ALLOW_PRIVATE_KEY).execute(),
    ).toEqual([]);
  });
});

describe("the shop's events", () => {
  it("queue one delivery per active webhook subscribed to the event, with the order and a stable id", async () => {
    // The order exists before the webhooks: its own events reach none of them.
    const { order } = await placeTestOrder(svc.db);
    const paid = await addWebhook({ url: "https://93.184.215.14/paid", events: ["order.paid"] });
    const both = await addWebhook({ url: "https://93.184.215.14/both", events: ["order.paid", "order.shipped"] });
    const paused = await addWebhook({ url: "https://93.184.215.14/paused", events: ["order.paid"], active: false });
    const shipped = await addWebhook({ url: "https://93.184.215.14/shipped", events: ["order.shipped"] });

    await record(event("order.paid", order.id));
    const queued = await deliveries();
    expect(queued.map((row) => row.webhook_id).sort()).toEqual([paid, both].sort());
    for (const row of queued) {
      expect(row).toMatchObject({
        event: "order.paid",
        subject: "order.paid",
        audience: "webhook",
        order_id: order.id,
      });
      expect(JSON.parse(row.payload)).toEqual({
        event: "order.paid",
        id: row.message_key,
        occurred_at: EVENT_AT.toISOString(),
        order: {
          number: order.order_number,
          status: order.status,
          amount_cents: order.total_cents,
          refunded_cents: 0,
          currency: "HKD",
          link: `${PUBLIC_URL}/admin/orders/${order.id}`,
        },
      });
    }
    expect(new Set(queued.map((row) => row.message_key)).size).toBe(2);

    await record(event("order.shipped", order.id, { at: new Date(EVENT_AT.getTime() + 60_000) }));
    expect((await deliveries(shipped)).map((row) => row.event)).toEqual(["order.shipped"]);
    expect((await deliveries(both)).map((row) => row.event)).toEqual(["order.paid", "order.shipped"]);
    expect(await deliveries(paused)).toEqual([]);
    // An event of no subscribed webhook, and an order that is gone, queue nothing.
    await record(event("order.cancelled", order.id));
    await record(event("order.paid", crypto.randomUUID()));
    expect(await deliveries()).toHaveLength(4);
  });

  it("tell of a message that failed for good, but never feed failures to each other", async () => {
    const { order } = await placeTestOrder(svc.db);
    const watcher = await addWebhook({ url: "https://93.184.215.14/a", events: ["message.failed", "order.paid"] });
    const other = await addWebhook({ url: "https://93.184.215.14/b", events: ["message.failed"] });
    const mail = await renderLocalizedEmail(DEFAULT_SHOP, "buyer@example.com", "en", () => ({
      subject: "Order received",
      heading: "Hello",
      paragraphs: ["Thanks."],
    }));
    const email = await queueEmail(svc.db, mail, {
      event: "order.placed",
      audience: "customer",
      language: "en",
      orderId: order.id,
    });

    await record(event("message.failed", order.id, { messageId: email }));
    const told = await deliveries();
    expect(told.map((row) => row.webhook_id).sort()).toEqual([watcher, other].sort());
    expect(JSON.parse(told[0]?.payload ?? "{}")).toMatchObject({
      event: "message.failed",
      message: { id: email, channel: "email", subject: "Order received", recipient: "buyer@example.com" },
      order: { number: order.order_number, link: `${PUBLIC_URL}/admin/orders/${order.id}` },
    });

    // The watcher's delivery of order.paid failed: the other webhook hears of it, the watcher does not.
    await record(event("order.paid", order.id));
    const [paidDelivery] = await deliveries(watcher).then((rows) => rows.filter((row) => row.event === "order.paid"));
    await record(event("message.failed", order.id, { messageId: paidDelivery?.id }));
    expect((await deliveries(other)).length).toBe(2);
    expect((await deliveries(watcher)).map((row) => row.event).sort()).toEqual(["message.failed", "order.paid"]);
    // A failed delivery of message.failed itself is told to nobody.
    const failure = told.find((row) => row.webhook_id === other);
    await record(event("message.failed", order.id, { messageId: failure?.id }));
    expect(await deliveries()).toHaveLength(4);
  });
});

/** A receiver on 127.0.0.1 that checks each delivery's signature and answers from `statuses`. */
async function startReceiver(statuses: number[]) {
  const received: { headers: http.IncomingHttpHeaders; body: string; signatureOk: boolean | null }[] = [];
  let secret = "";
  const server = http.createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      // As a receiver does it (README, "Webhooks"): t and v1 from the header, HMAC of `${t}.${body}`.
      const header = String(request.headers["x-shop-signature"] ?? "");
      const t = /(?:^|,)t=(\d+)/.exec(header)?.[1] ?? "";
      const v1 = /(?:^|,)v1=([0-9a-f]{64})/.exec(header)?.[1] ?? "";
      const expected = crypto.createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
      const signatureOk =
        v1.length === 64 && crypto.timingSafeEqual(Buffer.from(v1, "hex"), Buffer.from(expected, "hex"));
      received.push({ headers: request.headers, body, signatureOk });
      response.writeHead(statuses.shift() ?? 200, { "Content-Type": "text/plain" }).end("noted");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/shop`,
    received,
    setSecret(value: string) {
      secret = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("delivering to a real receiver", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>> | null = null;
  afterEach(async () => {
    await receiver?.close();
    receiver = null;
  });

  it("answered 500, 500, then 200: three attempts logged, one accepted, the same delivery id each time", async () => {
    const { order } = await placeTestOrder(svc.db);
    receiver = await startReceiver([500, 500, 200]);
    await allowPrivate();
    const id = await addWebhook({ url: receiver.url, events: ["order.paid"] });
    receiver.setSecret((await webhookRow(id)).secret);
    const start = new Date();
    await record({ ...event("order.paid", order.id), at: start });

    let at = start;
    expect(await deliverDueMessages(svc, at)).toEqual({ sent: 0, retry: 1, failed: 0 });
    at = new Date(at.getTime() + backoffMs(1));
    expect(await deliverDueMessages(svc, at)).toEqual({ sent: 0, retry: 1, failed: 0 });
    at = new Date(at.getTime() + backoffMs(2));
    expect(await deliverDueMessages(svc, at)).toEqual({ sent: 1, retry: 0, failed: 0 });
    expect(await deliverDueMessages(svc, new Date(at.getTime() + backoffMs(3)))).toEqual({
      sent: 0,
      retry: 0,
      failed: 0,
    });

    expect(receiver.received).toHaveLength(3);
    const [message] = await deliveries(id);
    for (const request of receiver.received) {
      expect(request.signatureOk).toBe(true);
      expect(request.body).toBe(message?.payload);
      expect(request.headers).toMatchObject({
        "content-type": "application/json",
        "x-shop-event": "order.paid",
        "x-shop-delivery": message?.message_key,
      });
      expect(request.headers["user-agent"]).toBe(`${DEFAULT_SHOP.name.en} webhooks (${PUBLIC_URL})`);
      expect(request.headers["x-shop-signature"]).toMatch(
        new RegExp(`^t=${request.headers["x-shop-timestamp"]},v1=[0-9a-f]{64}$`),
      );
      expect(JSON.parse(request.body).id).toBe(message?.message_key);
    }
    expect(message).toMatchObject({ status: "sent", attempts: 3, last_response_status: 200 });

    // The delivery log, as the webhook's page shows it.
    const page = await runRoute(svc, webhookLoader, new Request(`${LIST}/${id}`), OWNER, { id });
    const [logged] = (page.result as Awaited<ReturnType<typeof webhookLoader>>).deliveries;
    expect(logged).toMatchObject({ deliveryId: message?.message_key, status: "sent", attempts: 3 });
    expect(logged?.log.map((attempt) => [attempt.ok, attempt.responseStatus])).toEqual([
      [false, 500],
      [false, 500],
      [true, 200],
    ]);
    expect(logged?.log[0]?.error).toBe("the receiver answered 500: noted");
  });

  it("sends the test button's ping through the outbox, and sends a failed delivery again", async () => {
    receiver = await startReceiver([503, 503]);
    await allowPrivate();
    const id = await addWebhook({ url: receiver.url, events: ["order.paid"], active: false });
    receiver.setSecret((await webhookRow(id)).secret);
    const test = await runRoute(svc, webhookAction, post(`${LIST}/${id}`, { intent: "test" }), OWNER, { id });
    expect(test.flash).toMatchObject({ key: "adminWebhooks.test.queued" });
    const [ping] = await deliveries(id);
    expect(ping).toMatchObject({ event: "webhook.test", subject: "ping", status: "pending" });
    expect(JSON.parse(ping?.payload ?? "{}")).toEqual({
      event: "ping",
      id: ping?.message_key,
      occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // Tried until its window closes: failed.
    await deliverDueMessages(svc);
    await svc.db
      .updateTable("outbox_messages")
      .set({ give_up_at: now(new Date(Date.now() - 1000)), next_attempt_at: now(new Date(Date.now() - 1000)) })
      .where("id", "=", ping?.id ?? "")
      .execute();
    await deliverDueMessages(svc);
    expect((await deliveries(id))[0]).toMatchObject({ status: "failed", attempts: 2 });

    const again = await runRoute(
      svc,
      webhookAction,
      post(`${LIST}/${id}`, { intent: "resend", message: ping?.id ?? "" }),
      OWNER,
      { id },
    );
    expect(again.flash).toMatchObject({ key: "adminWebhooks.log.resent" });
    expect(await deliverDueMessages(svc)).toMatchObject({ sent: 1 });
    expect(receiver.received.map((request) => JSON.parse(request.body).event)).toEqual(["ping", "ping", "ping"]);
    expect(receiver.received.every((request) => request.signatureOk)).toBe(true);
    expect(new Set(receiver.received.map((request) => request.headers["x-shop-delivery"])).size).toBe(1);

    // "Send again" acts on this webhook's own deliveries only; a sent one is not sent again.
    const other = await addWebhook({ url: receiver.url, events: ["order.paid"] });
    const foreign = await runRoute(
      svc,
      webhookAction,
      post(`${LIST}/${other}`, { intent: "resend", message: ping?.id ?? "" }),
      OWNER,
      { id: other },
    );
    expect(answer(foreign.result).status).toBe(404);
    const sent = await runRoute(
      svc,
      webhookAction,
      post(`${LIST}/${id}`, { intent: "resend", message: ping?.id ?? "" }),
      OWNER,
      { id },
    );
    expect(answer(sent.result).status).toBe(409);
    expect((sent.result as { data: { problem: { key: string } } }).data.problem.key).toBe(
      "adminWebhooks.errors.deliveryChanged",
    );
  });

  it("refuses at send time what is not allowed then: nothing reaches 127.0.0.1 or 10.x by default", async () => {
    const { order } = await placeTestOrder(svc.db);
    receiver = await startReceiver([]);
    await allowPrivate();
    const local = await addWebhook({ url: receiver.url, events: ["order.paid"] });
    await allowPrivate(false);
    // A row the model would refuse now: a webhook saved before the rules (or edited by hand).
    const internal = crypto.randomUUID();
    await svc.db
      .insertInto("webhooks")
      .values({
        id: internal,
        url: "https://10.0.0.5/hook",
        secret: "whsec_x",
        events: JSON.stringify(["order.paid"]),
        created_at: now(),
        updated_at: now(),
        secret_created_at: now(),
      })
      .execute();
    await record(event("order.paid", order.id));
    expect(await deliverDueMessages(svc)).toEqual({ sent: 0, retry: 2, failed: 0 });
    expect(receiver.received).toEqual([]);
    const [toLocal] = await deliveries(local);
    const [toInternal] = await deliveries(internal);
    expect(toLocal?.last_error).toBe(
      "refused: http:// addresses need the setting that allows http:// and private addresses",
    );
    expect(toInternal?.last_error).toMatch(/^refused: 10\.0\.0\.5, not a public address \(private\)/);
    expect(toInternal?.last_response_status).toBeNull();
  });

  it("removes a webhook with its deliveries and their log", async () => {
    const { order } = await placeTestOrder(svc.db);
    const id = await addWebhook({ url: "https://93.184.215.14/hook", events: ["order.paid"] });
    await record(event("order.paid", order.id));
    expect(await deliveries(id)).toHaveLength(1);
    await runRoute(svc, webhookAction, post(`${LIST}/${id}`, { intent: "delete", confirmed: "1" }), OWNER, { id });
    expect(await deliveries(id)).toEqual([]);
  });
});

describe("the private-address setting", () => {
  it("is the owner's switch, audited, and lets http:// and 127.0.0.1 be saved", async () => {
    const refused = answer(
      (
        await runRoute(
          svc,
          listAction,
          post(LIST, { intent: "create", url: "http://127.0.0.1:8080/bridge", events: "order.placed" }),
          OWNER,
        )
      ).result,
    );
    expect(refused.errors.url).toEqual(["adminWebhooks.errors.urlHttps"]);
    const on = await runRoute(svc, listAction, post(LIST, { intent: "network", allow_private: "on" }), OWNER);
    expect(on.flash).toMatchObject({ key: "adminWebhooks.network.savedOn" });
    const id = await addWebhook({ url: "http://127.0.0.1:8080/bridge", events: ["order.placed"] });
    expect((await webhookRow(id)).url).toBe("http://127.0.0.1:8080/bridge");
    const list = await runRoute(svc, listLoader, new Request(LIST), OWNER);
    expect(list.result).toMatchObject({ allowPrivate: true, webhooks: [{ id, url: "http://127.0.0.1:8080/bridge" }] });
    await allowPrivate(false);
    const audit = await auditOf(WEBHOOKS_ALLOW_PRIVATE_KEY);
    expect(audit.map((entry) => [entry.action, JSON.parse(entry.details ?? "null")])).toEqual([
      ["setting.webhooks_allow_private", { before: { allow: false }, after: { allow: true } }],
      ["setting.webhooks_allow_private", { before: { allow: true }, after: { allow: false } }],
    ]);
  });
});
