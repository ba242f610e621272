import { type ReactNode, useEffect, useRef } from "react";
import { Link, useLocation } from "react-router";
import type { Currency } from "#db/schema";
import { ShopMark } from "~/components/shop-mark";
import { useFollowLinks, useKeptMarkup } from "~/components/ui/kept-markup";
import { useTranslation } from "~/lib/i18n";
import { NAV_CATEGORIES } from "~/lib/root-data";
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
  /** Null in the browser when the document brought them (decision 071). */
  categories: NavCategory[] | null;
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

/** Whether a link to `to` marks the page at `here` (the page itself or one below it), as NavLink would. */
function leadsHere(here: string, to: string): boolean {
  return here === to || here.startsWith(`${to}/`);
}

/**
 * In the bar (from 1280 px, the menu closed) the nav shows its first row: the first 12
 * categories and the blog (app.css), the links that do not fit wrap onto a second row that the
 * bar's height clips. With JavaScript the clipped ones are hidden outright, so the keyboard
 * never lands on one. In the open menu (a column) nothing is hidden.
 */
function hideWrappedLinks(nav: HTMLElement | null): void {
  if (!nav) return;
  const links = [...nav.children] as HTMLElement[];
  for (const link of links) link.style.visibility = "";
  if (getComputedStyle(nav).flexDirection !== "row") return;
  const top = links[0]?.offsetTop ?? 0;
  for (const link of links) if (link.offsetTop > top) link.style.visibility = "hidden";
}

/**
 * The header's ONE category nav (decision 071): every category and the blog. From 1280 px, with
 * the menu closed, it is the bar beside the shop's name; otherwise it is in the menu's panel
 * (app.css moves it: no second copy of fifty links). `categories` is null in the browser when
 * the document brought them (the root's data then carries none): the nav keeps the server's
 * links (app/components/ui/kept-markup.ts) and marks the page shown itself. Either way its links
 * are plain, and a click on one is a client navigation (`useFollowLinks`).
 */
function CategoryNav({ categories, label }: { categories: NavCategory[] | null; label: string }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLElement | null>(null);
  const kept = useKeptMarkup(NAV_CATEGORIES);
  const followLinks = useFollowLinks();
  const here = useLocation().pathname.toLowerCase();
  // After every render (the links may have changed: another language, another page)…
  useEffect(() => hideWrappedLinks(ref.current));
  // …and whenever the bar gives the links another width, or the menu opens or closes.
  useEffect(() => {
    const nav = ref.current;
    if (!nav || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => hideWrappedLinks(nav));
    observer.observe(nav);
    return () => observer.disconnect();
  }, []);
  // The kept links: the server marked the document's own page; a client navigation moves the mark.
  useEffect(() => {
    if (categories || !ref.current) return;
    for (const link of ref.current.querySelectorAll("a")) {
      if (leadsHere(here, link.getAttribute("href") ?? "")) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
  }, [categories, here]);
  if (!categories) {
    return (
      // biome-ignore lint/a11y/useKeyWithClickEvents: only forwards the clicks of the links inside (keyboard follows them natively)
      <nav
        ref={(element) => {
          ref.current = element;
          kept.ref(element);
        }}
        aria-label={label}
        className="hd-nav"
        onClick={followLinks}
        suppressHydrationWarning
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's own links, kept as they came
        dangerouslySetInnerHTML={kept.dangerouslySetInnerHTML}
      />
    );
  }
  // Plain links, followed by the nav's one click handler (a <Link> each would resolve its path on
  // every server render, fifty times). Only the first category link, and the blog's, ask React
  // Router to discover their route (one route for every category), as `discover="render"` would.
  const link = (to: string, text: string, discover: boolean) => (
    <a
      key={to}
      href={to}
      data-discover={discover ? "true" : undefined}
      aria-current={leadsHere(here, to) ? "page" : undefined}
    >
      {text}
    </a>
  );
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: only forwards the clicks of the links inside (keyboard follows them natively)
    <nav ref={ref} aria-label={label} className="hd-nav" onClick={followLinks}>
      {categories.map((category, index) => link(`/category/${category.slug}`, category.name, index === 0))}
      {link("/blog", t("nav.blog"), true)}
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
 *
 * The menu's button is a <details> (it opens and closes without JavaScript); its panel follows
 * the controls and is shown while the details is open (`.hd-row:has(.menu[open])` in app.css),
 * so that the one category nav can stand in the bar while the menu is closed.
 */
export function SiteHeader({ shopName, language, currency, categories }: SiteHeaderProps) {
  const { t } = useTranslation();
  return (
    <header className="hd" data-testid="site-header">
      <div className="hd-row">
        <Brand shopName={shopName} />

        {/* Never narrower than 13rem: it grows into whatever the name and the links leave. */}
        <div className="hd-search">
          <SearchBox id="search-desktop" language={language} />
        </div>

        <div className="hd-end">
          <LanguageToggle language={language} short />
          <CurrencyPicker currency={currency} id="currency-desktop" className="wide" />
          <VisitorSlot />
          <details className="menu">
            <summary className="hd-btn" aria-label={t("nav.openMenu")}>
              <LineIcon className="inline h-6 w-6">
                <path d="M4 6h16M4 12h16M4 18h16" />
              </LineIcon>
              <span className="sr-only">{t("nav.menu")}</span>
            </summary>
          </details>
        </div>

        <div className="hd-panel">
          <div className="md:hidden">
            <SearchBox id="search-mobile" language={language} />
          </div>
          <CategoryNav categories={categories} label={t("nav.categories")} />
          <CurrencyPicker currency={currency} id="currency-mobile" className="narrow" />
        </div>
      </div>
    </header>
  );
}
