import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, type TestInfo, test } from "@playwright/test";
import pg from "pg";
import { receiptJpeg, type UploadFile, uniqueEmail, uniquePassword } from "../e2e/fixtures";
import { type PostgresCluster, startPostgres } from "../setup/postgres";
import { startSmtpServer, type TestSmtpServer } from "../setup/smtp";
import { mountTmpfs, type SmallDisk } from "../setup/tmpfs";
import {
  CLIENT_TIMEOUT_MS,
  type FaultFigures,
  figuresOf,
  figuresTable,
  isSuccess,
  type Load,
  type Payment,
  recorder,
  type Sample,
  type StepKind,
  startLoad,
  unacceptable,
  watchRecovery,
  workerPids,
  writeFigures,
} from "./fault-load";
import {
  type Books,
  createPostgresDatabase,
  FULL,
  newScaleFiles,
  postgresBooks,
  removeFiles,
  runs,
  type Shop,
  type ShopFiles,
  startShop,
  startTestBucket,
  type TestBucket,
} from "./shop";
import {
  disposeShoppers,
  integrityCheck,
  readyToPay,
  receiptAudit,
  type Shopper,
  setStock,
  signUpShoppers,
  sqliteBooks,
  variants as sqliteVariants,
  storedOrders,
  type Variant,
  withWritableDatabase,
} from "./shoppers";

/**
 * The world failing around the shop (issue 30, docs/decisions/066): the production build as two
 * workers (WEB_CONCURRENCY=2) on a real PostgreSQL server, a real S3-compatible server (s3rver)
 * and a real SMTP server, under a bounded load of signed-in shoppers going round the purchase
 * (home, product page and image, cart, checkout, payment with a receipt upload) and an
 * anonymous visitor on the cached pages. In turn: PostgreSQL restarts (`pg_ctl restart -m fast`),
 * a worker is killed with kill -9, the mail server goes down, the bucket's server goes down and
 * comes back on the same port and folder; then a shop on SQLite whose data and uploads live on
 * a small tmpfs sees its disk fill up.
 *
 * For each fault: every answer seen (no 500, a 503 carries Retry-After, 504/507 where they fit,
 * no request past the client's timeout), the time the shop took to recover, and the books
 * afterwards — every confirmed order stored with its line and its receipt object, stock + sold
 * = the stock at the start, no two orders for one submission key, every e-mail sent once. The
 * figures are printed as a table and written to test-results/faults-<level>.json.
 *
 * Levels: inside `npm test` (fast) a small load and short outages (the bucket away 5 s);
 * `npm run test:reliability` (full) more shoppers, longer runs, the bucket away 20 s and
 * PostgreSQL unreachable (stopped) for 5 s besides its restart.
 */

/** Signed-in shoppers going round the purchase at once. */
const SHOPPERS = runs(3, 8);
/** Each shopper buys one colour of their own; its stock is this at the start, never sold out. */
const START_STOCK = 10_000;
/** The load runs this long before each fault. */
const LEAD_MS = runs(700, 5_000);
/** After a fault, recovered means this long without a failed answer… */
const SETTLE_MS = runs(1_000, 4_000);
/** …within this long after the fault ended. */
const RECOVERY_BOUND_MS = 10_000;
const BUCKET_DOWN_MS = runs(5_000, 20_000);
const SMTP_DOWN_MS = runs(3_000, 10_000);
/** Every e-mail is out this long after the mail server is back (retries wait 1, 2, 4, 8… s here). */
const MAIL_BOUND_MS = runs(20_000, 40_000);

/**
 * The outbox's clock in seconds instead of minutes (as in outbox.spec.ts), so retries come soon.
 * A claim of 10 s outlasts the 5 s PostgreSQL stop: a send whose "sent" mark meets the outage
 * writes it once the database is back, within its claim (decision 065), instead of going out twice.
 */
const FAST_CLOCK = { SCHEDULER_INTERVAL_SECONDS: "1", OUTBOX_RETRY_SECONDS: "1", OUTBOX_CLAIM_SECONDS: "10" };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/* ------------------------------------------------------------------------------------------
 * The figures of every fault, printed and written at the end
 * ------------------------------------------------------------------------------------------ */

