// A stand-in app for tests/cluster.test.ts: the real server/cluster.ts and server/lifecycle.ts
// (node runs their TypeScript as it is) around a tiny HTTP server whose answer names the
// worker's pid (this fixture only).
import cluster from "node:cluster";
import http from "node:http";

const { reportCannotStart, runWorkers } = await import(new URL("../../server/cluster.ts", import.meta.url).href);
const { stopWithLauncher } = await import(new URL("../../server/lifecycle.ts", import.meta.url).href);

if (cluster.isPrimary) {
  runWorkers({
    workers: Number(process.env.WORKERS),
    handleSignals: true,
    graceMs: 2000,
    restartIntervalMs: Number(process.env.RESTART_MS ?? 1000),
    onServing: () => console.info("serving"),
  });
  stopWithLauncher({ intervalMs: 100 });
} else if (process.env.FAIL_AT_START === "1") {
  // A worker that cannot start for an unknown reason: it exits before listening.
  process.exit(3);
} else if (process.env.FAIL_AT_START === "port") {
  // A worker that found the port taken: it says so to the primary.
  await reportCannotStart(`Port ${process.env.PORT} is already in use`);
} else {
  const server = http.createServer((_req, res) => {
    res.setHeader("Connection", "close");
    res.end(`ok ${process.pid}`);
  });
  server.listen(Number(process.env.PORT), "127.0.0.1");
  process.on("SIGTERM", () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
