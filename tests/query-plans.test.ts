import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import { ORDER_SORTS } from "~/lib/list-sort";
import { getAnalytics, getBusinessMetrics, getDailySeries, listRecentOrders } from "~/models/analytics.server";
import { customerBatches, customerSummary, listCustomers, listIpActivity } from "~/models/customers.server";
import { listAdminOrders, receiptQueueSummary, unpaidByAge } from "~/models/orders/desk.server";
import { orderExportBatches } from "~/models/orders/export.server";
import { listOrdersForUser } from "~/models/orders/shopper.server";
import { findMessage, listMessages, listOrderMessages, outboxCounts } from "~/models/outbox/admin-list.server";
import { pruneSentMessages } from "~/models/outbox/deliver.server";
import { listAdminProducts } from "~/models/products/admin-list.server";
import { listFeaturedProducts } from "~/models/products/cards.server";
import {
  findProduct,
  listingBrands,
  listProducts,
  listRelatedProducts,
  type Sort,
} from "~/models/products/catalog.server";
import { searchProducts } from "~/models/products/search.server";
import { createTestDb } from "./setup/db";
import { seedPlanData } from "./setup/plan-data";
import { captureQueries, type ExplainedQuery, formatPlan } from "./setup/query-plans";

/**
 * Issue 8 item 4: the query plans of the pages that must stay fast as the shop grows. Every
 * statement the model functions send is captured (tests/setup/query-plans.ts) and explained on a
 * realistic database (tests/setup/plan-data.ts, no ANALYZE, as in production). Two things fail:
 *
 * - a SCAN of a large table: the whole table (or a whole index) is read; so is a SEARCH whose
 *   only key is `column IS NOT NULL`. A SCAN that walks an index in the ORDER BY's order and
 *   stops at the LIMIT reads one page and passes;
 * - a page (a statement with LIMIT) on a large table sorted in a temporary B-tree: every row that
 *   matches is read and sorted to show one page, where an index was meant to give the order.
 *
 * What remains is listed per case with the reason. An exception that no longer matches anything
 * fails too, so the list stays true.
 */

const LARGE_TABLES = [
  "products",
  "product_variants",
  "orders",
  "order_lines",
  "users",
  "page_views",
  "sign_in_events",
  "cart_lines",
  "outbox_messages",
  "outbox_attempts",
] as const;
type Table = (typeof LARGE_TABLES)[number];
const isLarge = (name: string | undefined): name is Table => (LARGE_TABLES as readonly string[]).includes(name ?? "");

interface Finding {
  kind: "scan" | "sort";
  table: Table;
  detail: string;
  sql: string;
}

interface Exception {
  kind: Finding["kind"];
  table: Table;
  /** Which statement it is about. */
  sql: RegExp;
  why: string;
}

interface Case {
  label: string;
  run: (db: DB) => Promise<unknown>;
  exceptions?: Exception[];
}

function findingsOf(query: ExplainedQuery): Finding[] {
  const paged = /\blimit\b/i.test(query.sql);
  const sorted = query.plan.some((line) => /^USE TEMP B-TREE FOR (ORDER BY|GROUP BY|DISTINCT)/.test(line.detail));
  const findings: Finding[] = [];
  let firstLarge: Table | null = null;
  for (const { detail } of query.plan) {
    const read = /^(SCAN|SEARCH) (\w+)/.exec(detail);
    const table = isLarge(read?.[2]) ? (read?.[2] as Table) : null;
    if (table && !firstLarge) firstLarge = table;
    if (!table) continue;
    // A SEARCH whose only key is `column IS NOT NULL` (shown as `column>?`) reads every row
    // that has the column: a scan too.
    const notNull = /\((\w+)>\?\)$/.exec(detail)?.[1];
    const everyNonNull = notNull !== undefined && new RegExp(`"${notNull}" is not null`, "i").test(query.sql);
    if (read?.[1] !== "SCAN" && !everyNonNull) continue;
    // Walking an index in the page's order up to the LIMIT reads OFFSET + LIMIT entries.
    const walksToLimit = paged && !sorted && /USING (COVERING )?INDEX/.test(detail);
    if (!walksToLimit) findings.push({ kind: "scan", table, detail, sql: query.sql });
  }
  // "LAST TERM OF ORDER BY" only orders ties of an index's order (the id tiebreak): not flagged.
  const pageSort = query.plan.find((line) => line.detail === "USE TEMP B-TREE FOR ORDER BY");
  if (paged && firstLarge && pageSort) {
    findings.push({ kind: "sort", table: firstLarge, detail: pageSort.detail, sql: query.sql });
  }
  return findings;
}

