import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { freePort, newShopFiles, ROOT, removeFiles, type ShopFiles, shopEnv } from "./shop";

/**
 * Starting and stopping the shop as its owner does (issue 25): `npm start` for real, with the
 * cluster of its default (a primary and two workers). Stopping the npm process stops every
 * process of the shop and frees the port; a second start on a taken port fails with one line and
 * a non-zero exit; the start log says each line once, with the shop's own name. One database,
 * migrated once and never seeded (SEED_DEMO=off), serves every start here.
 */

test.describe.configure({ mode: "serial" });

/** The name the owner gave the shop in Settings → Shop details. */
const SHOP_NAME = "Kowloon Airsoft Co.";
const PORT_TAKEN = /^Port (\d+) is already in use \(is the shop already running\?\)\. Stop that program or set PORT\.$/;

let files: ShopFiles;

test.beforeAll(() => {
  files = newShopFiles("start-stop");
  execFileSync(process.execPath, ["bin/shop.mjs", "migrate"], { cwd: ROOT, env: shopEnv(files), stdio: "pipe" });
  // Written as the Shop details form stores it (one JSON value): the model is not importable here.
  const db = new Database(files.databaseFile);
  db.prepare("INSERT INTO site_settings (key, value, updated_at) VALUES (?, ?, ?)").run(
    "shop_details",
    JSON.stringify({ name: { en: SHOP_NAME, zh: "九龍氣槍" } }),
    new Date().toISOString(),
  );
  db.close();
});

test.afterAll(() => removeFiles(files));

interface Started {
  child: ChildProcess;
  /** stdout and stderr, interleaved as written. */
  log(): string;
  exited: Promise<number | null>;
}

/** `command args` in the shop's folder on `port`, in a process group of its own (for the clean-up). */
function run(command: string, args: string[], port: number, env: Record<string, string> = {}): Started {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: shopEnv(files, {
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SEED_DEMO: "off",
      WEB_CONCURRENCY: "2",
      ...env,
    }),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => {
      log += chunk;
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, log: () => log, exited };
}

function npmStart(port: number, env: Record<string, string> = {}): Started {
  return run("npm", ["start"], port, env);
}

/** The process and every process under it. */
function tree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" })
      .trim()
      .split("\n")
      .map(Number);
  } catch {
    // none
  }
  return [pid, ...children.filter(Boolean).flatMap(tree)];
}

/** Alive and not a zombie (an exited process whose new parent has not reaped it yet). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function answers(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

/** Waits until the shop says it runs and answers; returns its whole process tree. */
async function serving(shop: Started, port: number): Promise<number[]> {
  await until(
    `the shop on port ${port}\n${shop.log()}`,
    async () =>
      shopLines(shop.log()).some((line) => line.includes(" is running at ")) && (await answers(port))
        ? true
        : undefined,
    90_000,
  );
  return tree(shop.child.pid ?? 0);
}

