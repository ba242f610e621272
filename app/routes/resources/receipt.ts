import { data } from "react-router";
import { services } from "~/context";
import { receiptResponse } from "~/models/orders/receipts.server";
import { findOrder } from "~/models/orders/shopper.server";
import { getUser } from "~/request/auth.server";
import type { Route } from "./+types/receipt";

/** A payment receipt: only the order's owner and admins get it; anyone else gets "not found". */
export async function loader({ params, context }: Route.LoaderArgs) {
  const user = getUser(context);
  if (!user) throw data("Not found", { status: 404 });
  const { db, storage } = services(context);
  const found = await findOrder(db, params.id, user.isAdmin ? null : user.id);
  if (!found) throw data("Not found", { status: 404 });
  return receiptResponse(storage, found.order);
}
