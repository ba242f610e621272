import { execFile, execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
// With its extension: the benchmark (bench/http.mjs) runs this file with plain Node.
import { freePort } from "./servers.ts";

/**
 * A throwaway PostgreSQL cluster for tests and benchmarks: Debian's `initdb` and `pg_ctl` (from
 * /usr/lib/postgresql/<newest>/bin, or PG_BIN) into a temp folder, listening on a free loopback
 * port only, run as the `postgres` user when we are root (PostgreSQL refuses to run as root).
 * Durability is off (fsync, synchronous_commit): tests kill app processes, never this server.
 * `stop` shuts it down and removes the folder; so does the end of the process that started it.
 */
export interface PostgresCluster {
  port: number;
  /** A connection URL for database `name` as the superuser. */
  url(name: string): string;
  /**
   * `pg_ctl restart -m fast` (every connection is cut, the server is back on the same port), or,
   * with `downMs`, `pg_ctl stop -m fast`, nothing listening for that long, then `pg_ctl start`.
   * Asynchronous, so a load running in the same process keeps going meanwhile.
   */
  restart(options?: { downMs?: number }): Promise<void>;
  stop(): void;
}

function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => fs.existsSync(path.join(root, v, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) {
    throw new Error("PostgreSQL is not installed: apt-get install -y postgresql (or set PG_BIN to its bin folder)");
  }
  return path.join(root, versions[0], "bin");
}

/** Runs one statement (CREATE DATABASE, DROP DATABASE…) on its own connection to `url`. */
export async function runStatement(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function startPostgres(): Promise<PostgresCluster> {
  const bin = binDir();
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) => {
    const [file, argv] = asRoot
      ? ["runuser", ["-u", "postgres", "--", path.join(bin, command), ...args]]
      : [path.join(bin, command), args];
    execFileSync(file, argv, { stdio: ["ignore", "ignore", "pipe"] });
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-pg-"));
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
    fs.chownSync(dir, uid, gid);
  }
  const data = path.join(dir, "data");
  run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=400",
  ].join(" ");
  run("pg_ctl", ["-D", data, "-l", path.join(dir, "server.log"), "-o", options, "-w", "-t", "60", "start"]);

  const runAsync = (command: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const [file, argv] = asRoot
        ? ["runuser", ["-u", "postgres", "--", path.join(bin, command), ...args]]
        : [path.join(bin, command), args];
      execFile(file, argv, { timeout: 60_000 }, (error, _stdout, stderr) =>
        error ? reject(new Error(`${command} ${args.join(" ")}: ${stderr || error.message}`)) : resolve(),
      );
    });
  const log = path.join(dir, "server.log");
  const restart = async (restartOptions: { downMs?: number } = {}) => {
    if (restartOptions.downMs === undefined) {
      await runAsync("pg_ctl", ["-D", data, "-l", log, "-m", "fast", "-w", "-t", "60", "restart"]);
      return;
    }
    await runAsync("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "60", "stop"]);
    await new Promise((resolve) => setTimeout(resolve, restartOptions.downMs));
    await runAsync("pg_ctl", ["-D", data, "-l", log, "-o", options, "-w", "-t", "60", "start"]);
  };

  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    const [file, argv] = asRoot
      ? ["runuser", ["-u", "postgres", "--", path.join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"]]
      : [path.join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]];
    spawnSync(file, argv, { stdio: "ignore" });
    fs.rmSync(dir, { recursive: true, force: true });
    process.off("exit", stop);
  };
  process.on("exit", stop);
  return { port, url: (name) => `postgres://postgres@127.0.0.1:${port}/${name}`, restart, stop };
}
