import { createInstance } from "i18next";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DB } from "#db/connect.server";
import { now } from "#db/connect.server";
import type { Currency, OrderStatus, UserStatus } from "#db/schema";
import { I18nextInstanceProvider as I18nextProvider } from "~/lib/i18n";
import resources from "~/locales";
import { languageCookie } from "~/middleware/i18next";
import {
  CUSTOMER_PAGE_SIZE,
  countryName,
  customerBatches,
  customerSummary,
  decimalAmount,
  EXPORT_COLUMNS,
  exportFileName,
  findCustomer,
  listCustomers,
  listIpActivity,
  neutralizeCell,
  setCustomerBlocked,
} from "~/models/customers.server";
import type { CurrentUser } from "~/request/auth.server";
import AdminCustomer, { action as customerAction, loader as customerLoader } from "~/routes/admin/customer";
import AdminCustomers, { loader as customersLoader } from "~/routes/admin/customers";
import { action as exportAction, loader as exportLoader } from "~/routes/admin/customers-export";
import { createSignedIn } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { runRoute } from "./setup/route";

let svc: TestServices;
let db: DB;
let ADMIN: CurrentUser;
let SHOPPER: CurrentUser;
beforeEach(async () => {
  svc = await freshTestServices();
  ({ db } = svc);
  ADMIN = await createSignedIn(db, { email: "cust-boss@shop.hk", admin: true });
  SHOPPER = await createSignedIn(db, { email: "cust-shopper@shop.hk" });
});

/** A clock for the rows below: each one a second after the last, so the lists' order is known. */
let seq = 0;

/** An account inserted straight into the table (no password hashing: fast enough for hundreds). */
async function addUser(
  email: string,
  fields: Partial<{
    status: UserStatus;
    country: string | null;
    city: string | null;
    last_login_ip: string | null;
    last_login_at: string | null;
    created_at: string;
  }> = {},
): Promise<string> {
  seq += 1;
  const id = crypto.randomUUID();
  const at = fields.created_at ?? new Date(Date.UTC(2025, 0, 1) + seq * 1000).toISOString();
  await db
    .insertInto("users")
    .values({ id, email, password_hash: "x", created_at: at, updated_at: at, ...fields })
    .execute();
  return id;
}

