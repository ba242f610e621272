import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "./tests/chromium";
import { createPostgresDatabase, freePort, S3_CREDENTIALS, startTestBucket } from "./tests/reliability/shop";
import { startPostgres } from "./tests/setup/postgres";

/**
 * The purchase and admin flows (issue 16) against two shop processes on one PostgreSQL database
 * and one S3 bucket, behind a round-robin proxy (tests/setup/round-robin.ts) that sends each
 * request to the other process, JavaScript on and off. The specs are those of
 * playwright.config.ts, unchanged: the proxy is their baseURL.
 *
 * In the runner only (workers evaluate this file again and inherit the environment), one
 * PostgreSQL cluster and one s3rver bucket are started; both end with the runner (the cluster
 * stops itself at process exit, s3rver lives in the runner). Playwright starts the web servers
 * one after the other, so here the first process migrates and seeds; two processes starting
 * together on an empty database are tested in tests/reliability/scale.spec.ts.
 *
 * Left out: admin/first-admin (the setup works once per fresh shop: playwright.config.ts gives
 * each of its runs a shop of its own), admin/products-list, admin/order-notes-and-sorting, admin/messages,
 * purchase/discount-codes and purchase/restricted-items (they read or write the main shop's SQLite file; the outbox and the
 * discount race across two processes on PostgreSQL are tests/reliability/outbox.spec.ts and
 * discount-races.spec.ts), and the admin specs about how a page is drawn rather than about
 * state the processes share — access (the route authorization matrix, also run by the
 * reliability suite), accessibility, phone-layout and admin-zh — which playwright.config.ts runs
 * on every build; here they would only add minutes to CI (docs/decisions/029).
 */

if (!process.env.SCALE_DATABASE_URL) {
  const cluster = await startPostgres();
  const bucket = await startTestBucket("shop-e2e");
  process.env.SCALE_DATABASE_URL = await createPostgresDatabase(cluster, "shop");
  process.env.SCALE_STORAGE_URL = bucket.storageUrl;
  process.env.SCALE_PORTS = `${await freePort()},${await freePort()},${await freePort()}`;
  process.env.E2E_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "shop-scale-"));
  const dir = process.env.E2E_DIR;
  process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
}
/** The e2e fixtures' createAdmin (the admin:create CLI) goes to this database. */
process.env.E2E_DATABASE_URL = process.env.SCALE_DATABASE_URL;
const [proxyPort, ...shopPorts] = (process.env.SCALE_PORTS ?? "").split(",").map(Number) as [number, ...number[]];
const dir = process.env.E2E_DIR ?? "";
const baseURL = `http://127.0.0.1:${proxyPort}`;
process.env.ROUND_ROBIN_URL = baseURL;

/** One shop process; both share the database, the bucket, data/ (the mail outbox) and the session secret. */
function shopProcess(port: number) {
  return {
    command: "node bin/shop.mjs start",
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 180_000,
    // Every request is logged on stdout: too much for the run's output (scale.spec.ts checks the start log).
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    env: {
      ...S3_CREDENTIALS,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      // Links in mails and pages point at the proxy, as behind a real load balancer.
      PUBLIC_URL: baseURL,
      DATA_DIR: path.join(dir, "main", "data"),
      DATABASE_URL: process.env.SCALE_DATABASE_URL ?? "",
      STORAGE_URL: process.env.SCALE_STORAGE_URL ?? "",
      UPLOADS_DIR: path.join(dir, "main", "uploads"),
      SESSION_SECRET: "scale-e2e-session-secret-0123456789abcdef",
      TRUST_PROXY: "on",
      // Every test request comes from loopback: per-address limits would throttle the suite itself.
      RATE_LIMIT_ADDRESS_FACTOR: "1000",
      // Two single processes behind the proxy (its teardown checks that both served), not one per
      // core each: four workers beside PostgreSQL on two cores would only be slower.
      WEB_CONCURRENCY: "1",
    },
  };
}

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: ["purchase/**/*.spec.ts", "admin/**/*.spec.ts"],
  // The flows that write across the two processes run here; screens whose rules are one model call
  // tested on PostgreSQL by Vitest (dashboard figures, derived prices, demo removal, the payment
  // deadline and the receipt queue: POSTGRES_SUITES) run in the SQLite e2e only, to keep CI in time.
  testIgnore: [
    /first-admin/,
    /products-list/,
    // Writes its products into the SQLite file; notes and sorting are tested on PostgreSQL by
    // Vitest (order-notes, admin-sorting, query-plans).
    /order-notes-and-sorting/,
    /admin\/messages\./,
    /discount-codes/,
    // Writes its product into the SQLite file; refusals on PostgreSQL: tests/concurrent-payments.test.ts.
    /payment-refused/,
    /restricted-items/,
    /admin\/access\./,
    /admin\/accessibility\./,
    /phone-layout/,
    /admin-zh/,
    /admin\/dashboard\./,
    /product-prices/,
    /demo-data/,
    /payment-deadline/,
    /receipt-queue/,
    /product-csv/,
    /staff\./,
  ],
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers: 2,
  timeout: 45_000,
  reporter: [["list"]],
  // Fails the run unless both processes served requests through the proxy.
  globalTeardown: "./tests/setup/round-robin.ts",
  use: {
    baseURL,
    locale: "en-GB",
    trace: process.env.PW_TRACE === "on" ? "retain-on-failure" : "off",
    launchOptions: chromiumLaunchOptions,
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    { name: "no-js", use: { javaScriptEnabled: false }, grepInvert: /@http|@render/ },
  ],
  webServer: [
    ...shopPorts.map(shopProcess),
    {
      command: "node tests/setup/round-robin.ts",
      url: `${baseURL}/healthz`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: "pipe" as const,
      env: {
        ROUND_ROBIN_PORT: String(proxyPort),
        ROUND_ROBIN_BACKENDS: shopPorts.map((port) => `http://127.0.0.1:${port}`).join(","),
      },
    },
  ],
});
