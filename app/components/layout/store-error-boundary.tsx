import { ErrorMessage } from "~/components/layout/route-error-boundary";
import { StoreShell } from "~/components/layout/store-shell";

/**
 * Any storefront page's 404, 403 or unexpected error, inside the shop's header and footer and
 * in the reader's language (the root loader's data is still there: only the page failed).
 */
export function StoreErrorBoundary({ error }: { error: unknown }) {
  return (
    <StoreShell>
      <ErrorMessage error={error} />
    </StoreShell>
  );
}