const figures: FaultFigures[] = [];

function record(row: FaultFigures, testInfo: TestInfo): void {
  figures.push(row);
  testInfo.annotations.push({ type: `fault: ${row.fault}`, description: JSON.stringify(row) });
}

test.afterAll(async () => {
  if (figures.length === 0) return;
  const file = writeFigures(figures);
  const all = (JSON.parse(fs.readFileSync(file, "utf8")) as { faults: FaultFigures[] }).faults;
  console.info(
    `\nFault figures (${FULL ? "full" : "fast"} level; ${path.relative(process.cwd(), file)}):\n${figuresTable(all)}\n${all
      .flatMap((row) => row.notes.map((note) => `  ${row.fault}: ${note}`))
      .join("\n")}\n`,
  );
});

async function attachLogs(shop: Shop | undefined, testInfo: TestInfo): Promise<void> {
  if (!shop || testInfo.status === testInfo.expectedStatus) return;
  const log = `${shop.stdout?.() ?? ""}\n--- stderr ---\n${shop.stderr()}`.slice(-30_000);
  await testInfo.attach("shop log", { body: log, contentType: "text/plain" });
  console.error(`--- shop stderr (end) ---\n${shop.stderr().slice(-3_000)}`);
}

/** The failures listed one a line (at most 25), for an assertion's message. */
function listed(lines: readonly string[]): string {
  return lines.length <= 25 ? lines.join("\n") : `${lines.slice(0, 25).join("\n")}\n… and ${lines.length - 25} more`;
}

/* ------------------------------------------------------------------------------------------
 * The shop on a small disk, started early
 * ------------------------------------------------------------------------------------------ */

/** Room for the seeded catalogue (about 4 MB of database, 2.5 MB of images) and its WAL. */
const DISK_MB = 24;

interface DiskShop {
  disk: SmallDisk;
  files: ShopFiles;
  shop: Shop;
}

let diskShop: Promise<DiskShop | { unavailable: string }> | undefined;

/**
 * A SQLite shop whose data folder and uploads folder are on a small tmpfs, seeded. Started once
 * per worker, early (while the PostgreSQL shop seeds), for the full-disk test; the file's
 * afterAll stops it and unmounts the disk.
 */
function startDiskShop(): Promise<DiskShop | { unavailable: string }> {
  diskShop ??= (async () => {
    const disk = await mountTmpfs(DISK_MB);
    if ("unavailable" in disk) return disk;
    const dataDir = path.join(disk.dir, "data");
    const files: ShopFiles = {
      dir: disk.dir,
      dataDir,
      databaseFile: path.join(dataDir, "shop.db"),
      uploadsDir: path.join(disk.dir, "uploads"),
    };
    try {
      const shop = await startShop({ files });
      // The seeding's WAL checkpointed into the file and cut to nothing, as in a shop that has
      // run a while: new rows need new space (a WAL already grown would take them for a while).
      withWritableDatabase(files, (db) => {
        for (let attempt = 0; attempt < 50; attempt++) {
          const [result] = db.pragma("wal_checkpoint(TRUNCATE)") as { busy: number }[];
          if (!result?.busy) return;
        }
      });
      return { disk, files, shop };
    } catch (error) {
      await disk.unmount();
      throw error;
    }
  })();
  return diskShop;
}

test.afterAll(async () => {
  const started = await diskShop?.catch(() => undefined);
  diskShop = undefined;
  if (!started || "unavailable" in started) return;
  await started.shop.stop();
  // Always unmounted, whatever happened in the test.
  await started.disk.unmount();
});

/* ------------------------------------------------------------------------------------------
 * Two workers on PostgreSQL, a bucket and a mail server
 * ------------------------------------------------------------------------------------------ */

