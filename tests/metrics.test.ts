import crypto from "node:crypto";
import fs from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Request } from "express";
import { beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { openDatabase } from "#db/connect.server";
import type { Services } from "~/context";
import { parseMetricsToken } from "~/lib/config.server";
import { type Mailer, renderLocalizedEmail } from "~/lib/mail.server";
import { metrics, watchDatabase } from "~/lib/metrics.server";
import { DiskStorage } from "~/lib/storage.server";
import { transitionOrder } from "~/models/orders/desk.server";
import { deliverDueMessages } from "~/models/outbox/deliver.server";
import { queueEmail } from "~/models/outbox/queue.server";
import { DEFAULT_SHOP } from "~/models/settings/shop.server";
import { createApp } from "../server/app";
import { mayReadMetrics } from "../server/metrics";
import { cachedRoutePattern } from "../server/page-cache";
import { runJobsOnce } from "../server/scheduled-jobs";
import { createSignedIn, placeTestOrder } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { type Exposition, parsePrometheus, sampleSum } from "./setup/prometheus";

/**
 * The metrics (server/metrics.ts, app/lib/metrics.server.ts, docs/decisions/063) and the health
 * checks (server/health.ts) on the production Express app and a real database: who may read
 * /metrics, and that each family moves when the thing it counts happens. The cluster's sum over
 * two workers runs in tests/reliability/metrics.spec.ts.
 */

const TOKEN = "metrics-token-0123456789abcdef";

async function scrape(): Promise<Exposition> {
  return parsePrometheus(await metrics.metrics());
}

function fakeRequest(remoteAddress: string, headers: Record<string, string> = {}): Request {
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return {
    headers: lower,
    get: (name: string) => lower[name.toLowerCase()],
    socket: { remoteAddress },
  } as unknown as Request;
}

describe("who may read /metrics", () => {
  it("a client on this machine that came through no proxy", () => {
    for (const address of ["127.0.0.1", "::1", "::ffff:127.0.0.1", "127.0.0.53"]) {
      expect(mayReadMetrics(fakeRequest(address), null), address).toBe(true);
    }
    for (const address of ["203.0.113.5", "10.0.0.2", "::ffff:192.168.1.4", "fe80::1", ""]) {
      expect(mayReadMetrics(fakeRequest(address), null), address).toBe(false);
    }
  });

  it("not a request a reverse proxy on this machine passed on (it connects from loopback)", () => {
    for (const header of ["X-Forwarded-For", "Forwarded", "X-Real-IP"]) {
      expect(mayReadMetrics(fakeRequest("127.0.0.1", { [header]: "203.0.113.5" }), null), header).toBe(false);
    }
  });

  it("anyone with METRICS_TOKEN as a bearer token, and no one with another", () => {
    const through = { "X-Forwarded-For": "203.0.113.5" };
    expect(mayReadMetrics(fakeRequest("203.0.113.5", { Authorization: `Bearer ${TOKEN}` }), TOKEN)).toBe(true);
    expect(mayReadMetrics(fakeRequest("127.0.0.1", { ...through, Authorization: `Bearer ${TOKEN}` }), TOKEN)).toBe(
      true,
    );
    expect(mayReadMetrics(fakeRequest("203.0.113.5", { Authorization: `Bearer ${TOKEN}x` }), TOKEN)).toBe(false);
    expect(mayReadMetrics(fakeRequest("203.0.113.5", { Authorization: `Basic ${TOKEN}` }), TOKEN)).toBe(false);
    // A wrong token does not fall back to the loopback rule, nor does a token with none configured.
    expect(mayReadMetrics(fakeRequest("127.0.0.1", { Authorization: "Bearer nope" }), TOKEN)).toBe(false);
    expect(mayReadMetrics(fakeRequest("203.0.113.5", { Authorization: `Bearer ${TOKEN}` }), null)).toBe(false);
  });
});

describe("METRICS_TOKEN", () => {
  it("unset or empty is none; a short or spaced one stops the start", () => {
    expect(parseMetricsToken(undefined)).toBeNull();
    expect(parseMetricsToken("  ")).toBeNull();
    expect(parseMetricsToken(` ${TOKEN} `)).toBe(TOKEN);
    expect(() => parseMetricsToken("short")).toThrow(/METRICS_TOKEN must be at least 16 characters/);
    expect(() => parseMetricsToken("sixteen chars or more")).toThrow(/no spaces/);
  });
});

describe("the production app", () => {
  let svc: TestServices;
  let server: Server;
  let base: string;

  beforeEach(async () => {
    svc = await freshTestServices({ metricsToken: TOKEN });
    const app = createApp(svc, { build: () => Promise.reject(new Error("React Router is not part of this test")) });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    };
  });

  it("answers /metrics to loopback in Prometheus's format, never cached; 404 through a proxy without the token", async () => {
    const response = await fetch(`${base}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const families = parsePrometheus(await response.text()).types;
    expect(families.get("shop_http_request_duration_seconds")).toBe("histogram");
    expect(families.get("shop_page_cache_requests_total")).toBe("counter");
    expect(families.get("shop_orders_placed_total")).toBe("counter");

    const proxied = await fetch(`${base}/metrics`, { headers: { "X-Forwarded-For": "203.0.113.5" } });
    expect(proxied.status).toBe(404);
    expect(await proxied.text()).not.toContain("shop_");
    const wrong = await fetch(`${base}/metrics`, {
      headers: { "X-Forwarded-For": "203.0.113.5", Authorization: "Bearer wrong-token-0123456789" },
    });
    expect(wrong.status).toBe(404);
    const token = await fetch(`${base}/metrics`, {
      headers: { "X-Forwarded-For": "203.0.113.5", Authorization: `Bearer ${TOKEN}` },
    });
    expect(token.status).toBe(200);
    expect(await token.text()).toContain("shop_http_request_duration_seconds_bucket");
  });

  it("counts each request in the duration histogram under its route and status class", async () => {
    const before = await scrape();
    const labels = { route: "/healthz", method: "GET", status: "2xx" };
    for (let i = 0; i < 3; i++) expect((await fetch(`${base}/healthz`)).status).toBe(200);
    // Uploads are answered before React Router: one bounded label for any path under them.
    expect((await fetch(`${base}/uploads/${crypto.randomUUID()}.webp`)).status).toBe(404);
    const after = await scrape();
    const count = "shop_http_request_duration_seconds_count";
    expect(sampleSum(after, count, labels) - sampleSum(before, count, labels)).toBe(3);
    const bucket = { ...labels, le: "+Inf" };
    const bucketName = "shop_http_request_duration_seconds_bucket";
    expect(sampleSum(after, bucketName, bucket) - sampleSum(before, bucketName, bucket)).toBe(3);
    const uploads = { route: "/uploads/*", status: "4xx" };
    expect(sampleSum(after, count, uploads) - sampleSum(before, count, uploads)).toBe(1);
  });

  it("/healthz answers without the database; /readyz says which dependency fails, in plain text", async () => {
    const ready = await fetch(`${base}/readyz`);
    expect([ready.status, await ready.text(), ready.headers.get("cache-control")]).toEqual([200, "ok", "no-store"]);

    vi.spyOn(console, "error").mockImplementation(() => {});
    onTestFinished(() => {
      vi.restoreAllMocks();
    });
    // The uploads folder is not a folder any more; then the database is gone too.
    const notAFolder = path.join(svc.config.dataDir, "not-a-folder");
    fs.writeFileSync(notAFolder, "");
    svc.storage = new DiskStorage(notAFolder) as unknown as TestServices["storage"];
    const noStorage = await fetch(`${base}/readyz`);
    expect([noStorage.status, await noStorage.text()]).toEqual([503, "storage unavailable\n"]);

    // A database that does not answer the shop's queries (an empty file: no tables).
    const empty = openDatabase(`file:${path.join(svc.config.dataDir, "empty.db")}`);
    onTestFinished(() => empty.destroy());
    (svc as Services).db = empty;
    const neither = await fetch(`${base}/readyz`);
    expect(neither.status).toBe(503);
    expect(neither.headers.get("cache-control")).toBe("no-store");
    const text = await neither.text();
    expect(text).toBe("database unavailable\nstorage unavailable\n");
    expect(text).not.toContain(svc.config.databaseUrl);

    const live = await fetch(`${base}/healthz`);
    expect([live.status, await live.text(), live.headers.get("cache-control")]).toEqual([200, "ok", "no-store"]);
  });
});

describe("the families move when the shop does the thing", () => {
  let svc: TestServices;
  beforeEach(async () => {
    svc = await freshTestServices();
  });

  it("orders placed (once, whatever the repeats) and paid (once committed)", async () => {
    const before = await scrape();
    const submissionKey = crypto.randomUUID();
    const { order, user, lines } = await placeTestOrder(svc.db, { submissionKey });
    // The same form sent again answers with the same order: not a second one.
    const again = await placeTestOrder(svc.db, { user, lines, submissionKey });
    expect(again.order.id).toBe(order.id);
    const placed = await scrape();
    expect(sampleSum(placed, "shop_orders_placed_total") - sampleSum(before, "shop_orders_placed_total")).toBe(1);

    const admin = await createSignedIn(svc.db, { admin: true });
    const markPaid = { orderId: order.id, transition: "markPaid", expected: "pending_payment" } as const;
    await transitionOrder(svc.db, svc.config, admin, markPaid);
    // A second admin's click on the stale page is refused: not a second payment.
    await expect(transitionOrder(svc.db, svc.config, admin, markPaid)).rejects.toThrow();
    const paid = await scrape();
    expect(sampleSum(paid, "shop_orders_paid_total") - sampleSum(before, "shop_orders_paid_total")).toBe(1);
  });

  it("scheduled job runs and failures, per job", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    onTestFinished(() => {
      vi.restoreAllMocks();
    });
    const before = await scrape();
    const jobs = [
      { name: "metrics-test-ok", run: async () => "done" },
      {
        name: "metrics-test-broken",
        run: async () => {
          throw new Error("broken");
        },
      },
    ];
    await runJobsOnce(svc, new Date(), jobs);
    const after = await scrape();
    const delta = (name: string, job: string) => sampleSum(after, name, { job }) - sampleSum(before, name, { job });
    expect(delta("shop_scheduled_job_runs_total", "metrics-test-ok")).toBe(1);
    expect(delta("shop_scheduled_job_failures_total", "metrics-test-ok")).toBe(0);
    expect(delta("shop_scheduled_job_runs_total", "metrics-test-broken")).toBe(1);
    expect(delta("shop_scheduled_job_failures_total", "metrics-test-broken")).toBe(1);
  });

  it("the outbox's depth by status and channel (read when scraped) and its delivery failures", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    onTestFinished(() => {
      vi.restoreAllMocks();
    });
    watchDatabase(svc.db);
    const mail = (to: string) =>
      renderLocalizedEmail(DEFAULT_SHOP, to, "en", () => ({ subject: "Hi", heading: "Hello", paragraphs: ["x"] }));
    const meta = { event: "order.placed", audience: "customer", language: "en" } as const;
    await queueEmail(svc.db, await mail("one@example.com"), meta);
    await queueEmail(svc.db, await mail("two@example.com"), meta);
    const queued = await scrape();
    expect(sampleSum(queued, "shop_outbox_messages", { status: "pending", channel: "email" })).toBe(2);
    expect(sampleSum(queued, "shop_outbox_messages", { status: "failed", channel: "email" })).toBe(0);

    const refusing: Mailer = {
      send: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:2525")),
    };
    await deliverDueMessages({ ...svc, mailer: refusing });
    const failed = await scrape();
    const failures = "shop_outbox_delivery_failures_total";
    expect(sampleSum(failed, failures, { channel: "email" }) - sampleSum(queued, failures, { channel: "email" })).toBe(
      2,
    );
    // Still waiting: tried again later.
    expect(sampleSum(failed, "shop_outbox_messages", { status: "pending", channel: "email" })).toBe(2);
  });

  it("the PostgreSQL pool's connections in use and queries waiting; none on SQLite (no pool)", async () => {
    watchDatabase(svc.db);
    const names = ["shop_db_pool_connections_in_use", "shop_db_pool_connections_idle", "shop_db_pool_waiting_requests"];
    if (!svc.config.databaseUrl.startsWith("postgres")) {
      const types = (await scrape()).types;
      for (const name of names) expect(types.has(name), name).toBe(false);
      return;
    }
    let during: Exposition | undefined;
    await svc.db.transaction().execute(async () => {
      during = await scrape();
    });
    expect(sampleSum(during as Exposition, "shop_db_pool_connections_in_use")).toBeGreaterThanOrEqual(1);
    const after = await scrape();
    for (const name of names) expect(after.types.get(name), name).toBe("gauge");
    expect(sampleSum(after, "shop_db_pool_waiting_requests")).toBe(0);
  });
});

describe("a page-cache hit is counted under its page's route pattern", () => {
  it("as React Router names them", () => {
    expect(cachedRoutePattern("/")).toBe("/");
    expect(cachedRoutePattern("/_root.data")).toBe("/");
    expect(cachedRoutePattern("/category/rifles.data")).toBe("/category/:slug");
    expect(cachedRoutePattern("/product/12")).toBe("/product/:id");
    expect(cachedRoutePattern("/blog")).toBe("/blog");
    expect(cachedRoutePattern("/blog/3")).toBe("/blog/:id");
    expect(cachedRoutePattern("/faq")).toBe("/faq");
  });
});
