import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "./tests/chromium";

/**
 * The reliability and security suite (tests/reliability): each spec starts its own production
 * servers (tests/reliability/shop.ts) on loopback with their own databases, so it can race
 * two processes on one SQLite file, kill them and restore backups. `npm run test:reliability`
 * runs it at full strength (RELIABILITY_LEVEL=full); `npm test` runs the same checks with
 * fewer repetitions.
 */
export default defineConfig({
  testDir: "tests/reliability",
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers: 2,
  timeout: process.env.RELIABILITY_LEVEL === "full" ? 900_000 : 180_000,
  reporter: [["list"]],
  use: { locale: "en-GB", launchOptions: chromiumLaunchOptions, javaScriptEnabled: true },
});
