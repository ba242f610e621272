import { Outlet } from "react-router";
import { AdminErrorBoundary } from "~/components/layout/admin-error-boundary";
import { AdminShell } from "~/components/layout/admin-shell";
import { errorPageHeaders } from "~/components/layout/route-error-boundary";
import { services } from "~/context";
import { isDemoAccountPrimary } from "~/models/payment-accounts.server";
import { requireAdmin } from "~/request/auth.server";
import type { Route } from "./+types/layout";

/** The admin shell. The layout checks the right for its own data; every child route checks again. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const { db, config } = services(context);
  // While shoppers are told to pay into the seeded demo account, every admin page says so.
  const demoAccount = await isDemoAccountPrimary(db);
  return {
    email: admin.email,
    role: admin.role ?? "staff",
    demoBanner: demoAccount ? { demoMode: config.demoMode } : null,
  };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminShell {...loaderData}>
      <Outlet />
    </AdminShell>
  );
}

/** A thrown 503's Retry-After reaches the error page's answer. */
export const headers = errorPageHeaders;

/** An admin page's thrown 404/403 or error keeps the admin shell. */
export function ErrorBoundary({ error, loaderData }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} shell={loaderData} />;
}
