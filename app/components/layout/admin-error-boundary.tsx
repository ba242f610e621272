import { AdminShell, type AdminShellData } from "~/components/layout/admin-shell";
import { ErrorMessage } from "~/components/layout/route-error-boundary";
import { useTranslation } from "~/lib/i18n";

/**
 * An admin page's 404, 403 or unexpected error, inside the admin shell and in the reader's
 * language. `shell` is the admin layout's data: present when the layout's own loader (which
 * checks the right) succeeded; without it the error shows alone, with no admin menu.
 */
export function AdminErrorBoundary({ error, shell }: { error: unknown; shell: AdminShellData | undefined }) {
  const { t } = useTranslation();
  const message = <ErrorMessage error={error} homeTo="/admin" homeLabel={t("admin.dashboard")} />;
  if (!shell) return <main id="main">{message}</main>;
  return <AdminShell {...shell}>{message}</AdminShell>;
}
