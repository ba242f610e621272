import fs from "node:fs";
import { expect, type TestInfo, test } from "@playwright/test";
import pg from "pg";
import { receiptJpeg, type UploadFile } from "../e2e/fixtures";
import { type PostgresCluster, startPostgres } from "../setup/postgres";
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from "../setup/smtp";
import {
  type Books,
  createPostgresDatabase,
  newShopFiles,
  openDatabase,
  postgresBooks,
  removeFiles,
  runs,
  type Shop,
  type ShopFiles,
  startShop,
} from "./shop";
import {
  allReadyToPay,
  disposeShoppers,
  moveShopper,
  pay,
  payAllAtOnce,
  readyToPay,
  type Shopper,
  setStock,
  signUpShoppers,
  sqliteBooks,
  tally,
  type Variant,
  variants,
} from "./shoppers";

/**
 * The outbox with real servers (issue 26, docs/decisions/044): the production build sends its
 * e-mails through its ordinary SMTP transport to a real SMTP server the test starts (`smtp-server`
 * on a loopback port, tests/setup/smtp.ts) that can be down, refuse with 451, or hold a message
 * without answering. Orders are placed over HTTP as a shopper would (sign up, cart, checkout,
 * payment with a receipt).
 *
 * Time: the shop's scheduler runs every minute and the first retry waits a minute, a claim holds
 * five. Here the processes run with SCHEDULER_INTERVAL_SECONDS=1, OUTBOX_RETRY_SECONDS=1 (waits of
 * 1, 2, 4… seconds instead of minutes) and OUTBOX_CLAIM_SECONDS=4: the settings an operator has,
 * read by loadConfig; the code that runs is the production code, only the clock's units are
 * smaller. Nothing is restarted or poked to make a message go out: what delivers it is the
 * scheduler's run or the process's own pass after it queued.
 */

const INTERVAL_SECONDS = 1;
const RETRY_SECONDS = 1;
const CLAIM_SECONDS = 4;

/** When the passes a process runs right after it queues a message are over (50 ms and 2 s). */
const OWN_PASSES_OVER_MS = 3_000;

/** The environment of every process here (besides SMTP_URL). */
const FAST_CLOCK = {
  SCHEDULER_INTERVAL_SECONDS: String(INTERVAL_SECONDS),
  OUTBOX_RETRY_SECONDS: String(RETRY_SECONDS),
  OUTBOX_CLAIM_SECONDS: String(CLAIM_SECONDS),
};

/**
 * The files of a new SQLite shop, migrated and seeded with the demo catalogue. Seeding takes a
 * while, so it is done once per worker (a shop started and stopped cleanly) and each shop here
 * starts on a copy of those files.
 */
let template: Promise<ShopFiles> | undefined;
async function seededShopFiles(name: string): Promise<ShopFiles> {
  template ??= (async () => {
    const files = newShopFiles("outbox-template");
    // With the same clock: a process at the default interval leaves its scheduler claims
    // (55 s) in the copies, and their first runs would wait for them.
    await (await startShop({ files, env: FAST_CLOCK })).stop();
    return files;
  })();
  const source = await template;
  const files = newShopFiles(name);
  fs.cpSync(source.dir, files.dir, { recursive: true });
  return files;
}

test.afterAll(async () => {
  if (template) removeFiles(await template);
});

/* ------------------------------------------------------------------------------------------
 * What the database says about the outbox (SQLite file or PostgreSQL)
 * ------------------------------------------------------------------------------------------ */

interface MessageRow {
  id: string;
  event: string;
  audience: string;
  recipient: string;
  message_key: string;
  status: string;
  attempts: number;
  order_id: string | null;
  claimed_until: string | null;
  next_attempt_at: string;
  last_error: string | null;
}

interface AttemptRow {
  message_id: string;
  attempted_at: string;
  ok: number;
  error: string | null;
}

