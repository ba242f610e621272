import type { Transaction } from "kysely";
import type { Database } from "#db/schema";
import { notifyBackInStock, type StockAlertMailConfig } from "../products/stock-alerts.server";

export interface RestockedLine {
  product_id: number;
  color: string;
  option_value: string;
  quantity: number;
  /** False when the colour no longer exists (deleted since): nothing could be put back. */
  restored: boolean;
}

/** Units of order lines to put back on their variants. */
export interface LineToRestock {
  product_id: number | null;
  color: string;
  option_value: string | null;
  quantity: number;
}

/**
 * Puts each line's quantity back on its variant (colour and option value), in the caller's
 * transaction, and sends the back-in-stock alerts of every variant that was sold out and has
 * stock again (docs/decisions/055). Lines of a deleted product, or with nothing to put back, are
 * skipped. Shared by cancelling (restockOrderLines) and refunds (./refunds.server.ts).
 */
export async function putLinesBack(
  trx: Transaction<Database>,
  lines: readonly LineToRestock[],
  config: StockAlertMailConfig,
): Promise<RestockedLine[]> {
  const restocked: RestockedLine[] = [];
  const backInStock: number[] = [];
  for (const line of lines) {
    if (line.product_id === null || line.quantity <= 0) continue; // the product was deleted since
    const back = await trx
      .updateTable("product_variants")
      .set((eb) => ({ stock: eb("stock", "+", line.quantity) }))
      .where("product_id", "=", line.product_id)
      .where("color", "=", line.color)
      // Lines of orders placed before the second option (migration 0026) have none: ''.
      .where("option_value", "=", line.option_value ?? "")
      .returning(["id", "stock"])
      .executeTakeFirst();
    if (back && back.stock - line.quantity <= 0 && back.stock > 0) backInStock.push(back.id);
    restocked.push({
      product_id: line.product_id,
      color: line.color,
      option_value: line.option_value ?? "",
      quantity: line.quantity,
      restored: back !== undefined,
    });
  }
  await notifyBackInStock(trx, config, backInStock);
  return restocked;
}

/**
 * Puts each line's quantity back on its variant (colour and option value), less the units a
 * refund already put back (docs/decisions/057). Call it only inside the transaction whose
 * compare-and-set moved the order out of a stock-holding status: that update is what makes the
 * stock come back exactly once, however many cancels arrive at once. A variant that was sold out
 * and has stock again sends its back-in-stock alerts in the same transaction (docs/decisions/055).
 */
export async function restockOrderLines(
  trx: Transaction<Database>,
  orderId: string,
  config: StockAlertMailConfig,
): Promise<RestockedLine[]> {
  const lines = await trx
    .selectFrom("order_lines")
    .select((eb) => [
      "order_lines.product_id",
      "order_lines.color",
      "order_lines.option_value",
      "order_lines.quantity",
      eb
        .selectFrom("order_refund_lines")
        .select((inner) => inner.fn.coalesce(inner.fn.sum<number>("order_refund_lines.quantity"), inner.lit(0)).as("n"))
        .whereRef("order_refund_lines.order_line_id", "=", "order_lines.id")
        .as("put_back"),
    ])
    .where("order_lines.order_id", "=", orderId)
    .orderBy("order_lines.id")
    .execute();
  return putLinesBack(
    trx,
    lines.map(({ put_back, ...line }) => ({ ...line, quantity: line.quantity - Number(put_back ?? 0) })),
    config,
  );
}
