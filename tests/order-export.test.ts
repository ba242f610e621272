import { parse } from "csv-parse/sync";
import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import type { Currency, OrderStatus } from "#db/schema";
import { listAdminOrders } from "~/models/orders/desk.server";
import {
  ORDER_EXPORT_COLUMNS,
  type OrderExportColumn,
  orderExportBatches,
  orderExportFileName,
} from "~/models/orders/export.server";
import type { CurrentUser } from "~/request/auth.server";
import { loader as ordersLoader } from "~/routes/admin/orders";
import { action as exportAction, loader as exportLoader } from "~/routes/admin/orders-export";
import { createSignedIn } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { runRoute } from "./setup/route";

let svc: TestServices;
let db: DB;
let OWNER: CurrentUser;
let STAFF: CurrentUser;
let SHOPPER: CurrentUser;
beforeEach(async () => {
  svc = await freshTestServices();
  ({ db } = svc);
  OWNER = await createSignedIn(db, { email: "export-owner@shop.hk", admin: true });
  STAFF = { ...(await createSignedIn(db, { email: "export-staff@shop.hk", admin: true })), role: "staff" };
  SHOPPER = await createSignedIn(db, { email: "export-shopper@shop.hk" });
});

/** Each order a second after the last unless told, so newest-first is known. */
let seq = 0;

interface LineInput {
  name_en?: string;
  name_zh?: string;
  color?: string;
  color_zh?: string | null;
  option_name?: string | null;
  option_value?: string | null;
  sku?: string | null;
  unit_price_cents?: number;
  quantity?: number;
}

interface OrderInput {
  status?: OrderStatus;
  currency?: Currency;
  email?: string;
  first_name?: string;
  last_name?: string;
  phone?: string | null;
  country?: string;
  country_code?: string | null;
  shipping_zone_name?: string | null;
  shipping_cents?: number;
  discount_code?: string | null;
  discount_cents?: number;
  carrier?: string | null;
  tracking_number?: string | null;
  /** Given back so far (refunds, decision 057). */
  refunded_cents?: number;
  created_at?: string;
  paid_at?: string | null;
  shipped_at?: string | null;
  receipt_path?: string | null;
  lines?: LineInput[];
}

/** An order and its lines straight into the tables, its amounts consistent (schema.ts). */
async function addOrder(input: OrderInput = {}): Promise<{ id: string; number: string }> {
  seq += 1;
  const id = crypto.randomUUID();
  const number = `ORD-20260101-${String(seq).padStart(4, "0")}`;
  const at = input.created_at ?? new Date(Date.UTC(2026, 0, 1) + seq * 1000).toISOString();
  const lines = (input.lines ?? [{}]).map((line) => ({
    name_en: "Glock 17 Gen5",
    name_zh: "格洛克 17",
    color: "Black",
    unit_price_cents: 100_00,
    quantity: 1,
    ...line,
  }));
  const linesSum = lines.reduce((sum, line) => sum + line.unit_price_cents * line.quantity, 0);
  const discount = input.discount_cents ?? 0;
  const shipping = input.shipping_cents ?? 0;
  await db
    .insertInto("orders")
    .values({
      id,
      order_number: number,
      user_id: null,
      status: input.status ?? "paid",
      currency: input.currency ?? "HKD",
      locale: "en",
      subtotal_cents: linesSum - discount,
      shipping_cents: shipping,
      total_cents: linesSum - discount + shipping,
      discount_code: input.discount_code ?? null,
      discount_cents: discount,
      first_name: input.first_name ?? "Tai Man",
      last_name: input.last_name ?? "Chan",
      email: input.email ?? `buyer-${seq}@export.test`,
      phone: input.phone ?? null,
      address: "1 Nathan Road",
      city: "Kowloon",
      country: input.country ?? "Hong Kong",
      country_code: input.country_code === undefined ? "HK" : input.country_code,
      shipping_zone_name: input.shipping_zone_name === undefined ? "Hong Kong" : input.shipping_zone_name,
      carrier: input.carrier ?? null,
      tracking_number: input.tracking_number ?? null,
      refunded_cents: input.refunded_cents ?? 0,
      receipt_path: input.receipt_path ?? null,
      created_at: at,
      updated_at: at,
      paid_at: input.paid_at ?? null,
      shipped_at: input.shipped_at ?? null,
    })
    .execute();
  for (const line of lines) {
    await db
      .insertInto("order_lines")
      .values({
        order_id: id,
        product_id: null,
        image_path: null,
        line_total_cents: line.unit_price_cents * line.quantity,
        ...line,
      })
      .execute();
  }
  return { id, number };
}

