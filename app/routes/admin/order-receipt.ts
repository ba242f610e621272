import { data } from "react-router";
import { services } from "~/context";
import { receiptResponse } from "~/models/orders/receipts.server";
import { findOrder } from "~/models/orders/shopper.server";
import { requireAdmin } from "~/request/auth.server";
import type { Route } from "./+types/order-receipt";

/** GET /admin/orders/{id}/receipt(?download=1): the order's receipt, for admins only. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { db, storage } = services(context);
  const found = await findOrder(db, params.id, null);
  if (!found) throw data("Not found", { status: 404 });
  const download = new URL(request.url).searchParams.get("download") === "1";
  return receiptResponse(storage, found.order, { download });
}
