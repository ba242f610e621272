import type { DB } from "#db/connect.server";
import type { OrderLineRow, OrderRow } from "#db/schema";
import { csvStream } from "~/lib/csv.server";
import { hongKongDate, hongKongDateTime } from "~/lib/dates";
import { formatPersonName } from "~/lib/person-name";
import { decimalAmount } from "../customers.server";
import { type AdminOrderSelection, selectAdminOrders } from "./desk.server";
import { shownStatus } from "./status";

/**
 * The orders export (issue 29, docs/decisions/059): the orders the admin list's filters select,
 * one row per order line, as a CSV download for a bookkeeper or a spreadsheet.
 */

/** Orders read per query: their lines come in one more query, so memory stays flat. */
export const ORDER_EXPORT_BATCH_SIZE = 500;

export const ORDER_EXPORT_COLUMNS = [
  "Order Number",
  "Placed At (HKT)",
  "Paid At (HKT)",
  "Shipped At (HKT)",
  "Status",
  "Customer Name",
  "Email",
  "Phone",
  "Country",
  "Country Code",
  "Shipping Zone",
  "Currency",
  "Product",
  "Colour",
  "Option Name",
  "Option Value",
  "SKU",
  "Quantity",
  "Unit Price",
  "Line Total",
  "Subtotal",
  "Discount Code",
  "Discount",
  "Shipping",
  "Total",
  "Refunded",
  "Carrier",
  "Tracking Number",
] as const;

export type OrderExportColumn = (typeof ORDER_EXPORT_COLUMNS)[number];

/** The order's own figures: on its first line's row only, so a column's sum is the orders' sum. */
const ORDER_AMOUNT_COLUMNS = [
  "Subtotal",
  "Discount Code",
  "Discount",
  "Shipping",
  "Total",
  "Refunded",
] as const satisfies readonly OrderExportColumn[];

const ORDER_COLUMNS = [
  "id",
  "order_number",
  "status",
  "receipt_path",
  "receipt_rejected_reason",
  "currency",
  "subtotal_cents",
  "discount_code",
  "discount_cents",
  "shipping_cents",
  "total_cents",
  "refunded_cents",
  "first_name",
  "last_name",
  "email",
  "phone",
  "country",
  "country_code",
  "shipping_zone_name",
  "carrier",
  "tracking_number",
  "created_at",
  "paid_at",
  "shipped_at",
] as const;

/** An order's columns the export writes; `refunded_cents` is what has been given back so far (decision 057). */
type ExportOrder = Pick<OrderRow, (typeof ORDER_COLUMNS)[number]>;

type ExportLine = Pick<
  OrderLineRow,
  | "order_id"
  | "name_en"
  | "color"
  | "option_name"
  | "option_value"
  | "sku"
  | "quantity"
  | "unit_price_cents"
  | "line_total_cents"
>;

export interface OrderExportBatch {
  order: ExportOrder;
  lines: ExportLine[];
}

/** The export's file name: the day it was made, in Hong Kong (UTC may still be the day before). */
export function orderExportFileName(at: Date = new Date()): string {
  return `orders-${hongKongDate(at)}.csv`;
}

