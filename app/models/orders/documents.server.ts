import type { DB } from "#db/connect.server";
import type { Currency, OrderLineRow, OrderRow } from "#db/schema";
import { code128Svg } from "~/lib/barcode.server";
import { DEFAULT_COLOR } from "~/lib/colors";
import { countryName } from "~/lib/countries";
import { colorName, localized, optionValueName } from "~/lib/localize";
import { formatPersonName } from "~/lib/person-name";
import resources, { type Language } from "~/locales";
import { type ShopDetails, shopName } from "../settings/shop.server";
import { orderLanguage } from "./emails.server";

/*
 * Packing slips and invoices (docs/decisions/060): what the printed documents of an order say,
 * read from the order as it was placed (its lines are snapshots) and in the order's language,
 * whoever prints them. A packing slip carries no price at all, not even in the page's data.
 */

export const DOCUMENT_KINDS = ["packing-slip", "invoice"] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** The most orders one print run may name: 100 slips are a day's parcels and a ~100-page PDF. */
export const MAX_PRINT_SELECTION = 100;

export function isDocumentKind(value: unknown): value is DocumentKind {
  return typeof value === "string" && (DOCUMENT_KINDS as readonly string[]).includes(value);
}

/** Who the documents come from, in the order's language (Settings → Shop details). */
export interface DocumentShop {
  name: string;
  address: string;
  email: string;
}

export interface DocumentAddress {
  name: string;
  phone: string | null;
  email: string;
  /** The street lines, then "city postal code", then the country, as printed on a label. */
  lines: string[];
}

/** A line as the packer reads it: no price. */
export interface SlipLine {
  id: number;
  name: string;
  /** The colour in the order's language; null for a product's default colour. */
  colour: string | null;
  /** The second option (size…): its name and value in the order's language. */
  option: { name: string; value: string } | null;
  sku: string | null;
  quantity: number;
}

export interface InvoiceLine extends SlipLine {
  unitPriceCents: number;
  lineTotalCents: number;
}

interface DocumentBase {
  orderId: string;
  orderNumber: string;
  /** The order's language: the document's words, dates and names. */
  language: Language;
  placedAt: string;
  shop: DocumentShop;
  shipTo: DocumentAddress;
}

export interface PackingSlip extends DocumentBase {
  kind: "packing-slip";
  /** The order number as a Code 128 barcode, inline SVG markup made on the server. */
  barcodeSvg: string;
  lines: SlipLine[];
  /** The customer's note from checkout. */
  note: string | null;
}

export interface InvoiceRefund {
  id: number;
  amountCents: number;
  reason: string;
  at: string;
}

export interface Invoice extends DocumentBase {
  kind: "invoice";
  currency: Currency;
  lines: InvoiceLine[];
  /** The lines' own sum, before the discount. */
  linesCents: number;
  discount: { code: string; cents: number } | null;
  shippingCents: number;
  totalCents: number;
  /** Bank transfer (FPS for HKD) is the shop's only way to pay; null while unpaid. */
  paidAt: string | null;
  cancelledAt: string | null;
  refunds: InvoiceRefund[];
  refundedCents: number;
  /** What the shop keeps: the total less the refunds (0 while unpaid). */
  keptCents: number;
}

export type OrderDocument = PackingSlip | Invoice;

export interface OrderForDocuments {
  order: OrderRow;
  lines: OrderLineRow[];
  refunds: InvoiceRefund[];
}

const UUID = /^[0-9a-f-]{36}$/;

/**
 * Orders with their lines and refunds, by id, in one query each (a print run of up to
 * MAX_PRINT_SELECTION orders). Ids that are not an order are simply absent from the map.
 * With `userId`, only that customer's orders count (the shopper's own invoice).
 */
export async function loadOrdersForDocuments(
  db: DB,
  ids: readonly string[],
  userId: string | null = null,
): Promise<Map<string, OrderForDocuments>> {
  const wanted = [...new Set(ids.filter((id) => UUID.test(id)))];
  const found = new Map<string, OrderForDocuments>();
  if (wanted.length === 0) return found;
  let query = db.selectFrom("orders").selectAll().where("id", "in", wanted);
  if (userId !== null) query = query.where("user_id", "=", userId);
  const orders = await query.execute();
  if (orders.length === 0) return found;
  const orderIds = orders.map((order) => order.id);
  const [lines, refunds] = await Promise.all([
    db.selectFrom("order_lines").selectAll().where("order_id", "in", orderIds).orderBy("id").execute(),
    db
      .selectFrom("order_refunds")
      .select(["id", "order_id", "amount_cents", "reason", "created_at"])
      .where("order_id", "in", orderIds)
      .orderBy("id")
      .execute(),
  ]);
  for (const order of orders) found.set(order.id, { order, lines: [], refunds: [] });
  for (const line of lines) found.get(line.order_id)?.lines.push(line);
  for (const refund of refunds) {
    found.get(refund.order_id)?.refunds.push({
      id: refund.id,
      amountCents: refund.amount_cents,
      reason: refund.reason,
      at: refund.created_at,
    });
  }
  return found;
}

