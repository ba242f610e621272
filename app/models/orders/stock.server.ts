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

/**
 * Puts each line's quantity back on its variant (colour and option value). Call it only inside the transaction whose
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
    .select(["product_id", "color", "option_value", "quantity"])
    .where("order_id", "=", orderId)
    .orderBy("id")
    .execute();
  const restocked: RestockedLine[] = [];
  const backInStock: number[] = [];
  for (const line of lines) {
    if (line.product_id === null) continue; // the product was deleted since
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