const oneLine = (sql: string) => sql.replace(/\s+/g, " ").slice(0, 220);

/** The findings no exception covers, as readable lines, plus the exceptions that matched nothing. */
function review(explained: ExplainedQuery[], exceptions: Exception[] = []) {
  const used = new Set<Exception>();
  const open: string[] = [];
  for (const query of explained) {
    for (const finding of findingsOf(query)) {
      const covered = exceptions.find(
        (e) => e.kind === finding.kind && e.table === finding.table && e.sql.test(finding.sql),
      );
      if (covered) {
        used.add(covered);
        continue;
      }
      open.push(
        `${finding.kind === "scan" ? "full scan" : "page sorted in a temp B-tree"} of ${finding.table}: ` +
          `${finding.detail}\n  in: ${oneLine(query.sql)}\n${formatPlan(query.plan)}`,
      );
    }
  }
  const stale = exceptions.filter((e) => !used.has(e)).map((e) => `${e.kind} of ${e.table} (${e.why})`);
  return { open, stale };
}

/* ------------------------------------------------------------------------------------------ */

const { dir } = await createTestDb();
const file = path.join(dir, "test.db");
const data = seedPlanData(file);
const capture = captureQueries(file);
afterAll(() => capture.close());
// Brands (decision 052): three, one on every tenth product, for the brand filter and search cases.
capture.sqlite.exec(`INSERT INTO brands (name, name_zh, slug, sort_order, is_demo, created_at, updated_at) VALUES
  ('Tokyo Marui', '東京丸井', 'tokyo-marui', 1, 0, '2026-01-01', '2026-01-01'),
  ('G&G', NULL, 'g-g', 2, 0, '2026-01-01', '2026-01-01'),
  ('Krytac', NULL, 'krytac', 3, 0, '2026-01-01', '2026-01-01')`);
capture.sqlite.exec("UPDATE products SET brand_id = 1 + (id / 10) % 3 WHERE id % 10 = 0");

const rifles = data.categoryIds.get("rifles") ?? null;
const SORT_LIST: Sort[] = ["featured", "newest", "price-low-high", "price-high-low"];
const middleProduct = data.productIds[Math.floor(data.productIds.length / 2)] as number;
const someone = 3; // an account with orders (accounts are picked skewed to the low indexes)
const someEmail = data.emails[someone] as string;
const someUser = data.userIds[someone] as string;

// Exceptions shared by several cases.
const countProducts: Exception = {
  kind: "scan",
  table: "products",
  sql: /^select count\(\*\) as "total" from "products" where \(products\.category_id is null or products\.category_id not in \(select id from categories where is_active = 0\)\)$/,
  why: "COUNT(*) of all products shoppers see, for the page count: reads the smallest index with category_id once a page (only the inactive categories' products are left out, nothing narrows it)",
};
const countOrders: Exception = {
  kind: "scan",
  table: "orders",
  sql: /^select count\(\*\) as "n" from "orders"$/,
  why: "COUNT(*) of all orders for the page count reads the smallest covering index, once a page",
};
const countUsers: Exception = {
  kind: "scan",
  table: "users",
  sql: /^select count\(\*\) as "total" from "users"$/,
  why: "COUNT(*) of all accounts for the page count reads the smallest covering index, once a page",
};
const countAdminProducts: Exception = {
  kind: "scan",
  table: "products",
  sql: /^select count\(\*\) as "total" from "products"$/,
  why: "COUNT(*) of all products for the admin list's page count reads the smallest covering index, once a page",
};
const bandSort: Exception = {
  kind: "sort",
  table: "products",
  sql: /price_gbp_cents(?: end\))? >= \? and .*price_gbp_cents(?: end\))? < \?.*limit/s,
  why: "a price band within one category: the band is an index range (products_category_listed_price_gbp, the price paid in the shopper's currency; products_category_price_gbp_cents for the few whose sale has ended, decision 053); its matches, at most one category's, are sorted",
};

