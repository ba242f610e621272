import { type ReactNode, useEffect, useRef } from "react";
import { Form, Link, useLocation } from "react-router";
import type { Currency } from "#db/schema";
import { ShopMark } from "~/components/shop-mark";
import { useTranslation } from "~/lib/i18n";
import { localized } from "~/lib/localize";
import type { Language } from "~/locales";
import { CurrencyPicker, LanguageToggle } from "./preference-forms";
import { SearchBox } from "./search-box";

export interface NavCategory {
  id: number;
  slug: string;
  name_en: string;
  name_zh: string;
}

interface SiteHeaderProps {
  /** The shop's name in the reader's language (Settings → Shop details). */
  shopName: string;
  language: Language;
  currency: Currency;
  categories: NavCategory[];
  user: { email: string; isAdmin: boolean } | null;
  cartCount: number;
}

/** A 24×24 line icon in the text's colour (user, cart, menu); decorative, the control names itself. */
function LineIcon({ className, children }: { className: string; children: ReactNode }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth="2">
      {children}
    </svg>
  );
}

/**
 * Signed out: a Login link. Signed in: a user icon opening a menu (a <details>, no JS needed);
 * the e-mail is inside the menu, never in the bar, so a long address cannot squeeze the header.
 */
function UserMenu({ user }: { user: SiteHeaderProps["user"] }) {
  const { t } = useTranslation();
  if (!user) {
    return (
      <Link
        to="/login"
        className="whitespace-nowrap rounded-md px-1.5 py-1 text-sm font-medium hover:bg-white/10 sm:px-2"
      >
        {t("nav.login")}
      </Link>
    );
  }
  return (
    <details className="menu relative" data-testid="user-menu">
      <summary
        className="flex cursor-pointer items-center rounded-md p-1.5 hover:bg-white/10"
        aria-label={t("userMenu.open")}
        title={t("userMenu.open")}
      >
        <LineIcon className="h-5 w-5 shrink-0">
          <circle cx="12" cy="8" r="4" />
          <path d="M4 21c0-4 4-6 8-6s8 2 8 6" />
        </LineIcon>
      </summary>
      <div className="absolute right-0 z-50 mt-2 flex w-64 max-w-[calc(100vw-1.5rem)] flex-col gap-1 rounded-md bg-white p-2 text-stone-900 shadow-xl ring-1 ring-black/10">
        <p className="px-2 py-1 text-xs text-stone-600">
          {t("userMenu.signedInAs")}{" "}
          <span className="block font-medium text-stone-900 [overflow-wrap:anywhere]" data-testid="user-email">
            {user.email}
          </span>
        </p>
        <Link to="/account" className="rounded px-2 py-1.5 text-sm hover:bg-stone-100">
          {t("userMenu.account")}
        </Link>
        {user.isAdmin ? (
          <Link to="/admin" reloadDocument className="rounded px-2 py-1.5 text-sm hover:bg-stone-100">
            {t("userMenu.admin")}
          </Link>
        ) : null}
        <Form method="post" action="/logout">
          <button type="submit" className="w-full rounded px-2 py-1.5 text-left text-sm hover:bg-stone-100">
            {t("userMenu.logout")}
          </button>
        </Form>
      </div>
    </details>
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
export function SiteHeader({ shopName, language, currency, categories, user, cartCount }: SiteHeaderProps) {
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
    navLink(`/category/${category.slug}`, localized(category, "name", language), index === 0, "intent"),
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
          <Link
            to="/cart"
            className="flex items-center gap-1 whitespace-nowrap rounded-md px-1.5 py-1 text-sm font-medium hover:bg-white/10 sm:px-2"
            data-testid="header-cart"
          >
            <LineIcon className="h-5 w-5 shrink-0">
              <path d="M3 3h2l2.4 12.2a2 2 0 0 0 2 1.6h8.2a2 2 0 0 0 2-1.5L21 8H6" />
              <circle cx="10" cy="20" r="1.5" />
              <circle cx="18" cy="20" r="1.5" />
            </LineIcon>
            {/* The link's name is the sr-only text, which starts with the visible "Cart" (WCAG 2.5.3). */}
            <span aria-hidden="true" className="hidden sm:inline">
              {t("nav.cart")}
            </span>
            {cartCount > 0 ? (
              <span
                aria-hidden="true"
                data-testid="cart-count"
                className="min-w-5 rounded-full bg-amber-500 px-1.5 text-center text-xs font-bold leading-5 text-stone-900"
              >
                {cartCount}
              </span>
            ) : null}
            <span className="sr-only">{cartCount > 0 ? t("nav.cartItems", { count: cartCount }) : t("nav.cart")}</span>
          </Link>
          <UserMenu user={user} />

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
