import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import SQLite from "better-sqlite3";
import { type CompiledQuery, Kysely, SqliteDialect } from "kysely";
import { type DB, migrateToLatest, openDatabase } from "#db/connect.server";
import type { Database } from "#db/schema";
import { seedDemo } from "#db/seed/index.server";
import { hongKongDate } from "~/lib/dates";
import { MemoryStorage } from "~/lib/storage.server";
import {
  countCustomers,
  customerCsvStream,
  customerSummary,
  findCustomer,
  listCustomers,
  listIpActivity,
} from "~/models/customers.server";
import { findAdminOrder, listAdminOrders } from "~/models/orders/desk.server";
import { countExportOrders, orderCsvStream } from "~/models/orders/export.server";
import { measure } from "./catalog";
import { type SeededUser, seedShop } from "./seed";

/**
 * The admin Orders and Customers screens with 10,000 customers and 50,000 orders
 * (npm run bench:admin, issue 7): the database time of each model function the routes call,
 * the query plan of every statement they send (an unbounded SCAN of orders, order_lines,
 * users or sign_in_events is flagged), and the CSV exports' (customers, and orders: issue 29)
 * time and memory at two sizes each.
 */

/* ------------------------------------------------------------------------------------------
 * Query plans: each case runs once through a Kysely that logs its statements, then every
 * statement is explained on a plain connection to the same file.
 * ------------------------------------------------------------------------------------------ */

const WATCHED = /^SCAN (orders|order_lines|users|sign_in_events)\b/;
const WATCHED_SEARCH = /^SEARCH (orders|order_lines|users|sign_in_events) .*\((\w+)>\?\)$/;

interface PlanLine {
  id: number;
  parent: number;
  detail: string;
}

/**
 * A SCAN reads the whole table (or index) unless it walks an index in the ORDER BY's order
 * and the statement stops at a LIMIT: then it reads OFFSET + LIMIT entries (more when a filter
 * not in the index rejects some). A SEARCH whose only key is `column IS NOT NULL` (shown as
 * `column>?`) is a scan too: it reads every row that has the column.
 */
function unboundedScans(sqlText: string, plan: PlanLine[]): string[] {
  const limited = /\blimit\b/i.test(sqlText);
  const sorts = plan.some((line) => /USE TEMP B-TREE FOR (ORDER BY|GROUP BY|DISTINCT)/.test(line.detail));
  const walksInOrder = limited && !sorts;
  return plan
    .filter((line) => {
      if (WATCHED.test(line.detail)) return !(walksInOrder && /USING (COVERING )?INDEX/.test(line.detail));
      const column = WATCHED_SEARCH.exec(line.detail)?.[2];
      return column !== undefined && new RegExp(`"${column}" is not null`, "i").test(sqlText) && !walksInOrder;
    })
    .map((line) => line.detail);
}

interface Case {
  target: "orders" | "customers" | "customer page" | "export" | "order export";
  label: string;
  run: (db: DB) => Promise<unknown>;
  /** Scans we keep on purpose, and why (the pattern is matched against the plan line). */
  accepted?: { pattern: RegExp; why: string }[];
}

function printPlans(sqlite: SQLite.Database, label: string, queries: CompiledQuery[], accepted: Case["accepted"]) {
  const flagged: { detail: string; why: string | null }[] = [];
  console.info(`\n■ ${label}`);
  const seen = new Set<string>();
  for (const query of queries) {
    if (seen.has(query.sql)) continue;
    seen.add(query.sql);
    const plan = sqlite
      .prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
      .all(...(query.parameters as unknown[])) as PlanLine[];
    const scans = unboundedScans(query.sql, plan);
    console.info(`  ${query.sql.replace(/\s+/g, " ").slice(0, 170)}${query.sql.length > 170 ? " …" : ""}`);
    const depth = new Map<number, number>([[0, 0]]);
    for (const line of plan) {
      const level = (depth.get(line.parent) ?? 0) + 1;
      depth.set(line.id, level);
      let mark = "";
      if (scans.includes(line.detail)) {
        const why = accepted?.find((entry) => entry.pattern.test(line.detail))?.why ?? null;
        flagged.push({ detail: line.detail, why });
        mark = why ? `   ← full scan, accepted: ${why}` : "   ← ⚠ UNBOUNDED SCAN";
      }
      console.info(`    ${"  ".repeat(level - 1)}${line.detail}${mark}`);
    }
  }
  return flagged;
}