/** Whether the shopper may see the order's invoice: once it was paid (shipped, delivered, refunded or cancelled after payment too). */
export function invoiceAvailable(order: Pick<OrderRow, "paid_at">): boolean {
  return order.paid_at !== null;
}

function documentShop(shop: ShopDetails, language: Language): DocumentShop {
  return {
    name: shopName(shop, language),
    address: shop.address[language] || shop.address.en,
    email: shop.supportEmail,
  };
}

function shipTo(order: OrderRow, language: Language): DocumentAddress {
  // The country in the order's language when the order recorded its code; as typed otherwise.
  const country = order.country_code ? countryName(order.country_code, language) || order.country : order.country;
  return {
    name: formatPersonName(order.first_name, order.last_name),
    phone: order.phone,
    email: order.email,
    lines: [
      ...order.address.split(/\r?\n/).filter((line) => line.trim()),
      [order.city, order.postal_code].filter(Boolean).join(" "),
      country,
    ].filter(Boolean),
  };
}

function slipLine(line: OrderLineRow, language: Language): SlipLine {
  const optionName = (language === "zh" ? line.option_name_zh : null) || line.option_name || "";
  return {
    id: line.id,
    name: localized(line, "name", language),
    colour: line.color === DEFAULT_COLOR ? null : colorName(line, language),
    option: line.option_value ? { name: optionName, value: optionValueName(line, language) } : null,
    sku: line.sku,
    quantity: line.quantity,
  };
}

/** The packing slip of an order: shop, barcode, date, ship-to, lines with colour/option/SKU and quantity, the note. */
export function packingSlipOf({ order, lines }: OrderForDocuments, shop: ShopDetails): PackingSlip {
  const language = orderLanguage(order);
  return {
    kind: "packing-slip",
    orderId: order.id,
    orderNumber: order.order_number,
    language,
    placedAt: order.created_at,
    shop: documentShop(shop, language),
    shipTo: shipTo(order, language),
    barcodeSvg: code128Svg(order.order_number),
    lines: lines.map((line) => slipLine(line, language)),
    note: order.notes?.trim() ? order.notes : null,
  };
}

/**
 * The invoice of an order, numbered by its order number: the lines with prices, the discount,
 * shipping and total exactly as stored (integer cents in the order's currency: the lines' sum
 * less the discount plus shipping is the total), when it was paid and every refund.
 */
export function invoiceOf({ order, lines, refunds }: OrderForDocuments, shop: ShopDetails): Invoice {
  const language = orderLanguage(order);
  const discount = order.discount_code ? { code: order.discount_code, cents: order.discount_cents } : null;
  return {
    kind: "invoice",
    orderId: order.id,
    orderNumber: order.order_number,
    language,
    placedAt: order.created_at,
    shop: documentShop(shop, language),
    shipTo: shipTo(order, language),
    currency: order.currency,
    lines: lines.map((line) => ({
      ...slipLine(line, language),
      unitPriceCents: line.unit_price_cents,
      lineTotalCents: line.line_total_cents,
    })),
    // The stored subtotal is after the discount (db/schema.ts): the lines' sum puts it back.
    linesCents: order.subtotal_cents + (discount?.cents ?? 0),
    discount,
    shippingCents: order.shipping_cents,
    totalCents: order.total_cents,
    paidAt: order.paid_at,
    cancelledAt: order.cancelled_at,
    refunds,
    refundedCents: order.refunded_cents,
    keptCents: order.paid_at ? order.total_cents - order.refunded_cents : 0,
  };
}

export function documentOf(kind: DocumentKind, found: OrderForDocuments, shop: ShopDetails): OrderDocument {
  return kind === "invoice" ? invoiceOf(found, shop) : packingSlipOf(found, shop);
}

/** The documents' words in each language they are written in (the page makes a `t` of each). */
export function documentTexts(documents: readonly OrderDocument[]): Partial<Record<Language, Record<string, unknown>>> {
  const texts: Partial<Record<Language, Record<string, unknown>>> = {};
  for (const { language } of documents) texts[language] ??= resources[language].translation.orderDocuments;
  return texts;
}
