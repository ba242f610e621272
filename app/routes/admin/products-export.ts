import { redirect } from "react-router";
import { z } from "zod";
import { services } from "~/context";
import { csvStream } from "~/lib/csv.server";
import { formAction } from "~/lib/form-action.server";
import { recordAudit } from "~/models/audit.server";
import {
  countProductCsvRows,
  PRODUCT_CSV_COLUMNS,
  productCsvRecords,
  productExportFileName,
} from "~/models/products/csv.server";
import { adminOnly, requireAdmin } from "~/request/auth.server";
import type { Route } from "./+types/products-export";

/** The export changes nothing, but it is a POST (audited); a GET goes back to the list. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  return redirect("/admin/products");
}

/**
 * POST /admin/products/export: streams products-{date}.csv (dated in Hong Kong), one row per
 * colour (columns in app/models/products/csv.server.ts). Recorded in the audit log, with its
 * row count, before the first byte, as the customer export is (no GET writes anything).
 */
export const action = formAction({ schema: z.object({}), authorize: adminOnly }, async ({ context, auth }) => {
  const { db, config } = services(context);
  const rows = await countProductCsvRows(db);
  await recordAudit(db, {
    actorUserId: auth.id,
    action: "product.exported",
    entityType: "product",
    entityId: null,
    after: { rows },
  });
  return new Response(csvStream(PRODUCT_CSV_COLUMNS, productCsvRecords(db, config.publicUrl)), {
    status: 200,
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${productExportFileName()}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
});