const cases: Record<string, Case[]> = {
  "category listing": [
    {
      label: "all products of one brand, featured first, page 1 (decision 052)",
      run: (db) => listProducts(db, { categoryId: null, brandId: 1, sort: "featured", page: 1, currency: "HKD" }),
      exceptions: [
        {
          kind: "sort",
          table: "products",
          sql: /"products"\."brand_id" = \?.*limit/s,
          why: "one brand's products, found through products_brand_id_idx, are sorted for the page: bounded by one brand's products, like a category's price band",
        },
      ],
    },
    {
      label: "the brands with products in rifles, for its brand links",
      run: async (db) =>
        expect((await listingBrands(db, { categoryId: rifles, currency: "HKD" })).length).toBeGreaterThan(0),
    },
    ...SORT_LIST.map(
      (sort): Case => ({
        label: `rifles, ${sort}, page 2`,
        run: (db) => listProducts(db, { categoryId: rifles, sort, page: 2, currency: "GBP" }),
      }),
    ),
    ...SORT_LIST.map(
      (sort): Case => ({
        label: `rifles, £80-160, ${sort}, page 2`,
        run: (db) => listProducts(db, { categoryId: rifles, price: "high", sort, page: 2, currency: "GBP" }),
        // Sorted by the price in the band's own currency, the same index gives the order too.
        exceptions: sort.startsWith("price-") ? [] : [bandSort],
      }),
    ),
    ...(["featured", "newest"] as const).map(
      (sort): Case => ({
        label: `all products, ${sort}, page 20`,
        run: (db) => listProducts(db, { categoryId: null, sort, page: 20, currency: "HKD" }),
        exceptions: [countProducts],
      }),
    ),
    ...(["price-low-high", "price-high-low"] as const).map(
      (sort): Case => ({
        label: `all products, ${sort}, page 20`,
        run: (db) => listProducts(db, { categoryId: null, sort, page: 20, currency: "USD" }),
        // The count of products whose sale has not ended, and of those whose sale has, both
        // through products_sale_ends (decision 053): no scan.
      }),
    ),
  ],
  search: [
    {
      label: "a brand's name (its products through the brand index, or-ed with the full-text match)",
      run: async (db) => expect((await searchProducts(db, "marui", "HKD")).length).toBeGreaterThan(0),
      exceptions: [
        {
          kind: "sort",
          table: "products",
          sql: /product_search MATCH.*"products"\."brand_id" in \(.*limit/s,
          why: "the full-text matches and the brand's products (each found through an index, no scan) are sorted for the panel's 10: bounded by the matches",
        },
      ],
    },
    {
      label: "2 characters (partial match, LIKE)",
      run: async (db) => expect((await searchProducts(db, "手槍", "HKD")).length).toBeGreaterThan(0),
      exceptions: [
        {
          kind: "scan",
          table: "products",
          sql: /^select count\(\*\).*LIKE/s,
          why: "a 2-character term is a LIKE '%…%' substring, which no index serves (the trigram index needs 3): one pass over the products, by design (catalog.server.ts matchSearch)",
        },
      ],
    },
    {
      label: "3+ characters with 3+ character synonyms (silencer → 滅聲器, suppressor: one full-text MATCH)",
      run: async (db) => expect((await searchProducts(db, "silencer", "HKD")).length).toBeGreaterThan(0),
      exceptions: [
        {
          kind: "sort",
          table: "products",
          sql: /product_search MATCH.*limit/s,
          why: "the full-text matches of every word (found by rowid) are sorted for the panel's 10: bounded by the matches",
        },
      ],
    },
    {
      label: "a term with 2-character synonyms (rifle → 長槍, 步槍: full-text OR partial match)",
      run: async (db) => expect((await searchProducts(db, "rifle", "HKD")).length).toBeGreaterThan(0),
      exceptions: [
        {
          kind: "scan",
          table: "products",
          sql: /^select count\(\*\).*product_search MATCH.*LIKE/s,
          why: "a 2-character synonym is a LIKE '%…%' substring, which no index serves: one pass over the products, as for a 2-character search (decision 043)",
        },
      ],
    },
    {
      label: "3+ characters (full-text trigram index)",
      run: async (db) => expect((await searchProducts(db, "carbine", "HKD")).length).toBeGreaterThan(0),
      exceptions: [
        {
          kind: "sort",
          table: "products",
          sql: /product_search MATCH.*limit/s,
          why: "the full-text matches (found by rowid) are sorted for the panel's 10: bounded by the matches",
        },
      ],
    },
  ],
  home: [
    {
      label: "featured products (shown to shoppers only)",
      run: async (db) => expect((await listFeaturedProducts(db, "HKD", 3)).length).toBe(3),
    },
  ],
  "product page": [
    {
      label: "findProduct + related products",
      run: async (db) => {
        const product = await findProduct(db, middleProduct, "HKD");
        expect(product).not.toBeNull();
        if (product) expect((await listRelatedProducts(db, product, "HKD")).length).toBe(4);
      },
    },
  ],
  dashboard: [
    {
      label: "getAnalytics",
      run: (db) => getAnalytics(db),
      exceptions: [
        {
          kind: "sort",
          table: "page_views",
          sql: /union all select "path", 1 as "views" from "page_views"/,
          why: "popular pages: 7 days of path rollups plus under a day of page views (both index ranges) are grouped by path and the groups sorted for the top 5",
        },
      ],
    },
    { label: "getDailySeries (30 days)", run: (db) => getDailySeries(db, 30) },
    {
      label: "getBusinessMetrics",
      run: (db) => getBusinessMetrics(db),
      exceptions: [
        {
          kind: "scan",
          table: "products",
          sql: /^select count\(\*\) as "n" from "products"$/,
          why: "total products card: COUNT(*) of all products reads the smallest index",
        },
        {
          kind: "scan",
          table: "orders",
          sql: /count\(distinct "user_id"\)/,
          why: "total orders and distinct customers cards: a deliberate aggregate over all orders (covering index)",
        },
        {
          kind: "scan",
          table: "orders",
          sql: /sum\("total_cents"\).*group by "currency", "status"/s,
          why: "revenue and pending-payment cards per currency: a deliberate aggregate over all orders not cancelled (covering index)",
        },
        {
          kind: "scan",
          table: "product_variants",
          sql: /sum\(products\.price_hkd_cents \* product_variants\.stock\)/,
          why: "inventory value card: a deliberate aggregate over every variant",
        },
      ],
    },
    { label: "listRecentOrders (5)", run: (db) => listRecentOrders(db, 5) },
  ],
  "admin orders": [
    {
      label: "no filter, page 1",
      run: (db) => listAdminOrders(db, { status: null, q: "", page: 1 }),
      exceptions: [countOrders],
    },
    {
      label: "no filter, deep page (100)",
      run: (db) => listAdminOrders(db, { status: null, q: "", page: 100 }),
      exceptions: [countOrders],
    },
    { label: "status paid", run: (db) => listAdminOrders(db, { status: "paid", q: "", page: 2 }) },
    ...[
      ["e-mail", someEmail],
      ["order number prefix", (data.orderNumbers[10] as string).slice(4, 11)],
      ["order id prefix", (data.orderIds[10] as string).slice(0, 8)],
    ].map(
      ([what, q]): Case => ({
        label: `search by ${what}`,
        run: async (db) =>
          expect((await listAdminOrders(db, { status: null, q: q as string, page: 1 })).total).toBeGreaterThan(0),
        exceptions: [
          {
            kind: "sort",
            table: "orders",
            sql: /"order_number" >= \?.*limit/s,
            why: "a search's prefix ranges (one index each) find few orders; those are sorted for the page",
          },
        ],
      }),
    ),
    { label: "receipts waiting for review", run: (db) => listAdminOrders(db, { status: "review", q: "", page: 1 }) },
    { label: "overdue", run: (db) => listAdminOrders(db, { status: "overdue", q: "", page: 1 }) },
    { label: "receiptQueueSummary", run: (db) => receiptQueueSummary(db) },
    { label: "unpaidByAge", run: (db) => unpaidByAge(db) },
    {
      label: "search + status",
      run: (db) => listAdminOrders(db, { status: "shipped", q: "emma", page: 1 }),
      exceptions: [
        {
          kind: "sort",
          table: "orders",
          sql: /"order_number" >= \?.*limit/s,
          why: "the prefix ranges find the orders, the status only filters them (admin-order.server.ts); the matches are sorted for the page",
        },
      ],
    },
  ],
  // Sortable admin lists (issue 29 item 6, decision 058): every column's order walks an index
  // (migration 0030) to the page's LIMIT, both ways.
  "admin products sorted": [
    ...(["newest", "name", "price"] as const).flatMap((key) =>
      (["asc", "desc"] as const).flatMap((dir) =>
        (["en", "zh"] as const).map(
          (language): Case => ({
            label: `${key} ${dir}, ${language}, page 20`,
            run: (db) =>
              listAdminProducts(db, {
                page: 20,
                currency: language === "zh" ? "HKD" : "GBP",
                language,
                sort: key === "newest" ? undefined : { key, dir },
              }),
            exceptions: [countAdminProducts],
          }),
        ),
      ),
    ),
  ],
  "admin orders sorted": (Object.keys(ORDER_SORTS) as (keyof typeof ORDER_SORTS)[]).flatMap((key) =>
    (["asc", "desc"] as const).map(
      (dir): Case => ({
        label: `${key} ${dir}, page 100`,
        run: (db) => listAdminOrders(db, { status: null, q: "", page: 100, sort: { key, dir } }),
        exceptions: [countOrders],
      }),
    ),
  ),
  "customers sorted": (["email", "status"] as const).flatMap((key) =>
    (["asc", "desc"] as const).map(
      (dir): Case => ({
        label: `${key} ${dir}, page 30`,
        run: (db) => listCustomers(db, { page: 30, sort: { key, dir } }),
        exceptions: [countUsers],
      }),
    ),
  ),
  // The orders export (issue 29, decision 059): keyset batches on orders_created_id, lines by order.
  "order export": [
    {
      label: "every batch, no filter (each starts after the last one's order)",
      run: async (db) => {
        let batches = 0;
        for await (const _batch of orderExportBatches(db, { status: null, q: "" })) batches++;
        expect(batches).toBeGreaterThan(1);
      },
    },
    {
      label: "every batch, a status and 90 Hong Kong days",
      run: async (db) => {
        const to = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
        const from = new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10);
        for await (const _batch of orderExportBatches(db, { status: "delivered", q: "", from, to }, new Date(), 100));
      },
    },
  ],
  customers: [
    {
      label: "customerSummary (cards)",
      run: (db) => customerSummary(db),
      exceptions: [
        {
          kind: "scan",
          table: "users",
          sql: /count\(distinct "users"\."country"\)/,
          why: "the cards count every account (all, active, countries): a deliberate aggregate over a covering index",
        },
        {
          kind: "scan",
          table: "users",
          sql: /group by "country" order by "n" desc/,
          why: "the top country counts every account with a country, read in groups from the users_country index",
        },
        {
          kind: "sort",
          table: "users",
          sql: /group by "country" order by "n" desc/,
          why: "the top country: groups read in order from users_country, then the few countries are sorted by count",
        },
      ],
    },
    { label: "listCustomers page 1", run: (db) => listCustomers(db, { page: 1 }), exceptions: [countUsers] },
    { label: "listCustomers deep page (30)", run: (db) => listCustomers(db, { page: 30 }), exceptions: [countUsers] },
    {
      label: "listCustomers search",
      run: (db) => listCustomers(db, { search: "chan", page: 1 }),
      exceptions: [
        {
          kind: "scan",
          table: "users",
          sql: /^select count\(\*\).*"users"\."email" LIKE/s,
          why: "the e-mail search is a substring (LIKE '%…%'), which no index serves: one pass over the accounts' covering index, by design",
        },
        {
          kind: "scan",
          table: "users",
          sql: /^select distinct "country" from "users"/,
          why: "the countries a search may name (matched in JS by code or name, in both languages): one pass over the users_country index, once a search",
        },
      ],
    },
    {
      label: "CSV export, every batch of 500 (the second starts after the first's last row)",
      run: async (db) => {
        let batches = 0;
        for await (const _batch of customerBatches(db, null)) batches++;
        expect(batches).toBe(2);
      },
    },
    {
      label: "listIpActivity (30 days)",
      run: (db) => listIpActivity(db),
      exceptions: [
        {
          kind: "sort",
          table: "sign_in_events",
          sql: /group by "ip"/,
          why: "the 30 days' sign-ins are an index range (sign_in_events_ip_activity); their addresses are grouped and sorted by last seen",
        },
      ],
    },
  ],
  // Admin → Messages at scale (issue 26): every filter reads its page through an index (migration 0017).
  messages: [
    ...(["all", "sent", "failed"] as const).flatMap((status) =>
      ([null, "email", "webhook"] as const).map(
        (channel): Case => ({
          label: `status ${status}, channel ${channel ?? "any"}, an older page`,
          run: async (db) => {
            const first = await listMessages(db, { status, channel, q: "" });
            await listMessages(db, { status, channel, q: "", older: first.older });
          },
        }),
      ),
    ),
    {
      label: "status waiting (pending and sending)",
      run: (db) => listMessages(db, { status: "waiting", channel: null, q: "" }),
      exceptions: [
        {
          kind: "sort",
          table: "outbox_messages",
          sql: /"status" in \(\?, \?\).*limit/s,
          why: "the waiting messages (two statuses, each an index range) are few and are sorted for the page: what is waiting is sent within minutes",
        },
      ],
    },
    {
      label: "a newer page",
      run: async (db) => {
        const first = await listMessages(db, { status: "sent", channel: null, q: "" });
        const second = await listMessages(db, { status: "sent", channel: null, q: "", older: first.older });
        await listMessages(db, { status: "sent", channel: null, q: "", newer: second.newer });
      },
    },
    ...[
      ["recipient prefix", () => someEmail.slice(0, 8)],
      ["order number", () => data.orderNumbers[10] as string],
    ].map(
      ([what, q]): Case => ({
        label: `search by ${what as string}`,
        run: (db) => listMessages(db, { status: "all", channel: null, q: (q as () => string)() }),
        exceptions: [
          {
            kind: "sort",
            table: "outbox_messages",
            sql: /"recipient" >= \?.*limit/s,
            why: "a search's ranges (the recipient's prefix, the order's messages) find few messages; those are sorted for the page",
          },
        ],
      }),
    ),
    { label: "counts (waiting, failed)", run: (db) => outboxCounts(db) },
    { label: "an order's messages", run: (db) => listOrderMessages(db, data.orderIds[10] as string) },
    { label: "a message with its attempts", run: (db) => findMessage(db, data.messageIds[10] as string) },
    { label: "pruning sent messages past retention", run: (db) => pruneSentMessages(db, new Date(), 90) },
  ],
  "account orders": [
    {
      label: "listOrdersForUser",
      run: async (db) => expect((await listOrdersForUser(db, someUser)).length).toBeGreaterThan(0),
    },
  ],
};

