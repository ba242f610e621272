import cluster from "node:cluster";
import crypto from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { AggregatorRegistry } from "prom-client";
import type { RequestTrace } from "~/context";
import { logger } from "~/lib/log.server";
import { metrics, requestDuration } from "~/lib/metrics.server";

/**
 * `/metrics` (docs/decisions/063): the families of app/lib/metrics.server.ts in Prometheus's
 * text format, answered only to a client on this machine that did not come through a proxy, or
 * to one holding METRICS_TOKEN. Under the cluster (WEB_CONCURRENCY > 1) the worker a scrape
 * lands on asks the primary, which gathers every worker's registry over IPC and sums them
 * (`AggregatorRegistry.aggregate`): one scrape sees the whole shop.
 */

/* ------------------------------------------------------------------------------------------
 * Request durations
 * ------------------------------------------------------------------------------------------ */

const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"];
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * Times every request into `shop_http_request_duration_seconds`, labelled with its route pattern
 * (the trace's, server/request-trace.ts: React Router's matched pattern, the page cache's, or
 * the endpoint's own) — never the path, so a scanner's thousand 404 paths are one label value.
 * Mounted right after the trace. One listener function for all requests: no closure per request.
 */
export function measureRequests(_req: Request, res: Response, next: NextFunction): void {
  res.locals.startedAt = performance.now();
  res.once("finish", recordRequest);
  next();
}

function recordRequest(this: Response): void {
  const seconds = (performance.now() - (this.locals.startedAt as number)) / 1000;
  const status = STATUS_CLASSES[Math.floor(this.statusCode / 100) - 1] ?? "5xx";
  const method = METHODS.has(this.req.method) ? this.req.method : "other";
  durationOf(routeLabel(this), method, status).observe(seconds);
}

/**
 * The histogram's child for one label set, kept: `observe` with a labels object validates and
 * hashes the labels on every request (prom-client), a child does that once. The label sets are
 * bounded (route patterns × methods × status classes).
 */
const durationChildren = new Map<string, ReturnType<typeof requestDuration.labels>>();
function durationOf(route: string, method: string, status: string) {
  const key = `${route}\n${method}\n${status}`;
  let child = durationChildren.get(key);
  if (!child) {
    child = requestDuration.labels({ route, method, status });
    durationChildren.set(key, child);
  }
  return child;
}

/** What a request is counted under: a bounded set of values. */
export function routeLabel(res: Response): string {
  const route = (res.locals.trace as RequestTrace | undefined)?.route;
  if (route) return route;
  // Answered before React Router: the build's hashed assets, the uploads, and the rest (the
  // build's other static files, a cross-site write refused, an error before routing).
  const path = res.req.originalUrl;
  if (path.startsWith("/assets/")) return "/assets/*";
  if (path.startsWith("/uploads/")) return "/uploads/*";
  return "unrouted";
}

/** Names the route of an answer made outside React Router (/metrics, /healthz, /readyz). */
export function setTraceRoute(res: Response, route: string): void {
  const trace = res.locals.trace as RequestTrace | undefined;
  if (trace) trace.route = route;
}

/* ------------------------------------------------------------------------------------------
 * Who may read /metrics
 * ------------------------------------------------------------------------------------------ */

const LOOPBACK = /^(?:127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;
/** Headers a proxy adds: a request carrying one came from somewhere else, whoever connected. */
const PROXY_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip"];

/**
 * Whether `req` may read the metrics: it holds `Authorization: Bearer <METRICS_TOKEN>` (compared
 * in constant time), or it comes from this machine itself — the connection's own address is
 * loopback (never X-Forwarded-For, which anyone can send) and it carries no proxy header, since
 * a reverse proxy on this machine connects from loopback on behalf of the whole internet.
 */
export function mayReadMetrics(req: Request, token: string | null): boolean {
  const authorization = req.get("Authorization");
  if (token && authorization?.startsWith("Bearer ")) {
    return sameSecret(authorization.slice("Bearer ".length).trim(), token);
  }
  if (!LOOPBACK.test(req.socket.remoteAddress ?? "")) return false;
  return !PROXY_HEADERS.some((name) => req.headers[name] !== undefined);
}

/** Compares digests, so neither the time taken nor the lengths say how much of a guess was right. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => crypto.createHash("sha256").update(text).digest();
  return crypto.timingSafeEqual(digest(given), digest(expected));
}

/* ------------------------------------------------------------------------------------------
 * Serving, and the cluster
 * ------------------------------------------------------------------------------------------ */

/** One registry's metrics as `getMetricsAsJSON` gives them, for the trip over IPC. */
type MetricJson = object;

/** Longest a worker waits for the primary's aggregated answer. */
const CLUSTER_ANSWER_MS = 5_000;
/** Longest the primary waits for each worker's registry; a worker that is late is left out. */
const WORKER_ANSWER_MS = 3_000;

/**
 * The `/metrics` endpoint. Refused with a plain 404 (as if it did not exist) to anyone else;
 * never cached, never in the page cache, never a page view (it answers before both).
 */
export function serveMetrics(options: { token: string | null }) {
  return async (req: Request, res: Response) => {
    setTraceRoute(res, "/metrics");
    res.set("Cache-Control", "no-store");
    if (!mayReadMetrics(req, options.token)) {
      res.status(404).type("text/plain").send("Not found");
      return;
    }
    try {
      const text = cluster.isWorker ? await askPrimary() : await metrics.metrics();
      res.status(200).type(metrics.contentType).send(text);
    } catch (error) {
      logger.error({ err: error instanceof Error ? error.message : String(error) }, "metrics: could not gather them");
      res.status(503).type("text/plain").send("metrics unavailable");
    }
  };
}

/*
 * The shop's own IPC messages, apart from prom-client's (`prom-client:…`, which this code does
 * not use: its cluster listener waits for every forked worker, even one still starting, and
 * fails the whole scrape after 5 s when one does not answer).
 */
interface ScrapeRequest {
  type: "shop:metrics-scrape";
  id: number;
}
interface ScrapeAnswer {
  type: "shop:metrics-scraped";
  id: number;
  text?: string;
  error?: string;
}
interface CollectRequest {
  type: "shop:metrics-collect";
  id: number;
}
interface CollectAnswer {
  type: "shop:metrics-collected";
  id: number;
  metrics?: MetricJson[];
  error?: string;
}

function isMessage<T extends { type: string; id: number }>(message: unknown, type: T["type"]): message is T {
  return (
    typeof message === "object" &&
    message !== null &&
    (message as T).type === type &&
    typeof (message as T).id === "number"
  );
}

let nextScrape = 0;
const scrapes = new Map<number, (answer: ScrapeAnswer) => void>();

/** In a worker: the whole cluster's metrics, gathered by the primary. */
function askPrimary(): Promise<string> {
  const id = nextScrape++;
  return new Promise((resolve, reject) => {
    if (!process.send || !process.connected) {
      reject(new Error("this worker has lost its primary"));
      return;
    }
    const timer = setTimeout(() => {
      scrapes.delete(id);
      reject(new Error(`the cluster's primary did not answer within ${CLUSTER_ANSWER_MS}ms`));
    }, CLUSTER_ANSWER_MS);
    scrapes.set(id, (answer) => {
      clearTimeout(timer);
      scrapes.delete(id);
      if (answer.text !== undefined) resolve(answer.text);
      else reject(new Error(answer.error ?? "no answer"));
    });
    const request: ScrapeRequest = { type: "shop:metrics-scrape", id };
    process.send(request);
  });
}

let workerListening = false;

/**
 * In a worker, once: hands its registry to the primary when asked (for any worker's scrape), and
 * takes the primary's aggregated answer to its own scrapes.
 */
export function answerMetricsInWorker(): void {
  if (!cluster.isWorker || workerListening) return;
  workerListening = true;
  process.on("message", (message: unknown) => {
    if (isMessage<ScrapeAnswer>(message, "shop:metrics-scraped")) {
      scrapes.get(message.id)?.(message);
      return;
    }
    if (!isMessage<CollectRequest>(message, "shop:metrics-collect")) return;
    const { id } = message;
    metrics.getMetricsAsJSON().then(
      (json) => process.send?.({ type: "shop:metrics-collected", id, metrics: json } satisfies CollectAnswer),
      (error: unknown) =>
        process.send?.({ type: "shop:metrics-collected", id, error: String(error) } satisfies CollectAnswer),
    );
  });
}

/**
 * In the cluster's primary, before the workers are forked: answers a worker's scrape with every
 * serving worker's metrics summed (gauges that read a shared table say `aggregator: "max"`). A
 * worker that does not answer in time (stuck, or dying) is left out rather than failing the
 * scrape; a worker still starting is not asked.
 */
export function aggregateMetricsInPrimary(): void {
  const serving = new Set<number>();
  const collecting = new Map<number, { answers: MetricJson[][]; pending: number; finish(): void }>();
  let nextCollect = 0;
  cluster.on("listening", (worker) => serving.add(worker.id));
  cluster.on("exit", (worker) => serving.delete(worker.id));
  cluster.on("message", (asker, message: unknown) => {
    if (isMessage<CollectAnswer>(message, "shop:metrics-collected")) {
      const collect = collecting.get(message.id);
      if (!collect) return;
      if (message.metrics) collect.answers.push(message.metrics);
      if (--collect.pending === 0) collect.finish();
      return;
    }
    if (!isMessage<ScrapeRequest>(message, "shop:metrics-scrape")) return;
    const scrape = message.id;
    const id = nextCollect++;
    const workers = [...serving].flatMap((workerId) => {
      const worker = cluster.workers?.[workerId];
      return worker?.isConnected() ? [worker] : [];
    });
    const reply = (answer: Omit<ScrapeAnswer, "type" | "id">) => {
      if (asker.isConnected())
        asker.send({ type: "shop:metrics-scraped", id: scrape, ...answer } satisfies ScrapeAnswer);
    };
    const collect = {
      answers: [] as MetricJson[][],
      pending: workers.length,
      finish() {
        if (!collecting.delete(id)) return;
        clearTimeout(timer);
        AggregatorRegistry.aggregate(collect.answers)
          .metrics()
          .then(
            (text) => reply({ text }),
            (error: unknown) => reply({ error: String(error) }),
          );
      },
    };
    const timer = setTimeout(() => collect.finish(), WORKER_ANSWER_MS);
    collecting.set(id, collect);
    for (const worker of workers) worker.send({ type: "shop:metrics-collect", id } satisfies CollectRequest);
    if (workers.length === 0) collect.finish();
  });
}
