import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

/**
 * End-to-end tests drive Debian's Chromium against the real production build (npm start) on
 * a free loopback port, with its own temporary database and uploads folder. Every spec runs
 * twice: JavaScript on and JavaScript off.
 */

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

// Chosen once in the runner; workers inherit the environment and reuse the same values.
process.env.E2E_PORT ??= String(await freePort());
process.env.E2E_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "shop-e2e-"));
const port = Number(process.env.E2E_PORT);
const dir = process.env.E2E_DIR;
const baseURL = `http://127.0.0.1:${port}`;

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
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    { name: "no-js", use: { javaScriptEnabled: false } },
  ],
  webServer: {
    command: "node bin/shop.mjs start",
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: baseURL,
      DATA_DIR: path.join(dir, "data"),
      DATABASE_URL: `file:${path.join(dir, "data", "shop.db")}`,
      UPLOADS_DIR: path.join(dir, "uploads"),
    },
  },
});