interface OutboxBooks {
  /** The e-mails of the outbox (of one order when `orderId` is given), oldest first. */
  messages(orderId?: string): Promise<MessageRow[]>;
  /** Every logged attempt of one message, in order. */
  attempts(messageId: string): Promise<AttemptRow[]>;
  /** The id of the order with this number. */
  orderId(orderNumber: string): Promise<string>;
  close(): Promise<void>;
}

const MESSAGE_COLUMNS =
  "id, event, audience, recipient, message_key, status, attempts, order_id, claimed_until, next_attempt_at, last_error";

function sqliteOutbox(files: ShopFiles): OutboxBooks {
  const read = <T>(sql: string, ...params: unknown[]): T[] => {
    const db = openDatabase(files);
    try {
      return db.prepare(sql).all(...params) as T[];
    } finally {
      db.close();
    }
  };
  return {
    messages: async (orderId) =>
      read<MessageRow>(
        `SELECT ${MESSAGE_COLUMNS} FROM outbox_messages WHERE channel = 'email' ${orderId ? "AND order_id = ?" : ""}
         ORDER BY created_at, id`,
        ...(orderId ? [orderId] : []),
      ),
    attempts: async (messageId) =>
      read<AttemptRow>(
        "SELECT message_id, attempted_at, ok, error FROM outbox_attempts WHERE message_id = ? ORDER BY attempted_at, id",
        messageId,
      ),
    async orderId(orderNumber) {
      const [row] = read<{ id: string }>("SELECT id FROM orders WHERE order_number = ?", orderNumber);
      if (!row) throw new Error(`no order ${orderNumber}`);
      return row.id;
    },
    close: async () => undefined,
  };
}

function postgresOutbox(databaseUrl: string): OutboxBooks {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const read = async <T>(sql: string, values: unknown[] = []) => (await pool.query(sql, values)).rows as T[];
  return {
    messages: (orderId) =>
      read<MessageRow>(
        `SELECT ${MESSAGE_COLUMNS} FROM outbox_messages WHERE channel = 'email' ${orderId ? "AND order_id = $1" : ""}
         ORDER BY created_at, id`,
        orderId ? [orderId] : [],
      ),
    attempts: (messageId) =>
      read<AttemptRow>(
        "SELECT message_id, attempted_at, ok, error FROM outbox_attempts WHERE message_id = $1 ORDER BY attempted_at, id",
        [messageId],
      ),
    async orderId(orderNumber) {
      const [row] = await read<{ id: string }>("SELECT id FROM orders WHERE order_number = $1", [orderNumber]);
      if (!row) throw new Error(`no order ${orderNumber}`);
      return row.id;
    },
    close: () => pool.end(),
  };
}

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
async function eventually<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What the SMTP server saw of one Message-ID. */
function copiesOf(smtp: TestSmtpServer, messageKey: string): ReceivedMail[] {
  return smtp.seen.filter((mail) => mail.messageId === messageKey);
}

