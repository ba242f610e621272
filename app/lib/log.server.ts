import cluster from "node:cluster";
import { createRequire } from "node:module";
import pino, { type DestinationStream, type Logger, type LoggerOptions } from "pino";

/**
 * The shop's one logger (docs/decisions/062): pino writing one JSON object a line — `time`,
 * `level` (pino's numbers: 30 info, 40 warn, 50 error), `pid`, `msg` and the fields of the call —
 * info and warnings to stdout, errors to stderr (a service manager keeps both; tests and the
 * operator can tell errors apart). Pretty, one readable line each, when a person watches: a
 * terminal (`npm run dev`, `npm start` typed by hand) or LOG_FORMAT=pretty; JSON otherwise
 * (systemd, Docker, a pipe) or with LOG_FORMAT=json.
 *
 * Nothing secret reaches a line: headers that carry credentials are redacted, and every message
 * and error is scrubbed of tokens in links and card-like digit runs (`scrub`). Callers log
 * errors as `{ err }`, so the stack is in the log (and never in a page).
 */

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

/** A run of 13-19 digits, spaces or dashes between them allowed: a payment card number's shape. */
const CARD_LIKE = /\b\d(?:[ -]?\d){12,18}\b/g;
/** A secret in a link or form-like text: `token=…`, `password=…` and friends. */
const SECRET_PARAM = /\b(token|password|passwd|secret|key|code|session|sig|signature)=([^&\s"';]+)/gi;
/** An Authorization header's credentials written out in text. */
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g;

/** Text with every token in a link, credential and card-like digit run replaced. */
export function scrub(text: string): string {
  return text
    .replace(SECRET_PARAM, (_match, name: string) => `${name}=[redacted]`)
    .replace(BEARER, (_match, scheme: string) => `${scheme} [redacted]`)
    .replace(CARD_LIKE, "[digits]");
}

/**
 * A request's path as a log line may show it: no query string (reset, join, verify and stock
 * alert links carry their token there), card-like digits scrubbed, at most 300 characters.
 */
export function loggablePath(url: string): string {
  const query = url.search(/[?#]/);
  return scrub(query >= 0 ? url.slice(0, query) : url).slice(0, 300);
}

/** Field names whose values never reach a line, at the top level and one level down. */
const SECRET_FIELDS = ["password", "newPassword", "token", "setupToken", "cookie", "authorization", "secret"];

export const REDACT_PATHS = [
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
  'req.headers["cookie"]',
  'req.headers["authorization"]',
  'req.headers["x-setup-token"]',
  'res.headers["set-cookie"]',
  'headers["cookie"]',
  'headers["authorization"]',
  'headers["set-cookie"]',
];

/** pino's error serializer, then its message and stack scrubbed like any message. */
function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return typeof error === "string" ? scrub(error) : error;
  const serialized = pino.stdSerializers.err(error) as ReturnType<typeof pino.stdSerializers.err> &
    Record<string, unknown>;
  serialized.message = scrub(serialized.message);
  serialized.stack = scrub(serialized.stack);
  return serialized;
}

function readLevel(value: string | undefined): { level: LogLevel; invalid?: string } {
  const text = value?.trim().toLowerCase() ?? "";
  if (text === "") return { level: "info" };
  return (LOG_LEVELS as readonly string[]).includes(text)
    ? { level: text as LogLevel }
    : { level: "info", invalid: value };
}

/** Pretty when asked, or when stdout is a terminal and LOG_FORMAT says nothing. */
function wantsPretty(format: string | undefined, isTTY: boolean): boolean {
  const text = format?.trim().toLowerCase() ?? "";
  if (text === "pretty") return true;
  if (text === "json") return false;
  return isTTY;
}

/**
 * pino-pretty is a development dependency: loaded only when pretty output is wanted, and a
 * production install without it (npm ci --omit=dev) writes JSON instead.
 */
function prettyStream(fd: 1 | 2): DestinationStream | null {
  try {
    const require = createRequire(import.meta.url);
    const pretty = require("pino-pretty") as (options: Record<string, unknown>) => DestinationStream;
    return pretty({
      destination: fd,
      sync: true,
      colorize: fd === 1 ? Boolean(process.stdout.isTTY) : Boolean(process.stderr.isTTY),
      translateTime: "SYS:HH:MM:ss.l",
      // One line a request: its method, path, status and time are in the message already.
      singleLine: true,
      ignore: "hostname,method,path,status,ms",
    });
  } catch {
    return null;
  }
}

export function loggerOptions(level: LogLevel): LoggerOptions {
  return {
    level,
    base: { pid: process.pid, ...(cluster.isWorker && cluster.worker ? { worker: cluster.worker.id } : {}) },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    serializers: { err: serializeError, error: serializeError },
    hooks: {
      // Every string argument (the message and its format arguments) scrubbed.
      logMethod(args, method) {
        const clean = args.map((arg) => (typeof arg === "string" ? scrub(arg) : arg)) as typeof args;
        return method.apply(this, clean);
      },
    },
  };
}

/** The request lines' options: the logger's, without redaction and the message scrub (see `requestLogger`). */
export function requestLoggerOptions(level: LogLevel): LoggerOptions {
  const { redact: _redact, hooks: _hooks, ...plain } = loggerOptions(level);
  return plain;
}

/**
 * Info and warnings to stdout, errors and worse to stderr (each line written to one of them).
 * `buffered` (the request lines, decision 074): stdout written asynchronously, 4 KB at a time or
 * after a second at most. A synchronous write to a pipe whose reader lags (journald, a log
 * shipper, a busy parent) blocks the event loop until the reader catches up — 80 µs a line
 * measured, every request waiting — and an asynchronous write per line costs a thread hop each.
 * Pino writes what is queued when the process exits, so only a SIGKILL loses the last second of
 * request lines. Other lines (rare: start-up, jobs, warnings) and every error stay synchronous.
 */
function streams(pretty: boolean, buffered: boolean): DestinationStream {
  const out =
    (pretty && prettyStream(1)) ||
    pino.destination(
      buffered
        ? { dest: 1, sync: false, minLength: REQUEST_LINES_BUFFERED, periodicFlush: REQUEST_LINES_FLUSHED_MS }
        : { dest: 1, sync: true },
    );
  const err = (pretty && prettyStream(2)) || pino.destination({ dest: 2, sync: true });
  return pino.multistream(
    [
      { level: "trace", stream: out },
      { level: "error", stream: err },
    ],
    { dedupe: true },
  );
}
const REQUEST_LINES_BUFFERED = 4096;
const REQUEST_LINES_FLUSHED_MS = 1_000;

function createLoggers(env: NodeJS.ProcessEnv = process.env): { log: Logger; requests: Logger } {
  const { level, invalid } = readLevel(env.LOG_LEVEL);
  const pretty = wantsPretty(env.LOG_FORMAT, Boolean(process.stdout.isTTY));
  const log = pino(loggerOptions(level), streams(pretty, false));
  if (invalid !== undefined) {
    log.warn(`LOG_LEVEL ${JSON.stringify(invalid)} is not one of ${LOG_LEVELS.join(", ")}; logging at info`);
  }
  return { log, requests: pino(requestLoggerOptions(level), streams(pretty, true)) };
}

/** The process's logger: every line of the shop's server goes through it. */
const loggers = createLoggers();
export const logger: Logger = loggers.log;
/**
 * The request lines' logger (server/request-log.ts): the same lines and level, its own buffered stdout, without
 * redaction and the message scrub, which cost a third of a cached page's answer. A request line is
 * built only from values that are safe by construction — a `loggablePath`, the method, the route
 * pattern, the status, a duration, ids — never a header, cookie or body; `tests/log.test.ts`
 * checks that a request line of a secret-bearing URL shows none of it.
 */
export const requestLogger: Logger = loggers.requests;

/** A logger whose every line carries `bindings` (`{ job: "payment-deadlines" }`, `{ reqId }`). */
export function childLogger(bindings: Record<string, unknown>): Logger {
  return logger.child(bindings);
}
