import { redirect } from "react-router";
import { z } from "zod";
import { services } from "~/context";
import { formAction } from "~/lib/form-action.server";
import { recordAudit } from "~/models/audit.server";
import { countCustomers, customerCsvStream, exportFileName, normalizeCustomerSearch } from "~/models/customers.server";
import { requireOwnerForDownload } from "~/request/auth.server";
import type { Route } from "./+types/customers-export";

/** The list's search, as the page sends it (normalised by the model). */
const customerExportSchema = z.object({ q: z.string().optional() });

/** The export changes nothing, but it is a POST (audited); a GET goes back to the list. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireOwnerForDownload(context, request);
  return redirect("/admin/customers");
}

/**
 * POST /admin/customers/export (q: the list's search, optional): streams customers-{date}.csv,
 * dated in Hong Kong, in the list's order with its search applied. The export is recorded in
 * the audit log, with its row count, before the first byte is sent.
 */
export const action = formAction(
  {
    schema: customerExportSchema,
    authorize: ({ context, request }: Route.ActionArgs) => requireOwnerForDownload(context, request),
  },
  async ({ context, value, auth }) => {
    const { db } = services(context);
    const q = normalizeCustomerSearch(value.q);
    const rows = await countCustomers(db, q);
    await recordAudit(db, {
      actorUserId: auth.id,
      action: "customer.exported",
      entityType: "user",
      entityId: null,
      before: null,
      after: { rows, search: q || null },
    });
    return new Response(customerCsvStream(db, q), {
      status: 200,
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${exportFileName()}"`,
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  },
);