async function addOrder(
  userId: string,
  status: OrderStatus,
  currency: Currency,
  totalCents: number,
  contact: { first?: string; last?: string; phone?: string | null; at?: string } = {},
) {
  seq += 1;
  const id = crypto.randomUUID();
  const at = contact.at ?? new Date(Date.UTC(2025, 5, 1) + seq * 1000).toISOString();
  await db
    .insertInto("orders")
    .values({
      id,
      order_number: `ORD-TEST-${seq}`,
      user_id: userId,
      status,
      currency,
      locale: "en",
      subtotal_cents: totalCents,
      shipping_cents: 0,
      total_cents: totalCents,
      first_name: contact.first ?? "Tai Man",
      last_name: contact.last ?? "Chan",
      email: "x@example.com",
      phone: contact.phone ?? null,
      address: "1 Nathan Road",
      city: "Hong Kong",
      country: "Hong Kong",
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

async function addSignIn(userId: string, ip: string, at: Date) {
  await db
    .insertInto("sign_in_events")
    .values({ user_id: userId, email: "x@example.com", success: 1, ip, country: "HK", created_at: now(at) })
    .execute();
}

async function addSession(userId: string) {
  const at = now();
  await db
    .insertInto("sessions")
    .values({
      id: crypto.randomUUID(),
      user_id: userId,
      data: "{}",
      created_at: at,
      last_seen_at: at,
      expires_at: now(new Date(Date.now() + 86_400_000)),
    })
    .execute();
}

/* ---------------------------------------------------------------------------------------- */

/** A loader or action in the reader's language (the language cookie), as the server runs it. */
async function run<T>(
  fn: (args: never) => Promise<T>,
  request: Request,
  user: CurrentUser | null,
  params: Record<string, string> = {},
  language: "en" | "zh" = "en",
) {
  request.headers.set("Cookie", await languageCookie.serialize(language));
  return runRoute(svc, fn, request, user, params);
}

function post(path: string, fields: Record<string, string>) {
  return new Request(`http://localhost${path}`, { method: "POST", body: new URLSearchParams(fields) });
}

/* ---------------------------------------------------------------------------------------- */

describe("customer list", () => {
  it("counts orders and sums what was paid per currency, never across currencies", async () => {
    const id = await addUser("spender-list@totals.test");
    await addOrder(id, "paid", "HKD", 100_000);
    await addOrder(id, "delivered", "HKD", 23_400);
    await addOrder(id, "shipped", "USD", 1_000);
    await addOrder(id, "processing", "GBP", 500);
    await addOrder(id, "cancelled", "HKD", 999_900);
    await addOrder(id, "pending_payment", "EUR", 777);
    const { customers } = await listCustomers(db, { search: "spender-list@" });
    expect(customers).toHaveLength(1);
    expect(customers[0]?.order_count).toBe(6);
    expect(customers[0]?.totals).toEqual([
      { currency: "HKD", cents: 123_400 },
      { currency: "GBP", cents: 500 },
      { currency: "USD", cents: 1_000 },
    ]);
    const never = await addUser("never-ordered@totals.test");
    const detail = await findCustomer(db, never);
    expect(detail?.customer).toMatchObject({ order_count: 0, totals: [] });
  });

  it("lists 25 a page, newest first, and falls back to the sign-up for the last login", async () => {
    for (let i = 0; i < 30; i++) await addUser(`page-${String(i).padStart(2, "0")}@paging.test`);
    const first = await listCustomers(db, { search: "@paging.test" });
    expect(first.total).toBe(30);
    expect(first.pages).toBe(2);
    expect(first.customers).toHaveLength(CUSTOMER_PAGE_SIZE);
    expect(first.customers[0]?.email).toBe("page-29@paging.test");
    expect(first.customers[0]?.last_login_at).toBe(first.customers[0]?.created_at);
    const second = await listCustomers(db, { search: "@paging.test", page: 2 });
    expect(second.customers.map((c) => c.email)).toEqual([
      "page-04@paging.test",
      "page-03@paging.test",
      "page-02@paging.test",
      "page-01@paging.test",
      "page-00@paging.test",
    ]);
    expect((await listCustomers(db, { search: "@paging.test", page: 99 })).page).toBe(2);
  });

  it("searches the e-mail (substring, any case), the last IP, the country (code or name) and the city", async () => {
    const a = await addUser("findme-alpha@search.test", { last_login_ip: "203.0.113.77", country: "JP" });
    const b = await addUser("other-beta@search.test", { country: "GB", city: "Manchester" });
    const ids = async (search: string) => (await listCustomers(db, { search })).customers.map((c) => c.id);
    expect(await ids("FINDME-ALP")).toEqual([a]);
    expect(await ids("203.0.113.77")).toEqual([a]);
    expect(await ids("jp")).toContain(a);
    expect(await ids("Japan")).toContain(a);
    expect(await ids("日本")).toContain(a);
    expect(await ids("manchester")).toEqual([b]);
    expect(await ids("United Kingdom")).toContain(b);
    // LIKE wildcards are plain characters.
    expect(await ids("%")).toEqual([]);
    expect(await ids("_")).toEqual([]);
  });

  it("summarises: total, active with percent, distinct countries, top country", async () => {
    await addUser("hk@summary.test", { country: "HK" });
    await addUser("gb@summary.test", { country: "GB" });
    const before = await customerSummary(db);
    await addUser("s1@summary.test", { country: "TW" });
    await addUser("s2@summary.test", { country: "TW", status: "blocked" });
    await addUser("s3@summary.test", { country: "TW", status: "inactive" });
    await addUser("s4@summary.test", { country: "TW" });
    await addUser("s5@summary.test", { country: "TW" });
    const after = await customerSummary(db);
    expect(after.total).toBe(before.total + 5);
    expect(after.active).toBe(before.active + 3);
    expect(after.activePercent).toBe(Math.round((after.active / after.total) * 100));
    expect(after.topCountry).toBe("TW");
    expect(after.countries).toBeGreaterThanOrEqual(3);
  });

  it("groups sign-ins of the last 30 days by address and counts the accounts of each", async () => {
    const x = await addUser("ip-x@activity.test");
    const y = await addUser("ip-y@activity.test");
    const recent = new Date(Date.now() - 60_000);
    await addSignIn(x, "198.51.100.9", new Date(Date.now() - 3 * 86_400_000));
    await addSignIn(x, "198.51.100.9", recent);
    await addSignIn(y, "198.51.100.9", new Date(Date.now() - 2 * 86_400_000));
    await addSignIn(y, "198.51.100.10", new Date(Date.now() - 120_000));
    await addSignIn(x, "198.51.100.11", new Date(Date.now() - 40 * 86_400_000));
    const activity = await listIpActivity(db);
    expect(activity[0]).toMatchObject({ ip: "198.51.100.9", accounts: 2, sign_ins: 3 });
    expect(activity[0]?.last_seen).toBe(now(recent));
    expect(activity.find((row) => row.ip === "198.51.100.10")).toMatchObject({ accounts: 1, sign_ins: 1 });
    expect(activity.find((row) => row.ip === "198.51.100.11")).toBeUndefined();
  });

  it("names countries in the reader's language", () => {
    expect(countryName("HK", "en")).toBe("Hong Kong");
    expect(countryName("HK", "zh")).toBe("香港");
    expect(countryName("GB", "en", "long")).toBe("United Kingdom");
    expect(countryName("GB", "zh")).toBe("英國");
    expect(countryName(null, "en")).toBeNull();
  });
});

describe("blocking", () => {
  it("blocks (ending every session, in one transaction) and unblocks, with the audit trail", async () => {
    const id = await addUser("blockme@block.test");
    await addSession(id);
    await addSession(id);
    const blocked = await setCustomerBlocked(db, id, true, { actorUserId: ADMIN.id });
    expect(blocked).toEqual({ ok: true, changed: true });
    const row = await db.selectFrom("users").select("status").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.status).toBe("blocked");
    expect(await db.selectFrom("sessions").select("id").where("user_id", "=", id).execute()).toEqual([]);

    const unblocked = await setCustomerBlocked(db, id, false, { actorUserId: ADMIN.id });
    expect(unblocked).toEqual({ ok: true, changed: true });
    const audit = await db
      .selectFrom("audit_log")
      .select(["action", "actor_user_id", "details"])
      .where("entity_id", "=", id)
      .orderBy("id")
      .execute();
    expect(audit.map((entry) => entry.action)).toEqual(["customer.blocked", "customer.unblocked"]);
    expect(audit[0]?.actor_user_id).toBe(ADMIN.id);
    expect(JSON.parse(audit[0]?.details ?? "")).toEqual({ before: { status: "active" }, after: { status: "blocked" } });
    expect(JSON.parse(audit[1]?.details ?? "")).toEqual({ before: { status: "blocked" }, after: { status: "active" } });
  });

  it("refuses to let an admin block themselves", async () => {
    await expect(setCustomerBlocked(db, ADMIN.id, true, { actorUserId: ADMIN.id })).rejects.toMatchObject({
      key: "adminCustomers.errors.blockSelf",
    });
    const row = await db.selectFrom("users").select("status").where("id", "=", ADMIN.id).executeTakeFirstOrThrow();
    expect(row.status).toBe("active");
  });
});

describe("customer routes", () => {
  it("blocks through the action with a flash, and refuses self-blocking with 400 and a message", async () => {
    const id = await addUser("route-block@block.test");
    await addSession(id);
    const done = await run(customerAction, post(`/admin/customers/${id}`, { intent: "block" }), ADMIN, { id });
    expect((done.result as Response).headers.get("Location")).toBe(`/admin/customers/${id}`);
    expect(done.flash).toMatchObject({ type: "success", key: "adminCustomers.blocked" });
    expect(await db.selectFrom("sessions").select("id").where("user_id", "=", id).execute()).toEqual([]);

    const undone = await run(customerAction, post(`/admin/customers/${id}`, { intent: "unblock" }), ADMIN, { id });
    expect(undone.flash).toMatchObject({ key: "adminCustomers.unblocked" });

    const self = await run(customerAction, post(`/admin/customers/${ADMIN.id}`, { intent: "block" }), ADMIN, {
      id: ADMIN.id,
    });
    const reply = self.result as unknown as { data: { problem: { key: string } }; init: { status: number } };
    expect(reply.init.status).toBe(400);
    expect(reply.data.problem.key).toBe("adminCustomers.errors.blockSelf");

    const bad = await run(customerAction, post(`/admin/customers/${id}`, { intent: "delete" }), ADMIN, { id });
    expect((bad.result as unknown as { init: { status: number } }).init.status).toBe(400);
  });

  it("refuses a non-admin's block and export with 403 and changes nothing", async () => {
    const id = await addUser("untouchable@block.test");
    const auditBefore = await db.selectFrom("audit_log").select("id").execute();
    for (const user of [SHOPPER, null]) {
      const block = await run(customerAction, post(`/admin/customers/${id}`, { intent: "block" }), user, { id });
      expect((block.thrown as Response).status).toBe(403);
      const exported = await run(exportAction, post("/admin/customers/export", {}), user);
      expect((exported.thrown as Response).status).toBe(403);
    }
    const row = await db.selectFrom("users").select("status").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.status).toBe("active");
    expect(await db.selectFrom("audit_log").select("id").execute()).toEqual(auditBefore);
    const page = await run(customersLoader, new Request("http://localhost/admin/customers"), SHOPPER);
    expect((page.thrown as Response).headers.get("Location")).toBe("/admin/login");
  });

  it("answers an unknown customer with 404", async () => {
    const missing = crypto.randomUUID();
    const { thrown } = await run(customerLoader, new Request(`http://localhost/admin/customers/${missing}`), ADMIN, {
      id: missing,
    });
    expect((thrown as { init: { status: number } }).init.status).toBe(404);
  });
});

/* ---------------------------------------------------------------------------------------- */

async function exportCsv(fields: Record<string, string>) {
  const { result, thrown } = await run(exportAction, post("/admin/customers/export", fields), ADMIN);
  expect(thrown).toBeUndefined();
  const response = result as Response;
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { response, bytes, text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes) };
}