async function portIsFree(port: number): Promise<boolean> {
  const probe = net.createServer();
  return new Promise((resolve) => {
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** After a test, whatever it left: its process groups (each start is a group of its own). */
const started: Started[] = [];
test.afterEach(() => {
  for (const shop of started.splice(0)) {
    try {
      process.kill(-(shop.child.pid ?? 0), "SIGKILL");
    } catch {
      // gone already
    }
  }
});

/**
 * What the shop itself printed: npm's own "> start" header lines left out, each of the server's
 * JSON log lines (docs/decisions/062; not a terminal, so JSON) as its message.
 */
function shopLines(log: string): string[] {
  return log
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("> "))
    .map((line) => {
      try {
        return line.startsWith("{") ? String((JSON.parse(line) as { msg?: unknown }).msg) : line;
      } catch {
        return line;
      }
    });
}

test("SIGTERM to npm start stops the whole shop; a start on the taken port fails in one line; the log says each line once", async () => {
  test.setTimeout(150_000);
  const port = await freePort();
  const shop = npmStart(port);
  started.push(shop);
  const processes = await serving(shop, port);
  // npm → the primary (the script execs node: no shell between) → two workers.
  expect(processes, shop.log()).toHaveLength(4);

  for (const concurrency of ["2", "1"]) {
    const second = npmStart(port, { WEB_CONCURRENCY: concurrency });
    started.push(second);
    const code = await Promise.race([second.exited, new Promise<"slow">((r) => setTimeout(() => r("slow"), 60_000))]);
    expect(code, `WEB_CONCURRENCY=${concurrency}: ${second.log()}`).not.toBe(0);
    expect(code).not.toBe("slow");
    const lines = shopLines(second.log());
    expect(lines, `WEB_CONCURRENCY=${concurrency}`).toHaveLength(1);
    expect(lines[0]).toMatch(PORT_TAKEN);
    expect(lines[0]).toContain(`Port ${port} `);
  }
  expect(await answers(port), "the first shop still serves").toBe(true);

  shop.child.kill("SIGTERM");
  await until(
    `every process of the shop to exit (${processes.join(", ")})`,
    () => (processes.some(running) ? undefined : true),
    20_000,
  );
  expect(await shop.exited).toBe(0);
  expect(await portIsFree(port)).toBe(true);

  const lines = shopLines(shop.log());
  expect(lines.filter((line) => line.includes(" is running at "))).toEqual([
    `${SHOP_NAME} is running at http://127.0.0.1:${port} (port ${port})`,
  ]);
  expect(lines.filter((line) => line.startsWith("No admin yet."))).toHaveLength(1);
  expect(lines.filter((line) => line.includes("one-time setup token"))).toHaveLength(1);
  const repeated = lines.filter((line, i) => lines.indexOf(line) !== i);
  expect(repeated, shop.log()).toEqual([]);
  expect(shop.log()).not.toContain("Harbour Tactical");
});

test("npm killed outright (SIGKILL): the shop notices and stops, and starts again on the same port", async () => {
  test.setTimeout(120_000);
  const port = await freePort();
  const shop = npmStart(port);
  started.push(shop);
  const processes = await serving(shop, port);
  shop.child.kill("SIGKILL");
  await until(
    `the primary and workers to stop (${processes.join(", ")})`,
    () => (processes.some(running) ? undefined : true),
    20_000,
  );
  expect(await portIsFree(port)).toBe(true);

  const again = npmStart(port, { WEB_CONCURRENCY: "1" });
  started.push(again);
  await serving(again, port);
  again.child.kill("SIGTERM");
  expect(await again.exited).toBe(0);
});

/** A Node older than the shop's (the system one on Debian 12 and Ubuntu 24.04), if the PATH has one. */
function oldNode(): string | null {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(dir, "node");
    if (!dir || dir.includes("node_modules") || !fs.existsSync(candidate)) continue;
    try {
      const version = execFileSync(candidate, ["--version"], { encoding: "utf8" }).trim();
      const [major = 0, minor = 0] = version.slice(1).split(".").map(Number);
      if (major < 22 || (major === 22 && minor < 22)) return candidate;
    } catch {
      // not runnable
    }
  }
  return null;
}

test("on an old Node, the re-run on the bundled one stops with the command that started it", async () => {
  const node = oldNode();
  test.skip(node === null, "no Node older than 22.22 on this machine: nothing is re-run");
  test.setTimeout(120_000);
  const port = await freePort();
  // Typed by hand in a terminal: not under npm (whose children watch it), so only the signal
  // the wrapper passes on can stop the shop.
  const shop = run(node ?? "node", ["bin/shop.mjs", "start"], port, { WEB_CONCURRENCY: "1", npm_lifecycle_event: "" });
  started.push(shop);
  const processes = await serving(shop, port);
  // The old Node → the shop on the bundled Node.
  expect(processes, shop.log()).toHaveLength(2);
  shop.child.kill("SIGTERM");
  await until(
    `every process to exit (${processes.join(", ")})`,
    () => (processes.some(running) ? undefined : true),
    20_000,
  );
  expect(await portIsFree(port)).toBe(true);
  expect(shopLines(shop.log()).filter((line) => line.includes(" is running at "))).toHaveLength(1);
});
