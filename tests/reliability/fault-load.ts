import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { CHECKOUT_DETAILS, type UploadFile } from "../e2e/fixtures";
import { ROOT } from "./shop";
import type { PaymentOutcome, Shopper, Variant } from "./shoppers";

/**
 * A bounded shopper load for the fault suite (faults.spec.ts), recording every answer: signed-in
 * shoppers go round the whole purchase (home page, product page and its image, cart, checkout,
 * payment page, payment with a receipt upload) again and again, and an anonymous visitor reads
 * the cached pages. Every request is one sample: what it was, when it was sent and answered,
 * its status (or "timeout" past the client's bound, "no answer" when the connection failed) and
 * its Retry-After. From the samples around a fault come its figures: requests, statuses,
 * slowest answer, and the time the shop took to recover.
 */

/** One step of a journey. */
export type StepKind =
  | "home"
  | "product"
  | "image"
  | "cart"
  | "checkout"
  | "payment page"
  | "pay"
  | "anonymous home"
  | "anonymous product"
  /** Probes of the disk-full test. */
  | "sign-up"
  | "read";

/** A status, or no status: the client gave up after its timeout, or the connection failed. */
export type Answer = number | "timeout" | "no answer";

export interface Sample {
  kind: StepKind;
  /** Date.now() when sent and when the whole body had arrived (or the request failed). */
  start: number;
  end: number;
  answer: Answer;
  retryAfter: string | null;
  /** The page's title, the start of the body, or the client's error: for failure messages. */
  note: string;
}

/** One payment posted: its submission key, the colour bought (1 unit), and what came back. */
export interface Payment {
  key: string;
  variant: Variant;
  outcome: PaymentOutcome;
  /** When it was sent and when its answer (or the failure) came. */
  start: number;
  end: number;
}

export interface Load {
  readonly samples: readonly Sample[];
  readonly payments: readonly Payment[];
  /** Stops every journey after its request in flight; resolves when all have. */
  stop(): Promise<void>;
}

/** A client that gives up on an answer after this long: a request that slow counts as a hang. */
export const CLIENT_TIMEOUT_MS = 15_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function describeError(error: unknown): { answer: Answer; note: string } {
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = message.split("\n")[0] ?? message;
  return { answer: /timeout/i.test(firstLine) ? "timeout" : "no answer", note: firstLine.slice(0, 160) };
}

function noteOf(body: string): string {
  const title = /<title>([^<]*)<\/title>/.exec(body)?.[1];
  return (title ?? body.replace(/\s+/g, " ")).slice(0, 160);
}

/**
 * Sends one request and records it in `samples`: the sample, and the response with its body when
 * one came. Also for single probes outside a load (the disk-full test).
 */
export function recorder(samples: Sample[]) {
  return async (
    kind: StepKind,
    request: () => Promise<APIResponse>,
  ): Promise<{ sample: Sample; response?: APIResponse; body: string }> => {
    const start = Date.now();
    let response: APIResponse;
    let body = "";
    try {
      response = await request();
      body = await response.text();
    } catch (error) {
      const sample: Sample = { kind, start, end: Date.now(), retryAfter: null, ...describeError(error) };
      samples.push(sample);
      return { sample, body };
    }
    const answer = response.status();
    const sample: Sample = {
      kind,
      start,
      end: Date.now(),
      answer,
      retryAfter: response.headers()["retry-after"] ?? null,
      note: answer >= 400 ? noteOf(body) : "",
    };
    samples.push(sample);
    return { sample, response, body };
  };
}

/**
 * Starts the load: one journey loop per shopper (shopper i buys variants[i % n], one unit a
 * time) and one anonymous visitor on `productIds`. `pauseMs` between journeys keeps it bounded.
 */