describe("query plans on a shop-sized database", () => {
  for (const [screen, list] of Object.entries(cases)) {
    describe(screen, () => {
      it.each(list.map((item) => [item.label, item] as const))("%s", async (_label, item) => {
        const explained = await capture.explainAll(item.run);
        expect(explained.length).toBeGreaterThan(0);
        const { open, stale } = review(explained, item.exceptions);
        expect(open, open.join("\n\n")).toEqual([]);
        expect(stale, "exceptions that no longer match anything: remove them").toEqual([]);
      });
    });
  }
});

/**
 * Two plans the rules above cannot judge: a walk of outbox_created that skips every e-mail to find
 * 50 webhooks stops at the LIMIT as far as the plan says, and pruning's `status = 'sent'` is an index
 * SEARCH either way — but both would read every message row (each holds its rendered e-mail).
 */
describe("the outbox reads only what it needs", () => {
  const indexOf = async (run: (db: DB) => Promise<unknown>, pattern: RegExp) =>
    (await capture.explainAll(run))
      .filter((query) => pattern.test(query.sql))
      .flatMap((query) => query.plan.map((line) => line.detail))
      .join("\n");
  it("finds webhooks through outbox_channel_list", async () => {
    const plan = await indexOf(
      (db) => listMessages(db, { status: "all", channel: "webhook", q: "" }),
      /"channel" = \?/,
    );
    expect(plan).toMatch(/USING (COVERING )?INDEX outbox_channel_list/);
  });
  it("prunes through outbox_status_sent", async () => {
    const plan = await indexOf((db) => pruneSentMessages(db, new Date(), 90), /"sent_at" < \?/);
    expect(plan).toMatch(/USING (COVERING )?INDEX outbox_status_sent/);
    expect(plan).not.toMatch(/outbox_status_next|outbox_status_list/);
  });
});

