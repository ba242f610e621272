import { redirect } from "react-router";
import { z } from "zod";
import { services } from "~/context";
import { formAction } from "~/lib/form-action.server";
import { recordAudit } from "~/models/audit.server";
import { parseAdminOrderSelection } from "~/models/orders/desk.server";
import { countExportOrders, orderCsvStream, orderExportFileName } from "~/models/orders/export.server";
import { requireOwnerForDownload } from "~/request/auth.server";
import type { Route } from "./+types/orders-export";

/** The list's filters, as its export form sends them (read by the list's own parser). */
const orderExportSchema = z.object({
  status: z.string().optional(),
  q: z.string().optional(),
  from: z.string().optional(),
  to: z.string().optional(),
});

/** The export changes nothing, but it is a POST (audited); a GET goes back to the list. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireOwnerForDownload(context, request);
  return redirect("/admin/orders");
}

/**
 * POST /admin/orders/export (status, q, from, to: the list's filters, each optional): streams
 * orders-{date}.csv, dated in Hong Kong, one row per order line of the orders the list shows
 * with those filters, newest first. The owner's only (docs/decisions/059); recorded in the audit
 * log, with the filters and the order count, before the first byte is sent.
 */
export const action = formAction(
  {
    schema: orderExportSchema,
    authorize: ({ context, request }: Route.ActionArgs) => requireOwnerForDownload(context, request),
  },
  async ({ context, value, auth }) => {
    const { db } = services(context);
    const selection = parseAdminOrderSelection((name) => value[name as keyof typeof value]);
    const at = new Date();
    const orders = await countExportOrders(db, selection, at);
    await recordAudit(db, {
      actorUserId: auth.id,
      action: "order.exported",
      entityType: "order",
      entityId: null,
      before: null,
      after: {
        orders,
        status: selection.status,
        search: selection.q || null,
        from: selection.from ?? null,
        to: selection.to ?? null,
      },
    });
    return new Response(orderCsvStream(db, selection, at), {
      status: 200,
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${orderExportFileName(at)}"`,
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  },
);
