import { data } from "react-router";
import type { OrderRow } from "#db/schema";
import type { Storage } from "~/lib/storage.server";

/**
 * A payment receipt as a response: private, never cached by shared caches, an image that cannot
 * be sniffed into anything else (nosniff comes with every response from the web server) and
 * sandboxed if opened on its own. `download` asks the browser to save it instead of showing it.
 */
export async function receiptResponse(
  storage: Storage,
  order: Pick<OrderRow, "order_number" | "receipt_path">,
  options: { download?: boolean } = {},
): Promise<Response> {
  if (!order.receipt_path) throw data("Not found", { status: 404 });
  const file = await storage.get("private", order.receipt_path);
  if (!file) throw data("Not found", { status: 404 });
  const extension =
    order.receipt_path
      .split(".")
      .pop()
      ?.replace(/[^a-z0-9]/gi, "") || "webp";
  const filename = `receipt-${order.order_number.replace(/[^A-Za-z0-9-]/g, "")}.${extension}`;
  return new Response(new Uint8Array(file.data), {
    headers: {
      "Content-Type": file.contentType.startsWith("image/") ? file.contentType : "application/octet-stream",
      "Content-Length": String(file.data.byteLength),
      "Content-Disposition": `${options.download ? "attachment" : "inline"}; filename="${filename}"`,
      "Content-Security-Policy": "default-src 'none'; img-src 'self'; sandbox",
      "Cache-Control": "private, no-store",
    },
  });
}
