import { parse } from "csv-parse/sync";
import { beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "#db/connect.server";
import { UserError } from "~/lib/problem";
import { MemoryStorage } from "~/lib/storage.server";
import { transitionOrder } from "~/models/orders/desk.server";
import { expireOrder } from "~/models/orders/payment-deadlines.server";
import { listAdminProducts } from "~/models/products/admin-list.server";
import { type ProductInput, updateProduct } from "~/models/products/editor.server";
import {
  cancelStockAlert,
  confirmStockAlert,
  countWaitingByProduct,
  notifyBackInStock,
  RESEND_AFTER_MS,
  type SubscribeInput,
  stockAlertMailsPerEmail,
  stockAlertsPerAddress,
  subscribeToStockAlert,
} from "~/models/products/stock-alerts.server";
import { markEmailVerified } from "~/models/user.server";
import { action as exportAction } from "~/routes/admin/products-export";
import { action as importAction } from "~/routes/admin/products-import";
import { action as confirmAction, loader as confirmLoader } from "~/routes/store/stock-alert-confirm";
import { action as stopAction, loader as stopLoader } from "~/routes/store/stock-alert-stop";
import { loader as pageLoader, action as subscribeAction } from "~/routes/store/stock-alerts";
import {
  createCategory,
  createCustomer,
  createProduct,
  createSignedIn,
  placeTestOrder,
  TEST_CONFIG,
  uniqueTag,
} from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { queuedEmails } from "./setup/outbox";
import { dataOf, formOf, runRoute, statusOf } from "./setup/route";

let svc: TestServices;

beforeEach(async () => {
  svc = await freshTestServices();
});

/** A product with a sold-out Black and an in-stock Tan; returns its id and the variants' ids. */
async function soldOutProduct(stock = { black: 0, tan: 4 }) {
  const product = await createProduct(svc.db, {
    variants: [
      ["Black", "黑色", stock.black],
      ["Tan", "沙色", stock.tan],
    ],
  });
  const variants = await svc.db
    .selectFrom("product_variants")
    .select(["id", "color"])
    .where("product_id", "=", product.id)
    .execute();
  const id = (color: string) => variants.find((v) => v.color === color)?.id as number;
  return { ...product, black: id("Black"), tan: id("Tan") };
}

function guest(variantId: number, overrides: Partial<SubscribeInput> = {}): SubscribeInput {
  return {
    variantId,
    email: `Guest-${uniqueTag()}@Example.com`,
    language: "en",
    userId: null,
    ip: `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    ...overrides,
  };
}

async function alertsOf(variantId: number) {
  return svc.db.selectFrom("stock_alerts").selectAll().where("variant_id", "=", variantId).orderBy("id").execute();
}

/** The token of a link to `path` in an e-mail's text. */
function linkToken(text: string, path: string): string {
  const match = text.match(new RegExp(`${path}\\?token=([A-Za-z0-9_-]+)`));
  if (!match?.[1]) throw new Error(`no ${path} link in: ${text}`);
  return match[1];
}

async function refusal(run: () => Promise<unknown>): Promise<UserError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return error as UserError;
  }
  throw new Error("expected a UserError");
}

/** An active alert for `variantId` by a guest who confirmed through the link, in `language`. */
async function activeGuest(variantId: number, language: "en" | "zh" = "en"): Promise<string> {
  const input = guest(variantId, { language });
  const { email } = await subscribeToStockAlert(svc.db, TEST_CONFIG, input);
  const [mail] = await queuedEmails(svc.db, { to: email, event: "stockAlert.confirm" });
  await confirmStockAlert(svc.db, TEST_CONFIG, linkToken(mail?.text ?? "", "/stock-alerts/confirm"));
  return email;
}

describe("subscribing", () => {
  it("refuses a variant that is in stock, with a message saying so", async () => {
    const product = await soldOutProduct();
    const error = await refusal(() => subscribeToStockAlert(svc.db, TEST_CONFIG, guest(product.tan)));
    expect(error.key).toBe("stockAlerts.errors.inStock");
    expect(error.status).toBe(409);
    expect(await alertsOf(product.tan)).toEqual([]);
  });

  it("refuses a product shoppers cannot see (its category switched off)", async () => {
    const category = await createCategory(svc.db, { is_active: false });
    const product = await createProduct(svc.db, { category_id: category.id, variants: [["Black", 0]] });
    const variant = await svc.db
      .selectFrom("product_variants")
      .select("id")
      .where("product_id", "=", product.id)
      .executeTakeFirstOrThrow();
    const error = await refusal(() => subscribeToStockAlert(svc.db, TEST_CONFIG, guest(variant.id)));
    expect(error).toMatchObject({ key: "stockAlerts.errors.gone", status: 404 });
  });

  it("keeps a guest's alert pending and sends a confirmation link (48 h) in their language; the link makes it active", async () => {
    const product = await soldOutProduct();
    const input = guest(product.black, { language: "zh" });
    const result = await subscribeToStockAlert(svc.db, TEST_CONFIG, input);
    expect(result.outcome).toBe("pending");
    const [alert] = await alertsOf(product.black);
    expect(alert).toMatchObject({ status: "pending", email: input.email.toLowerCase(), locale: "zh", user_id: null });
    expect(Date.parse(alert?.confirm_expires_at ?? "") - Date.now()).toBeGreaterThan(47 * 3_600_000);

    const mails = await queuedEmails(svc.db, { to: input.email.toLowerCase() });
    expect(mails.map((m) => m.event)).toEqual(["stockAlert.confirm"]);
    expect(mails[0]?.language).toBe("zh");
    expect(mails[0]?.subject).toContain("黑色");
    const token = linkToken(mails[0]?.text ?? "", "/stock-alerts/confirm");
    // Only the token's hash is stored.
    expect(JSON.stringify(alert)).not.toContain(token);
    expect(mails[0]?.text).toContain("lng=zh");

    const confirmed = await confirmStockAlert(svc.db, TEST_CONFIG, token);
    expect(confirmed).toMatchObject({ productId: product.id, color: "Black", sentNow: false });
    expect((await alertsOf(product.black))[0]).toMatchObject({ status: "active", confirm_token_hash: null });
    // A link works once.
    expect((await refusal(() => confirmStockAlert(svc.db, TEST_CONFIG, token))).key).toBe("stockAlerts.invalidTitle");
  });

  it("refuses an expired confirmation link", async () => {
    const product = await soldOutProduct();
    const input = guest(product.black);
    await subscribeToStockAlert(svc.db, TEST_CONFIG, input, new Date(Date.now() - 49 * 3_600_000));
    const [mail] = await queuedEmails(svc.db, { to: input.email.toLowerCase() });
    const token = linkToken(mail?.text ?? "", "/stock-alerts/confirm");
    expect((await refusal(() => confirmStockAlert(svc.db, TEST_CONFIG, token))).key).toBe("stockAlerts.invalidTitle");
  });

  it("makes a signed-in shopper's own verified address active at once; an unverified or other address waits", async () => {
    const product = await soldOutProduct();
    const shopper = await createCustomer(svc.db);
    await markEmailVerified(svc.db, shopper.id);
    const own = await subscribeToStockAlert(svc.db, TEST_CONFIG, {
      ...guest(product.black),
      email: shopper.email.toUpperCase(),
      userId: shopper.id,
    });
    expect(own.outcome).toBe("active");
    const other = await subscribeToStockAlert(svc.db, TEST_CONFIG, { ...guest(product.black), userId: shopper.id });
    expect(other.outcome).toBe("pending");
    const unverified = await createCustomer(svc.db);
    const notProven = await subscribeToStockAlert(svc.db, TEST_CONFIG, {
      ...guest(product.black),
      email: unverified.email,
      userId: unverified.id,
    });
    expect(notProven.outcome).toBe("pending");
    const alerts = await alertsOf(product.black);
    expect(alerts.map((a) => [a.email, a.status])).toEqual([
      [shopper.email, "active"],
      [other.email, "pending"],
      [unverified.email, "pending"],
    ]);
    // The active one is told so, with the link that stops it (no confirmation link).
    const [ack] = await queuedEmails(svc.db, { to: shopper.email });
    expect(ack?.event).toBe("stockAlert.subscribed");
    expect(ack?.text).toContain("/stock-alerts/stop?token=");
    expect(ack?.text).not.toContain("/stock-alerts/confirm");
  });

  it("is idempotent: the same request again sends no second e-mail within the throttle, and a new link after it", async () => {
    const product = await soldOutProduct();
    const input = guest(product.black);
    const at = new Date();
    expect((await subscribeToStockAlert(svc.db, TEST_CONFIG, input, at)).outcome).toBe("pending");
    const again = await subscribeToStockAlert(svc.db, TEST_CONFIG, input, new Date(at.getTime() + 60_000));
    expect(again.outcome).toBe("alreadyPending");
    expect(await queuedEmails(svc.db, { to: input.email.toLowerCase() })).toHaveLength(1);
    expect(await alertsOf(product.black)).toHaveLength(1);

    const later = await subscribeToStockAlert(svc.db, TEST_CONFIG, input, new Date(at.getTime() + RESEND_AFTER_MS + 1));
    expect(later.outcome).toBe("pending");
    const mails = await queuedEmails(svc.db, { to: input.email.toLowerCase() });
    expect(mails).toHaveLength(2);
    // The newest link works, the first one no longer does.
    const first = linkToken(mails[0]?.text ?? "", "/stock-alerts/confirm");
    expect((await refusal(() => confirmStockAlert(svc.db, TEST_CONFIG, first))).key).toBe("stockAlerts.invalidTitle");
    await confirmStockAlert(svc.db, TEST_CONFIG, linkToken(mails[1]?.text ?? "", "/stock-alerts/confirm"));
    expect(
      (await subscribeToStockAlert(svc.db, TEST_CONFIG, input, new Date(at.getTime() + 2 * RESEND_AFTER_MS))).outcome,
    ).toBe("alreadyActive");
    expect(await alertsOf(product.black)).toHaveLength(1);
  });

  it("throttles per client address and per e-mail address with a 429", async () => {
    const product = await soldOutProduct();
    const ip = `10.9.${Math.floor(Math.random() * 250)}.1`;
    for (let i = 0; i < stockAlertsPerAddress.limit; i++) {
      await subscribeToStockAlert(svc.db, TEST_CONFIG, guest(product.black, { ip }));
    }
    const byIp = await refusal(() => subscribeToStockAlert(svc.db, TEST_CONFIG, guest(product.black, { ip })));
    expect(byIp).toMatchObject({ key: "stockAlerts.errors.tooManyAttempts", status: 429 });

    // One address, many variants: after the limit no more e-mails go to it.
    const email = `many-${uniqueTag()}@example.com`;
    for (let i = 0; i < stockAlertMailsPerEmail.limit; i++) {
      const other = await soldOutProduct();
      await subscribeToStockAlert(svc.db, TEST_CONFIG, guest(other.black, { email }));
    }
    const last = await soldOutProduct();
    const byEmail = await refusal(() => subscribeToStockAlert(svc.db, TEST_CONFIG, guest(last.black, { email })));
    expect(byEmail).toMatchObject({ key: "stockAlerts.errors.tooManyEmails", status: 429 });
    expect(await queuedEmails(svc.db, { to: email })).toHaveLength(stockAlertMailsPerEmail.limit);
    expect(await alertsOf(last.black)).toEqual([]);
  });

  it("stops an alert through its stop link; a second use says it has ended", async () => {
    const product = await soldOutProduct();
    const input = guest(product.black);
    await subscribeToStockAlert(svc.db, TEST_CONFIG, input);
    const [mail] = await queuedEmails(svc.db, { to: input.email.toLowerCase() });
    const token = linkToken(mail?.text ?? "", "/stock-alerts/stop");
    expect(await cancelStockAlert(svc.db, token)).toBe("stopped");
    expect((await alertsOf(product.black))[0]?.status).toBe("cancelled");
    expect(await cancelStockAlert(svc.db, token)).toBe("ended");
    expect(await cancelStockAlert(svc.db, "not-a-real-token-at-all-xxxxxxxx")).toBeNull();
  });
});

/** The back-in-stock e-mails queued so far, by recipient. */
async function backMails() {
  return (await queuedEmails(svc.db, { event: "stockAlert.back" })).map((m) => ({
    to: m.to,
    language: m.language,
    subject: m.subject,
    text: m.text,
  }));
}

function productInput(name: string, variants: [string, string, number][]): ProductInput {
  return {
    name_en: name,
    name_zh: `${name} 中`,
    description_en: "",
    description_zh: "",
    price_hkd_cents: 50_00,
    price_gbp_cents: 5_99,
    price_eur_cents: 6_99,
    price_usd_cents: 7_99,
    category_id: null,
    is_featured: false,
    stock: 0,
    variants: variants.map(([color, color_zh, stock]) => ({ color, color_zh, stock })),
  };
}

describe("back in stock", () => {
  it("an admin save from 0 to more sends one e-mail per active alert in its language, ends them, and never mails a pending one", async () => {
    const product = await soldOutProduct();
    const english = await activeGuest(product.black, "en");
    const chinese = await activeGuest(product.black, "zh");
    const pending = guest(product.black);
    await subscribeToStockAlert(svc.db, TEST_CONFIG, pending);
    const name = product.name_en;
    const save = (black: number) =>
      updateProduct(
        svc.db,
        new MemoryStorage(),
        product.id,
        productInput(name, [
          ["Black", "黑色", black],
          ["Tan", "沙色", 4],
        ]),
        { keep: [], newFiles: [] },
        null,
        TEST_CONFIG,
      );

    await save(3);
    const mails = await backMails();
    expect(mails.map((m) => [m.to, m.language]).sort()).toEqual(
      [
        [english, "en"],
        [chinese, "zh"],
      ].sort(),
    );
    const en = mails.find((m) => m.to === english);
    expect(en?.subject).toBe(`Back in stock: ${name} (Black)`);
    expect(en?.text).toContain(`http://localhost:3000/product/${product.id}?colour=Black`);
    const zh = mails.find((m) => m.to === chinese);
    expect(zh?.subject).toContain("黑色");
    expect(zh?.text).toContain("lng=zh");
    const alerts = await alertsOf(product.black);
    expect(alerts.map((a) => [a.email, a.status])).toEqual([
      [english, "sent"],
      [chinese, "sent"],
      [pending.email.toLowerCase(), "pending"],
    ]);
    expect(alerts[0]?.sent_at).not.toBeNull();

    // A second restock (3 → 5, or 0 → 2 again) sends nothing more: the alerts have ended.
    await save(5);
    await save(0);
    await save(2);
    expect(await backMails()).toHaveLength(2);
  });

  it("a save that leaves the stock at 0, or raises another colour, sends nothing", async () => {
    const product = await soldOutProduct();
    await activeGuest(product.black);
    await updateProduct(
      svc.db,
      new MemoryStorage(),
      product.id,
      productInput(product.name_en, [
        ["Black", "黑色", 0],
        ["Tan", "沙色", 9],
      ]),
      { keep: [], newFiles: [] },
      null,
      TEST_CONFIG,
    );
    expect(await backMails()).toEqual([]);
    expect((await alertsOf(product.black))[0]?.status).toBe("active");
  });

  it("a CSV import that raises the stock from 0 sends one e-mail per active alert", async () => {
    const admin = await createSignedIn(svc.db, { admin: true });
    const product = await soldOutProduct();
    const waiting = await activeGuest(product.black);
    const exported = await runRoute(
      svc,
      exportAction,
      new Request("http://localhost/admin/products/export", { method: "POST", body: formOf({}) }),
      admin,
    );
    const rows: Record<string, string>[] = parse(Buffer.from(await (exported.result as Response).arrayBuffer()), {
      bom: true,
      columns: true,
    });
    const edited = rows.map((row) =>
      row.product_id === String(product.id) && row.colour === "Black" ? { ...row, stock: "6" } : row,
    );
    const columns = Object.keys(edited[0] ?? {});
    const quote = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
    const csv = [columns.join(","), ...edited.map((row) => columns.map((c) => quote(row[c] ?? "")).join(","))].join(
      "\r\n",
    );
    const upload = async (form: FormData) =>
      runRoute(
        svc,
        importAction,
        new Request("http://localhost/admin/products/import", { method: "POST", body: form }),
        admin,
      );
    const previewed = await upload(
      formOf({ intent: "preview", file: new File([`${csv}\r\n`], "products.csv", { type: "text/csv" }) }),
    );
    const token = (previewed.result as unknown as { data: { preview: { token: string } } }).data.preview.token;
    const confirmed = await upload(formOf({ intent: "confirm", token }));
    expect(confirmed.thrown).toBeUndefined();
    expect((await backMails()).map((m) => m.to)).toEqual([waiting]);
    expect((await alertsOf(product.black))[0]?.status).toBe("sent");
  });

  it("a cancelled order's restock from 0 sends the e-mail once", async () => {
    const admin = await createSignedIn(svc.db, { admin: true });
    const product = await soldOutProduct({ black: 1, tan: 4 });
    const { order } = await placeTestOrder(svc.db, {
      lines: [{ productId: product.id, color: "Black", quantity: 1 }],
    });
    const waiting = await activeGuest(product.black, "zh");
    expect(order.status).toBe("pending_payment");
    await transitionOrder(svc.db, TEST_CONFIG, admin, {
      orderId: order.id,
      transition: "cancel",
      expected: "pending_payment",
    });
    const mails = await backMails();
    expect(mails.map((m) => [m.to, m.language])).toEqual([[waiting, "zh"]]);
    expect((await alertsOf(product.black))[0]?.status).toBe("sent");
  });

  it("an expired order's restock from 0 sends the e-mail", async () => {
    const product = await soldOutProduct({ black: 2, tan: 4 });
    const { order } = await placeTestOrder(svc.db, {
      lines: [{ productId: product.id, color: "Black", quantity: 2 }],
      receiptPath: null,
    });
    const waiting = await activeGuest(product.black);
    const expired = await expireOrder(svc.db, TEST_CONFIG, order.id, new Date(Date.now() + 72 * 3_600_000));
    expect(expired?.status).toBe("cancelled");
    expect((await backMails()).map((m) => m.to)).toEqual([waiting]);
  });

  it("a confirmation that arrives after the restock sends the e-mail at once", async () => {
    const product = await soldOutProduct();
    const input = guest(product.black);
    await subscribeToStockAlert(svc.db, TEST_CONFIG, input);
    await svc.db.updateTable("product_variants").set({ stock: 2 }).where("id", "=", product.black).execute();
    const [mail] = await queuedEmails(svc.db, { to: input.email.toLowerCase() });
    const confirmed = await confirmStockAlert(
      svc.db,
      TEST_CONFIG,
      linkToken(mail?.text ?? "", "/stock-alerts/confirm"),
    );
    expect(confirmed.sentNow).toBe(true);
    expect((await backMails()).map((m) => m.to)).toEqual([input.email.toLowerCase()]);
  });

  it("sends once when two processes restock the same variant at once", async () => {
    const product = await soldOutProduct();
    await activeGuest(product.black);
    await activeGuest(product.black, "zh");
    const second = openDatabase(svc.config.databaseUrl);
    try {
      const restock = (db: typeof svc.db, stock: number) =>
        db.transaction().execute(async (trx) => {
          await trx.updateTable("product_variants").set({ stock }).where("id", "=", product.black).execute();
          return notifyBackInStock(trx, TEST_CONFIG, [product.black]);
        });
      const sent = await Promise.all([restock(svc.db, 3), restock(second, 4)]);
      expect(sent.reduce((a, b) => a + b, 0)).toBe(2);
    } finally {
      await second.destroy();
    }
    expect(await backMails()).toHaveLength(2);
  });

  it("counts the waiting (active) alerts per product in one grouped query, shown on the admin list", async () => {
    const one = await soldOutProduct();
    const two = await soldOutProduct();
    await activeGuest(one.black);
    await activeGuest(one.black);
    await subscribeToStockAlert(svc.db, TEST_CONFIG, guest(one.black)); // pending: not counted
    await activeGuest(two.black);
    const counts = await countWaitingByProduct(svc.db, [one.id, two.id, 999_999]);
    expect(Object.fromEntries(counts)).toEqual({ [one.id]: 2, [two.id]: 1 });
    const listed = await listAdminProducts(svc.db, { currency: "HKD", language: "en" });
    expect(Object.fromEntries(listed.products.map((p) => [p.id, p.waiting]))).toEqual({ [one.id]: 2, [two.id]: 1 });
  });
});

