import fs from "node:fs";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { type DB, openDatabase } from "#db/connect.server";
import { createUser } from "~/models/user.server";
import { userContext } from "~/request/auth.server";
import {
  RateLimiter,
  scaleAddressLimits,
  signInAttemptsPerAddress,
  signInFailuresPerAccount,
} from "~/request/rate-limit.server";
import { emptySession, sessionContext } from "~/request/session.server";
import { action as adminLoginAction } from "~/routes/admin/login";
import { action as forgotAction } from "~/routes/store/forgot-password";
import { action as loginAction } from "~/routes/store/login";
import { createTestContext, freshTestDb, freshTestServices, type TestServices } from "./setup/db";

/**
 * The sign-in, sign-up and password-reset throttles keep their counters in the database
 * (docs/decisions/027): the rules of a fixed window, with the clock passed in (no sleeps), and
 * the property that matters for several processes: two connections to one file hitting the same
 * key at once never let more than the limit through.
 */

const MINUTE = 60_000;
const T0 = Date.parse("2026-01-01T00:00:00.000Z");

async function hits(limiter: RateLimiter, db: DB, key: string, n: number, at: number): Promise<number[]> {
  const waits: number[] = [];
  for (let i = 0; i < n; i++) waits.push(await limiter.hit(db, key, at));
  return waits;
}

describe("RateLimiter rules", () => {
  it("lets `limit` hits through in a window, then answers the seconds until the window ends", async () => {
    const { db } = await freshTestDb();
    const limiter = new RateLimiter("t", 3, 15 * MINUTE);
    expect(await limiter.retryAfter(db, "a", T0)).toBe(0);
    expect(await hits(limiter, db, "a", 3, T0)).toEqual([0, 0, 0]);
    expect(await limiter.isLimited(db, "a", T0 + MINUTE)).toBe(true);
    expect(await limiter.retryAfter(db, "a", T0 + MINUTE)).toBe(14 * 60);
    // A refused hit counts but never moves the end of the window.
    expect(await limiter.hit(db, "a", T0 + 5 * MINUTE)).toBe(10 * 60);
    expect(await limiter.retryAfter(db, "a", T0 + 5 * MINUTE)).toBe(10 * 60);
    // Another key has its own count.
    expect(await limiter.isLimited(db, "b", T0 + MINUTE)).toBe(false);
  });

  it("starts a new window when the old one has ended", async () => {
    const { db } = await freshTestDb();
    const limiter = new RateLimiter("t", 2, 15 * MINUTE);
    await hits(limiter, db, "a", 5, T0);
    expect(await limiter.isLimited(db, "a", T0 + 15 * MINUTE - 1)).toBe(true);
    expect(await limiter.isLimited(db, "a", T0 + 15 * MINUTE)).toBe(false);
    expect(await hits(limiter, db, "a", 3, T0 + 15 * MINUTE)).toEqual([0, 0, 15 * 60]);
  });

  it("reset forgets a key; limiters with the same key are counted apart", async () => {
    const { db } = await freshTestDb();
    const one = new RateLimiter("one", 1, MINUTE);
    const two = new RateLimiter("two", 1, MINUTE);
    await one.hit(db, "k", T0);
    expect(await one.isLimited(db, "k", T0)).toBe(true);
    expect(await two.isLimited(db, "k", T0)).toBe(false);
    await one.reset(db, "k");
    expect(await one.isLimited(db, "k", T0)).toBe(false);
  });

  it("deletes ended windows (now and then on a hit, or on prune)", async () => {
    const { db } = await freshTestDb();
    const limiter = new RateLimiter("t", 5, MINUTE);
    await limiter.hit(db, "old", T0);
    await limiter.hit(db, "new", T0 + MINUTE);
    await limiter.prune(db, T0 + MINUTE);
    const keys = await db.selectFrom("rate_limit_hits").select("key").execute();
    expect(keys.map((row) => row.key)).toEqual(["t:new"]);
    // The 100th hit of a process prunes by itself.
    for (let i = 0; i < 100; i++) await limiter.hit(db, `k${i}`, T0 + 3 * MINUTE);
    const left = await db.selectFrom("rate_limit_hits").select("key").where("key", "=", "t:new").execute();
    expect(left).toEqual([]);
  });

  it("scaleAddressLimits raises the per-address limits only", () => {
    const before = { address: signInAttemptsPerAddress.limit, account: signInFailuresPerAccount.limit };
    try {
      scaleAddressLimits(2);
      expect(signInAttemptsPerAddress.limit).toBe(60);
      expect(signInFailuresPerAccount.limit).toBe(5);
    } finally {
      scaleAddressLimits(1);
      expect(signInAttemptsPerAddress.limit).toBe(before.address);
    }
  });
});