async function run<T>(fn: (args: never) => Promise<T>, request: Request, user: CurrentUser | null) {
  return runRoute(svc, fn, request, user);
}

function post(fields: Record<string, string>) {
  return new Request("http://localhost/admin/orders/export", { method: "POST", body: new URLSearchParams(fields) });
}

type Row = Record<OrderExportColumn, string>;

/** The export as the owner downloads it, read by csv-parse (an independent parser). */
async function exportCsv(fields: Record<string, string> = {}) {
  const { result, thrown } = await run(exportAction, post(fields), OWNER);
  expect(thrown).toBeUndefined();
  const response = result as Response;
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  const records = parse(text, { bom: true, columns: true, record_delimiter: "\r\n" }) as Row[];
  const header = (parse(text, { bom: true, to_line: 1 }) as string[][])[0];
  return { response, bytes, text, rows: records, header };
}

describe("order export: the rows", () => {
  it("writes one row per line with the order's people, place, variant and amounts, checked against the database", async () => {
    const { number } = await addOrder({
      status: "shipped",
      currency: "USD",
      first_name: "Emma",
      last_name: "Watson",
      email: "emma@export.test",
      phone: "+852 6123 4567",
      country: "United States",
      country_code: "US",
      shipping_zone_name: "Rest of world",
      shipping_cents: 25_50,
      discount_code: "SPRING10",
      discount_cents: 12_34,
      carrier: "SF Express",
      tracking_number: "HK123456789",
      refunded_cents: 500_00,
      created_at: "2026-03-01T10:15:00.000Z",
      paid_at: "2026-03-01T12:00:00.000Z",
      shipped_at: "2026-03-02T17:30:00.000Z",
      lines: [
        {
          name_en: "M4A1 Carbine",
          name_zh: "M4A1 卡賓槍",
          color: "Tan",
          color_zh: "沙色",
          option_name: "Size",
          option_value: "L",
          sku: "M4-TAN-L",
          unit_price_cents: 1234_50,
          quantity: 2,
        },
        { name_en: "BB 0.25 g", color: "White", unit_price_cents: 9_90, quantity: 3 },
      ],
    });
    await addOrder({ lines: [{}] });

    const { rows, header } = await exportCsv();
    expect(header).toEqual([...ORDER_EXPORT_COLUMNS]);
    expect(rows).toHaveLength(3);
    const mine = rows.filter((row) => row["Order Number"] === number);
    expect(mine).toHaveLength(2);
    expect(mine[0]).toEqual({
      "Order Number": number,
      "Placed At (HKT)": "2026-03-01 18:15",
      "Paid At (HKT)": "2026-03-01 20:00",
      "Shipped At (HKT)": "2026-03-03 01:30",
      Status: "shipped",
      "Customer Name": "Emma Watson",
      Email: "emma@export.test",
      Phone: "+852 6123 4567",
      Country: "United States",
      "Country Code": "US",
      "Shipping Zone": "Rest of world",
      Currency: "USD",
      Product: "M4A1 Carbine",
      Colour: "Tan",
      "Option Name": "Size",
      "Option Value": "L",
      SKU: "M4-TAN-L",
      Quantity: "2",
      "Unit Price": "1234.50",
      "Line Total": "2469.00",
      // The lines' own sum, before the discount: 2469.00 + 29.70.
      Subtotal: "2498.70",
      "Discount Code": "SPRING10",
      Discount: "12.34",
      Shipping: "25.50",
      Total: "2511.86",
      // Given back so far (decision 057), on the order's first row only.
      Refunded: "500.00",
      Carrier: "SF Express",
      "Tracking Number": "HK123456789",
    });
    // The second line repeats who and where, not the order's amounts (a column's sum stays true).
    expect(mine[1]).toMatchObject({
      "Order Number": number,
      Currency: "USD",
      Email: "emma@export.test",
      Product: "BB 0.25 g",
      Colour: "White",
      "Option Name": "",
      SKU: "",
      Quantity: "3",
      "Unit Price": "9.90",
      "Line Total": "29.70",
      Subtotal: "",
      Discount: "",
      Total: "",
      Refunded: "",
    });

    // Every row against the tables: each line once, its order's total once.
    const orders = await db.selectFrom("orders").selectAll().execute();
    const lines = await db.selectFrom("order_lines").selectAll().execute();
    expect(rows).toHaveLength(lines.length);
    for (const order of orders) {
      const own = rows.filter((row) => row["Order Number"] === order.order_number);
      expect(own.map((row) => row.Product).sort()).toEqual(
        lines
          .filter((line) => line.order_id === order.id)
          .map((line) => line.name_en)
          .sort(),
      );
      const cents = (text: string) => Math.round(Number(text) * 100);
      expect(own.reduce((sum, row) => sum + cents(row.Total || "0"), 0)).toBe(order.total_cents);
      expect(cents(own[0]?.Subtotal ?? "") - cents(own[0]?.Discount ?? "") + cents(own[0]?.Shipping ?? "")).toBe(
        order.total_cents,
      );
    }
  });

  it("is UTF-8 with a BOM, CRLF line ends, Chinese text intact, dated in Hong Kong", async () => {
    await addOrder({ first_name: "大文", last_name: "陳", country: "香港" });
    const { bytes, text, rows, response } = await exportCsv();
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    expect(rows[0]?.["Customer Name"]).toBe("陳大文");
    expect(rows[0]?.Country).toBe("香港");
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(orderExportFileName(new Date("2026-11-23T15:59:59.000Z"))).toBe("orders-2026-11-23.csv");
    expect(orderExportFileName(new Date("2026-11-23T16:00:00.000Z"))).toBe("orders-2026-11-24.csv");
  });

  it("puts a quote before cells a spreadsheet would run as a formula, but keeps a phone number", async () => {
    await addOrder({
      first_name: '=HYPERLINK("http://evil")',
      last_name: "",
      email: "@evil@export.test",
      phone: "+852 9876 5432",
      carrier: "=cmd",
      tracking_number: "-2+3",
      lines: [{ name_en: "+SUM(A1:A9)", color: "\tTab", sku: "=1+1", option_name: "Size", option_value: "-L" }],
    });
    const { rows } = await exportCsv();
    expect(rows[0]).toMatchObject({
      "Customer Name": '\'=HYPERLINK("http://evil")',
      Email: "'@evil@export.test",
      Phone: "+852 9876 5432",
      Carrier: "'=cmd",
      "Tracking Number": "'-2+3",
      Product: "'+SUM(A1:A9)",
      Colour: "'\tTab",
      SKU: "'=1+1",
      "Option Value": "'-L",
    });
  });

  it("gives the times of day in Hong Kong, across midnight", async () => {
    await addOrder({ created_at: "2026-11-23T16:30:00.000Z", paid_at: "2026-11-23T15:59:00.000Z" });
    const { rows } = await exportCsv();
    expect(rows[0]?.["Placed At (HKT)"]).toBe("2026-11-24 00:30");
    expect(rows[0]?.["Paid At (HKT)"]).toBe("2026-11-23 23:59");
    expect(rows[0]?.["Shipped At (HKT)"]).toBe("");
  });

  it("reads every order once, newest first, in keyset batches, also across equal times", async () => {
    const tie = "2026-02-02T02:02:02.000Z";
    const numbers: string[] = [];
    for (let i = 0; i < 3; i++) numbers.push((await addOrder({ created_at: tie })).number);
    for (let i = 0; i < 6; i++) numbers.push((await addOrder({ lines: [{}, { name_en: "Mag" }] })).number);
    const batched: string[] = [];
    const sizes: number[] = [];
    for await (const batch of orderExportBatches(db, { status: null, q: "" }, new Date(), 2)) {
      sizes.push(batch.length);
      batched.push(...batch.map((entry) => entry.order.order_number));
    }
    expect(sizes.every((size) => size <= 2)).toBe(true);
    expect(new Set(batched).size).toBe(9);
    const listed = await listAdminOrders(db, { status: null, q: "", page: 1 });
    expect(batched).toEqual(listed.orders.map((order) => order.order_number));
    const { rows } = await exportCsv();
    expect(rows).toHaveLength(3 + 6 * 2);
  });
});

