import { Link } from "react-router";
import { useTranslation } from "~/lib/i18n";
import { useParamHref } from "~/lib/param-href";

/** Page links that keep the other query parameters (filters, sort, search). */
export function Pagination({ page, pages }: { page: number; pages: number }) {
  const { t } = useTranslation();
  const href = useParamHref("page", 1);
  if (pages <= 1) return null;
  // First, last, and two either side of the current page.
  const shown = [...new Set([1, pages, page - 2, page - 1, page, page + 1, page + 2])]
    .filter((n) => n >= 1 && n <= pages)
    .sort((a, b) => a - b);
  const linkClass = "rounded-md border border-stone-300 px-3 py-1.5 text-sm hover:bg-stone-100";
  return (
    <nav aria-label={t("catalog.pagination")} className="mt-8 flex flex-wrap items-center justify-center gap-2">
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev" className={linkClass}>
          {t("catalog.previous")}
        </Link>
      ) : null}
      {shown.map((n, i) => (
        <span key={n} className="flex items-center gap-2">
          {i > 0 && n - (shown[i - 1] ?? n) > 1 ? <span aria-hidden="true">…</span> : null}
          {n === page ? (
            <span aria-current="page" className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white">
              {n}
            </span>
          ) : (
            <Link to={href(n)} className={linkClass} aria-label={t("catalog.pageOf", { page: n, pages })}>
              {n}
            </Link>
          )}
        </span>
      ))}
      {page < pages ? (
        <Link to={href(page + 1)} rel="next" className={linkClass}>
          {t("catalog.next")}
        </Link>
      ) : null}
    </nav>
  );
}
