import type { MouseEvent } from "react";
import { Link } from "react-router";
import { useFollowLinks, useKeptMarkup } from "~/components/ui/kept-markup";
import { useTranslation } from "~/lib/i18n";
import type { ShopIdentity } from "~/models/settings/shop.server";
import type { NavCategory } from "./site-header";

/** The key of the footer's kept markup (app/components/ui/kept-markup.ts). */
export const FOOTER_MARKUP = "site-footer";

/** The first five categories: plain links like the header's (the footer's one click handler); the first asks React Router to discover the category route. */
function QuickLinks({ categories }: { categories: NavCategory[] }) {
  return (
    <ul>
      {categories.slice(0, 5).map((category, index) => (
        <li key={category.slug}>
          <a href={`/category/${category.slug}`} data-discover={index === 0 ? "true" : undefined}>
            {category.name}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** A footer column's links, one a line. */
function FooterLinks({ links }: { links: { to: string; label: string }[] }) {
  return (
    <ul>
      {links.map((link) => (
        <li key={link.to}>
          <Link to={link.to}>{link.label}</Link>
        </li>
      ))}
    </ul>
  );
}

/** The customer-service pages the footer links to, in order. */
const SERVICE_PAGES = [
  ["/shipping", "footer.shipping"],
  ["/returns", "footer.returns"],
  ["/faq", "footer.faq"],
  ["/contact", "footer.contact"],
] as const;

/**
 * The storefront footer. `categories` and `shop` are null in the browser when the document
 * brought them (decision 071: a storefront document's root data carries neither the nav
 * categories nor the shop's footer details): the footer keeps the server's markup
 * (app/components/ui/kept-markup.ts) until the root's data has them again.
 */
export function SiteFooter({
  categories,
  year,
  shop,
}: {
  categories: NavCategory[] | null;
  year: number;
  shop: ShopIdentity | null;
}) {
  const kept = useKeptMarkup(FOOTER_MARKUP);
  const followLinks = useFollowLinks();
  if (!categories || !shop) {
    return (
      // biome-ignore lint/a11y/useKeyWithClickEvents: only forwards the clicks of the links inside (keyboard follows them natively)
      // biome-ignore lint/a11y/noStaticElementInteractions: as above
      <footer
        ref={kept.ref}
        className="ft"
        onClick={followLinks}
        suppressHydrationWarning
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's own footer, kept as it came
        dangerouslySetInnerHTML={kept.dangerouslySetInnerHTML}
      />
    );
  }
  return <FooterContent categories={categories} year={year} shop={shop} onClick={followLinks} />;
}

function FooterContent({
  categories,
  year,
  shop,
  onClick,
}: {
  categories: NavCategory[];
  year: number;
  shop: ShopIdentity;
  onClick: (event: MouseEvent<HTMLElement>) => void;
}) {
  const { t } = useTranslation();
  return (
    // The shop's name, address and e-mail are the owner's: a long word breaks rather than widen the page.
    // biome-ignore lint/a11y/useKeyWithClickEvents: only forwards the clicks of the links inside (keyboard follows them natively)
    // biome-ignore lint/a11y/noStaticElementInteractions: as above
    <footer className="ft" onClick={onClick}>
      <div className="ft-g">
        <section>
          <h2>{shop.name}</h2>
          {shop.blurb ? (
            <p className="ft-p" data-testid="footer-blurb">
              {shop.blurb}
            </p>
          ) : null}
        </section>
        <section>
          <h2>{t("footer.quickLinks")}</h2>
          <QuickLinks categories={categories} />
        </section>
        <section>
          <h2>{t("footer.customerService")}</h2>
          <FooterLinks links={SERVICE_PAGES.map(([to, label]) => ({ to, label: t(label) }))} />
        </section>
        <section>
          <h2>{t("footer.contactInfo")}</h2>
          <address>
            {shop.address ? <p>{shop.address}</p> : null}
            <p>
              <a href={`mailto:${shop.supportEmail}`}>{shop.supportEmail}</a>
            </p>
          </address>
          {shop.supportedBy ? <SupportedBy supporter={shop.supportedBy} /> : null}
        </section>
      </div>
      <div className="ft-b">
        <div>
          <p>{t("footer.copyright", { year, shop: shop.name })}</p>
          <p>
            <Link to="/privacy">{t("footer.privacy")}</Link>
            <Link to="/terms">{t("footer.terms")}</Link>
          </p>
        </div>
      </div>
    </footer>
  );
}

/** The footer's "Supported By" mark: the owner's logo, or the built-in badge; a link when set. */
function SupportedBy({ supporter }: { supporter: NonNullable<ShopIdentity["supportedBy"]> }) {
  const { t } = useTranslation();
  const mark = (
    <>
      {supporter.logoUrl ? (
        <img src={supporter.logoUrl} alt="" className="h-9 w-auto max-w-[7rem] object-contain" loading="lazy" />
      ) : (
        <svg aria-hidden="true" viewBox="0 0 40 40" className="h-9 w-9">
          <path
            d="M20 3 35 9v11c0 9-6.5 15-15 17C11.5 35 5 29 5 20V9z"
            fill="#435020"
            stroke="#a3b86c"
            strokeWidth="2"
          />
          <path d="M13 21l5 5 9-11" fill="none" stroke="#e7ecd6" strokeWidth="3" strokeLinecap="round" />
        </svg>
      )}
      <span className="text-xs font-medium">{supporter.name}</span>
    </>
  );
  return (
    <div className="ft-s" data-testid="supported-by">
      <p>{t("footer.supportedBy")}</p>
      {supporter.url ? (
        <a href={supporter.url} rel="noopener noreferrer" className="ft-m hover:text-white hover:underline">
          {mark}
        </a>
      ) : (
        <div className="ft-m">{mark}</div>
      )}
    </div>
  );
}
