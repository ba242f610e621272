import { data } from "react-router";
import { services } from "~/context";
import { getUser } from "~/lib/auth.server";
import { findOrder } from "~/models/order.server";
import type { Route } from "./+types/receipt";

/**
 * A payment receipt: private. (nosniff comes with every response from the web server.) Only the order's owner and admins get it, as an image that
 * cannot be sniffed into anything else, never cached by shared caches.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const user = getUser(context);
  if (!user) throw data("Not found", { status: 404 });
  const { db, storage } = services(context);
  const found = await findOrder(db, params.id, user.isAdmin ? null : user.id);
  if (!found?.order.receipt_path) throw data("Not found", { status: 404 });
  const file = await storage.get("private", found.order.receipt_path);
  if (!file) throw data("Not found", { status: 404 });
  return new Response(new Uint8Array(file.data), {
    headers: {
      "Content-Type": file.contentType.startsWith("image/") ? file.contentType : "application/octet-stream",
      "Content-Length": String(file.data.byteLength),
      "Content-Disposition": `inline; filename="receipt-${found.order.order_number}.webp"`,
      "Content-Security-Policy": "default-src 'none'; img-src 'self'; sandbox",
      "Cache-Control": "private, no-store",
    },
  });
}
