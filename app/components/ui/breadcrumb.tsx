import { Link } from "react-router";
import { useTranslation } from "~/lib/i18n";

/** Home › the pages above this one (links) › this page: catalogue, product and blog pages. */
export function Breadcrumb({ items, className = "" }: { items: { label: string; to?: string }[]; className?: string }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("nav.breadcrumb")} className={`text-sm text-stone-500 ${className}`}>
      <ol className="flex flex-wrap items-center gap-1">
        <li>
          <Link to="/" className="hover:text-brand-700 hover:underline">
            {t("catalog.home")}
          </Link>
        </li>
        {items.map((item) => (
          <li key={item.label} className="flex items-center gap-1">
            <span aria-hidden="true">›</span>
            {item.to ? (
              <Link to={item.to} className="hover:text-brand-700 hover:underline">
                {item.label}
              </Link>
            ) : (
              <span aria-current="page" className="text-stone-800">
                {item.label}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
