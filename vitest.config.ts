import { defineConfig } from "vitest/config";

/**
 * Two projects: every test on SQLite (the default database), and the suites that exercise the
 * models and the SQL once more on PostgreSQL, against a throwaway cluster the `postgres`
 * project's global set-up starts (tests/setup/postgres-global.ts; Debian's postgresql package).
 * Suites left out of it test SQLite itself: its query plans, its file backups, a migration from
 * an old SQLite file, the CLI and the cluster on the default database.
 */
const POSTGRES_SUITES = [
  "outages",
  "visitor",
  "session-memo",
  "prepared-read",
  "concurrent-payments",
  "admin-blog",
  "refunds",
  "bulk-shipping",
  "admin-categories",
  "admin-brands",
  "brands",
  "brand-listings",
  "brand-csv",
  "brand-demo",
  "admin-customers",
  "admin-messages",
  "admin-orders",
  "admin-product-form",
  "admin-products",
  "admin-settings",
  "admin-sorting",
  "admin-setup",
  "analytics",
  "auth",
  "blog",
  "cart",
  "catalog",
  "catalogue-memo",
  "age-confirmation",
  "restricted-items",
  "sale-prices",
  "merchant-feed",
  "metrics",
  "checkout-prefill",
  "checkout-steps",
  "colour-images",
  "colour-names",
  "customer-emails",
  "db-copy",
  "demo-data",
  "discount-routes",
  "discounts",
  "form-action",
  "hidden-category",
  "order",
  "order-export",
  "order-documents",
  "order-notes",
  "outbox",
  "outbox-settings",
  "order-status-words",
  "page-cache",
  "page-view-buffer",
  "payment-deadlines",
  "payment-details",
  "payment-window",
  "product-csv",
  "product-variants",
  "variant-migration",
  "payment-qr",
  "rate-limit",
  "receipt-replace",
  "receipt-status",
  "schema",
  "search-synonyms",
  "seed",
  "session",
  "shop-alerts",
  "shop-details",
  "shipping-zones",
  "admin-shipping-zones",
  "cart-destination",
  "card-add-to-cart",
  "migration-0018",
  "sitemap",
  "staff",
  "stock-alerts",
  "structured-data",
  "user",
  "webhooks",
].map((name) => `tests/${name}.test.ts`);

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    environment: "node",
    pool: "forks",
    // One module graph per worker, not per file: importing the app for each of ~130 files was half
    // the run. Files keep no state between them: each opens its own database (tests/setup/db.ts)
    // and restores what it changes of process.env; vi.mock is not used.
    isolate: false,
    testTimeout: 20_000,
    // The shop's log lines (app/lib/log.server.ts) stay out of the test output; a test that
    // reads them spies on the logger. LOG_LEVEL=info npx vitest … shows them.
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" },
    projects: [
      {
        extends: true,
        test: {
          name: "sqlite",
          include: ["tests/**/*.test.ts", "app/**/*.test.ts", "db/**/*.test.ts"],
          exclude: ["tests/e2e/**", "node_modules/**"],
        },
      },
      {
        extends: true,
        test: {
          name: "postgres",
          include: POSTGRES_SUITES,
          globalSetup: ["tests/setup/postgres-global.ts"],
          env: { SHOP_TEST_DATABASE: "postgres", LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" },
        },
      },
    ],
  },
});
