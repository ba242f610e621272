import net from "node:net";

/**
 * Starting and stopping the shop's processes: a port that is taken is said in one line before
 * anything else happens, and a shop started by `npm start` stops with it. Only node built-ins
 * here: tests/setup/cluster-fixture.mjs runs this file as it is.
 */

/**
 * Why the shop cannot serve, said in one line that tells what to do: bin/shop.mjs prints the
 * message alone (no stack) and exits with code 1.
 */
export class StartError extends Error {
  readonly exitCode = 1;
}

export function portTakenMessage(port: number): string {
  return `Port ${port} is already in use (is the shop already running?). Stop that program or set PORT.`;
}

/** The StartError for what listen() failed with, or null for an error nobody can act on. */
export function listenError(error: NodeJS.ErrnoException, port: number, host: string): StartError | null {
  switch (error.code) {
    case "EADDRINUSE":
      return new StartError(portTakenMessage(port));
    case "EACCES":
      return new StartError(
        `Port ${port} may not be opened by this user (ports below 1024 need root): set PORT to 1024 or above and put a proxy in front.`,
      );
    case "EADDRNOTAVAIL":
      return new StartError(`HOST ${host} is not an address of this machine: set HOST (0.0.0.0 listens on every one).`);
    default:
      return null;
  }
}

/** Listens on HOST:PORT; resolves once listening, rejects with a StartError when it cannot. */
export function listen(server: net.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      server.off("listening", listening);
      reject(listenError(error, port, host) ?? error);
    };
    const listening = () => {
      server.off("error", failed);
      resolve();
    };
    server.once("error", failed);
    server.once("listening", listening);
    server.listen(port, host);
  });
}

/**
 * Checks HOST:PORT is free by listening on it for a moment: done first, so a second start on a
 * taken port stops with one line before it migrates, seeds or forks anything.
 */
export async function checkPortFree(port: number, host: string): Promise<void> {
  const probe = net.createServer();
  await listen(probe, port, host);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}

/** Set by bin/node-check.mjs on the shop it re-runs on the bundled Node: that wrapper owns it. */
export const STOP_WITH_PARENT = "SHOP_STOP_WITH_PARENT";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * A shop started by `npm start` (or re-run by bin/node-check.mjs) belongs to that command. When
 * the command is gone — killed with SIGKILL, or a shell between them that died of SIGTERM without
 * passing it on — nobody could stop the shop any more and it would keep the port: it stops itself,
 * as on SIGTERM (`onGone`, checked every `intervalMs`). A shop started any other way (`node
 * bin/shop.mjs start` under nohup, a service manager) is not watched: its parent may come and go.
 * Returns a function that stops watching, or null when there is nothing to watch.
 */
export function stopWithLauncher(
  options: { env?: NodeJS.ProcessEnv; intervalMs?: number; onGone?: () => void } = {},
): (() => void) | null {
  const env = options.env ?? process.env;
  if (!env.npm_lifecycle_event && env[STOP_WITH_PARENT] !== "1") return null;
  const parent = process.ppid;
  const onGone = options.onGone ?? (() => process.kill(process.pid, "SIGTERM"));
  const timer = setInterval(() => {
    // On Linux and macOS an orphan gets a new parent; on Windows it keeps the id of a dead one.
    if (process.ppid === parent && alive(parent)) return;
    clearInterval(timer);
    onGone();
  }, options.intervalMs ?? 1000);
  timer.unref();
  return () => clearInterval(timer);
}