describe("several processes, one database", () => {
  it("two connections to one file hitting one key at once let at most `limit` through", async () => {
    const { db, dir, url } = await freshTestDb();
    // A second, independent connection to the same database, as another app process would open.
    const other = openDatabase(url);
    try {
      const limiter = new RateLimiter("t", 7, 15 * MINUTE);
      const waits = await Promise.all(
        Array.from({ length: 40 }, (_, i) => limiter.hit(i % 2 === 0 ? db : other, "shared", T0)),
      );
      expect(waits.filter((wait) => wait === 0)).toHaveLength(7);
      const row = await other.selectFrom("rate_limit_hits").selectAll().executeTakeFirstOrThrow();
      expect(row).toEqual({ key: "t:shared", count: 40, reset_at: new Date(T0 + 15 * MINUTE).toISOString() });
      // Each connection sees the other's hits.
      expect(await limiter.isLimited(db, "shared", T0)).toBe(true);
      expect(await limiter.isLimited(other, "shared", T0)).toBe(true);
    } finally {
      await other.destroy();
    }
    expect(fs.existsSync(dir)).toBe(true);
  });
});

function requestContext(svc: TestServices, ip: string) {
  const ctx = createTestContext(svc, { ip });
  ctx.set(sessionContext, emptySession());
  ctx.set(userContext, null);
  return ctx;
}

function post(url: string, fields: Record<string, string>): Request {
  return new Request(`http://localhost${url}`, { method: "POST", body: new URLSearchParams(fields) });
}

async function status(promise: Promise<unknown>): Promise<number> {
  try {
    const result = await promise;
    if (result instanceof Response) return result.status;
    return (result as { init?: { status?: number } | null })?.init?.status ?? 200;
  } catch (error) {
    if (error instanceof Response) return error.status;
    throw error;
  }
}

/**
 * Runs `statement` `times` times on its own connection (better-sqlite3 on a file, or a pg client
 * on a PostgreSQL URL) in each of `threads` threads, started together.
 */
async function hitFromThreads(
  url: string,
  statement: { sql: string; parameters: readonly unknown[] },
  threads: number,
  times: number,
): Promise<number[]> {
  const start = new Int32Array(new SharedArrayBuffer(4));
  const code = `
    const { workerData, parentPort } = require("node:worker_threads");
    (async () => {
      const counts = [];
      if (workerData.url.startsWith("postgres")) {
        const { Client } = require(workerData.pg);
        const client = new Client({ connectionString: workerData.url });
        await client.connect();
        parentPort.postMessage("ready");
        Atomics.wait(workerData.start, 0, 0);
        for (let i = 0; i < workerData.times; i++) {
          counts.push((await client.query(workerData.sql, workerData.parameters)).rows[0].count);
        }
        await client.end();
      } else {
        const SQLite = require(workerData.sqlite);
        const db = new SQLite(workerData.url.slice("file:".length));
        db.pragma("busy_timeout = 5000");
        const hit = db.prepare(workerData.sql);
        parentPort.postMessage("ready");
        Atomics.wait(workerData.start, 0, 0);
        for (let i = 0; i < workerData.times; i++) counts.push(hit.get(...workerData.parameters).count);
        db.close();
      }
      parentPort.postMessage(counts);
    })();
  `;
  const require = createRequire(import.meta.url);
  const drivers = { sqlite: require.resolve("better-sqlite3"), pg: require.resolve("pg") };
  const workers = Array.from(
    { length: threads },
    () =>
      new Worker(code, {
        eval: true,
        workerData: { ...drivers, url, sql: statement.sql, parameters: statement.parameters, times, start },
      }),
  );
  const ready = workers.map((w) => new Promise((resolve) => w.once("message", resolve)));
  const done = workers.map(
    (w) =>
      new Promise<number[]>((resolve, reject) => {
        w.on("message", (m) => Array.isArray(m) && resolve(m));
        w.once("error", reject);
      }),
  );
  await Promise.all(ready);
  Atomics.store(start, 0, 1);
  Atomics.notify(start, 0);
  return (await Promise.all(done)).flat();
}