describe("order export: the list's filters", () => {
  it("exports what the list shows for a status, a search and Hong Kong days, and audits the filters", async () => {
    const before = await addOrder({ status: "paid", email: "day@filter.test", created_at: "2026-11-22T15:59:00.000Z" });
    const first = await addOrder({ status: "paid", email: "day@filter.test", created_at: "2026-11-22T16:00:00.000Z" });
    const last = await addOrder({ status: "paid", email: "day@filter.test", created_at: "2026-11-24T15:59:59.000Z" });
    const after = await addOrder({ status: "paid", email: "day@filter.test", created_at: "2026-11-24T16:00:00.000Z" });
    const shipped = await addOrder({
      status: "shipped",
      email: "day@filter.test",
      created_at: "2026-11-23T08:00:00.000Z",
    });
    const other = await addOrder({
      status: "paid",
      email: "someone@else.test",
      created_at: "2026-11-23T08:00:00.000Z",
    });

    const numbers = async (fields: Record<string, string>) =>
      [...new Set((await exportCsv(fields)).rows.map((row) => row["Order Number"]))].sort();
    const listed = async (fields: Record<string, string>) => {
      const url = `http://localhost/admin/orders?${new URLSearchParams(fields)}`;
      const { result } = await run(ordersLoader, new Request(url), OWNER);
      return (result as { orders: { order_number: string }[] }).orders.map((order) => order.order_number).sort();
    };

    // Hong Kong's 23rd and 24th: from 22nd 16:00 UTC to 24th 15:59:59 UTC.
    const days = { from: "2026-11-23", to: "2026-11-24" };
    expect(await numbers(days)).toEqual([first, last, shipped, other].map((o) => o.number).sort());
    expect(await listed(days)).toEqual(await numbers(days));
    const paidDays = { ...days, status: "paid", q: "day@" };
    expect(await numbers(paidDays)).toEqual([first.number, last.number].sort());
    expect(await listed(paidDays)).toEqual(await numbers(paidDays));
    expect(await numbers({ status: "shipped" })).toEqual([shipped.number]);
    expect(await numbers({ q: "someone" })).toEqual([other.number]);
    expect(await numbers({ from: "2026-11-25" })).toEqual([after.number]);
    expect(await numbers({ to: "2026-11-22" })).toEqual([before.number]);
    // What is not a filter is no filter (as on the list).
    expect(await numbers({ status: "nonsense", from: "2026-02-31", to: "yesterday" })).toHaveLength(6);

    await exportCsv(paidDays);
    const audit = await db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "order.exported")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(audit.actor_user_id).toBe(OWNER.id);
    expect(audit.entity_type).toBe("order");
    expect(JSON.parse(audit.details ?? "").after).toEqual({
      orders: 2,
      status: "paid",
      search: "day@",
      from: "2026-11-23",
      to: "2026-11-24",
    });
  });

  it("exports the receipt review queue as the list shows it", async () => {
    const waiting = await addOrder({
      status: "pending_payment",
      receipt_path: "receipts/x.webp",
      created_at: "2026-01-01T00:00:00.000Z",
    });
    await db.updateTable("orders").set({ receipt_uploaded_at: "2026-01-01T00:00:00.000Z" }).execute();
    await addOrder({ status: "pending_payment" });
    const { rows } = await exportCsv({ status: "review" });
    expect(rows.map((row) => row["Order Number"])).toEqual([waiting.number]);
    expect(rows[0]?.Status).toBe("receipt_checking");
  });
});