describe("routes", () => {
  const post = (path: string, fields: Record<string, string>) =>
    new Request(`http://localhost${path}`, { method: "POST", body: formOf(fields) });

  it("opens the form's own page for a variant (its name in the reader's language), a 404 for none", async () => {
    const product = await soldOutProduct();
    const get = (url: string) => runRoute(svc, pageLoader, new Request(`http://localhost${url}`), null);
    const page = await get(`/stock-alerts?variant=${product.black}&lng=zh`);
    expect(page.result).toMatchObject({ variantId: product.black, item: `${product.name_zh}（黑色）` });
    expect(page.result).toMatchObject({ back: `/product/${product.id}?colour=Black` });
    expect(statusOf((await get("/stock-alerts?variant=999999")).thrown)).toBe(404);
    expect(statusOf((await get("/stock-alerts?variant=abc")).thrown)).toBe(404);
  });

  it("shows the confirm page only for a live link, and the stop page says when an alert has ended", async () => {
    const product = await soldOutProduct();
    const input = guest(product.black);
    await subscribeToStockAlert(svc.db, TEST_CONFIG, input);
    const [mail] = await queuedEmails(svc.db, { to: input.email.toLowerCase() });
    const confirm = linkToken(mail?.text ?? "", "/stock-alerts/confirm");
    const stop = linkToken(mail?.text ?? "", "/stock-alerts/stop");
    const open = (loader: (args: never) => Promise<unknown>, url: string) =>
      runRoute(svc, loader, new Request(`http://localhost${url}`), null);
    const live = await open(confirmLoader, `/stock-alerts/confirm?token=${confirm}`);
    expect(statusOf(live.result)).toBe(200);
    expect(dataOf<{ item: string }>(live.result).item).toBe(`${product.name_en} (Black)`);
    expect(statusOf((await open(confirmLoader, "/stock-alerts/confirm?token=nope")).result)).toBe(400);
    expect(dataOf<{ open: boolean }>((await open(stopLoader, `/stock-alerts/stop?token=${stop}`)).result).open).toBe(
      true,
    );
    await cancelStockAlert(svc.db, stop);
    expect(dataOf<{ open: boolean }>((await open(stopLoader, `/stock-alerts/stop?token=${stop}`)).result).open).toBe(
      false,
    );
  });

  it("answers a bad e-mail with 400, the input kept and the message on the field", async () => {
    const product = await soldOutProduct();
    const run = await runRoute(
      svc,
      subscribeAction,
      post("/stock-alerts", { variant_id: String(product.black), email: "not-an-address" }),
      null,
    );
    expect(statusOf(run.result)).toBe(400);
    const answer = dataOf<{ result: { initialValue: Record<string, string>; error: Record<string, string[]> } }>(
      run.result,
    );
    expect(answer.result.initialValue.email).toBe("not-an-address");
    expect(answer.result.error.email).toEqual(["errors.emailInvalid"]);
    expect(await alertsOf(product.black)).toEqual([]);
  });

  it("answers an in-stock variant with 409 and says it is in stock", async () => {
    const product = await soldOutProduct();
    const run = await runRoute(
      svc,
      subscribeAction,
      post("/stock-alerts", { variant_id: String(product.tan), email: "a@example.com" }),
      null,
    );
    expect(statusOf(run.result)).toBe(409);
    expect(dataOf<{ problem: { key: string } }>(run.result).problem.key).toBe("stockAlerts.errors.inStock");
  });

  it("redirects a plain post back to the product with a flash, and answers 429 once throttled", async () => {
    const product = await soldOutProduct();
    const ok = await runRoute(
      svc,
      subscribeAction,
      post("/stock-alerts", { variant_id: String(product.black), email: `r-${uniqueTag()}@example.com` }),
      null,
    );
    const response = (ok.thrown ?? ok.result) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/product/${product.id}?colour=Black`);
    for (let i = 1; i < stockAlertsPerAddress.limit; i++) {
      await runRoute(
        svc,
        subscribeAction,
        post("/stock-alerts", { variant_id: String(product.black), email: `r-${uniqueTag()}@example.com` }),
        null,
      );
    }
    const limited = await runRoute(
      svc,
      subscribeAction,
      post("/stock-alerts", {
        variant_id: String(product.black),
        email: `r-${uniqueTag()}@example.com`,
        _fetcher: "1",
      }),
      null,
    );
    expect(statusOf(limited.result)).toBe(429);
    expect(dataOf<{ problem: { key: string } }>(limited.result).problem.key).toBe("stockAlerts.errors.tooManyAttempts");
  });

  it("confirms and stops through the landing pages' posts; a bad token is a 400", async () => {
    const product = await soldOutProduct();
    const input = guest(product.black);
    await subscribeToStockAlert(svc.db, TEST_CONFIG, input);
    const [mail] = await queuedEmails(svc.db, { to: input.email.toLowerCase() });
    const bad = await runRoute(svc, confirmAction, post("/stock-alerts/confirm", { token: "x".repeat(43) }), null);
    expect(statusOf(bad.result)).toBe(400);
    const confirmed = await runRoute(
      svc,
      confirmAction,
      post("/stock-alerts/confirm", { token: linkToken(mail?.text ?? "", "/stock-alerts/confirm") }),
      null,
    );
    expect(((confirmed.thrown ?? confirmed.result) as Response).status).toBe(302);
    expect((await alertsOf(product.black))[0]?.status).toBe("active");
    const stopped = await runRoute(
      svc,
      stopAction,
      post("/stock-alerts/stop", { token: linkToken(mail?.text ?? "", "/stock-alerts/stop") }),
      null,
    );
    expect(((stopped.thrown ?? stopped.result) as Response).status).toBe(302);
    expect((await alertsOf(product.black))[0]?.status).toBe("cancelled");
  });
});
