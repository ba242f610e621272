import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { type DB, sqliteHandle } from "./connect.server";

/**
 * Page views written off the event loop, on SQLite (decision 074). Recording a view and its
 * rollups costs about 45 µs of SQLite and Kysely work — more than the rest of a cached page's
 * answer — so on a SQLite file the batches go to a worker thread with its own connection and five
 * prepared statements, and the requests go on meanwhile. The figures are those of
 * `writePageViews` (app/models/analytics.server.ts, which PostgreSQL and an in-memory database
 * keep using): views recorded one by one in order, a session a visitor once per Hong Kong day and
 * a new visitor on the first day it is seen. tests/page-view-writer.test.ts compares both ways
 * table by table.
 *
 * The worker commits with synchronous=NORMAL (analytics: a power cut may lose the last views,
 * never an order, which the main connection commits with FULL) and waits for another process's
 * write lock in its own thread. It is started on the first batch and stopped after IDLE_MS
 * without one; it holds the process open only while a batch is being written.
 */

/** A view as the worker stores it: the day and timestamp worked out by the caller. */
export interface StoredPageView {
  path: string;
  sessionId: string;
  userId: string | null;
  userAgent: string | null;
  referrer: string | null;
  createdAt: string;
  day: string;
}

/** Stopped after this long without a batch (tests open many databases; a shop writes every 2 s). */
const IDLE_MS = 5_000;

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma("busy_timeout = 5000");
db.pragma("foreign_keys = ON");
db.pragma("synchronous = NORMAL");
db.pragma("cache_size = -2000");
const insertView = db.prepare(
  "insert into page_views (path, session_id, user_id, user_agent, referrer, created_at) values (?, ?, ?, ?, ?, ?)");
const insertDaySession = db.prepare(
  "insert into page_view_day_sessions (day, session_id) values (?, ?) on conflict (day, session_id) do nothing");
const insertSession = db.prepare(
  "insert into page_view_sessions (session_id, first_day) values (?, ?) on conflict (session_id) do nothing");
const upsertDay = db.prepare(
  "insert into page_view_days (day, views, visitors, new_visitors) values (?, ?, ?, ?) on conflict (day) do update set " +
  "views = page_view_days.views + excluded.views, visitors = page_view_days.visitors + excluded.visitors, " +
  "new_visitors = page_view_days.new_visitors + excluded.new_visitors");
const upsertPath = db.prepare(
  "insert into page_view_paths (day, path, views) values (?, ?, ?) on conflict (day, path) do update set " +
  "views = page_view_paths.views + excluded.views");
const write = db.transaction((views) => {
  const days = new Map();
  const paths = new Map();
  for (const view of views) {
    insertView.run(view.path, view.sessionId, view.userId, view.userAgent, view.referrer, view.createdAt);
    let day = days.get(view.day);
    if (!day) days.set(view.day, (day = { views: 0, visitors: 0, newVisitors: 0 }));
    day.views++;
    if (insertDaySession.run(view.day, view.sessionId).changes > 0) day.visitors++;
    if (insertSession.run(view.sessionId, view.day).changes > 0) day.newVisitors++;
    const key = view.day + " " + view.path;
    const path = paths.get(key);
    if (path) path.views++;
    else paths.set(key, { day: view.day, path: view.path, views: 1 });
  }
  for (const [key, day] of [...days].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) upsertDay.run(key, day.views, day.visitors, day.newVisitors);
  for (const [, path] of [...paths].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) upsertPath.run(path.day, path.path, path.views);
});
parentPort.on("message", ({ id, views }) => {
  try {
    write.immediate(views);
    parentPort.postMessage({ id });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: String(error && error.message), code: error && error.code } });
  }
});
`;

interface Writer {
  write(views: StoredPageView[]): Promise<void>;
}

const writers = new WeakMap<DB, Writer>();

/** The worker-thread writer for a SQLite file database; null for PostgreSQL and in-memory SQLite. */
export function pageViewWriter(db: DB): Writer | null {
  const existing = writers.get(db);
  if (existing) return existing;
  const sqlite = sqliteHandle(db);
  if (!sqlite || sqlite.memory || !sqlite.name) return null;
  const writer = workerWriter(sqlite.name);
  writers.set(db, writer);
  return writer;
}

function workerWriter(file: string): Writer {
  let worker: Worker | null = null;
  let nextId = 0;
  let idle: ReturnType<typeof setTimeout> | null = null;
  const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();

  const settleAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  const start = (): Worker => {
    const driver = createRequire(import.meta.url).resolve("better-sqlite3");
    const started = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file, driver },
      // A batch is at most MAX_QUEUED small views: a small heap keeps the thread's memory small.
      resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 32 },
    });
    started.on("message", ({ id, error }: { id: number; error?: { message: string; code?: string } }) => {
      const waiting = pending.get(id);
      pending.delete(id);
      if (pending.size === 0) {
        started.unref();
        idle = setTimeout(stop, IDLE_MS);
        idle.unref();
      }
      if (!waiting) return;
      if (error) waiting.reject(Object.assign(new Error(error.message), { code: error.code }));
      else waiting.resolve();
    });
    started.on("error", (error) => {
      if (worker === started) worker = null;
      settleAll(error);
    });
    started.on("exit", () => {
      if (worker === started) worker = null;
      settleAll(new Error("the page-view writer stopped"));
    });
    return started;
  };
  const stop = () => {
    idle = null;
    if (worker && pending.size === 0) {
      const stopping = worker;
      worker = null;
      void stopping.terminate();
    }
  };
  return {
    write(views) {
      if (idle) {
        clearTimeout(idle);
        idle = null;
      }
      worker ??= start();
      worker.ref();
      const id = nextId++;
      const done = new Promise<void>((resolve, reject) => pending.set(id, { resolve, reject }));
      worker.postMessage({ id, views });
      return done;
    },
  };
}
