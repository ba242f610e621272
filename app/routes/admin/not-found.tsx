import { data, Link } from "react-router";
import { useTranslation } from "~/lib/i18n";
import { requireAdmin } from "~/request/auth.server";
import type { Route } from "./+types/not-found";

/** Unknown /admin paths: checked like every admin page, then 404 inside the shell. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  return data(null, { status: 404 });
}

export async function action({ request, context }: Route.ActionArgs) {
  requireAdmin(context, request);
  return data(null, { status: 404 });
}

export default function AdminNotFound() {
  const { t } = useTranslation();
  return (
    <div className="py-16 text-center">
      <h1 className="text-2xl font-semibold">{t("notFound.title")}</h1>
      <Link to="/admin" className="mt-4 inline-block text-brand-700 hover:underline">
        {t("admin.dashboard")}
      </Link>
    </div>
  );
}