/** A CSV parser enough for this file: quoted cells with doubled quotes, CRLF records. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  if (cell !== "" || row.length > 0) rows.push([...row, cell]);
  return rows;
}

describe("CSV export", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("neutralises spreadsheet formulas", () => {
    for (const value of [
      "=1+1",
      "+852",
      "-3",
      "-2+3",
      "@SUM(A1)",
      "\tx",
      "\rx",
      "+1+cmd|' /C calc'!A0",
      "+852 6123 4567+cmd|' /C calc'!A0",
      "+852 6123 4567\t=1",
      "+852 6123 4567\r\n=1",
      "+12345",
      "+1 2 3",
    ])
      expect(neutralizeCell(value)).toBe(`'${value}`);
    expect(neutralizeCell("plain@example.com")).toBe("plain@example.com");
  });

  it("keeps phone numbers as written: a leading + before digits, spaces, dashes and parentheses is no formula", () => {
    for (const value of ["+852 6123 4567", "+85261234567", "+1 (555) 010-0000", "+44-20-7946-0958", "9123 4567"])
      expect(neutralizeCell(value)).toBe(value);
  });

  it("streams a UTF-8 CSV with a BOM, CRLF, the header, Chinese intact, plain amounts per currency, formulas neutralised", async () => {
    const id = await addUser("csv-one@export.test", {
      city: "香港",
      country: "HK",
      last_login_ip: "203.0.113.5",
      last_login_at: "2025-03-04T05:06:07.000Z",
      created_at: "2025-01-02T03:04:05.000Z",
    });
    await addOrder(id, "paid", "HKD", 123_450, { first: "Tai Man", last: "Chan", phone: "9123 4567" });
    await addOrder(id, "delivered", "USD", 1_000, { first: "大文", last: "陳", phone: "+852 6123 4567" });
    await addOrder(id, "cancelled", "USD", 50_000, { first: "大文", last: "陳" });
    await addOrder(id, "pending_payment", "GBP", 7_000, { first: "大文", last: "陳", phone: "+852 6123 4567" });
    const evilId = await addUser("=cmd@export.test", { city: '=HYPERLINK("http://evil")', status: "blocked" });
    await addOrder(evilId, "cancelled", "HKD", 100, { first: "=1+1", last: "@SUM(A1)", phone: "-2+3" });

    const auditBefore = await db
      .selectFrom("audit_log")
      .select("id")
      .where("action", "=", "customer.exported")
      .execute();
    const { response, bytes, text } = await exportCsv({ q: "export.test" });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="customers-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const header =
      "Email,Name,Phone,IP Address,Country,City,Last Login (HKT),Order Count," +
      "Total Spent HKD,Total Spent GBP,Total Spent EUR,Total Spent USD,Status,Created At (HKT)";
    expect(text.startsWith(`\uFEFF${header}\r\n`)).toBe(true);
    expect(EXPORT_COLUMNS.join(",")).toBe(header);
    expect(text.replace(/\r\n/g, "")).not.toMatch(/\n/);
    const rows = parseCsv(text.slice(1));
    expect(rows).toHaveLength(3);
    const one = rows.find((row) => row[0] === "csv-one@export.test");
    expect(one).toEqual([
      "csv-one@export.test",
      // The name and phone of the latest order (the one placed last, whatever its state).
      "陳大文",
      // A phone number, not a formula: as the shopper wrote it (issue 25).
      "+852 6123 4567",
      "203.0.113.5",
      "HK",
      "香港",
      // 05:06 UTC is 13:06 in Hong Kong.
      "2025-03-04 13:06",
      "4",
      // Paid and later only, as numbers without symbols or separators; 0.00 where none.
      "1234.50",
      "0.00",
      "0.00",
      "10.00",
      "active",
      "2025-01-02 11:04",
    ]);
    const evil = rows.find((row) => row[0]?.includes("cmd@export.test"));
    expect(evil?.[0]).toBe("'=cmd@export.test");
    expect(evil?.[1]).toBe("'=1+1 @SUM(A1)");
    expect(evil?.[2]).toBe("'-2+3");
    expect(evil?.[5]).toBe('\'=HYPERLINK("http://evil")');
    expect(evil?.slice(8, 12)).toEqual(["0.00", "0.00", "0.00", "0.00"]);
    expect(evil?.[12]).toBe("blocked");

    const audit = await db.selectFrom("audit_log").selectAll().where("action", "=", "customer.exported").execute();
    expect(audit).toHaveLength(auditBefore.length + 1);
    expect(JSON.parse(audit.at(-1)?.details ?? "").after).toEqual({ rows: 2, search: "export.test" });
    expect(audit.at(-1)?.actor_user_id).toBe(ADMIN.id);
  });

  it("leaves name and phone empty for a customer without orders", async () => {
    await addUser("no-orders@empty-export.test");
    const rows = parseCsv((await exportCsv({ q: "empty-export.test" })).text.slice(1));
    expect(rows[1]?.slice(0, 3)).toEqual(["no-orders@empty-export.test", "", ""]);
    expect(rows[1]?.[7]).toBe("0");
  });

  it("writes times in Hong Kong time around midnight UTC", async () => {
    await addUser("late@hkt-export.test", {
      // 23:59 UTC on the 22nd is 07:59 on the 23rd in Hong Kong; 16:30 UTC is 00:30 the next day.
      created_at: "2026-11-22T23:59:00.000Z",
      last_login_at: "2026-11-23T16:30:00.000Z",
    });
    const rows = parseCsv((await exportCsv({ q: "hkt-export.test" })).text.slice(1));
    const header = rows[0] ?? [];
    const row = rows[1] ?? [];
    expect(row[header.indexOf("Created At (HKT)")]).toBe("2026-11-23 07:59");
    expect(row[header.indexOf("Last Login (HKT)")]).toBe("2026-11-24 00:30");
  });

  it("names the file after the Hong Kong date, also when it is still the day before in UTC", async () => {
    expect(exportFileName(new Date("2026-11-23T15:59:59.000Z"))).toBe("customers-2026-11-23.csv");
    expect(exportFileName(new Date("2026-11-23T16:00:00.000Z"))).toBe("customers-2026-11-24.csv");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-23T21:05:00.000Z")); // 05:05 on the 24th in Hong Kong
    const { response } = await exportCsv({ q: "nobody-at-all.test" });
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="customers-2026-11-24.csv"');
  });

  it("writes cents as plain decimals", () => {
    expect(decimalAmount(0)).toBe("0.00");
    expect(decimalAmount(5)).toBe("0.05");
    expect(decimalAmount(123_450)).toBe("1234.50");
    expect(decimalAmount(100_000_000)).toBe("1000000.00");
    expect(decimalAmount(-1_999)).toBe("-19.99");
  });

  it("has the customers screen's order and search: newest first, ties by id, across batches", async () => {
    // Three accounts share a sign-up time: the tie is broken by id, as on the screen.
    const tie = "2025-07-07T07:07:07.000Z";
    for (let i = 0; i < 3; i++) await addUser(`tie-${i}@order-export.test`, { created_at: tie });
    for (let i = 0; i < 9; i++) await addUser(`n-${i}@order-export.test`);
    await addUser("elsewhere@other-export.test");
    const screen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const listing = await listCustomers(db, { search: "order-export.test", page, pageSize: 5 });
      screen.push(...listing.customers.map((c) => c.email));
    }
    expect(screen).toHaveLength(12);
    const batched: string[] = [];
    for await (const batch of customerBatches(db, "order-export.test", 2)) batched.push(...batch.map((c) => c.email));
    expect(batched).toEqual(screen);
    const rows = parseCsv((await exportCsv({ q: "order-export.test" })).text.slice(1));
    expect(rows.slice(1).map((row) => row[0])).toEqual(screen);
  });

  it("reads beyond 500 rows in keyset batches of at most 500, every account once", async () => {
    const total = 1_234;
    const ids: string[] = [];
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < total; i++) {
        const id = crypto.randomUUID();
        ids.push(id);
        const at = now();
        await trx
          .insertInto("users")
          .values({ id, email: `bulk-${i}@bulk.test`, password_hash: "x", created_at: at, updated_at: at })
          .execute();
      }
    });
    const sizes: number[] = [];
    const seen: string[] = [];
    for await (const batch of customerBatches(db, "@bulk.test")) {
      sizes.push(batch.length);
      seen.push(...batch.map((row) => row.id));
    }
    expect(sizes).toEqual([500, 500, 234]);
    expect(new Set(seen).size).toBe(total);
    expect([...seen].sort()).toEqual([...ids].sort());

    const { text } = await exportCsv({ q: "@bulk.test" });
    const rows = parseCsv(text.slice(1));
    expect(rows).toHaveLength(total + 1);
    expect(new Set(rows.slice(1).map((row) => row[0])).size).toBe(total);
  });

  it("answers a GET with a redirect to the list (only a POST exports)", async () => {
    const { thrown, result } = await run(exportLoader, new Request("http://localhost/admin/customers/export"), ADMIN);
    expect(thrown).toBeUndefined();
    expect((result as Response).headers.get("Location")).toBe("/admin/customers");
  });
});

/* ---------------------------------------------------------------------------------------- */

