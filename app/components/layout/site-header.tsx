import { type ReactNode, useEffect, useRef } from "react";
import { Link, useLocation } from "react-router";
import type { Currency } from "#db/schema";
import { ShopMark } from "~/components/shop-mark";
import { useTranslation } from "~/lib/i18n";
import { localized } from "~/lib/localize";
import type { Language } from "~/locales";
import { CurrencyPicker, LanguageToggle } from "./preference-forms";
import { SearchBox } from "./search-box";
import { VisitorSlot } from "./visitor-slot";

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
    <Link
      to="/"
      title={shopName}
      className="flex max-w-[20rem] items-center gap-2 font-bold tracking-tight xl:max-w-[16rem] xl:shrink-0"
    >
      <ShopMark />
      <span
        className={`line-clamp-2 min-w-12 leading-tight [overflow-wrap:anywhere] ${long ? "text-sm sm:text-base" : "text-base sm:text-lg"}`}
        data-testid="shop-name"
      >
        {shopName}
      </span>
    </Link>
  );
}

/**
 * The category links in the bar (from 1280 px): the links that do not fit on the one row wrap
 * onto a second row that the bar's height clips; every link is also in the menu. With
 * JavaScript the clipped ones are hidden outright, so the keyboard never lands on one.
 */
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
    <nav ref={ref} aria-label={label} className="hidden h-7 min-w-0 flex-wrap items-center overflow-hidden xl:flex">
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
  const here = useLocation().pathname.toLowerCase();
  const navLink = (to: string, label: string, prefetch?: "intent") => {
    const isActive = here === to || here.startsWith(`${to}/`);
    return (
      <Link
        key={to}
        to={to}
        prefetch={prefetch}
        aria-current={isActive ? "page" : undefined}
        className={`whitespace-nowrap rounded-md px-2 py-1 text-sm font-medium hover:bg-white/10 ${isActive ? "text-brand-100 underline underline-offset-4" : ""}`}
      >
        {label}
      </Link>
    );
  };
  const navLinks = [
    ...categories.map((category) =>
      navLink(`/category/${category.slug}`, localized(category, "name", language), "intent"),
    ),
    navLink("/blog", t("nav.blog")),
  ];

  return (
    <header className="sticky top-0 z-40 bg-brand-900 text-white shadow" data-testid="site-header">
      <div className="mx-auto flex max-w-7xl flex-nowrap items-center gap-1.5 px-2 py-3 sm:gap-3 sm:px-4">
        <Brand shopName={shopName} />

        <BarNav label={t("nav.categories")}>{navLinks}</BarNav>

        {/* Never narrower than 13rem: it grows into whatever the name and the links leave. */}
        <div className="ml-auto hidden max-w-md flex-[1_0_13rem] md:block">
          <SearchBox id="search-desktop" language={language} />
        </div>

        <div className="ml-auto flex shrink-0 items-center gap-0.5 sm:gap-1 md:ml-0">
          <LanguageToggle language={language} short />
          <CurrencyPicker currency={currency} id="currency-desktop" className="hidden lg:flex" />
          <VisitorSlot />

          {/* The menu is a <details> element: it opens and closes without JavaScript. */}
          <details className="menu">
            <summary
              className="cursor-pointer rounded-md px-1.5 py-1 text-sm font-medium hover:bg-white/10 sm:px-2"
              aria-label={t("nav.openMenu")}
            >
              <LineIcon className="inline h-6 w-6">
                <path d="M4 6h16M4 12h16M4 18h16" />
              </LineIcon>
              <span className="sr-only">{t("nav.menu")}</span>
            </summary>
            <div className="absolute inset-x-0 top-full flex flex-col gap-3 border-t border-white/10 bg-brand-900 p-4 shadow-xl">
              <div className="md:hidden">
                <SearchBox id="search-mobile" language={language} />
              </div>
              <nav aria-label={t("nav.menu")} className="flex flex-col gap-1">
                {navLinks}
              </nav>
              <CurrencyPicker currency={currency} id="currency-mobile" className="lg:hidden" />
            </div>
          </details>
        </div>
      </div>
    </header>
  );
}
