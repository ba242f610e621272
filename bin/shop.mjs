#!/usr/bin/env node
// The shop's one command line: `start` (default), `dev`, `migrate`, `seed`, and what later
// releases add. Everything but `dev` runs from the production build, building it first when
// there is none, so `npm install && npm start` is all a new user needs.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ensureRecentNode } from "./node-check.mjs";

await ensureRecentNode();

const [command = "start", ...args] = process.argv.slice(2);
const root = fileURLToPath(new URL("..", import.meta.url));
process.chdir(root);

if (command === "dev") {
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  const app = await vite.ssrLoadModule("./server/app.ts");
  try {
    await app.startServer({ vite });
  } catch (error) {
    // A port that is taken (StartError): its one line, not a stack.
    console.error(error?.exitCode === 1 ? error.message : error);
    await vite.close();
    process.exit(1);
  }
} else {
  process.env.NODE_ENV ??= "production";
  const buildDir = process.env.BUILD_DIR ?? "build";
  const serverBuild = new URL(`../${buildDir}/server/index.js`, import.meta.url);
  if (!existsSync(serverBuild)) {
    console.info("No production build yet: building it now (about a minute, once).");
    const cli = fileURLToPath(new URL("../node_modules/@react-router/dev/bin.cjs", import.meta.url));
    const result = spawnSync(process.execPath, [cli, "build"], { stdio: "inherit" });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  const { commands } = await import(serverBuild.href);
  const run = commands[command];
  if (!run) {
    console.error(`Unknown command "${command}". Commands: ${["dev", ...Object.keys(commands)].join(", ")}`);
    process.exit(2);
  }
  try {
    await run(args);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    // A command line the command cannot read (UsageError) exits with 2, anything else with 1.
    process.exit(error?.exitCode === 2 ? 2 : 1);
  }
}