describe("the Customers pages", () => {
  async function render(
    Component: typeof AdminCustomers | typeof AdminCustomer,
    loader: (args: never) => Promise<unknown>,
    path: string,
    params: Record<string, string>,
    language: "en" | "zh" = "en",
  ) {
    const { result, thrown } = await run(loader, new Request(`http://localhost${path}`), ADMIN, params, language);
    expect(thrown).toBeUndefined();
    const i18n = createInstance();
    await i18n.init({ resources, lng: language, interpolation: { escapeValue: false } });
    const Stub = createRoutesStub([
      { id: "page", path: "/admin/customers/:id?", Component: Component as never, loader: () => result },
    ]);
    return renderToString(
      createElement(
        I18nextProvider,
        { i18n },
        createElement(Stub, { initialEntries: [path], hydrationData: { loaderData: { page: result } } }),
      ),
    );
  }

  it("shows the table with location name, totals, status, View link, the export form and a shared address", async () => {
    const id = await addUser("render-me@render.test", { country: "GB", city: "Leeds", last_login_ip: "192.0.2.44" });
    const other = await addUser("render-two@render.test");
    await addOrder(id, "paid", "GBP", 4_550, { first: "大文", last: "陳" });
    await addSignIn(id, "192.0.2.200", new Date());
    await addSignIn(other, "192.0.2.200", new Date());
    const html = await render(AdminCustomers, customersLoader, "/admin/customers?q=render-me", {});
    expect(html).toContain("Customer Management");
    expect(html).toContain("render-me@render.test");
    expect(html).not.toContain("render-two@render.test");
    expect(html).toContain("Leeds, UK");
    // The name of the latest order, family name first in Chinese script.
    expect(html).toMatch(/data-testid="customer-name"[^>]*>陳大文</);
    expect(html).toContain("£45.50");
    expect(html).toContain(`href="/admin/customers/${id}"`);
    expect(html).toMatch(/<form[^>]*action="\/admin\/customers\/export" method="post"/);
    expect(html).toContain('name="q" value="render-me"');
    expect(html).toContain("Export Data");
    expect(html).toContain("Shared by 2 accounts");

    const zh = await render(AdminCustomers, customersLoader, "/admin/customers?q=render-me", {}, "zh");
    expect(zh).toContain("客戶管理");
    expect(zh).toContain("Leeds, 英國");
  });

  it("shows a customer's orders linking to the admin order, sign-ins and the Block button", async () => {
    const id = await addUser("detail@render.test", { country: "HK" });
    const orderId = await addOrder(id, "shipped", "HKD", 88_800, { phone: "9876 5432" });
    await addSignIn(id, "192.0.2.77", new Date());
    const html = await render(AdminCustomer, customerLoader, `/admin/customers/${id}`, { id });
    expect(html).toMatch(/data-testid="customer-name"[^>]*>Tai Man Chan</);
    expect(html).toMatch(/data-testid="customer-phone"[^>]*>9876 5432</);
    expect(html).toContain("detail@render.test");
    expect(html).toContain(`href="/admin/orders/${orderId}"`);
    expect(html).toContain("HK$888.00");
    expect(html).toContain("Shipped");
    expect(html).toContain("192.0.2.77");
    expect(html).toContain("Hong Kong");
    expect(html).toMatch(/<button(?=[^>]*name="intent")(?=[^>]*value="block")[^>]*>Block</);
    const self = await render(AdminCustomer, customerLoader, `/admin/customers/${ADMIN.id}`, { id: ADMIN.id });
    expect(self).toContain("You cannot block your own account.");
    expect(self).not.toContain('value="block"');
    expect(self).not.toContain('name="intent"');
  });
});