describe("order export: who may", () => {
  it("refuses staff and customers with 403, audits nothing; a GET goes back to the list", async () => {
    await addOrder();
    for (const user of [STAFF, SHOPPER]) {
      const { thrown, result } = await run(exportAction, post({}), user);
      expect(result).toBeUndefined();
      expect((thrown as Response).status).toBe(403);
      expect(await (thrown as Response).text()).not.toContain("ORD-");
    }
    const audited = await db.selectFrom("audit_log").selectAll().where("action", "=", "order.exported").execute();
    expect(audited).toHaveLength(0);

    const { thrown, result } = await run(exportLoader, new Request("http://localhost/admin/orders/export"), OWNER);
    expect(thrown).toBeUndefined();
    expect((result as Response).headers.get("Location")).toBe("/admin/orders");
  });

  it("offers the export on the list to the owner only, with the list's filters", async () => {
    const url = "http://localhost/admin/orders?status=paid&from=2026-11-01&to=bad";
    const owner = (await run(ordersLoader, new Request(url), OWNER)).result as Record<string, unknown>;
    expect(owner).toMatchObject({ canExport: true, status: "paid", from: "2026-11-01", to: null });
    const staff = (await run(ordersLoader, new Request(url), STAFF)).result as Record<string, unknown>;
    expect(staff.canExport).toBe(false);
  });
});
