import { services } from "~/context";
import { requireAdmin } from "~/lib/auth.server";
import { csvStream } from "~/lib/csv.server";
import { recordAudit } from "~/models/audit.server";
import {
  countProductCsvRows,
  PRODUCT_CSV_COLUMNS,
  productCsvRecords,
  productExportFileName,
} from "~/models/products/csv.server";
import type { Route } from "./+types/products-export";

/**
 * GET /admin/products/export: streams products-{date}.csv (dated in Hong Kong), one row per
 * colour (columns in app/models/products/csv.server.ts). A download changes nothing, so it is a
 * GET link; it is still recorded in the audit log, with its row count, before the first byte.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const { db, config } = services(context);
  const rows = await countProductCsvRows(db);
  await recordAudit(db, {
    actorUserId: admin.id,
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
}