/** How many orders an export of `selection` holds (recorded in the audit log before it streams). */
export async function countExportOrders(
  db: DB,
  selection: AdminOrderSelection,
  at: Date = new Date(),
): Promise<number> {
  const { n } = await selectAdminOrders(db.selectFrom("orders"), selection, at)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * The orders `selection` finds, newest first (ties by id), with their lines, in batches of
 * `batchSize` orders. Keyset pagination: each batch starts after the (created_at, id) of the
 * last order of the one before, along the orders_created_id index, so no batch rereads the
 * orders before it and memory stays flat however many orders; a batch's lines are one query on
 * order_lines_order. `at` is the moment the review and overdue filters are read at: one moment
 * for the whole file, the count in the audit log included.
 */
export async function* orderExportBatches(
  db: DB,
  selection: AdminOrderSelection,
  at: Date = new Date(),
  batchSize = ORDER_EXPORT_BATCH_SIZE,
): AsyncGenerator<OrderExportBatch[]> {
  let after: { created_at: string; id: string } | null = null;
  for (;;) {
    let query = selectAdminOrders(db.selectFrom("orders"), selection, at).select(ORDER_COLUMNS);
    if (after !== null) {
      const { created_at, id } = after;
      // A row-value comparison (SQLite and PostgreSQL): one index range.
      query = query.where((eb) => eb(eb.refTuple("orders.created_at", "orders.id"), "<", eb.tuple(created_at, id)));
    }
    const rows = await query
      .orderBy("orders.created_at", "desc")
      .orderBy("orders.id", "desc")
      .limit(batchSize)
      .execute();
    if (rows.length === 0) return;
    const lines = await db
      .selectFrom("order_lines")
      .select([
        "order_id",
        "name_en",
        "color",
        "option_name",
        "option_value",
        "sku",
        "quantity",
        "unit_price_cents",
        "line_total_cents",
      ])
      .where(
        "order_id",
        "in",
        rows.map((row) => row.id),
      )
      .orderBy("order_id")
      .orderBy("id")
      .execute();
    const linesByOrder = new Map<string, ExportLine[]>();
    for (const line of lines) {
      const list = linesByOrder.get(line.order_id);
      if (list) list.push(line);
      else linesByOrder.set(line.order_id, [line]);
    }
    yield rows.map((row) => ({
      order: row,
      lines: linesByOrder.get(row.id) ?? [],
    }));
    const last = rows[rows.length - 1];
    if (rows.length < batchSize || !last) return;
    after = { created_at: last.created_at, id: last.id };
  }
}

/** An order's rows: one per line (one with empty line cells for an order without lines). */
export function orderExportRecords({ order, lines }: OrderExportBatch): Record<OrderExportColumn, string>[] {
  const shared = {
    "Order Number": order.order_number,
    "Placed At (HKT)": hongKongDateTime(order.created_at),
    "Paid At (HKT)": order.paid_at ? hongKongDateTime(order.paid_at) : "",
    "Shipped At (HKT)": order.shipped_at ? hongKongDateTime(order.shipped_at) : "",
    Status: shownStatus(order),
    "Customer Name": formatPersonName(order.first_name, order.last_name),
    Email: order.email,
    Phone: order.phone ?? "",
    Country: order.country,
    "Country Code": order.country_code ?? "",
    "Shipping Zone": order.shipping_zone_name ?? "",
    Currency: order.currency,
    Carrier: order.carrier ?? "",
    "Tracking Number": order.tracking_number ?? "",
  };
  // subtotal_cents is after the discount (schema.ts): the lines' own sum is it plus the discount,
  // so Subtotal − Discount + Shipping = Total on every order.
  const amounts: Record<(typeof ORDER_AMOUNT_COLUMNS)[number], string> = {
    Subtotal: decimalAmount(order.subtotal_cents + order.discount_cents),
    "Discount Code": order.discount_code ?? "",
    Discount: decimalAmount(order.discount_cents),
    Shipping: decimalAmount(order.shipping_cents),
    Total: decimalAmount(order.total_cents),
    Refunded: decimalAmount(order.refunded_cents),
  };
  const blankAmounts = Object.fromEntries(ORDER_AMOUNT_COLUMNS.map((column) => [column, ""])) as typeof amounts;
  const lineCells = (line: ExportLine | undefined) => ({
    Product: line?.name_en ?? "",
    Colour: line?.color ?? "",
    "Option Name": line?.option_name ?? "",
    "Option Value": line?.option_value ?? "",
    SKU: line?.sku ?? "",
    Quantity: line ? String(line.quantity) : "",
    "Unit Price": line ? decimalAmount(line.unit_price_cents) : "",
    "Line Total": line ? decimalAmount(line.line_total_cents) : "",
  });
  const each = lines.length > 0 ? lines : [undefined];
  return each.map((line, index) => ({ ...shared, ...lineCells(line), ...(index === 0 ? amounts : blankAmounts) }));
}

/**
 * The export as a byte stream: UTF-8 with a BOM (so spreadsheets read Chinese text right), CRLF
 * line ends, a header row, formula-safe cells (csvStream), one row per order line, read batch
 * by batch as the client reads.
 */
export function orderCsvStream(
  db: DB,
  selection: AdminOrderSelection,
  at: Date = new Date(),
  batchSize = ORDER_EXPORT_BATCH_SIZE,
): ReadableStream<Uint8Array> {
  async function* records() {
    for await (const batch of orderExportBatches(db, selection, at, batchSize)) {
      for (const entry of batch) yield* orderExportRecords(entry);
    }
  }
  return csvStream(ORDER_EXPORT_COLUMNS, records());
}
