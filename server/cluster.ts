import cluster, { type Worker } from "node:cluster";
import os from "node:os";

/**
 * Several app processes on one machine (WEB_CONCURRENCY=N): the primary process forks N workers
 * through node's cluster module, each serving on the same HOST:PORT (the primary hands out the
 * connections). Nothing that matters lives in a worker's memory (sessions, throttles, the setup
 * token are in the database), so any worker may answer any request. Only node built-ins here:
 * tests/setup/cluster-fixture.mjs runs this file as it is.
 */

export const MAX_WEB_CONCURRENCY = 64;

/**
 * WEB_CONCURRENCY read strictly: unset or empty is one process per core (`cores`, by default
 * os.availableParallelism(), at most 64); anything but an integer 1-64 is refused. 1 is a single
 * process without the cluster primary.
 */
export function parseWebConcurrency(value: string | undefined, cores = os.availableParallelism()): number {
  const text = value?.trim() ?? "";
  if (text === "") return Math.min(MAX_WEB_CONCURRENCY, Math.max(1, cores));
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < 1 || n > MAX_WEB_CONCURRENCY) {
    throw new Error(
      `WEB_CONCURRENCY must be a whole number of processes from 1 to ${MAX_WEB_CONCURRENCY}, not ${JSON.stringify(value)}.`,
    );
  }
  return n;
}

export interface WorkerPool {
  /** Stops replacing workers, sends each SIGTERM (SIGKILL after `graceMs`), resolves when all exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** What a worker that cannot serve (the port was taken after all) tells its primary before it exits. */
interface CannotStart {
  type: "shop:cannot-start";
  message: string;
}

function isCannotStart(message: unknown): message is CannotStart {
  return (
    typeof message === "object" &&
    message !== null &&
    (message as CannotStart).type === "shop:cannot-start" &&
    typeof (message as CannotStart).message === "string"
  );
}

/**
 * In a worker: tells the primary why this worker cannot serve (one line, printed once by the
 * primary however many workers say it), then exits with code 1. The primary stops them all.
 */
export function reportCannotStart(message: string): Promise<never> {
  return new Promise(() => {
    const report: CannotStart = { type: "shop:cannot-start", message };
    if (process.send) process.send(report, () => process.exit(1));
    else {
      console.error(message);
      process.exit(1);
    }
  });
}

/**
 * In the primary: forks `workers` workers (each runs the same command line again, and sees
 * `cluster.isWorker`), replaces one that exits while the pool is not stopping — at most one
 * replacement per `restartIntervalMs`, so a worker that dies at once does not spin — and, when
 * `handleSignals` is set, stops the pool and exits on SIGTERM/SIGINT. `onServing` runs once, when
 * the first worker listens (the start log is printed there, once, not by every worker). A worker
 * that reports it cannot start (`reportCannotStart`) stops the pool at once: its line is printed
 * and the primary exits with code 1. A worker that exits before it ever listened for another
 * reason (the database is unreadable) failed to start: after `maxStartFailures` such failures in
 * a row the primary stops the pool and exits with code 1 instead of retrying for ever (a service
 * manager then reports it).
 */
export function runWorkers(options: {
  workers: number;
  restartIntervalMs?: number;
  graceMs?: number;
  handleSignals?: boolean;
  maxStartFailures?: number;
  onServing?: () => void;
  log?: (line: string) => void;
  error?: (line: string) => void;
}): WorkerPool {
  const {
    workers,
    restartIntervalMs = 1000,
    graceMs = 15_000,
    maxStartFailures = 5,
    log = console.info,
    error = console.error,
  } = options;
  let stopping = false;
  let serving = false;
  let startFailures = 0;
  let nextRestartAt = 0;
  const timers = new Set<NodeJS.Timeout>();
  const live = new Set<Worker>();

  const fork = () => {
    const worker = cluster.fork();
    live.add(worker);
    let listened = false;
    worker.once("listening", () => {
      listened = true;
      startFailures = 0;
      if (serving) return;
      serving = true;
      options.onServing?.();
    });
    worker.on("message", (message: unknown) => {
      if (!isCannotStart(message) || stopping) return;
      error(message.message);
      void pool.stop("SIGTERM").then(() => process.exit(1));
    });
    worker.once("exit", (code, signal) => {
      live.delete(worker);
      if (stopping) return;
      if (!listened && ++startFailures >= maxStartFailures) {
        log(`cluster: ${startFailures} workers in a row exited before serving; stopping (see the lines above)`);
        void pool.stop("SIGTERM").then(() => process.exit(1));
        return;
      }
      const at = Math.max(Date.now(), nextRestartAt);
      nextRestartAt = at + restartIntervalMs;
      log(
        `cluster: worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another in ${at - Date.now()}ms`,
      );
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!stopping) fork();
      }, at - Date.now());
      timers.add(timer);
    });
  };
  for (let i = 0; i < workers; i++) fork();
  log(`cluster: primary ${process.pid} started ${workers} workers`);

  let stopped: Promise<void> | null = null;
  const pool: WorkerPool = {
    stop(signal = "SIGTERM") {
      if (stopped) return stopped;
      stopping = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      stopped = Promise.all(
        [...live].map(
          (worker) =>
            new Promise<void>((resolve) => {
              if (worker.isDead()) return resolve();
              const force = setTimeout(() => worker.process.kill("SIGKILL"), graceMs);
              worker.once("exit", () => {
                clearTimeout(force);
                resolve();
              });
              worker.process.kill(signal);
            }),
        ),
      ).then(() => undefined);
      return stopped;
    },
  };
  if (options.handleSignals) {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      process.on(signal, () => {
        // Ctrl-C reaches every process of the terminal's group: the primary says it once.
        if (stopping) return;
        log(`${signal}: finishing requests in flight, then stopping`);
        void pool.stop("SIGTERM").then(() => {
          log("shutdown: done");
          process.exit(0);
        });
      });
    }
  }
  return pool;
}
