import { type ExpressionBuilder, sql } from "kysely";
import { type DB, now } from "#db/connect.server";
import { containsText } from "#db/dialect";
import { CURRENCIES, type Currency, type Database, type OrderStatus, type UserRow, type UserStatus } from "#db/schema";
import { csvStream, neutralizeCell } from "~/lib/csv.server";
import { hongKongDate, hongKongDateTime } from "~/lib/dates";
import type { CustomerSortKey, ListSort } from "~/lib/list-sort";
import { formatPersonName } from "~/lib/person-name";
import { UserError } from "~/lib/problem";
import { HTML_LANG, type Language } from "~/locales";
import { recordAudit } from "./audit.server";
import { type ShownOrderStatus, shownStatus } from "./orders/status";

/**
 * The admin Customers screen. Customers are the accounts (the users table, admins included).
 * A page of 25 is read with a fixed number of queries: the page, then one GROUP BY each for
 * the order counts and the spending of that page's accounts. Spending counts the orders a
 * customer has paid for (paid, processing, shipped, delivered), per currency: money is never
 * summed across currencies. Location (country, city, last IP) was recorded by the server at
 * sign-in, never sent by the browser. An account has no name or phone of its own: they are the
 * ones given with its latest order.
 */

export const CUSTOMER_PAGE_SIZE = 25;
export const EXPORT_BATCH_SIZE = 500;
export const IP_ACTIVITY_DAYS = 30;
export const IP_ACTIVITY_LIMIT = 20;
export const CUSTOMER_SIGN_INS_SHOWN = 20;
export const CUSTOMER_ORDERS_SHOWN = 100;

/** The order states that mean the customer has paid. */
export const SPENDING_STATUSES = ["paid", "processing", "shipped", "delivered"] as const satisfies OrderStatus[];

export interface MoneyTotal {
  currency: Currency;
  cents: number;
}

export interface CustomerRow extends Omit<UserPart, "last_login_at"> {
  /** The last sign-in, or the sign-up when they never signed in since. */
  last_login_at: string;
  created_at: string;
  order_count: number;
  /** Spending per currency, in the order of CURRENCIES; empty when none. */
  totals: MoneyTotal[];
  /** The name given with the latest order ("陳大文", "Tai Man Chan"); "" without orders. */
  name: string;
  /** The phone given with the latest order; null without orders or when none was given. */
  phone: string | null;
}

export interface CustomerSummary {
  total: number;
  active: number;
  /** Active customers as a whole percentage of all; 0 when there are none. */
  activePercent: number;
  countries: number;
  /** The country code with the most customers, or null. */
  topCountry: string | null;
}

export interface CustomerListing {
  customers: CustomerRow[];
  total: number;
  page: number;
  pages: number;
}

export interface IpActivity {
  ip: string;
  accounts: number;
  sign_ins: number;
  last_seen: string;
}

/* ------------------------------------------------------------------------------------------
 * Names of countries, in the reader's language
 * ------------------------------------------------------------------------------------------ */

const displayNames = new Map<string, Intl.DisplayNames>();

function namesFor(language: Language, style: "short" | "long"): Intl.DisplayNames {
  const locale = HTML_LANG[language];
  const key = `${locale}:${style}`;
  let names = displayNames.get(key);
  if (!names) {
    names = new Intl.DisplayNames([locale], { type: "region", style, fallback: "code" });
    displayNames.set(key, names);
  }
  return names;
}

/**
 * A country code as its common short name in `language` ("HK" → "Hong Kong" / "香港",
 * "GB" → "UK" / "英國"); the long form ("Hong Kong SAR China") when `style` says so.
 */