/* ------------------------------------------------------------------------------------------
 * The CSV export: a counting sink, timed, and a second pass that forces a collection every
 * 1,000 rows to read the live heap (what the export keeps) besides the peaks.
 * ------------------------------------------------------------------------------------------ */

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

async function drain(stream: ReadableStream<Uint8Array>, onRows?: (rows: number) => void) {
  const reader = stream.getReader();
  let bytes = 0;
  let rows = 0;
  let nextCheckpoint = 1_000;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    for (const byte of value) if (byte === 0x0a) rows += 1;
    if (onRows && rows >= nextCheckpoint) {
      onRows(rows);
      nextCheckpoint += 1_000;
    }
  }
  return { bytes, rows: rows - 1 }; // minus the header
}

const mb = (bytes: number) => Number((bytes / 1_048_576).toFixed(1));

async function exportFigures(label: string, stream: () => ReadableStream<Uint8Array>) {
  const times: number[] = [];
  let size = { bytes: 0, rows: 0 };
  for (let i = 0; i < 3; i++) {
    const started = process.hrtime.bigint();
    size = await drain(stream());
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);

  gc();
  const base = process.memoryUsage();
  let peakHeap = base.heapUsed;
  let peakRss = base.rss;
  const live: number[] = [];
  const timer = setInterval(() => {
    const usage = process.memoryUsage();
    peakHeap = Math.max(peakHeap, usage.heapUsed);
    peakRss = Math.max(peakRss, usage.rss);
  }, 5);
  await drain(stream(), () => {
    const usage = process.memoryUsage();
    peakHeap = Math.max(peakHeap, usage.heapUsed);
    peakRss = Math.max(peakRss, usage.rss);
    gc();
    live.push(process.memoryUsage().heapUsed - base.heapUsed);
  });
  clearInterval(timer);
  gc();
  const after = process.memoryUsage();
  return {
    export: label,
    rows: size.rows,
    csv_mb: mb(size.bytes),
    median_ms: Number((times[1] ?? 0).toFixed(1)),
    peak_heap_growth_mb: mb(peakHeap - base.heapUsed),
    peak_rss_growth_mb: mb(peakRss - base.rss),
    peak_rss_mb: mb(peakRss),
    live_heap_per_1000_rows_mb: live.length ? `${mb(Math.min(...live))} … ${mb(Math.max(...live))}` : "-",
    retained_after_mb: mb(after.heapUsed - base.heapUsed),
  };
}

/* ------------------------------------------------------------------------------------------ */

