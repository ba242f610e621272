import { Outlet } from "react-router";
import { errorPageHeaders } from "~/components/layout/route-error-boundary";
import { StoreErrorBoundary } from "~/components/layout/store-error-boundary";
import { StoreShell } from "~/components/layout/store-shell";
import type { Route } from "./+types/layout";

/** Header and footer around every storefront page. */
export default function StoreLayout() {
  return (
    <StoreShell>
      <Outlet />
    </StoreShell>
  );
}

/** A thrown 503's Retry-After reaches the error page's answer. */
export const headers = errorPageHeaders;

/** A storefront page's thrown 404/403 or error keeps the header and footer. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <StoreErrorBoundary error={error} />;
}