describe("several threads, one file", () => {
  it("4 connections hitting one key in parallel: every hit counted once, at most `limit` let through", async () => {
    const { db, url } = await freshTestDb();
    const limiter = new RateLimiter("t", 7, 15 * MINUTE);
    const statement = limiter.hitStatement(db, "shared", T0).compile();
    const counts = await hitFromThreads(url, statement, 4, 50);
    // Each hit saw its own count: no two connections read the same value and wrote the same next one.
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(counts.filter((count) => count <= limiter.limit)).toHaveLength(7);
    expect(await limiter.retryAfter(db, "shared", T0)).toBe(15 * 60);
  });
});

describe("the routes share the stored counters", () => {
  it("a sixth sign-in to one account is refused with 429 when the failures came through another connection", async () => {
    const svc = await freshTestServices();
    const other = openDatabase(svc.config.databaseUrl);
    try {
      const email = "throttle@shop.hk";
      for (let i = 0; i < 5; i++) await signInFailuresPerAccount.hit(other, email);
      const ctx = requestContext(svc, "198.51.100.7");
      const answer = await status(
        loginAction({
          request: post("/login", { intent: "login", email, password: "whatever1" }),
          context: ctx,
          params: {},
        } as never),
      );
      expect(answer).toBe(429);
    } finally {
      await other.destroy();
    }
  });

  it("counts each sign-in before the password check; the right password clears the count", async () => {
    const svc = await freshTestServices();
    const email = "clears@shop.hk";
    await createUser(svc.db, { email, password: "right-password" });
    const login = (password: string) =>
      status(
        loginAction({
          request: post("/login", { intent: "login", email, password }),
          context: requestContext(svc, "198.51.100.9"),
          params: {},
        } as never),
      );
    for (let i = 0; i < 4; i++) expect(await login(`wrong-${i}`)).toBe(400);
    expect(await login("right-password")).toBe(302);
    expect(await signInFailuresPerAccount.isLimited(svc.db, email)).toBe(false);
    for (let i = 0; i < 5; i++) expect(await login(`wrong-${i}`)).toBe(400);
    expect(await login("right-password")).toBe(429);
  });

  it("the admin sign-in refuses a locked account with 429", async () => {
    const svc = await freshTestServices();
    const email = "admin-locked@shop.hk";
    for (let i = 0; i < 5; i++) await signInFailuresPerAccount.hit(svc.db, email);
    const answer = await status(
      adminLoginAction({
        request: post("/admin/login", { intent: "login", email, password: "whatever1" }),
        context: requestContext(svc, "198.51.100.10"),
        params: {},
      } as never),
    );
    expect(answer).toBe(429);
  });

  it("the password-reset throttle answers 429 after 5 requests from one address", async () => {
    const svc = await freshTestServices();
    const ip = "198.51.100.8";
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) {
      answers.push(
        await status(
          forgotAction({
            request: post("/forgot-password", { email: `nobody${i}@shop.hk` }),
            context: requestContext(svc, ip),
            params: {},
          } as never),
        ),
      );
    }
    expect(answers.slice(0, 5).every((s) => s !== 429)).toBe(true);
    expect(answers[5]).toBe(429);
  });
});
