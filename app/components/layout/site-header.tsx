import { type ReactNode, useEffect, useRef } from "react";
import { Link, useLocation } from "react-router";
import type { Currency } from "#db/schema";
import { ShopMark } from "~/components/shop-mark";
import { useTranslation } from "~/lib/i18n";
import type { Language } from "~/locales";
import { CurrencyPicker, LanguageToggle } from "./preference-forms";
import { SearchBox } from "./search-box";
import { VisitorSlot } from "./visitor-slot";

/** A category of the nav, named in the reader's language. */
export interface NavCategory {
  slug: string;
  name: string;
}

interface SiteHeaderProps {
  /** The shop's name in the reader's language (Settings → Shop details). */
  shopName: string;
  language: Language;
  currency: Currency;
  categories: NavCategory[];
}

/** A 24×24 line icon in the text's colour (user, cart, menu); decorative, the control names itself. */
function LineIcon({ className, children }: { className: string; children: ReactNode }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth="2">
      {children}
    </svg>
  );
}

/** How wide a name reads: a CJK character is about two Latin letters wide. */
function nameWidth(name: string): number {
  return [...name].reduce((sum, char) => sum + (/[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]/.test(char) ? 2 : 1), 0);
}

/**
 * The shop's name beside the logo, whatever the owner typed (up to 80 characters): a long name
 * is set one size smaller, wraps onto two lines and then ends in an ellipsis, so it gives way
 * to the search box and the controls. The whole name stays the link's text (what a screen
 * reader says) and its tooltip.
 */
function Brand({ shopName }: { shopName: string }) {
  const long = nameWidth(shopName) > 22;
  return (
    <Link to="/" title={shopName} className="hd-brand">
      <ShopMark />
      <span className={long ? "long" : undefined} data-testid="shop-name">
        {shopName}
      </span>
    </Link>
  );
}

/**
 * The category links in the bar (from 1280 px): the first `BAR_LINKS` categories (more never fit
 * on the row beside the name and the search box), the links that do not fit on the one row wrap
 * onto a second row that the bar's height clips; every link is also in the menu. With
 * JavaScript the clipped ones are hidden outright, so the keyboard never lands on one.
 */
/** The most category links the bar holds: about 440 pixels are left for them at 1280 px. */
const BAR_LINKS = 12;

function hideWrappedLinks(nav: HTMLElement | null): void {
  if (!nav) return;
  const links = [...nav.children] as HTMLElement[];
  for (const link of links) link.style.visibility = "";
  const top = links[0]?.offsetTop ?? 0;
  for (const link of links) if (link.offsetTop > top) link.style.visibility = "hidden";
}

function BarNav({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLElement>(null);
  // After every render (the links may have changed: another language, another page)…
  useEffect(() => hideWrappedLinks(ref.current));
  // …and whenever the bar gives the links another width.
  useEffect(() => {
    const nav = ref.current;
    if (!nav || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => hideWrappedLinks(nav));
    observer.observe(nav);
    return () => observer.disconnect();
  }, []);
  return (
    <nav ref={ref} aria-label={label} className="hd-bar">
      {children}
    </nav>
  );
}

/**
 * The storefront header: one row at every width from 320 px, whatever the shop's name. The
 * controls on the right never shrink, and the search box is never narrower than 13rem (with its
 * button): it takes what is left. What gives way is, below 1280 px, the shop's name (two lines,
 * then an ellipsis) and, from 1280 px where the name has at most 16rem, the category links
 * (whole links drop out; the menu has them all). Only one thing shrinks at each width, so the
 * name never wraps while there is room for it. The search box is in the bar from 768 px (md),
 * the currency picker from 1024 px (lg) and the category links from 1280 px (xl); each is in the
 * menu below that, and the menu, at every width, holds every category.
 */
export function SiteHeader({ shopName, language, currency, categories }: SiteHeaderProps) {
  const { t } = useTranslation();
  // The category and blog links mark the page they lead to (and the pages below it), as NavLink
  // would; worked out here from one location read rather than in each of the twice-rendered links.
  // Their look comes from their <nav> (`.hd-bar > a`, `.hd-panel > nav > a` in app.css): no class
  // on each of up to twice fifty links. Only the first category link asks React
  // Router to discover the category route (one route for all of them).
  const here = useLocation().pathname.toLowerCase();
  const navLink = (to: string, label: string, discover: boolean, prefetch?: "intent") => {
    const isActive = here === to || here.startsWith(`${to}/`);
    return (
      <Link
        key={to}
        to={to}
        prefetch={prefetch}
        discover={discover ? "render" : "none"}
        aria-current={isActive ? "page" : undefined}
      >
        {label}
      </Link>
    );
  };
  const categoryLinks = categories.map((category, index) =>
    navLink(`/category/${category.slug}`, category.name, index === 0, "intent"),
  );
  const blogLink = navLink("/blog", t("nav.blog"), true);

  return (
    <header className="hd" data-testid="site-header">
      <div className="hd-row">
        <Brand shopName={shopName} />

        <BarNav label={t("nav.categories")}>
          {categoryLinks.slice(0, BAR_LINKS)}
          {blogLink}
        </BarNav>

        {/* Never narrower than 13rem: it grows into whatever the name and the links leave. */}
        <div className="hd-search">
          <SearchBox id="search-desktop" language={language} />
        </div>

        <div className="hd-end">
          <LanguageToggle language={language} short />
          <CurrencyPicker currency={currency} id="currency-desktop" className="wide" />
          <VisitorSlot />

          {/* The menu is a <details> element: it opens and closes without JavaScript. */}
          <details className="menu">
            <summary className="hd-btn" aria-label={t("nav.openMenu")}>
              <LineIcon className="inline h-6 w-6">
                <path d="M4 6h16M4 12h16M4 18h16" />
              </LineIcon>
              <span className="sr-only">{t("nav.menu")}</span>
            </summary>
            <div className="hd-panel">
              <div className="md:hidden">
                <SearchBox id="search-mobile" language={language} />
              </div>
              <nav aria-label={t("nav.menu")}>
                {categoryLinks}
                {blogLink}
              </nav>
              <CurrencyPicker currency={currency} id="currency-mobile" className="narrow" />
            </div>
          </details>
        </div>
      </div>
    </header>
  );
}
