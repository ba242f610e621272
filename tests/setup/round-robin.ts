import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

/**
 * A round-robin proxy for tests (issue 16): one loopback port in front of several shop
 * processes, each request forwarded to the next backend in turn, so consecutive requests of
 * one visitor (one cookie jar) land on different processes. Bodies stream both ways; the
 * answer's status and headers (Set-Cookie, Location …) pass through unchanged; the Host
 * header is kept, so the shop's same-origin check sees the address the browser used. It adds
 * X-Forwarded-For / -Proto / -Host as a load balancer does; the shops read them only with
 * TRUST_PROXY=on (then each test client keeps its own address behind the proxy).
 *
 * A backend that refuses or drops the connection (a killed process) gives a 502 when no
 * answer has started yet, else the client's connection is cut: the answer is lost, as with a
 * real load balancer. `counts[i]` is how many requests backend i was sent.
 *
 * Two ways to use it: `startRoundRobin(backends)` inside a test process, or as a program
 * (a Playwright webServer): `node tests/setup/round-robin.ts` with ROUND_ROBIN_PORT and
 * ROUND_ROBIN_BACKENDS (comma-separated base URLs). Then GET /__round-robin answers the
 * counts as JSON, and SIGTERM stops it.
 */

export interface RoundRobin {
  port: number;
  /** http://127.0.0.1:<port> */
  url: string;
  /** The backends' base URLs; a test may replace one (a restarted process on a new port). */
  backends: string[];
  /** Requests sent to each backend, by index. */
  counts: number[];
  close(): Promise<void>;
}

/** Where a test reads the counts of a proxy started as a program. */
export const COUNTS_PATH = "/__round-robin";

export async function startRoundRobin(
  backends: readonly string[],
  options: { port?: number; countsPath?: boolean } = {},
): Promise<RoundRobin> {
  if (backends.length === 0) throw new Error("the round-robin proxy needs at least one backend");
  const list = [...backends];
  const counts = list.map(() => 0);
  let next = 0;

  const server = http.createServer((req, res) => {
    if (options.countsPath && req.url === COUNTS_PATH) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ backends: list, counts }));
      return;
    }
    const index = next;
    next = (next + 1) % list.length;
    counts[index] = (counts[index] ?? 0) + 1;
    const target = new URL(list[index] as string);
    const headers = { ...req.headers };
    const client = req.socket.remoteAddress ?? "";
    headers["x-forwarded-for"] = headers["x-forwarded-for"] ? `${headers["x-forwarded-for"]}, ${client}` : client;
    headers["x-forwarded-proto"] ??= "http";
    if (req.headers.host) headers["x-forwarded-host"] ??= req.headers.host;
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers,
        // One connection per request: nothing is pooled across a killed backend.
        agent: false,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
        answer.pipe(res);
        answer.on("error", () => res.destroy());
        answer.on("aborted", () => res.destroy());
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) {
        res.writeHead(502, { "content-type": "text/plain", connection: "close" }).end("Bad Gateway");
      } else {
        res.destroy();
      }
    });
    req.on("aborted", () => upstream.destroy());
    req.pipe(upstream);
  });
  // As long as the shop's own (server/app.ts): a client reusing a connection the proxy has
  // just closed as idle gets ECONNRESET, which a load balancer with a short timeout causes too;
  // that is not what these tests measure.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    backends: list,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The counts of a proxy started as a program (its /__round-robin answer). */
export async function roundRobinCounts(url: string): Promise<{ backends: string[]; counts: number[] }> {
  const response = await fetch(new URL(COUNTS_PATH, url));
  if (!response.ok) throw new Error(`${COUNTS_PATH} answered ${response.status}`);
  return (await response.json()) as { backends: string[]; counts: number[] };
}

/**
 * Playwright globalTeardown of playwright.scale.config.ts (it runs before the web servers
 * stop): fails the run unless every backend behind ROUND_ROBIN_URL served requests.
 */
export default async function expectEveryBackendServed(): Promise<void> {
  const url = process.env.ROUND_ROBIN_URL;
  if (!url) return;
  const { backends, counts } = await roundRobinCounts(url);
  console.info(`round-robin: requests per backend ${backends.map((b, i) => `${b}=${counts[i]}`).join(", ")}`);
  if (counts.some((count) => count === 0)) throw new Error(`a backend served no request: ${counts.join(", ")}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const port = Number(process.env.ROUND_ROBIN_PORT);
  const backends = (process.env.ROUND_ROBIN_BACKENDS ?? "").split(",").filter(Boolean);
  const proxy = await startRoundRobin(backends, { port, countsPath: true });
  console.info(`round-robin proxy on ${proxy.url} -> ${backends.join(", ")}`);
  const stop = () => void proxy.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
