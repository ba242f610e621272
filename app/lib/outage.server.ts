import { data, type RouterContextProvider } from "react-router";
import { isDatabaseUnavailable, isDiskFull } from "#db/errors";

/**
 * What a request answers when a dependency fails rather than the request (docs/decisions/065):
 *
 * - the database cannot serve now (PostgreSQL restarting or unreachable, out of connections, a
 *   time limit run out; SQLite locked past its busy timeout or unopenable): **503** with
 *   `Retry-After`;
 * - the bucket cannot be reached or answers 5xx: **503**; it took too long: **504**;
 * - the disk under the database or the uploads is full: **507** (a write; reads keep working).
 *
 * Anything else thrown stays a 500: it is a bug, not an outage.
 */
export type OutageStatus = 503 | 504 | 507;

/** Seconds a client is told to wait before trying again: a PostgreSQL restart takes a few. */
export const RETRY_AFTER_SECONDS = 10;

/** The status an error thrown by a dependency deserves, or null when it is not an outage. */
export function outageStatus(error: unknown): OutageStatus | null {
  if (isDiskFull(error)) return 507;
  if (isStorageTimeout(error)) return 504;
  if (isDatabaseUnavailable(error) || isStorageUnavailable(error)) return 503;
  return null;
}

/**
 * The AWS SDK's own time limits (`connectionTimeout`, `requestTimeout` of its HTTP handler)
 * reject with a `TimeoutError`; so does an aborted wait on `AbortSignal.timeout`.
 */
function isStorageTimeout(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === "TimeoutError" || name === "RequestTimeout" || name === "RequestTimeoutException";
}

/** The bucket answered with a server error (503 SlowDown, 500 InternalError…). */
function isStorageUnavailable(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: unknown } } | null)?.$metadata?.httpStatusCode;
  return typeof status === "number" && status >= 500;
}

/** An error of the bucket's client (the AWS SDK marks each with `$metadata`), refused connections included. */
export function isStorageFailure(error: unknown): boolean {
  return typeof error === "object" && error !== null && "$metadata" in error;
}

/** The headers every outage answer carries. */
export function outageHeaders(): Record<string, string> {
  return { "Retry-After": String(RETRY_AFTER_SECONDS), "Cache-Control": "no-store" };
}

/** An answer for the nearest error boundary: `throw outageResponse(503)`. */
export function outageResponse(status: OutageStatus) {
  return data(null, { status, headers: outageHeaders() });
}

/**
 * The outage each request met, noted by `handleError` (app/entry.server.tsx) when React Router
 * catches a loader's, action's or middleware's error, for the outage middleware to answer
 * (app/middleware/outage.ts). Keyed by the request's context; gone with it.
 */
const noted = new WeakMap<object, OutageStatus>();

/** Called with every error React Router catches: remembers an outage on the request's context. */
export function noteFailure(error: unknown, context: Readonly<RouterContextProvider> | undefined): void {
  const status = outageStatus(error);
  if (!status || !context) return;
  // A full disk says more than a lost connection: it is what the shopper must be told.
  if (noted.get(context) !== 507) noted.set(context, status);
}

/** The outage noted for this request, if any. */
export function notedOutage(context: Readonly<RouterContextProvider>): OutageStatus | null {
  return noted.get(context) ?? null;
}

/** A form answer's problem for an outage: what the shopper reads next to the form. */
export function outageProblemKey(status: OutageStatus): string {
  return status === 507 ? "error.formDiskFull" : "error.formUnavailable";
}
