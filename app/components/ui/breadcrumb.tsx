import { Link } from "react-router";
import { useTranslation } from "~/lib/i18n";

/** Home › the pages above this one (links) › this page: catalogue, product and blog pages; its look is `.crumbs` in app.css. */
export function Breadcrumb({ items, className = "" }: { items: { label: string; to?: string }[]; className?: string }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("nav.breadcrumb")} className={className ? `crumbs ${className}` : "crumbs"}>
      <ol>
        <li>
          <Link to="/">{t("catalog.home")}</Link>
        </li>
        {items.map((item) => (
          <li key={item.label}>
            <span aria-hidden="true">›</span>
            {item.to ? <Link to={item.to}>{item.label}</Link> : <span aria-current="page">{item.label}</span>}
          </li>
        ))}
      </ol>
    </nav>
  );
}