// Not serial: the faults run in order on one shop, but one that fails does not skip the others
// (Playwright then starts a new worker, and with it a new shop, for the rest).
test.describe("two workers on PostgreSQL + a bucket + a mail server, under load", () => {
  let postgres: PostgresCluster | undefined;
  let bucket: TestBucket | undefined;
  let smtp: TestSmtpServer | undefined;
  let files: ShopFiles | undefined;
  let shop: Shop | undefined;
  let books: Books | undefined;
  let outbox: pg.Pool | undefined;
  let shoppers: Shopper[] = [];
  let anonymous: APIRequestContext | undefined;
  let receipt: UploadFile;
  let variants: Variant[] = [];
  /** Units of each colour sold before the suite's load (none on a new shop; kept to be exact). */
  const soldBefore = new Map<string, number>();
  /** Every payment posted by the loads of this block, for the books. */
  const payments: Payment[] = [];

  test.beforeAll(async ({ playwright }) => {
    test.setTimeout(240_000);
    // Seeds beside this shop (the full-disk test's); its failure is that test's.
    startDiskShop().catch(() => undefined);
    postgres = await startPostgres();
    bucket = await startTestBucket("shop-faults");
    smtp = await startSmtpServer();
    const databaseUrl = await createPostgresDatabase(postgres, "faults");
    files = newScaleFiles("faults", databaseUrl, bucket);
    shop = await startShop({ files, env: { WEB_CONCURRENCY: "2", SMTP_URL: smtp.url, ...FAST_CLOCK } });
    books = postgresBooks(databaseUrl);
    outbox = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    // The test's own connections see the restarts too: an idle one cut by the server is dropped.
    outbox.on("error", () => undefined);
    receipt = await receiptJpeg();
    variants = await books.variants(SHOPPERS);
    for (const variant of variants) {
      await books.setStock(variant, START_STOCK);
      soldBefore.set(`${variant.productId}/${variant.color}`, await books.unitsSold(variant));
    }
    shoppers = await signUpShoppers(playwright, [shop], SHOPPERS, "fault-buyer");
    anonymous = await playwright.request.newContext({ baseURL: shop.baseURL });
    expect(workerPids(shop.child.pid as number), "the primary's workers").toHaveLength(2);
  });

  // biome-ignore lint/correctness/noEmptyPattern: Playwright hooks name their fixtures this way
  test.afterEach(async ({}, testInfo) => attachLogs(shop, testInfo));

  test.afterAll(async () => {
    await disposeShoppers(shoppers);
    await anonymous?.dispose().catch(() => undefined);
    await shop?.stop();
    await books?.close().catch(() => undefined);
    await outbox?.end().catch(() => undefined);
    await smtp?.stop();
    await bucket?.close();
    postgres?.stop();
    if (files) removeFiles(files);
  });

  function running() {
    if (!shop || !books || !bucket || !smtp || !postgres || !outbox || !anonymous) {
      throw new Error("the shop did not start");
    }
    return { shop, books, bucket, smtp, postgres, outbox, anonymous };
  }

  /**
   * Runs the load, lets it go for LEAD_MS, brings on the fault (`cause` resolves with when it
   * started and ended), watches for the recovery, stops the load. The figures are recorded.
   */
  async function underLoad(
    name: string,
    cause: (load: Load) => Promise<{ faultStart: number; faultEnd: number; notes?: string[] }>,
    needs: readonly StepKind[],
  ) {
    const { anonymous } = running();
    const load = startLoad({ shoppers, variants, anonymous, receipt });
    const t0 = Date.now();
    let fault: Awaited<ReturnType<typeof cause>>;
    let recoveryMs: number | null;
    try {
      await sleep(LEAD_MS);
      fault = await cause(load);
      recoveryMs = await watchRecovery(load, fault, { needs, settleMs: SETTLE_MS, boundMs: RECOVERY_BOUND_MS });
    } finally {
      await load.stop();
      payments.push(...load.payments);
    }
    const row = figuresOf(load, { name, ...fault, recoveryMs });
    record(row, test.info());
    const during = load.samples.filter((sample) => sample.end >= fault.faultStart && sample.start <= fault.faultEnd);
    return { load, t0, ...fault, recoveryMs, row, during };
  }

  /** The answers of the whole run, then the recovery: the rules every fault shares. */
  function expectOutageRules(
    run: { load: Load; t0: number; recoveryMs: number | null; during: Sample[] },
    noAnswerAllowed?: (sample: Sample) => boolean,
  ) {
    const broken = unacceptable(run.load.samples, run.t0, noAnswerAllowed);
    expect
      .soft(
        broken,
        `answers that break the rules (a 500, a 503 without Retry-After, a hang past ${CLIENT_TIMEOUT_MS} ms, a cut connection):\n${listed(broken)}`,
      )
      .toEqual([]);
    expect.soft(run.during.length, "requests while the fault lasted").toBeGreaterThan(0);
    expect.soft(run.recoveryMs, `recovered within ${RECOVERY_BOUND_MS} ms of the fault's end`).not.toBeNull();
    expect.soft(run.recoveryMs ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
    expect
      .soft(
        run.load.payments.some((payment) => payment.outcome.kind === "confirmed" && payment.start > run.t0),
        "orders were placed",
      )
      .toBe(true);
  }

  /** The primary still runs and its two workers are the same processes (none died of the fault). */
  function expectSameWorkers(before: number[]) {
    const { shop } = running();
    expect(shop.child.exitCode, "the primary runs").toBeNull();
    expect
      .soft(workerPids(shop.child.pid as number), "the same two workers (none crashed and was replaced)")
      .toEqual(before);
  }

  /**
   * The books after a fault: every confirmed order stored with its one line and its receipt
   * object in the bucket, the same for every order a payment of the suite made (an answer lost
   * or not), no submission key with two orders, and stock + sold = the stock at the start.
   */
  async function expectBooksBalanced() {
    const { books, bucket } = running();
    const confirmed = payments.flatMap((p) => (p.outcome.kind === "confirmed" ? [p.outcome.orderNumber] : []));
    const stored = await books.storedOrders(confirmed);
    expect(stored.map((order) => order.order_number).toSorted(), "every confirmed order is stored").toEqual(
      confirmed.toSorted(),
    );
    const all = await books.storedOrders();
    const perKey = new Map<string, number>();
    for (const order of all) {
      if (order.submission_key) perKey.set(order.submission_key, (perKey.get(order.submission_key) ?? 0) + 1);
    }
    expect(
      [...perKey].filter(([, count]) => count > 1),
      "submission keys with more than one order",
    ).toEqual([]);
    const byKey = new Map(payments.map((payment) => [payment.key, payment]));
    const ours = all.filter((order) => byKey.has(order.submission_key ?? ""));
    expect(ours.length, "orders made by the suite's payments").toBeGreaterThanOrEqual(confirmed.length);
    const halfWritten: string[] = [];
    for (const order of ours) {
      const { variant } = byKey.get(order.submission_key ?? "") as Payment;
      const line = { product_id: variant.productId, color: variant.color, quantity: 1 };
      if (JSON.stringify(order.lines) !== JSON.stringify([line])) {
        halfWritten.push(`${order.order_number}: lines ${JSON.stringify(order.lines)}`);
      }
      if (!order.receipt_path) halfWritten.push(`${order.order_number}: no receipt`);
      else if (!(await bucket.has("private", order.receipt_path))) {
        halfWritten.push(`${order.order_number}: receipt ${order.receipt_path} missing from the bucket`);
      }
    }
    expect(halfWritten, "orders without their line or their receipt object").toEqual([]);
    for (const variant of variants) {
      const stock = await books.stockOf(variant);
      const sold = (await books.unitsSold(variant)) - (soldBefore.get(`${variant.productId}/${variant.color}`) ?? 0);
      expect(stock + sold, `${variant.productId}/${variant.color}: stock ${stock} + sold ${sold}`).toBe(START_STOCK);
    }
    return { orders: ours.length, confirmed: confirmed.length };
  }

  interface OutboxRow {
    message_key: string;
    event: string;
    status: string;
    attempts: number;
    last_error: string | null;
  }

  async function emailRows(): Promise<OutboxRow[]> {
    const { outbox } = running();
    const result = await outbox.query<OutboxRow>(
      "SELECT message_key, event, status, attempts, last_error FROM outbox_messages WHERE channel = 'email' ORDER BY created_at, id",
    );
    return result.rows;
  }

  /**
   * Every e-mail of the outbox goes out (within `timeoutMs`) and the mail server accepted each
   * exactly once; it accepted nothing the outbox does not hold. Resolves with when the last one
   * was accepted.
   */
  async function expectEveryEmailOnce(timeoutMs: number): Promise<{ count: number; lastAcceptedAt: number }> {
    const { smtp } = running();
    const deadline = Date.now() + timeoutMs;
    let rows = await emailRows();
    while (rows.some((row) => row.status !== "sent") && Date.now() < deadline) {
      await sleep(250);
      rows = await emailRows();
    }
    const waiting = rows.filter((row) => row.status !== "sent");
    expect(
      waiting.map((row) => `${row.event} ${row.status} after ${row.attempts} attempts: ${row.last_error}`),
      `e-mails not sent within ${timeoutMs} ms`,
    ).toEqual([]);
    const accepted = new Map<string, number>();
    for (const mail of smtp.accepted())
      accepted.set(mail.messageId ?? "", (accepted.get(mail.messageId ?? "") ?? 0) + 1);
    const keys = new Set(rows.map((row) => row.message_key));
    expect(
      rows
        .filter((row) => accepted.get(row.message_key) !== 1)
        .map((row) => `${row.event} ${row.message_key}: ${accepted.get(row.message_key) ?? 0}×`),
      "e-mails the mail server did not accept exactly once",
    ).toEqual([]);
    expect(
      [...accepted.keys()].filter((id) => !keys.has(id)),
      "mail accepted that the outbox does not hold",
    ).toEqual([]);
    return { count: rows.length, lastAcceptedAt: Math.max(0, ...smtp.accepted().map((mail) => mail.at)) };
  }

  test("PostgreSQL restarts (pg_ctl restart -m fast) under load: 503 + Retry-After at worst, no worker lost, back within seconds, books balanced", async () => {
    test.setTimeout(runs(60_000, 180_000));
    const { shop, postgres } = running();
    const workers = workerPids(shop.child.pid as number);
    const run = await underLoad("postgres restart", async () => {
      const faultStart = Date.now();
      await postgres.restart();
      return { faultStart, faultEnd: Date.now() };
    }, ["pay", "home"]);
    expectOutageRules(run);
    expectSameWorkers(workers);
    await expectBooksBalanced();
    // The e-mails are checked by every later fault too (all of the outbox, every time): the fast
    // level saves the wait here.
    if (FULL) await expectEveryEmailOnce(MAIL_BOUND_MS);
  });

  test("PostgreSQL unreachable for 5 s (stopped, then started): 503 + Retry-After, no hang, back within seconds", async () => {
    test.skip(!FULL, "the full fault run only (npm run test:reliability): the fast level restarts it");
    test.setTimeout(180_000);
    const { shop, postgres } = running();
    const workers = workerPids(shop.child.pid as number);
    const run = await underLoad("postgres down 5 s", async () => {
      const faultStart = Date.now();
      await postgres.restart({ downMs: 5_000 });
      return { faultStart, faultEnd: Date.now() };
    }, ["pay", "home"]);
    expectOutageRules(run);
    const refused = run.during.filter((sample) => sample.answer === 503).length;
    expect(refused, "requests answered 503 while nothing listened").toBeGreaterThan(0);
    expectSameWorkers(workers);
    await expectBooksBalanced();
    await expectEveryEmailOnce(MAIL_BOUND_MS);
  });

  test("a worker killed with kill -9 under load: replaced, its requests in flight cut cleanly, no 500, nothing confirmed lost", async () => {
    test.setTimeout(runs(60_000, 180_000));
    const { shop } = running();
    const primary = shop.child.pid as number;
    const before = workerPids(primary);
    expect(before).toHaveLength(2);
    const victim = before[0] as number;
    let killedAt = 0;
    let replacedMs = -1;
    const run = await underLoad("worker kill -9", async () => {
      killedAt = Date.now();
      process.kill(victim, "SIGKILL");
      // Replaced: two workers again, one of them new.
      for (;;) {
        const now = workerPids(primary);
        if (now.length === 2 && !now.includes(victim)) break;
        if (Date.now() - killedAt > RECOVERY_BOUND_MS) break;
        await sleep(50);
      }
      replacedMs = Date.now() - killedAt;
      return {
        faultStart: killedAt,
        faultEnd: killedAt,
        notes: [`replacement worker forked after ${replacedMs} ms`],
      };
    }, ["pay", "home"]);
    const after = workerPids(primary);
    expect(after, "two workers again, the killed one replaced").toHaveLength(2);
    expect(after).not.toContain(victim);
    expect(shop.child.exitCode, "the primary runs").toBeNull();
    // A connection the killed worker held dies with it: those requests get no answer (a reset),
    // which the client sees and may retry. Anything sent a moment after the kill must be answered.
    expectOutageRules(run, (sample) => sample.start <= killedAt + 250 && sample.end >= killedAt);
    await expectBooksBalanced();
    if (FULL) await expectEveryEmailOnce(MAIL_BOUND_MS);
  });

  test("the mail server down under load: orders still placed, e-mails wait in the outbox and go out once it is back, each once", async () => {
    test.setTimeout(runs(60_000, 180_000));
    const { shop, smtp } = running();
    const workers = workerPids(shop.child.pid as number);
    const acceptedBefore = smtp.accepted().length;
    let waitingDuringOutage = 0;
    const run = await underLoad(
      "smtp down",
      async (load) => {
        const faultStart = Date.now();
        await smtp.stop();
        const paidBefore = load.payments.length;
        try {
          await sleep(SMTP_DOWN_MS);
          // Orders placed while it was down: their e-mails are queued, not sent.
          expect
            .soft(
              load.payments.slice(paidBefore).some((payment) => payment.outcome.kind === "confirmed"),
              "orders confirmed while the mail server was down",
            )
            .toBe(true);
          waitingDuringOutage = (await emailRows()).filter((row) => row.status !== "sent").length;
        } finally {
          await smtp.start();
        }
        return { faultStart, faultEnd: Date.now() };
      },
      ["pay"],
    );
    expectOutageRules(run);
    expect(waitingDuringOutage, "e-mails waiting in the outbox while the mail server was down").toBeGreaterThan(0);
    expectSameWorkers(workers);
    await expectBooksBalanced();
    const mail = await expectEveryEmailOnce(MAIL_BOUND_MS);
    const deliveredMs = mail.lastAcceptedAt - run.faultEnd;
    run.row.notes.push(
      `${waitingDuringOutage} e-mails waited while it was down; all ${mail.count} of the run sent once, the last ${deliveredMs} ms after it came back (${smtp.accepted().length - acceptedBefore} accepted during this test)`,
    );
    test.info().annotations.push({ type: "fault: smtp down (mail)", description: run.row.notes.join("; ") });
  });

  test(`the bucket unreachable for ${BUCKET_DOWN_MS / 1000} s under load: uploads and images 503/504, the rest works, back on the same port and folder`, async () => {
    test.setTimeout(runs(60_000, 180_000));
    const { shop, bucket } = running();
    const workers = workerPids(shop.child.pid as number);
    const run = await underLoad(`bucket down ${BUCKET_DOWN_MS / 1000} s`, async () => {
      const faultStart = Date.now();
      await bucket.down();
      try {
        await sleep(BUCKET_DOWN_MS);
      } finally {
        await bucket.up();
      }
      return { faultStart, faultEnd: Date.now() };
    }, ["pay", "image"]);
    expectOutageRules(run);
    // Only what needs the bucket failed: pages, the cart and the checkout kept working.
    const needsBucket = new Set<StepKind>(["pay", "image"]);
    const others = run.during.filter((sample) => !needsBucket.has(sample.kind) && sample.start >= run.faultStart);
    expect(
      others
        .filter((sample) => !isSuccess(sample))
        .map((sample) => `${sample.kind}: ${sample.answer} (${sample.note})`),
      "requests that do not need the bucket, failed while it was away",
    ).toEqual([]);
    // A payment sent and answered while the bucket was away was refused: it cannot have stored its receipt.
    const answeredInOutage = run.load.payments.filter(
      (payment) => payment.start >= run.faultStart + 100 && payment.end <= run.faultEnd,
    );
    expect(answeredInOutage.length, "payments sent and answered while the bucket was away").toBeGreaterThan(0);
    expect(
      answeredInOutage.filter((payment) => payment.outcome.kind === "confirmed").map((payment) => payment.key),
      "payments confirmed while the bucket could not take their receipt",
    ).toEqual([]);
    expectSameWorkers(workers);
    await expectBooksBalanced();
    await expectEveryEmailOnce(MAIL_BOUND_MS);
  });
});

/* ------------------------------------------------------------------------------------------
 * A full disk under the SQLite file and the uploads folder
 * ------------------------------------------------------------------------------------------ */

test.describe("a full disk under the SQLite file and the uploads folder (a small tmpfs)", () => {
  let shop: Shop | undefined;
  let shoppers: Shopper[] = [];

  // biome-ignore lint/correctness/noEmptyPattern: Playwright hooks name their fixtures this way
  test.afterEach(async ({}, testInfo) => attachLogs(shop, testInfo));

  test.afterAll(async () => {
    await disposeShoppers(shoppers);
  });

  test("writes refused with 507/503 (never 500), reads keep working, the database sound, writes again once space is freed", async ({
    playwright,
  }) => {
    test.setTimeout(runs(90_000, 180_000));
    const started = await startDiskShop();
    if ("unavailable" in started) {
      test.skip(true, `no small disk to fill: ${started.unavailable} (docs/decisions/066)`);
      return;
    }
    const { disk, files } = started;
    shop = started.shop;
    const running = shop;
    const pid = running.child.pid;
    const [variant] = sqliteVariants(files, 1) as [Variant];
    setStock(files, variant, 100);
    const receipt = await receiptJpeg();
    shoppers = await signUpShoppers(playwright, [running], 2, "disk-buyer");
    const [buyer, browser] = shoppers as [Shopper, Shopper];
    const anonymous = await playwright.request.newContext({ baseURL: running.baseURL });
    const stranger = await playwright.request.newContext({ baseURL: running.baseURL });
    try {
      const key = await readyToPay(buyer, variant.productId, variant.color);
      const samples: Sample[] = [];
      const send = recorder(samples);
      const timeout = CLIENT_TIMEOUT_MS;
      const reads = async () => [
        await send("anonymous home", () => anonymous.get("/", { timeout })),
        await send("anonymous product", () => anonymous.get(`/product/${variant.productId}`, { timeout })),
        await send("read", () => browser.request.get("/cart", { timeout, maxRedirects: 0 })),
        await send("read", () => browser.request.get("/account/orders", { timeout, maxRedirects: 0 })),
      ];
      // Warm: the same reads before the disk fills.
      for (const read of await reads()) expect(read.sample.answer, `${read.sample.kind} before`).toBe(200);

      const filler = disk.fill();
      const faultStart = Date.now();
      expect(disk.free(), "bytes left on the small disk").toBeLessThan(4096);

      // A payment: its receipt cannot be written. Refused, and no order for its key.
      const payment = await send("pay", () =>
        buyer.request.post("/payment", { multipart: { submissionKey: key, receipt }, timeout, maxRedirects: 0 }),
      );
      expect.soft([503, 507], `the payment on a full disk (${payment.sample.note})`).toContain(payment.sample.answer);
      // Rows in the database: sign-ups and carts, until the database refuses one (new WAL frames).
      let refusedWrite: Sample | undefined;
      for (let attempt = 0; attempt < 10 && !refusedWrite; attempt++) {
        const signUp = await send("sign-up", () =>
          stranger.post("/login", {
            form: {
              intent: "signup",
              email: uniqueEmail(`disk-${attempt}`),
              password: uniquePassword(),
              redirectTo: "/",
            },
            timeout,
            maxRedirects: 0,
          }),
        );
        const cart = await send("cart", () =>
          browser.request.post("/cart", {
            form: {
              intent: "add",
              productId: String(variant.productId),
              color: variant.color,
              quantity: "1",
              redirectTo: "/cart",
            },
            timeout,
            maxRedirects: 0,
          }),
        );
        refusedWrite = [signUp.sample, cart.sample].find((sample) => sample.answer === 507 || sample.answer === 503);
      }
      expect.soft(refusedWrite, "a write to the database refused while the disk is full").toBeDefined();
      // Reads keep working.
      for (const read of await reads()) {
        expect.soft(read.sample.answer, `${read.sample.kind} on a full disk (${read.sample.note})`).toBe(200);
      }
      expect(integrityCheck(files), "integrity_check on a full disk").toBe("ok");
      expect(running.child.exitCode, "the shop still runs").toBeNull();

      // Space again: writes work within seconds, without a restart.
      fs.rmSync(filler);
      const faultEnd = Date.now();
      let recoveredAt: number | null = null;
      while (Date.now() - faultEnd < RECOVERY_BOUND_MS) {
        const probe = await send("cart", () =>
          browser.request.post("/cart", { form: { intent: "clear" }, timeout, maxRedirects: 0 }),
        );
        if (probe.sample.answer === 302) {
          recoveredAt = probe.sample.end;
          break;
        }
        await sleep(200);
      }
      expect(recoveredAt, `a write accepted within ${RECOVERY_BOUND_MS} ms of freeing the space`).not.toBeNull();
      const newKey = await readyToPay(buyer, variant.productId, variant.color);
      const paid = await send("pay", () =>
        buyer.request.post("/payment", { multipart: { submissionKey: newKey, receipt }, timeout, maxRedirects: 0 }),
      );
      const orderNumber = /\/payment-success\?order=([^&]+)$/.exec(paid.response?.headers().location ?? "")?.[1];
      expect(orderNumber, `the payment once space is back: ${paid.sample.answer} ${paid.sample.note}`).toBeTruthy();

      // Nothing broken, nothing half-written.
      const broken = unacceptable(samples, faultStart);
      expect.soft(broken, `answers that break the rules:\n${listed(broken)}`).toEqual([]);
      expect(integrityCheck(files), "integrity_check after").toBe("ok");
      const orders = storedOrders(files);
      expect(
        orders.filter((order) => order.submission_key === key),
        "an order for the refused payment",
      ).toEqual([]);
      const audit = receiptAudit(files);
      expect(audit.missing, "orders whose receipt file is missing").toEqual([]);
      expect(orders.map((order) => order.order_number)).toContain(decodeURIComponent(orderNumber as string));
      const books = sqliteBooks(files);
      expect((await books.stockOf(variant)) + (await books.unitsSold(variant)), "stock + sold").toBe(100);
      expect(running.child.pid, "the same process throughout").toBe(pid);
      expect(running.child.exitCode).toBeNull();

      const row = figuresOf(
        { samples, payments: [] },
        { name: "disk full (sqlite + uploads)", faultStart, faultEnd, recoveryMs: (recoveredAt as number) - faultEnd },
      );
      row.payments = { confirmed: 1, refused: 1, lost: 0 };
      row.notes.push(
        `writes refused: payment ${payment.sample.answer}, database write ${refusedWrite?.kind} ${refusedWrite?.answer}; reads 200; integrity ok; leftovers: ${audit.orphans.length} orphan, ${audit.temporary.length} temporary receipt files`,
      );
      record(row, test.info());
    } finally {
      await anonymous.dispose();
      await stranger.dispose();
    }
  });
});