/** Accepted copies by Message-ID. */
function acceptedCounts(smtp: TestSmtpServer): Map<string, number> {
  const counts = new Map<string, number>();
  for (const mail of smtp.accepted()) {
    const key = mail.messageId ?? "(none)";
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Places one order as `shopper` (cart, checkout, payment with a receipt): its number. */
async function placeOrder(shopper: Shopper, variant: Variant, receipt: UploadFile): Promise<string> {
  const key = await readyToPay(shopper, variant.productId, variant.color);
  const outcome = await pay(shopper.request, key, receipt, { timeout: 20_000 });
  if (outcome.kind !== "confirmed") throw new Error(`the order was not placed: ${JSON.stringify(outcome)}`);
  return outcome.orderNumber;
}

/** The order's e-mails: one to the shopper and the shop's alert (to the support e-mail). */
async function orderEmails(books: OutboxBooks, orderId: string, shopper: Shopper): Promise<MessageRow[]> {
  const messages = await books.messages(orderId);
  expect(
    messages.map((message) => [message.event, message.audience]).toSorted(),
    "the order's e-mails: the shopper's and the shop's alert",
  ).toEqual([
    ["alert.order.placed", "shop"],
    ["order.placed", "customer"],
  ]);
  expect(messages.find((message) => message.audience === "customer")?.recipient).toBe(shopper.email);
  return messages;
}

async function attachLogs(shops: readonly (Shop | undefined)[], testInfo: TestInfo): Promise<void> {
  if (testInfo.status === testInfo.expectedStatus) return;
  for (const [i, shop] of shops.entries()) {
    if (!shop) continue;
    const stderr = shop.stderr().slice(-20_000);
    await testInfo.attach(`server ${i + 1} stderr`, { body: stderr, contentType: "text/plain" });
    console.error(`--- server ${i + 1} stderr (end) ---\n${stderr.slice(-3_000)}`);
  }
}

/* ------------------------------------------------------------------------------------------
 * One process, one SQLite file: SMTP down, refusing, hanging under a kill -9
 * ------------------------------------------------------------------------------------------ */

test.describe("one process", () => {
  test.describe.configure({ mode: "serial" });

  let files: ShopFiles;
  let smtp: TestSmtpServer;
  let shop: Shop | undefined;
  let shopper: Shopper | undefined;
  let books: OutboxBooks;
  let variant: Variant;
  let receipt: UploadFile;

  test.beforeAll(async ({ playwright }) => {
    test.setTimeout(120_000);
    // The mail server is down from the start: nothing listens on its port yet.
    smtp = await startSmtpServer({ listening: false });
    files = await seededShopFiles("outbox");
    shop = await startShop({ files, env: { SMTP_URL: smtp.url, ...FAST_CLOCK } });
    books = sqliteOutbox(files);
    [variant] = variants(files, 1) as [Variant];
    setStock(files, variant, 100);
    receipt = await receiptJpeg();
    [shopper] = await signUpShoppers(playwright, [shop], 1, "outbox-buyer");
  });

  // biome-ignore lint/correctness/noEmptyPattern: Playwright hooks name their fixtures this way
  test.afterEach(async ({}, testInfo) => attachLogs([shop], testInfo));

  test.afterAll(async () => {
    if (shopper) await disposeShoppers([shopper]);
    await shop?.stop();
    await smtp?.stop();
    if (files) removeFiles(files);
  });

  test("an order placed while the mail server is down succeeds; its e-mails arrive once it is back, without a restart", async () => {
    test.setTimeout(60_000);
    const running = shop as Shop;
    const buyer = shopper as Shopper;
    expect(smtp.listening).toBe(false);

    // The shopper is told the order is placed (302 to /payment-success), and it is stored.
    const orderNumber = await placeOrder(buyer, variant, receipt);
    const success = await buyer.request.get(`/payment-success?order=${encodeURIComponent(orderNumber)}`);
    expect(success.status(), "the success page").toBe(200);
    const orderId = await books.orderId(orderNumber);

    // The process tried at once (its own passes after queueing) and failed: the e-mails wait.
    const placedAt = Date.now();
    const waiting = await eventually("both e-mails tried and waiting", 15_000, async () => {
      const messages = await orderEmails(books, orderId, buyer);
      return messages.every((message) => message.status === "pending" && message.attempts >= 1) ? messages : undefined;
    });
    // The passes a process runs right after it queues (wake.server.ts: at 50 ms and 2 s) are
    // over: from here on, only the scheduler's runs send, so they are what is tested.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, placedAt + OWN_PASSES_OVER_MS - Date.now())));
    for (const message of waiting) {
      const attempts = await books.attempts(message.id);
      expect(attempts.length, `attempts of ${message.event}`).toBeGreaterThanOrEqual(1);
      expect(attempts.every((attempt) => attempt.ok === 0)).toBe(true);
      expect(attempts[0]?.error ?? "", "the transport's error is kept").toMatch(/ECONNREFUSED|connect/i);
    }
    expect(smtp.seen).toEqual([]);

    // The mail server comes back. Nothing else happens: the same process delivers each e-mail
    // at its next retry, in the scheduler's next run after it.
    const pid = running.child.pid;
    await smtp.start();
    const backAt = Date.now();
    const current = await books.messages(orderId);
    const latestRetry = Math.max(...current.map((message) => Date.parse(message.next_attempt_at)));
    await smtp.waitFor(
      (seen) => current.every((message) => seen.some((mail) => mail.messageId === message.message_key)),
      Math.max(0, latestRetry - backAt) + INTERVAL_SECONDS * 1000 + 10_000,
      "the order's e-mails",
    );
    expect(running.child.pid, "the same process, never restarted").toBe(pid);
    expect(running.child.exitCode).toBeNull();

    const sent = await eventually("both marked sent", 10_000, async () => {
      const messages = await books.messages(orderId);
      return messages.every((message) => message.status === "sent") ? messages : undefined;
    });
    for (const message of sent) {
      expect(
        copiesOf(smtp, message.message_key).map((mail) => mail.answer),
        message.event,
      ).toEqual(["accepted"]);
      const attempts = await books.attempts(message.id);
      expect(attempts.at(-1)?.ok, "the last attempt succeeded").toBe(1);
      expect(attempts.filter((attempt) => attempt.ok === 1)).toHaveLength(1);
    }
    const customer = smtp.accepted().find((mail) => mail.to.includes(buyer.email));
    expect(customer?.subject, "the shopper's confirmation names the order").toContain(orderNumber);
  });

  test("a transport that refuses three times (451) then accepts: one e-mail, three failed attempts and one success, with backoff", async () => {
    test.setTimeout(60_000);
    const buyer = shopper as Shopper;
    await smtp.start();
    smtp.refuseEach(3, 451);
    const orderNumber = await placeOrder(buyer, variant, receipt);
    const orderId = await books.orderId(orderNumber);
    const messages = await orderEmails(books, orderId, buyer);

    // Waits of 1 + 2 + 4 s between the attempts (OUTBOX_RETRY_SECONDS=1), plus the scheduler.
    await smtp.waitFor(
      () => messages.every((message) => copiesOf(smtp, message.message_key).some((mail) => mail.answer === "accepted")),
      40_000,
      "the order's e-mails accepted",
    );
    smtp.refuseEach(0);
    await eventually("both marked sent", 10_000, async () =>
      (await books.messages(orderId)).every((message) => message.status === "sent") ? true : undefined,
    );

    for (const message of await books.messages(orderId)) {
      // At the server: the same message (one Message-ID) refused three times, accepted once.
      expect(
        copiesOf(smtp, message.message_key).map((mail) => mail.answer),
        message.event,
      ).toEqual([451, 451, 451, "accepted"]);
      // In the delivery log: three failures with the server's answer, then one success.
      const attempts = await books.attempts(message.id);
      expect(
        attempts.map((attempt) => attempt.ok),
        message.event,
      ).toEqual([0, 0, 0, 1]);
      for (const failed of attempts.slice(0, 3)) expect(failed.error ?? "").toMatch(/451/);
      expect(message.attempts).toBe(4);
      // Each wait at least the backoff: 1, 2, 4 × OUTBOX_RETRY_SECONDS.
      const times = attempts.map((attempt) => Date.parse(attempt.attempted_at));
      for (let i = 1; i < times.length; i++) {
        const gap = (times[i] as number) - (times[i - 1] as number);
        expect(gap, `wait before attempt ${i + 1} of ${message.event}`).toBeGreaterThanOrEqual(
          RETRY_SECONDS * 1000 * 2 ** (i - 1),
        );
      }
    }
  });

  test("kill -9 while a message is claimed and its mail server hangs: after a restart it is sent once the claim runs out, same Message-ID", async ({
    playwright,
  }) => {
    test.setTimeout(60_000);
    const buyer = shopper as Shopper;
    await smtp.start();
    // The mail server reads each message but never answers its DATA: the send hangs.
    smtp.hold(true);
    const heldBefore = smtp.seen.length;
    const orderNumber = await placeOrder(buyer, variant, receipt);
    const orderId = await books.orderId(orderNumber);
    await smtp.waitFor(
      (seen) => seen.slice(heldBefore).some((mail) => mail.answer === "held"),
      15_000,
      "a held message",
    );

    const held = smtp.seen.slice(heldBefore).filter((mail) => mail.answer === "held");
    const messages = await orderEmails(books, orderId, buyer);
    const claimed = messages.filter((message) => held.some((mail) => mail.messageId === message.message_key));
    expect(claimed.length, "the held message is one of the order's").toBeGreaterThanOrEqual(1);
    for (const message of claimed) {
      expect(message.status, "claimed while its send hangs").toBe("sending");
      expect(message.claimed_until).toBeTruthy();
    }

    // The crash: between the claim and the mail server's answer.
    await (shop as Shop).kill();
    shop = undefined;
    smtp.hold(false);
    const claims = await books.messages(orderId);

    shop = await startShop({ files, env: { SMTP_URL: smtp.url, ...FAST_CLOCK } });
    await moveShopper(playwright, buyer, shop);

    await smtp.waitFor(
      () => claims.every((message) => copiesOf(smtp, message.message_key).some((mail) => mail.answer === "accepted")),
      CLAIM_SECONDS * 1000 + 20_000,
      "the order's e-mails accepted after the restart",
    );
    const sent = await eventually("both marked sent", 10_000, async () => {
      const rows = await books.messages(orderId);
      return rows.every((message) => message.status === "sent") ? rows : undefined;
    });

    for (const message of sent) {
      const copies = copiesOf(smtp, message.message_key);
      expect(
        copies.filter((mail) => mail.answer === "accepted"),
        `${message.event}: accepted once`,
      ).toHaveLength(1);
      expect(copies.length, `${message.event}: at most one duplicate, by its Message-ID`).toBeLessThanOrEqual(2);
      const attempts = await books.attempts(message.id);
      expect(
        attempts.filter((attempt) => attempt.ok === 1),
        "one success logged",
      ).toHaveLength(1);
    }
    for (const before of claims.filter((message) => message.status === "sending")) {
      const after = sent.find((message) => message.id === before.id) as MessageRow;
      const accepted = copiesOf(smtp, before.message_key).find((mail) => mail.answer === "accepted") as ReceivedMail;
      // Sent again only once the dead process's claim ran out, with the Message-ID it had.
      expect(accepted.at, `${before.event} sent after its claim ran out`).toBeGreaterThanOrEqual(
        Date.parse(before.claimed_until as string),
      );
      expect(accepted.messageId).toBe(before.message_key);
      expect(after.message_key).toBe(before.message_key);
      // The claim taken by the killed process counts as an attempt it never logged.
      expect(after.attempts, `${before.event}: the killed claim and the one that sent`).toBe(2);
    }
    expect(
      claims.some((message) => message.status === "sending"),
      "a message was claimed when the process died",
    ).toBe(true);
  });
});

/* ------------------------------------------------------------------------------------------
 * Two processes on one database: each message sent once
 * ------------------------------------------------------------------------------------------ */

const ORDERS = runs(12, 40);

interface Layout {
  name: string;
  /** Two processes on one new shop, sending through `smtpUrl`; `catalogue` is the shop's books. */
  start(smtpUrl: string): Promise<{ shops: Shop[]; books: OutboxBooks; catalogue: Books; stop(): Promise<void> }>;
}

const LAYOUTS: Layout[] = [
  {
    name: "two processes on one SQLite file",
    async start(smtpUrl) {
      // Migrated and seeded already (two independent processes on a new SQLite file would both
      // migrate it; npm start's own workers never do).
      const files = await seededShopFiles("outbox-two");
      const env = { SMTP_URL: smtpUrl, ...FAST_CLOCK };
      const shops = await Promise.all([startShop({ files, env }), startShop({ files, env })]);
      return {
        shops,
        books: sqliteOutbox(files),
        catalogue: sqliteBooks(files),
        async stop() {
          await Promise.all(shops.map((shop) => shop.stop()));
          removeFiles(files);
        },
      };
    },
  },
  {
    name: "two processes on PostgreSQL",
    async start(smtpUrl) {
      const postgres: PostgresCluster = await startPostgres();
      const shops: Shop[] = [];
      const files: ShopFiles = { ...newShopFiles("outbox-pg") };
      try {
        files.databaseUrl = await createPostgresDatabase(postgres, "outbox");
        const env = { SMTP_URL: smtpUrl, ...FAST_CLOCK };
        // On an empty PostgreSQL database both may start at once: one migrates and seeds.
        shops.push(...(await Promise.all([startShop({ files, env }), startShop({ files, env })])));
      } catch (error) {
        await Promise.all(shops.map((shop) => shop.stop()));
        postgres.stop();
        removeFiles(files);
        throw error;
      }
      const books = postgresOutbox(files.databaseUrl);
      const catalogue = postgresBooks(files.databaseUrl);
      return {
        shops,
        books,
        catalogue,
        async stop() {
          await Promise.all(shops.map((shop) => shop.stop()));
          await books.close().catch(() => undefined);
          await catalogue.close().catch(() => undefined);
          postgres.stop();
          removeFiles(files);
        },
      };
    },
  },
];

for (const layout of LAYOUTS) {
  test.describe(layout.name, () => {
    let smtp: TestSmtpServer;
    let running: Awaited<ReturnType<Layout["start"]>> | undefined;
    let shoppers: Shopper[] = [];

    test.beforeAll(async ({ playwright }) => {
      test.setTimeout(180_000);
      smtp = await startSmtpServer();
      running = await layout.start(smtp.url);
      shoppers = await signUpShoppers(playwright, running.shops, ORDERS, "outbox-racer");
    });

    // biome-ignore lint/correctness/noEmptyPattern: Playwright hooks name their fixtures this way
    test.afterEach(async ({}, testInfo) => attachLogs(running?.shops ?? [], testInfo));

    test.afterAll(async () => {
      await disposeShoppers(shoppers);
      await running?.stop();
      await smtp?.stop();
    });

    test(`${ORDERS} orders at once across both processes: each e-mail reaches the mail server once`, async () => {
      test.setTimeout(runs(60_000, 180_000));
      const { shops, books, catalogue } = running as NonNullable<typeof running>;
      // A slow mail server: each send takes a while, so both processes' passes (each one's own
      // after it queued, and the scheduler's in either) are at work on the same rows at once.
      smtp.delay(30);
      const [product] = (await catalogue.variants(1)) as [Variant];
      await catalogue.setStock(product, 1000);

      const keys = await allReadyToPay(shoppers, product.productId, product.color);
      const outcomes = await payAllAtOnce(
        shoppers.map((shopper, i) => ({ request: shopper.request, submissionKey: keys[i] as string })),
      );
      expect(tally(outcomes), "every order placed").toMatchObject({ confirmed: ORDERS });
      expect(shops.every((shop) => shop.child.exitCode === null)).toBe(true);

      // Every e-mail the outbox holds (the orders' and their alerts) is sent...
      const all = await eventually("every e-mail marked sent", runs(45_000, 150_000), async () => {
        const messages = await books.messages();
        return messages.length >= ORDERS * 2 && messages.every((message) => message.status === "sent")
          ? messages
          : undefined;
      });
      // ...and each reached the mail server exactly once, by its Message-ID.
      const counts = acceptedCounts(smtp);
      const twice = [...counts].filter(([, count]) => count > 1);
      expect(twice, "Message-IDs the mail server accepted more than once").toEqual([]);
      expect([...counts.keys()].toSorted(), "what the mail server got is what the outbox holds").toEqual(
        all.map((message) => message.message_key).toSorted(),
      );
      expect(smtp.seen.every((mail) => mail.answer === "accepted")).toBe(true);
      for (const message of all) {
        expect(message.attempts, `${message.event} to ${message.recipient}: claimed once`).toBe(1);
      }
      const logged = await Promise.all(all.map((message) => books.attempts(message.id)));
      expect(logged.map((attempts) => attempts.map((attempt) => attempt.ok).join())).toEqual(all.map(() => "1"));
    });
  });
}
