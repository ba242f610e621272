import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseWebConcurrency } from "../server/cluster";
import { STOP_WITH_PARENT, stopWithLauncher } from "../server/lifecycle";
import { freePort } from "./reliability/shop";

/**
 * WEB_CONCURRENCY: the cluster primary (server/cluster.ts) in real processes. The shop's own
 * production build is not something a Vitest run can rely on, so the workers here run a small
 * fixture server (tests/setup/cluster-fixture.mjs) through the same runWorkers.
 */

const FIXTURE = fileURLToPath(new URL("./setup/cluster-fixture.mjs", import.meta.url));

function children(pid: number): number[] {
  try {
    return execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" })
      .trim()
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("parseWebConcurrency", () => {
  it("reads one process per core when unset, and whole numbers from 1 to 64", () => {
    expect(parseWebConcurrency(undefined, 2)).toBe(2);
    expect(parseWebConcurrency("", 8)).toBe(8);
    expect(parseWebConcurrency("  ", 1)).toBe(1);
    expect(parseWebConcurrency(undefined, 128)).toBe(64);
    expect(parseWebConcurrency(undefined)).toBe(Math.min(64, os.availableParallelism()));
    expect(parseWebConcurrency("1", 8)).toBe(1);
    expect(parseWebConcurrency("2")).toBe(2);
    expect(parseWebConcurrency("64")).toBe(64);
  });

  it.each(["0", "-1", "1.5", "65", "two", "2x"])("refuses %j in one sentence", (value) => {
    expect(() => parseWebConcurrency(value)).toThrow(
      /^WEB_CONCURRENCY must be a whole number of processes from 1 to 64, not "[^"]*"\.$/,
    );
  });
});

describe("runWorkers", () => {
  it("serves from two workers on one port, replaces a dead one, and stops them all on SIGTERM", async () => {
    const port = await freePort();
    const primary = spawn(process.execPath, [FIXTURE], {
      env: { ...process.env, PORT: String(port), WORKERS: "2" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    primary.stdout?.on("data", (chunk) => {
      output += String(chunk);
    });
    const exited = new Promise<number | null>((resolve) => primary.once("exit", (code) => resolve(code)));
    const pid = primary.pid ?? 0;
    try {
      const seen = new Set<number>();
      await until("answers from two workers", async () => {
        try {
          const text = await (await fetch(`http://127.0.0.1:${port}/healthz`)).text();
          expect(text).toMatch(/^ok \d+$/);
          seen.add(Number(text.slice(3)));
        } catch {}
        return seen.size >= 2 ? true : undefined;
      });
      const workers = children(pid);
      expect(workers).toHaveLength(2);
      expect(workers.sort()).toEqual([...seen].sort());

      const [killed = 0, kept = 0] = workers;
      process.kill(killed, "SIGKILL");
      const replaced = await until("a replacement worker", () => {
        const now = children(pid);
        return now.length === 2 && !now.includes(killed) ? now : undefined;
      });
      expect(replaced).toContain(kept);

      primary.kill("SIGTERM");
      expect(await exited).toBe(0);
      await until("the workers to exit", () => (replaced.some(alive) ? undefined : true), 5000);
      // The start log (onServing) once, not once per worker nor again for the replacement.
      expect(output.split("\n").filter((line) => line === "serving")).toHaveLength(1);
      expect(output.split("\n").filter((line) => line.startsWith("SIGTERM:"))).toHaveLength(1);
    } finally {
      if (primary.exitCode === null && primary.signalCode === null) {
        for (const child of children(pid)) process.kill(child, "SIGKILL");
        primary.kill("SIGKILL");
      }
    }
  });

  it("gives up with code 1 when workers keep exiting before they serve, instead of retrying for ever", async () => {
    const primary = spawn(process.execPath, [FIXTURE], {
      env: { ...process.env, PORT: String(await freePort()), WORKERS: "2", FAIL_AT_START: "1", RESTART_MS: "50" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    primary.stdout?.on("data", (chunk) => {
      output += String(chunk);
    });
    const exited = new Promise<number | null>((resolve) => primary.once("exit", (code) => resolve(code)));
    try {
      const code = await Promise.race([exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 8000))]);
      expect(code).toBe(1);
      expect(output).toContain("workers in a row exited before serving");
    } finally {
      if (primary.exitCode === null && primary.signalCode === null) primary.kill("SIGKILL");
    }
  });
  it("stops at once with code 1 and the worker's one line when a worker finds the port taken", async () => {
    const port = await freePort();
    const primary = spawn(process.execPath, [FIXTURE], {
      env: { ...process.env, PORT: String(port), WORKERS: "2", FAIL_AT_START: "port", RESTART_MS: "50" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let errors = "";
    primary.stderr?.on("data", (chunk) => {
      errors += String(chunk);
    });
    const exited = new Promise<number | null>((resolve) => primary.once("exit", (code) => resolve(code)));
    try {
      const code = await Promise.race([exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 8000))]);
      expect(code).toBe(1);
      // Said once, though both workers said it; no retries, no stack.
      expect(errors.trim()).toBe(`Port ${port} is already in use`);
    } finally {
      if (primary.exitCode === null && primary.signalCode === null) primary.kill("SIGKILL");
    }
  });

  it("stops the primary and its workers when the npm process that started them is killed outright", async () => {
    const port = await freePort();
    // `; exit` keeps the shell as the primary's parent, as a shell without `exec` does.
    const launcher = spawn("sh", ["-c", `"${process.execPath}" "${FIXTURE}"; exit 0`], {
      env: { ...process.env, npm_lifecycle_event: "start", PORT: String(port), WORKERS: "2" },
      stdio: ["ignore", "ignore", "ignore"],
    });
    const shell = launcher.pid ?? 0;
    let tree: number[] = [];
    try {
      const primary = await until("the primary", () => children(shell)[0]);
      tree = await until("two workers", () => {
        const workers = children(primary);
        return workers.length === 2 ? [primary, ...workers] : undefined;
      });
      launcher.kill("SIGKILL");
      await until("the primary and workers to exit", () => (tree.some(alive) ? undefined : true), 5000);
    } finally {
      for (const pid of tree.filter(alive)) process.kill(pid, "SIGKILL");
      if (launcher.exitCode === null && launcher.signalCode === null) launcher.kill("SIGKILL");
    }
  });

  it("gives the primary and every worker npm start's memory settings, a user's MALLOC_ARENA_MAX kept", async () => {
    // package.json's start script as npm runs it (sh -c), with the fixture in place of the shop.
    const script: string = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8")).scripts
      .start;
    expect(script).toContain("bin/shop.mjs start");
    const command = script.replace("bin/shop.mjs start", `"${FIXTURE}"`);
    const read = (pid: number, file: string) => fs.readFileSync(`/proc/${pid}/${file}`, "utf8").split("\0");
    for (const [given, expected] of [
      [undefined, "2"],
      ["4", "4"],
    ] as const) {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}`,
        PORT: String(await freePort()),
        WORKERS: "2",
      };
      delete env.MALLOC_ARENA_MAX;
      if (given) env.MALLOC_ARENA_MAX = given;
      const launcher = spawn("sh", ["-c", command], { env, stdio: ["ignore", "ignore", "ignore"] });
      const primary = launcher.pid ?? 0;
      const exited = new Promise((resolve) => launcher.once("exit", resolve));
      try {
        const workers = await until("two workers", () => {
          const now = children(primary);
          return now.length === 2 ? now : undefined;
        });
        // The script execs node: the process npm (or a service manager) stops is the primary.
        for (const pid of [primary, ...workers]) {
          const argv = read(pid, "cmdline");
          expect(argv, `process ${pid}`).toEqual(
            expect.arrayContaining(["--max-semi-space-size=8", "--max-old-space-size=512"]),
          );
          expect(read(pid, "environ"), `process ${pid}`).toContain(`MALLOC_ARENA_MAX=${expected}`);
        }
      } finally {
        launcher.kill("SIGTERM");
        await exited;
      }
    }
  });

  it("watches the parent only of a shop started by npm or re-run by bin/node-check.mjs", () => {
    // Started by hand (nohup, a service manager): the parent may come and go.
    expect(stopWithLauncher({ env: {}, onGone: () => {} })).toBeNull();
    for (const env of [{ npm_lifecycle_event: "start" }, { [STOP_WITH_PARENT]: "1" }]) {
      const unwatch = stopWithLauncher({ env, onGone: () => {} });
      expect(unwatch, JSON.stringify(env)).toBeTypeOf("function");
      unwatch?.();
    }
  });
});