/**
 * The check itself: with an index the pages rely on dropped (inside a transaction that is rolled
 * back; SQLite's schema changes are transactional), the same case must fail.
 */
describe("a dropped index is noticed", () => {
  // Where two indexes can serve a query, both go.
  const reliedOn: [indexes: string, screen: string, label: string][] = [
    ["products_category_created", "category listing", "rifles, newest, page 2"],
    ["products_category_featured_created", "category listing", "rifles, featured, page 2"],
    ["products_created", "category listing", "all products, newest, page 20"],
    ["orders_created_id", "admin orders", "no filter, deep page (100)"],
    ["orders_status_created_id", "admin orders", "status paid"],
    ["orders_email_id", "admin orders", "search by e-mail"],
    ["orders_user_created, orders_customer_totals", "account orders", "listOrdersForUser"],
    ["users_list", "customers", "listCustomers deep page (30)"],
    ["sign_in_events_ip_activity, sign_in_events_created", "customers", "listIpActivity (30 days)"],
    ["order_lines_order", "admin orders", "no filter, page 1"],
    ["outbox_status_list", "messages", "status sent, channel any, an older page"],
    ["products_name_en_id", "admin products sorted", "name asc, en, page 20"],
    ["products_name_zh_id", "admin products sorted", "name desc, zh, page 20"],
    ["orders_total_id", "admin orders sorted", "total desc, page 100"],
    ["orders_email_id", "admin orders sorted", "customer asc, page 100"],
    ["users_status_email", "customers sorted", "status asc, page 30"],
  ];
  it.each(reliedOn)("without %s, %s: %s fails", async (indexes, screen, label) => {
    const item = cases[screen]?.find((c) => c.label === label);
    if (!item) throw new Error(`no case ${screen}: ${label}`);
    capture.sqlite.exec("BEGIN");
    try {
      for (const index of indexes.split(", ")) capture.sqlite.exec(`DROP INDEX ${index}`);
      const { open } = review(await capture.explainAll(item.run), item.exceptions);
      expect(open.length).toBeGreaterThan(0);
    } finally {
      capture.sqlite.exec("ROLLBACK");
    }
    // Restored: the case passes again.
    expect(review(await capture.explainAll(item.run), item.exceptions).open).toEqual([]);
  });
});
