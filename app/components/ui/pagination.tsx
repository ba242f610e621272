import { Link } from "react-router";
import { useTranslation } from "~/lib/i18n";
import { useParamHref } from "~/lib/param-href";

/** Page links that keep the other query parameters (filters, sort, search); their look is `.pages` in app.css. */
export function Pagination({ page, pages }: { page: number; pages: number }) {
  const { t } = useTranslation();
  const href = useParamHref("page", 1);
  if (pages <= 1) return null;
  // First, last, and two either side of the current page.
  const shown = [...new Set([1, pages, page - 2, page - 1, page, page + 1, page + 2])]
    .filter((n) => n >= 1 && n <= pages)
    .sort((a, b) => a - b);
  return (
    <nav aria-label={t("catalog.pagination")} className="pages">
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev" discover="none">
          {t("catalog.previous")}
        </Link>
      ) : null}
      {shown.map((n, i) => (
        <span key={n}>
          {i > 0 && n - (shown[i - 1] ?? n) > 1 ? <span aria-hidden="true">…</span> : null}
          {n === page ? (
            <span aria-current="page">{n}</span>
          ) : (
            <Link to={href(n)} aria-label={t("catalog.pageOf", { page: n, pages })} discover="none">
              {n}
            </Link>
          )}
        </span>
      ))}
      {page < pages ? (
        <Link to={href(page + 1)} rel="next" discover="none">
          {t("catalog.next")}
        </Link>
      ) : null}
    </nav>
  );
}