export function startLoad(options: {
  shoppers: readonly Shopper[];
  variants: readonly Variant[];
  anonymous?: APIRequestContext;
  receipt: UploadFile;
  pauseMs?: number;
}): Load {
  const samples: Sample[] = [];
  const payments: Payment[] = [];
  const pauseMs = options.pauseMs ?? 150;
  let stopping = false;

  const send = recorder(samples);
  /** `send`, then the response and its body when the status is one of `expected`, else null. */
  const step = async (
    kind: StepKind,
    request: () => Promise<APIResponse>,
    expected: readonly number[],
  ): Promise<{ response: APIResponse; body: string } | null> => {
    const { response, body } = await send(kind, request);
    return response && expected.includes(response.status()) ? { response, body } : null;
  };

  const timeout = CLIENT_TIMEOUT_MS;
  const journey = async (shopper: Shopper, variant: Variant): Promise<boolean> => {
    const request = shopper.request;
    if (!(await step("home", () => request.get("/", { timeout, maxRedirects: 0 }), [200]))) return false;
    const product = await step(
      "product",
      () => request.get(`/product/${variant.productId}`, { timeout, maxRedirects: 0 }),
      [200],
    );
    if (!product) return false;
    // The picture, as a browser would fetch it; a picture that fails to load does not stop the
    // shopper (the page works without it), so the payment is still tried while the bucket is away.
    const image = /(?:src|srcSet|srcset)="(\/uploads\/[^"\s,]+)/.exec(product.body)?.[1];
    if (image) await send("image", () => request.get(image, { timeout, maxRedirects: 0 }));
    const cart = (form: Record<string, string>) => () => request.post("/cart", { form, timeout, maxRedirects: 0 });
    if (!(await step("cart", cart({ intent: "clear" }), [302]))) return false;
    const add = {
      intent: "add",
      productId: String(variant.productId),
      color: variant.color,
      quantity: "1",
      redirectTo: "/cart",
    };
    if (!(await step("cart", cart(add), [302]))) return false;
    const checkout = () =>
      request.post("/checkout", { form: { ...CHECKOUT_DETAILS, email: shopper.email }, timeout, maxRedirects: 0 });
    if (!(await step("checkout", checkout, [302]))) return false;
    const page = await step("payment page", () => request.get("/payment", { timeout, maxRedirects: 0 }), [200]);
    const key = page && /name="submissionKey" value="([^"]+)"/.exec(page.body)?.[1];
    if (!key) return false;

    const paid = await send("pay", () =>
      request.post("/payment", {
        multipart: { submissionKey: key, receipt: options.receipt },
        timeout,
        maxRedirects: 0,
      }),
    );
    const { sample } = paid;
    const location = paid.response?.headers().location ?? "";
    const orderNumber = sample.answer === 302 ? /\/payment-success\?order=([^&]+)$/.exec(location)?.[1] : undefined;
    const outcome: PaymentOutcome = orderNumber
      ? { kind: "confirmed", status: 302, orderNumber: decodeURIComponent(orderNumber) }
      : typeof sample.answer === "number"
        ? { kind: "other", status: sample.answer, text: sample.note || location }
        : { kind: "noAnswer", error: sample.note };
    payments.push({ key, variant, outcome, start: sample.start, end: sample.end });
    return outcome.kind === "confirmed";
  };

  const loops: Promise<void>[] = options.shoppers.map(async (shopper, i) => {
    const variant = options.variants[i % options.variants.length] as Variant;
    while (!stopping) {
      const ok = await journey(shopper, variant);
      await sleep(ok ? pauseMs : pauseMs * 2);
    }
  });
  const anonymous = options.anonymous;
  if (anonymous) {
    loops.push(
      (async () => {
        let i = 0;
        while (!stopping) {
          const variant = options.variants[i++ % options.variants.length] as Variant;
          await step("anonymous home", () => anonymous.get("/", { timeout, maxRedirects: 0 }), [200]);
          await step(
            "anonymous product",
            () => anonymous.get(`/product/${variant.productId}`, { timeout, maxRedirects: 0 }),
            [200],
          );
          await sleep(pauseMs);
        }
      })(),
    );
  }
  return {
    samples,
    payments,
    async stop() {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

/* ------------------------------------------------------------------------------------------
 * Reading the samples around a fault
 * ------------------------------------------------------------------------------------------ */

/** An answer that means the shop did its job (a 4xx is the shopper's doing, not an outage). */
export function isSuccess(sample: Sample): boolean {
  return typeof sample.answer === "number" && sample.answer < 500;
}

/** The statuses a dependency's failure may be answered with. */
const FAULT_STATUSES = new Set([503, 504, 507]);

/**
 * Samples that break the rules of an outage: a 5xx other than 503/504/507, a 503 without
 * Retry-After, a client timeout (a hang), or no answer (unless `noAnswerAllowed` says the
 * request was in flight on a killed process). Described one a line, relative to `t0`.
 */
export function unacceptable(
  samples: readonly Sample[],
  t0: number,
  noAnswerAllowed: (sample: Sample) => boolean = () => false,
): string[] {
  const bad = samples.filter((sample) => {
    if (sample.answer === "timeout") return true;
    if (sample.answer === "no answer") return !noAnswerAllowed(sample);
    if (sample.answer < 500) return false;
    if (!FAULT_STATUSES.has(sample.answer)) return true;
    return sample.answer === 503 && !sample.retryAfter;
  });
  return bad.map(
    (sample) =>
      `${sample.kind} sent at +${sample.start - t0} ms: ${sample.answer}${
        sample.answer === 503 && !sample.retryAfter ? " without Retry-After" : ""
      } after ${sample.end - sample.start} ms (${sample.note})`,
  );
}

/**
 * Watches the load after a fault ended (at `faultEnd`) until it has recovered: `settleMs` with no
 * failed answer and, since the last failure, a success of each kind in `needs` sent after it.
 * Gives up `boundMs` after the fault ended. Resolves with the recovery time: from the fault's end
 * to the end of the last failed answer (0 when nothing failed after it ended), or null when the
 * shop had not recovered within the bound.
 */
export async function watchRecovery(
  load: Pick<Load, "samples">,
  window: { faultStart: number; faultEnd: number },
  options: { needs: readonly StepKind[]; settleMs?: number; boundMs?: number },
): Promise<number | null> {
  const settleMs = options.settleMs ?? 2_000;
  const boundMs = options.boundMs ?? 10_000;
  for (;;) {
    const lastFailure = Math.max(
      window.faultEnd,
      ...load.samples
        .filter((sample) => sample.end >= window.faultStart && !isSuccess(sample))
        .map((sample) => sample.end),
    );
    const served = (kind: StepKind) =>
      load.samples.some((sample) => sample.kind === kind && sample.start >= lastFailure && isSuccess(sample));
    const now = Date.now();
    if (now - lastFailure >= settleMs && options.needs.every(served)) return lastFailure - window.faultEnd;
    if (now - window.faultEnd > boundMs + settleMs) return null;
    await sleep(100);
  }
}

/** What the closing note reports of one fault. */
export interface FaultFigures {
  fault: string;
  level: "fast" | "full";
  /** How long the dependency was away (0 for a kill). */
  outageMs: number;
  /** Requests answered (or failed) between the fault's start and the recovery. */
  requests: number;
  /** Their statuses: "200": n, "503": n, "no answer": n… */
  statuses: Record<string, number>;
  /** The slowest of them. */
  maxLatencyMs: number;
  /** The Retry-After values their 503s carried. */
  retryAfter: string[];
  /** From the fault's end to the last failure (null: not recovered within the bound). */
  recoveryMs: number | null;
  /** Payments over the whole run of this fault: confirmed, refused (an answer), lost (none). */
  payments: { confirmed: number; refused: number; lost: number };
  /** Requests over the whole run of this fault (before, during, after). */
  totalRequests: number;
  /** Anything else worth reporting (e.g. e-mails delivered after the mail server came back). */
  notes: string[];
}

/** The figures of one fault from the load's samples. */
export function figuresOf(
  load: Pick<Load, "samples" | "payments">,
  fault: { name: string; faultStart: number; faultEnd: number; recoveryMs: number | null; notes?: string[] },
): FaultFigures {
  const until = fault.faultEnd + (fault.recoveryMs ?? 0);
  const during = load.samples.filter((sample) => sample.end >= fault.faultStart && sample.start <= until);
  const statuses: Record<string, number> = {};
  for (const sample of during) statuses[String(sample.answer)] = (statuses[String(sample.answer)] ?? 0) + 1;
  const payments = { confirmed: 0, refused: 0, lost: 0 };
  for (const payment of load.payments) {
    if (payment.outcome.kind === "confirmed") payments.confirmed++;
    else if (payment.outcome.kind === "noAnswer") payments.lost++;
    else payments.refused++;
  }
  return {
    fault: fault.name,
    level: process.env.RELIABILITY_LEVEL === "full" ? "full" : "fast",
    outageMs: fault.faultEnd - fault.faultStart,
    requests: during.length,
    statuses: Object.fromEntries(Object.entries(statuses).toSorted(([a], [b]) => a.localeCompare(b))),
    maxLatencyMs: Math.max(0, ...during.map((sample) => sample.end - sample.start)),
    retryAfter: [...new Set(during.flatMap((sample) => (sample.retryAfter ? [sample.retryAfter] : [])))],
    recoveryMs: fault.recoveryMs,
    payments,
    totalRequests: load.samples.length,
    notes: fault.notes ?? [],
  };
}

/** The figures as a compact table for the closing note. */
export function figuresTable(figures: readonly FaultFigures[]): string {
  const head = [
    "fault",
    "outage ms",
    "requests",
    "statuses (fault→recovery)",
    "max ms",
    "recovery ms",
    "payments ok/refused/lost",
  ];
  const rows = figures.map((f) => [
    f.fault,
    String(f.outageMs),
    `${f.requests} of ${f.totalRequests}`,
    Object.entries(f.statuses)
      .map(([status, count]) => `${status}×${count}`)
      .join(" "),
    String(f.maxLatencyMs),
    f.recoveryMs === null ? "not recovered" : String(f.recoveryMs),
    `${f.payments.confirmed}/${f.payments.refused}/${f.payments.lost}`,
  ]);
  const widths = head.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: readonly string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [line(head), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join("\n");
}

/**
 * Writes the figures to test-results/faults-<level>.json (beside Playwright's own results). Each
 * describe block of the spec writes its own rows (a failure restarts the Playwright worker, and
 * with it this module): rows of other faults written by the same run (same runner process) stay.
 */
export function writeFigures(figures: readonly FaultFigures[]): string {
  const level = process.env.RELIABILITY_LEVEL === "full" ? "full" : "fast";
  const file = path.join(ROOT, "test-results", `faults-${level}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let kept: FaultFigures[] = [];
  try {
    const previous = JSON.parse(fs.readFileSync(file, "utf8")) as { runner?: number; faults?: FaultFigures[] };
    const names = new Set(figures.map((f) => f.fault));
    if (previous.runner === process.ppid) kept = (previous.faults ?? []).filter((f) => !names.has(f.fault));
  } catch {
    // no file yet (or not ours)
  }
  const faults = [...kept, ...figures];
  fs.writeFileSync(
    file,
    `${JSON.stringify({ level, runner: process.ppid, written: new Date().toISOString(), faults }, null, 2)}\n`,
  );
  return file;
}

/* ------------------------------------------------------------------------------------------
 * The processes of a cluster
 * ------------------------------------------------------------------------------------------ */

/** The pids of the workers a cluster primary forked (its children). */
export function workerPids(primaryPid: number): number[] {
  try {
    return execFileSync("pgrep", ["-P", String(primaryPid)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number)
      .toSorted((a, b) => a - b);
  } catch {
    // pgrep exits 1 when there is none
    return [];
  }
}
