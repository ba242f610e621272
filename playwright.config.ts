import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "./tests/chromium";
import { freePort } from "./tests/setup/servers";

/**
 * End-to-end tests drive Debian's Chromium against the real production build (npm start) on
 * a free loopback port, with its own temporary database and uploads folder. Every spec runs
 * twice: JavaScript on and JavaScript off. The main shop runs as npm start does by default, one
 * process per core (WEB_CONCURRENCY empty), so the default is what is tested; the first-admin and
 * owner shops, which serve one spec file each, are single processes.
 */

// Chosen once in the runner; workers inherit the environment and reuse the same values.
process.env.E2E_PORT ??= String(await freePort());
process.env.E2E_SETUP_PORTS ??= `${await freePort()},${await freePort()}`;
process.env.E2E_OWNER_PORTS ??= `${await freePort()},${await freePort()}`;
process.env.E2E_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "shop-e2e-"));
/** Fixed first-admin setup token of the test servers (see tests/e2e/admin/first-admin.spec.ts). */
process.env.E2E_SETUP_TOKEN ??= "e2e-setup-token-0123456789";
const port = Number(process.env.E2E_PORT);
const [setupJsPort, setupNoJsPort] = process.env.E2E_SETUP_PORTS.split(",").map(Number) as [number, number];
const [ownerJsPort, ownerNoJsPort] = process.env.E2E_OWNER_PORTS.split(",").map(Number) as [number, number];
const dir = process.env.E2E_DIR;
const baseURL = `http://127.0.0.1:${port}`;

/** The production server, on its own port, database and uploads folder under `name`. */
function shopServer(name: string, serverPort: number, extraEnv: Record<string, string> = {}) {
  const url = `http://127.0.0.1:${serverPort}`;
  return {
    command: "node bin/shop.mjs start",
    url: `${url}/healthz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    env: {
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(serverPort),
      PUBLIC_URL: url,
      DATA_DIR: path.join(dir, name, "data"),
      DATABASE_URL: `file:${path.join(dir, name, "data", "shop.db")}`,
      UPLOADS_DIR: path.join(dir, name, "uploads"),
      ADMIN_SETUP_TOKEN: process.env.E2E_SETUP_TOKEN ?? "",
      // Every test request comes from 127.0.0.1: per-address limits would throttle the suite itself.
      RATE_LIMIT_ADDRESS_FACTOR: "1000",
      ...extraEnv,
    },
  };
}

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers: 2,
  timeout: 30_000,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL,
    locale: "en-GB",
    // Tracing every test costs a fifth of the runner's CPU; PW_TRACE=on keeps a failed test's trace.
    trace: process.env.PW_TRACE === "on" ? "retain-on-failure" : "off",
    launchOptions: chromiumLaunchOptions,
  },
  projects: [
    // The first-admin setup works once per shop: each of its two runs gets a fresh server.
    { name: "js", use: { javaScriptEnabled: true }, testIgnore: [/first-admin/, /owner\//] },
    // Tests tagged @http send requests only (no page); tests tagged @render only read what a page
    // shows (texts, layout at each width, fonts), the same server HTML and CSS in both modes: one
    // run, with JavaScript, says it all. Every page type is still checked without JavaScript by
    // the accessibility sweep (a11y.spec.ts) and by the journeys (docs/decisions/038).
    {
      name: "no-js",
      use: { javaScriptEnabled: false },
      testIgnore: [/first-admin/, /owner\//],
      grepInvert: /@http|@render/,
    },
    // What the owner changes shop-wide (shop details, removing the demo) gets a shop of its own per
    // run, not shared with the other specs, in live mode (DEMO_MODE=off). Shop details first,
    // then the demo removal, which empties the catalogue.
    ...(
      [
        ["js", true, ownerJsPort],
        ["no-js", false, ownerNoJsPort],
      ] as const
    ).flatMap(([suffix, javaScriptEnabled, ownerPort]) => {
      const use = { javaScriptEnabled, baseURL: `http://127.0.0.1:${ownerPort}` };
      // As in "no-js": a test that only reads what a page shows runs once, with JavaScript.
      const grepInvert = javaScriptEnabled ? undefined : /@http|@render/;
      return [
        { name: `owner-${suffix}`, use, grepInvert, testMatch: /owner\/(?!demo).*\.spec\.ts/ },
        {
          name: `owner-demo-${suffix}`,
          use,
          grepInvert,
          testMatch: /owner\/demo.*\.spec\.ts/,
          dependencies: [`owner-${suffix}`],
        },
      ];
    }),
    {
      name: "setup-js",
      use: { javaScriptEnabled: true, baseURL: `http://127.0.0.1:${setupJsPort}` },
      testMatch: /first-admin/,
    },
    {
      name: "setup-no-js",
      use: { javaScriptEnabled: false, baseURL: `http://127.0.0.1:${setupNoJsPort}` },
      testMatch: /first-admin/,
    },
  ],
  webServer: [
    shopServer("main", port, { WEB_CONCURRENCY: "" }),
    shopServer("setup-js", setupJsPort, { WEB_CONCURRENCY: "1" }),
    shopServer("setup-no-js", setupNoJsPort, { WEB_CONCURRENCY: "1" }),
    shopServer("owner-js", ownerJsPort, { DEMO_MODE: "off", WEB_CONCURRENCY: "1" }),
    shopServer("owner-no-js", ownerNoJsPort, { DEMO_MODE: "off", WEB_CONCURRENCY: "1" }),
  ],
});