export function countryName(code: string | null, language: Language, style: "short" | "long" = "short"): string | null {
  if (!code) return null;
  try {
    return namesFor(language, style).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/* ------------------------------------------------------------------------------------------
 * Search: e-mail (substring), last IP address, country (code or name), city
 * ------------------------------------------------------------------------------------------ */

/** The search term as typed, trimmed and bounded. */
export function normalizeCustomerSearch(term: string | null | undefined): string {
  return (term ?? "").trim().replace(/\s+/g, " ").slice(0, 100);
}

type UsersEb = ExpressionBuilder<Database, "users">;

/**
 * The accounts `term` finds: the e-mail contains it (case-insensitive), or it is the last IP
 * address, the city (case-insensitive) or the country, given as its code or as (part of) its
 * name in English or Chinese. Null when there is no term.
 */
async function searchCondition(db: DB, rawTerm: string | null | undefined) {
  const term = normalizeCustomerSearch(rawTerm);
  if (!term) return null;
  const lowered = term.toLowerCase();
  const known = await db.selectFrom("users").select("country").distinct().where("country", "is not", null).execute();
  const countries = known
    .map((row) => row.country as string)
    .filter(
      (code) =>
        code.toLowerCase() === lowered ||
        ([...lowered].length >= 2 &&
          (["en", "zh"] as const).some((language) =>
            (["short", "long"] as const).some((style) =>
              countryName(code, language, style)?.toLowerCase().includes(lowered),
            ),
          )),
    );
  return (eb: UsersEb) =>
    eb.or([
      containsText(db, "users.email", lowered),
      eb("users.last_login_ip", "=", term),
      eb(eb.fn("lower", ["users.city"]), "=", lowered),
      ...(countries.length > 0 ? [eb("users.country", "in", countries)] : []),
    ]);
}

/* ------------------------------------------------------------------------------------------
 * Reading
 * ------------------------------------------------------------------------------------------ */

const USER_COLUMNS = [
  "users.id",
  "users.email",
  "users.status",
  "users.last_login_ip",
  "users.country",
  "users.city",
  "users.last_login_at",
  "users.created_at",
] as const;

/** The account's own columns a customer row shows (USER_COLUMNS). */
type UserPart = Pick<
  UserRow,
  "id" | "email" | "status" | "last_login_ip" | "country" | "city" | "last_login_at" | "created_at"
>;

/**
 * Order counts, spending per currency, and the name and phone of the latest order of these
 * accounts: three queries (two GROUP BY, one ranking), whatever their number.
 */
async function withOrderFigures(db: DB, users: UserPart[]): Promise<CustomerRow[]> {
  if (users.length === 0) return [];
  const ids = users.map((user) => user.id);
  const [counts, sums, contacts] = await Promise.all([
    db
      .selectFrom("orders")
      .select(["user_id", (eb) => eb.fn.countAll<number>().as("n")])
      .where("user_id", "in", ids)
      .groupBy("user_id")
      .execute(),
    db
      .selectFrom("orders")
      // Net of refunds (docs/decisions/057).
      .select([
        "user_id",
        "currency",
        (eb) => eb.fn.sum<number>("total_cents").as("cents"),
        (eb) => eb.fn.sum<number>("refunded_cents").as("refunded"),
      ])
      .where("user_id", "in", ids)
      .where("status", "in", SPENDING_STATUSES)
      .groupBy(["user_id", "currency"])
      .execute(),
    // The latest order of each account (ties by id, as the lists sort): a window function,
    // the same in SQLite and PostgreSQL.
    db
      .selectFrom(
        db
          .selectFrom("orders")
          .select([
            "user_id",
            "first_name",
            "last_name",
            "phone",
            sql<number>`row_number() over (partition by user_id order by created_at desc, id desc)`.as("recency"),
          ])
          .where("user_id", "in", ids)
          .as("ranked"),
      )
      .select(["user_id", "first_name", "last_name", "phone"])
      .where("recency", "=", 1)
      .execute(),
  ]);
  const countOf = new Map(counts.map((row) => [row.user_id, Number(row.n)]));
  const totalsOf = new Map<string, MoneyTotal[]>();
  for (const row of sums) {
    if (!row.user_id) continue;
    const list = totalsOf.get(row.user_id) ?? [];
    list.push({ currency: row.currency, cents: Number(row.cents) - Number(row.refunded ?? 0) });
    totalsOf.set(row.user_id, list);
  }
  const contactOf = new Map(contacts.map((row) => [row.user_id, row]));
  const rank = (currency: Currency) => CURRENCIES.indexOf(currency);
  return users.map((user) => {
    const contact = contactOf.get(user.id);
    return {
      ...user,
      last_login_at: user.last_login_at ?? user.created_at,
      order_count: countOf.get(user.id) ?? 0,
      totals: (totalsOf.get(user.id) ?? []).sort((a, b) => rank(a.currency) - rank(b.currency)),
      name: contact ? formatPersonName(contact.first_name, contact.last_name) : "",
      phone: contact?.phone?.trim() || null,
    };
  });
}

/** The cards: all accounts, active ones, distinct countries and the country with the most. */
export async function customerSummary(db: DB): Promise<CustomerSummary> {
  const [counts, top] = await Promise.all([
    db
      .selectFrom("users")
      .select((eb) => [
        eb.fn.countAll<number>().as("total"),
        eb.fn.sum<number>(sql`case when users.status = 'active' then 1 else 0 end`).as("active"),
        eb.fn.count<number>("users.country").distinct().as("countries"),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("users")
      .select(["country", (eb) => eb.fn.countAll<number>().as("n")])
      .where("country", "is not", null)
      .groupBy("country")
      .orderBy("n", "desc")
      .orderBy("country")
      .limit(1)
      .executeTakeFirst(),
  ]);
  const total = Number(counts.total);
  const active = Number(counts.active ?? 0);
  return {
    total,
    active,
    activePercent: total === 0 ? 0 : Math.round((active / total) * 100),
    countries: Number(counts.countries),
    topCountry: top?.country ?? null,
  };
}

/** One page of accounts, newest first (ties by id), with their order counts and spending. */
export async function listCustomers(
  db: DB,
  query: { search?: string | null; page?: number; pageSize?: number; sort?: ListSort<CustomerSortKey> },
): Promise<CustomerListing> {
  const pageSize = query.pageSize ?? CUSTOMER_PAGE_SIZE;
  const condition = await searchCondition(db, query.search);
  let base = db.selectFrom("users");
  if (condition) base = base.where(condition);
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow();
  const pages = Math.max(1, Math.ceil(Number(total) / pageSize));
  const page = Math.min(Math.max(1, Math.trunc(query.page ?? 1) || 1), pages);
  const users = await base
    .select(USER_COLUMNS)
    .$call((rows) => {
      // A column's order (list-sort.ts; users_email, users_status_email), else newest first.
      const { key, dir } = query.sort ?? { key: null, dir: "desc" };
      if (key === "email") return rows.orderBy("users.email", dir);
      if (key === "status") return rows.orderBy("users.status", dir).orderBy("users.email", dir);
      return rows.orderBy("users.created_at", "desc").orderBy("users.id", "desc");
    })
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { customers: await withOrderFigures(db, users), total: Number(total), page, pages };
}

/**
 * Sign-ins of the last 30 days grouped by address: how many accounts and sign-ins each
 * address had and when it was last seen; the 20 seen most recently. An address shared by
 * several accounts is worth a look (one person with many accounts, or a shared network).
 */
export async function listIpActivity(db: DB, at: Date = new Date()): Promise<IpActivity[]> {
  const since = now(new Date(at.getTime() - IP_ACTIVITY_DAYS * 24 * 60 * 60 * 1000));
  const rows = await db
    .selectFrom("sign_in_events")
    .select((eb) => [
      "ip",
      eb.fn.count<number>("user_id").distinct().as("accounts"),
      eb.fn.countAll<number>().as("sign_ins"),
      eb.fn.max("created_at").as("last_seen"),
    ])
    .where("success", "=", 1)
    .where("ip", "is not", null)
    .where("created_at", ">=", since)
    .groupBy("ip")
    .orderBy("last_seen", "desc")
    .orderBy("ip")
    .limit(IP_ACTIVITY_LIMIT)
    .execute();
  return rows.map((row) => ({
    ip: row.ip as string,
    accounts: Number(row.accounts),
    sign_ins: Number(row.sign_ins),
    last_seen: String(row.last_seen),
  }));
}

export interface CustomerOrder {
  id: string;
  order_number: string;
  /** As every page names it (shownStatus). */
  status: ShownOrderStatus;
  currency: Currency;
  total_cents: number;
  created_at: string;
}

export interface CustomerSignIn {
  id: number;
  created_at: string;
  ip: string | null;
  country: string | null;
  success: boolean;
}

export interface CustomerDetail {
  customer: CustomerRow;
  orders: CustomerOrder[];
  signIns: CustomerSignIn[];
}

/** One account with its orders (newest first) and its latest 20 sign-ins; null when unknown. */
export async function findCustomer(db: DB, id: string): Promise<CustomerDetail | null> {
  const user = await db.selectFrom("users").select(USER_COLUMNS).where("users.id", "=", id).executeTakeFirst();
  if (!user) return null;
  const [[customer], orders, signIns] = await Promise.all([
    withOrderFigures(db, [user]),
    db
      .selectFrom("orders")
      .select([
        "id",
        "order_number",
        "status",
        "receipt_path",
        "receipt_rejected_reason",
        "currency",
        "total_cents",
        "created_at",
      ])
      .where("user_id", "=", id)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(CUSTOMER_ORDERS_SHOWN)
      .execute(),
    db
      .selectFrom("sign_in_events")
      .select(["id", "created_at", "ip", "country", "success"])
      .where("user_id", "=", id)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(CUSTOMER_SIGN_INS_SHOWN)
      .execute(),
  ]);
  if (!customer) return null;
  return {
    customer,
    // The receipt's storage key stays on the server: the page gets the status it makes.
    orders: orders.map(({ receipt_path, receipt_rejected_reason, ...order }) => ({
      ...order,
      status: shownStatus({ status: order.status, receipt_path, receipt_rejected_reason }),
    })),
    signIns: signIns.map((row) => ({ ...row, success: row.success === 1 })),
  };
}

/* ------------------------------------------------------------------------------------------
 * Blocking
 * ------------------------------------------------------------------------------------------ */

/**
 * Blocks or unblocks an account. Blocking sets the status to 'blocked' and ends every session
 * of the account in the same transaction, so they are signed out at once (and sign-in refuses
 * a blocked account). Unblocking makes a blocked account active again. An admin cannot block
 * themselves (400) and an account that does not exist is a 404, both `UserError`s. A change is
 * recorded in the audit log with the status before and after.
 */
export async function setCustomerBlocked(
  db: DB,
  id: string,
  blocked: boolean,
  options: { actorUserId: string },
): Promise<{ ok: true; changed: boolean }> {
  if (blocked && id === options.actorUserId) throw new UserError("adminCustomers.errors.blockSelf");
  return db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom("users").select(["id", "status"]).where("id", "=", id).executeTakeFirst();
    if (!before) throw new UserError("adminCustomers.errors.notFound", { status: 404 });
    const next: UserStatus = blocked ? "blocked" : "active";
    if (blocked ? before.status === "blocked" : before.status !== "blocked")
      return { ok: true as const, changed: false };
    await trx.updateTable("users").set({ status: next, updated_at: now() }).where("id", "=", id).execute();
    if (blocked) await trx.deleteFrom("sessions").where("user_id", "=", id).execute();
    await recordAudit(trx, {
      actorUserId: options.actorUserId,
      action: blocked ? "customer.blocked" : "customer.unblocked",
      entityType: "user",
      entityId: id,
      before: { status: before.status },
      after: { status: next },
    });
    return { ok: true as const, changed: true };
  });
}

/* ------------------------------------------------------------------------------------------
 * CSV export
 * ------------------------------------------------------------------------------------------ */

/**
 * The export's columns (docs/decisions/021-customer-export-shape.md): one row per account, in
 * the customers screen's order, with spending as plain numbers in one column per currency and
 * times in Hong Kong time, named so in the header.
 */
export const EXPORT_COLUMNS = [
  "Email",
  "Name",
  "Phone",
  "IP Address",
  "Country",
  "City",
  "Last Login (HKT)",
  "Order Count",
  ...CURRENCIES.map((currency) => `Total Spent ${currency}` as const),
  "Status",
  "Created At (HKT)",
] as const;

type ExportColumn = (typeof EXPORT_COLUMNS)[number];

/** Integer cents as a plain decimal a spreadsheet reads as a number: 123450 → "1234.50". */
export function decimalAmount(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** The export's file name: the day it was made, in Hong Kong (UTC may still be the day before). */
export function exportFileName(at: Date = new Date()): string {
  return `customers-${hongKongDate(at)}.csv`;
}

export { neutralizeCell };

/** How many accounts an export of `search` holds (recorded in the audit log before it streams). */
export async function countCustomers(db: DB, search?: string | null): Promise<number> {
  const condition = await searchCondition(db, search);
  let base = db.selectFrom("users");
  if (condition) base = base.where(condition);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * The accounts `search` finds, in the customers screen's order (newest first, ties by id), in
 * batches of `batchSize`. Keyset pagination: each batch starts after the (created_at, id) of
 * the last row of the one before, along the users_list index, so memory stays flat and no
 * batch rereads the rows before it, however many accounts.
 */
export async function* customerBatches(
  db: DB,
  search?: string | null,
  batchSize = EXPORT_BATCH_SIZE,
): AsyncGenerator<CustomerRow[]> {
  const condition = await searchCondition(db, search);
  let after: { created_at: string; id: string } | null = null;
  for (;;) {
    let query = db.selectFrom("users").select(USER_COLUMNS);
    if (condition) query = query.where(condition);
    if (after !== null) {
      const { created_at, id } = after;
      // A row-value comparison (SQLite and PostgreSQL): one index range, where the equivalent
      // OR of two conditions is not.
      query = query.where((eb) => eb(eb.refTuple("users.created_at", "users.id"), "<", eb.tuple(created_at, id)));
    }
    const users = await query
      .orderBy("users.created_at", "desc")
      .orderBy("users.id", "desc")
      .limit(batchSize)
      .execute();
    if (users.length === 0) return;
    yield await withOrderFigures(db, users);
    const last = users[users.length - 1];
    if (users.length < batchSize || !last) return;
    after = { created_at: last.created_at, id: last.id };
  }
}

function csvRecord(customer: CustomerRow): Record<ExportColumn, string> {
  const spent = new Map(customer.totals.map((total) => [total.currency, total.cents]));
  const cells = {
    Email: customer.email,
    Name: customer.name,
    Phone: customer.phone ?? "",
    "IP Address": customer.last_login_ip ?? "",
    Country: customer.country ?? "",
    City: customer.city ?? "",
    "Last Login (HKT)": hongKongDateTime(customer.last_login_at),
    "Order Count": String(customer.order_count),
    ...Object.fromEntries(
      CURRENCIES.map((currency) => [`Total Spent ${currency}`, decimalAmount(spent.get(currency) ?? 0)]),
    ),
    Status: customer.status,
    "Created At (HKT)": hongKongDateTime(customer.created_at),
  } as Record<ExportColumn, string>;
  return cells;
}

/**
 * The export as a byte stream: UTF-8 with a BOM (so spreadsheets read Chinese text right),
 * CRLF line ends, a header row, one row per account, read batch by batch as the client reads.
 */
export function customerCsvStream(
  db: DB,
  search?: string | null,
  batchSize = EXPORT_BATCH_SIZE,
): ReadableStream<Uint8Array> {
  async function* records() {
    for await (const batch of customerBatches(db, search, batchSize)) {
      for (const customer of batch) yield csvRecord(customer);
    }
  }
  return csvStream(EXPORT_COLUMNS, records());
}
