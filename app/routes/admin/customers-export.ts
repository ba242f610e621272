import { redirect } from "react-router";
import { services } from "~/context";
import { requireAdmin } from "~/lib/auth.server";
import { readForm } from "~/lib/read-form";
import { recordAudit } from "~/models/audit.server";
import { countCustomers, customerCsvStream, exportFileName, normalizeCustomerSearch } from "~/models/customers.server";
import type { Route } from "./+types/customers-export";

/** The export changes nothing, but it is a POST (audited); a GET goes back to the list. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  return redirect("/admin/customers");
}

/**
 * POST /admin/customers/export (q: the list's search, optional): streams customers-{date}.csv,
 * dated in Hong Kong, in the list's order with its search applied. The export is recorded in
 * the audit log, with its row count, before the first byte is sent.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = requireAdmin(context, request);
  const { db } = services(context);
  const form = await readForm(request);
  const raw = form.get("q");
  const q = normalizeCustomerSearch(typeof raw === "string" ? raw : null);
  const rows = await countCustomers(db, q);
  await recordAudit(db, {
    actorUserId: admin.id,
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
}