export async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-"));
  const file = path.join(dir, "bench.db");
  const db = openDatabase(`file:${file}`);
  const sqlite = new SQLite(file);
  const captured: CompiledQuery[] = [];
  const traced = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: (event) => {
      if (event.level === "query") captured.push(event.query);
    },
  });
  try {
    await migrateToLatest(db);
    await seedDemo(db, new MemoryStorage());
    const started = Date.now();
    const { users, orderIds, orderNumbers } = await seedShop(file);
    const counts = sqlite
      .prepare(
        `select (select count(*) from users) users, (select count(*) from orders) orders,
          (select count(*) from order_lines) lines, (select count(*) from sign_in_events) sign_ins`,
      )
      .get() as Record<string, number>;
    console.info(
      `seeded ${counts.users} accounts, ${counts.orders} orders, ${counts.lines} order lines and ` +
        `${counts.sign_ins} sign-ins in ${Date.now() - started} ms (SQLite ${(sqlite.prepare("select sqlite_version() v").get() as { v: string }).v}, no ANALYZE, as in production)`,
    );

    // Targets picked from the middle of the data, so the searches find real rows.
    const middleOrder = orderIds[Math.floor(orderIds.length / 2)] as string;
    const middleNumber = orderNumbers[Math.floor(orderNumbers.length / 2)] as string;
    const frequent = sqlite
      .prepare("select user_id id, count(*) n from orders group by user_id order by n desc limit 1")
      .get() as { id: string; n: number };
    const someone = users[1234] as SeededUser;
    const sharedIp = (
      sqlite
        .prepare(
          "select last_login_ip ip from users where last_login_ip is not null group by last_login_ip order by count(*) desc limit 1",
        )
        .get() as { ip: string }
    ).ip;
    if (process.env.BENCH_KEEP_DB) {
      sqlite.prepare("VACUUM INTO ?").run(process.env.BENCH_KEEP_DB);
      console.info(`kept a copy of the seeded database in ${process.env.BENCH_KEEP_DB}; stopping there`);
      return;
    }
    console.info(
      `targets: order ${middleNumber} (${middleOrder}), customer ${someone.email}, busiest customer ${frequent.n} orders, IP ${sharedIp}`,
    );

    const countAll = { pattern: /COVERING INDEX/, why: "COUNT(*) for the page count, once a page" };
    // The order export's date filter: the 30 Hong Kong days up to the newest order.
    const newest = (sqlite.prepare("select max(created_at) at from orders").get() as { at: string }).at;
    const lastMonth = hongKongDate(new Date(Date.parse(newest) - 29 * 86_400_000));
    const substring = {
      pattern: /^SCAN users/,
      why: "e-mail substring (LIKE '%…%' has no index): one pass over 10,000 accounts",
    };
    const distinctCountries = {
      pattern: /users_country/,
      why: "distinct countries read from the users_country index, once a search",
    };
    const cards = { pattern: /^(SCAN|SEARCH) users/, why: "the cards count every account, once a page" };
    const cases: Case[] = [
      {
        target: "orders",
        label: "orders: page 1, no filter",
        run: (d) => listAdminOrders(d, { status: null, q: "", page: 1 }),
        accepted: [countAll],
      },
      {
        target: "orders",
        label: "orders: page 1000 (offset 24,975), no filter",
        run: (d) => listAdminOrders(d, { status: null, q: "", page: 1000 }),
        accepted: [countAll],
      },
      {
        target: "orders",
        label: "orders: last page (2,000), no filter",
        run: (d) => listAdminOrders(d, { status: null, q: "", page: 2000 }),
        accepted: [countAll],
      },
      {
        target: "orders",
        label: "orders: status pending_payment, page 1",
        run: (d) => listAdminOrders(d, { status: "pending_payment", q: "", page: 1 }),
      },
      {
        target: "orders",
        label: "orders: status delivered, page 1",
        run: (d) => listAdminOrders(d, { status: "delivered", q: "", page: 1 }),
      },
      {
        target: "orders",
        label: "orders: status delivered, page 1000",
        run: (d) => listAdminOrders(d, { status: "delivered", q: "", page: 1000 }),
      },
      {
        target: "orders",
        label: "orders: search full order number",
        run: (d) => listAdminOrders(d, { status: null, q: middleNumber, page: 1 }),
      },
      {
        target: "orders",
        label: "orders: search number prefix (7 digits)",
        run: (d) => listAdminOrders(d, { status: null, q: middleNumber.slice(4, 11), page: 1 }),
      },
      {
        target: "orders",
        label: "orders: search id prefix (8 characters)",
        run: (d) => listAdminOrders(d, { status: null, q: middleOrder.slice(0, 8), page: 1 }),
      },
      {
        target: "orders",
        label: "orders: search e-mail prefix (one customer)",
        run: (d) => listAdminOrders(d, { status: null, q: someone.email.split("@")[0] ?? "", page: 1 }),
      },
      {
        target: "orders",
        label: "orders: search e-mail prefix 'emma' (broad)",
        run: (d) => listAdminOrders(d, { status: null, q: "emma", page: 1 }),
      },
      {
        target: "orders",
        label: "orders: search 'emma' + status shipped",
        run: (d) => listAdminOrders(d, { status: "shipped", q: "emma", page: 1 }),
      },
      {
        target: "orders",
        label: "orders: search one customer + status shipped",
        run: (d) => listAdminOrders(d, { status: "shipped", q: someone.email, page: 1 }),
      },
      { target: "orders", label: "order page (findAdminOrder)", run: (d) => findAdminOrder(d, middleOrder) },
      {
        target: "customers",
        label: "customers: summary cards",
        run: (d) => customerSummary(d),
        accepted: [cards],
      },
      {
        target: "customers",
        label: "customers: list page 1",
        run: (d) => listCustomers(d, { page: 1 }),
        accepted: [countAll],
      },
      {
        target: "customers",
        label: "customers: list page 400 (offset 9,975)",
        run: (d) => listCustomers(d, { page: 400 }),
        accepted: [countAll],
      },
      { target: "customers", label: "customers: IP activity (30 days)", run: (d) => listIpActivity(d) },
      {
        target: "customers",
        label: "customers: search e-mail 'chan'",
        run: (d) => listCustomers(d, { search: "chan", page: 1 }),
        accepted: [substring, distinctCountries],
      },
      {
        target: "customers",
        label: "customers: search one e-mail",
        run: (d) => listCustomers(d, { search: someone.email, page: 1 }),
        accepted: [substring, distinctCountries],
      },
      {
        target: "customers",
        label: "customers: search IP address",
        run: (d) => listCustomers(d, { search: sharedIp, page: 1 }),
        accepted: [substring, distinctCountries],
      },
      {
        target: "customers",
        label: "customers: search country 'Taiwan'",
        run: (d) => listCustomers(d, { search: "Taiwan", page: 1 }),
        accepted: [substring, distinctCountries],
      },
      {
        target: "customers",
        label: "customers: search city 'kowloon'",
        run: (d) => listCustomers(d, { search: "kowloon", page: 1 }),
        accepted: [substring, distinctCountries],
      },
      {
        target: "customers",
        label: "customers: whole page (cards + list + IP activity)",
        run: (d) => Promise.all([customerSummary(d), listCustomers(d, { page: 1 }), listIpActivity(d)]),
        accepted: [cards, countAll],
      },
      {
        target: "customer page",
        label: "customer page, busiest customer",
        run: (d) => findCustomer(d, frequent.id),
      },
      { target: "customer page", label: "customer page, typical customer", run: (d) => findCustomer(d, someone.id) },
      {
        target: "export",
        label: "export: row count (audit log)",
        run: (d) => countCustomers(d, null),
        accepted: [countAll],
      },
      {
        target: "export",
        label: "export: one batch of 500",
        run: async (d) => {
          const reader = customerCsvStream(d, null).getReader();
          await reader.read();
          await reader.cancel();
        },
      },
      {
        target: "order export",
        label: "order export: order count (audit log)",
        run: (d) => countExportOrders(d, { status: null, q: "" }),
        accepted: [countAll],
      },
      {
        target: "order export",
        label: "order export: first batch of 500 orders",
        run: async (d) => {
          const reader = orderCsvStream(d, { status: null, q: "" }).getReader();
          await reader.read();
          await reader.cancel();
        },
      },
      {
        target: "order export",
        label: "order export: first batch, last 30 days",
        run: async (d) => {
          const reader = orderCsvStream(d, { status: null, q: "", from: lastMonth }).getReader();
          await reader.read();
          await reader.cancel();
        },
      },
      {
        target: "order export",
        label: "order export: first batch, delivered + search 'emma'",
        run: async (d) => {
          const reader = orderCsvStream(d, { status: "delivered", q: "emma" }).getReader();
          await reader.read();
          await reader.cancel();
        },
      },
    ];

    console.info("\nQuery plans (EXPLAIN QUERY PLAN of every statement each case sends):");
    const flaggedByCase = new Map<string, { detail: string; why: string | null }[]>();
    for (const item of cases) {
      captured.length = 0;
      await item.run(traced as DB);
      flaggedByCase.set(item.label, printPlans(sqlite, item.label, [...captured], item.accepted));
    }

    console.info("\nTimings (database time of each case; 100 runs after 20 warm-up runs):");
    const rows = [];
    for (const item of cases) {
      const result = await measure(item.label, () => item.run(db), 100);
      const flagged = flaggedByCase.get(item.label) ?? [];
      const open = flagged.filter((scan) => scan.why === null).length;
      rows.push({
        ...result,
        scans: open > 0 ? `⚠ ${open} unbounded` : flagged.length > 0 ? `${flagged.length} accepted` : "none",
      });
    }
    console.table(rows);

    console.info("\nCSV export (counting sink; memory after a forced collection every 1,000 rows):");
    const exports = [
      await exportFigures("2,000 rows (search 'Taiwan')", () => customerCsvStream(db, "Taiwan")),
      await exportFigures(`all ${counts.users} rows`, () => customerCsvStream(db, null)),
    ];
    console.table(exports);

    console.info("\nOrder CSV export, one row per line (same sink and memory readings):");
    const orderExports = [
      await exportFigures(`orders placed since ${lastMonth}`, () =>
        orderCsvStream(db, { status: null, q: "", from: lastMonth }),
      ),
      await exportFigures(`all ${counts.orders} orders`, () => orderCsvStream(db, { status: null, q: "" })),
    ];
    console.table(orderExports);

    // A page's queries: 10 ms. An export's batch (500 customers or orders, with their figures or
    // lines, formatted) is a step of a download, not a page: 50 ms (decision 059).
    const limitMs = (target: Case["target"]) => (target === "order export" || target === "export" ? 50 : 10);
    console.info("\nVerdicts (target: median under 10 ms, 50 ms for an export's batch; no unbounded scan):");
    for (const target of ["orders", "customers", "customer page", "export", "order export"] as const) {
      const mine = cases.filter((item) => item.target === target);
      const slow = rows.filter((row) => mine.some((item) => item.label === row.case) && row.p50_ms > limitMs(target));
      const open = mine.flatMap((item) => (flaggedByCase.get(item.label) ?? []).filter((scan) => scan.why === null));
      const worst = rows
        .filter((row) => mine.some((item) => item.label === row.case))
        .reduce((max, row) => (row.p50_ms > max.p50_ms ? row : max));
      const ok = slow.length === 0 && open.length === 0;
      console.info(
        `  ${ok ? "PASS" : "FAIL"} ${target}: slowest median ${worst.p50_ms} ms (${worst.case})` +
          (slow.length ? `; ${slow.length} case(s) over ${limitMs(target)} ms` : "") +
          (open.length ? `; ${open.length} unbounded scan(s)` : ""),
      );
    }
    const [small, large] = exports;
    if (small && large) {
      // Flat: five times the rows, yet no more than 2 MB of extra peak heap, and what the export
      // keeps alive (measured after a collection every 1,000 rows) stays under 2 MB.
      const liveMax = Number(large.live_heap_per_1000_rows_mb.split(" … ")[1] ?? 0);
      const flat = large.peak_heap_growth_mb <= small.peak_heap_growth_mb + 2 && liveMax < 2;
      console.info(
        `  ${flat ? "PASS" : "FAIL"} export memory: peak heap +${small.peak_heap_growth_mb} MB for ${small.rows} rows, ` +
          `+${large.peak_heap_growth_mb} MB for ${large.rows} rows (${large.csv_mb} MB of CSV); live heap ` +
          `${large.live_heap_per_1000_rows_mb} MB along the way; ${large.median_ms} ms for all rows`,
      );
    }
    const [month, year] = orderExports;
    if (month && year) {
      // The same rule for the orders: many times the rows, no more than 2 MB of extra peak heap.
      const liveMax = Number(year.live_heap_per_1000_rows_mb.split(" … ")[1] ?? 0);
      const flat = year.peak_heap_growth_mb <= month.peak_heap_growth_mb + 2 && liveMax < 2;
      console.info(
        `  ${flat ? "PASS" : "FAIL"} order export memory: peak heap +${month.peak_heap_growth_mb} MB for ${month.rows} rows, ` +
          `+${year.peak_heap_growth_mb} MB (peak RSS ${year.peak_rss_mb} MB, +${year.peak_rss_growth_mb} MB) for ${year.rows} rows of ` +
          `${counts.orders} orders (${year.csv_mb} MB of CSV); live heap ${year.live_heap_per_1000_rows_mb} MB along ` +
          `the way; ${year.median_ms} ms for all of them`,
      );
    }
  } finally {
    await traced.destroy();
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
