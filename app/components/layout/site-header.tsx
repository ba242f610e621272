import { Form, Link, NavLink } from "react-router";
import type { Currency } from "#db/schema";
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
  language: Language;
  currency: Currency;
  categories: NavCategory[];
  user: { email: string; isAdmin: boolean } | null;
  cartCount: number;
}

/** Signed out: a Login link. Signed in: the e-mail opening a menu (a <details>, no JS needed). */
function UserMenu({ user }: { user: SiteHeaderProps["user"] }) {
  const { t } = useTranslation();
  if (!user) {
    return (
      <Link to="/login" className="rounded-md px-2 py-1 text-sm font-medium hover:bg-white/10">
        {t("nav.login")}
      </Link>
    );
  }
  return (
    <details className="menu relative" data-testid="user-menu">
      <summary className="flex max-w-[9rem] cursor-pointer items-center gap-1 rounded-md px-2 py-1 text-sm font-medium hover:bg-white/10 sm:max-w-[14rem]">
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="h-5 w-5 shrink-0"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <circle cx="12" cy="8" r="4" />
          <path d="M4 21c0-4 4-6 8-6s8 2 8 6" />
        </svg>
        <span className="hidden truncate sm:inline">{user.email}</span>
        <span className="sr-only sm:hidden">{user.email}</span>
      </summary>
      <div className="absolute right-0 z-50 mt-2 flex w-56 flex-col gap-1 rounded-md bg-white p-2 text-stone-900 shadow-xl ring-1 ring-black/10">
        <p className="truncate px-2 py-1 text-xs text-stone-500">
          {t("userMenu.signedInAs")} {user.email}
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

export function SiteHeader({ language, currency, categories, user, cartCount }: SiteHeaderProps) {
  const { t } = useTranslation();
  const navClass = ({ isActive }: { isActive: boolean }) =>
    `rounded-md px-2 py-1 text-sm font-medium hover:bg-white/10 ${isActive ? "text-brand-100 underline underline-offset-4" : ""}`;
  const categoryLinks = categories.map((category) => (
    <NavLink key={category.id} to={`/category/${category.slug}`} className={navClass} prefetch="intent">
      {localized(category, "name", language)}
    </NavLink>
  ));

  return (
    <header className="sticky top-0 z-40 bg-brand-900 text-white shadow">
      <div className="mx-auto flex max-w-7xl items-center gap-2 px-3 py-3 sm:gap-3 sm:px-4">
        <Link
          to="/"
          className="flex min-w-0 items-center gap-2 text-base font-bold tracking-tight sm:text-lg"
          aria-label={t("meta.siteName")}
        >
          <svg aria-hidden="true" viewBox="0 0 32 32" className="h-8 w-8 shrink-0">
            <circle cx="16" cy="16" r="14" fill="none" stroke="currentColor" strokeWidth="2.5" />
            <path d="M16 4v8M16 20v8M4 16h8M20 16h8" stroke="currentColor" strokeWidth="2.5" />
            <circle cx="16" cy="16" r="2.5" fill="#a3b86c" />
          </svg>
          <span className="truncate">{t("meta.siteName")}</span>
        </Link>

        <nav aria-label={t("nav.categories")} className="hidden flex-1 items-center gap-1 lg:flex">
          {categoryLinks}
          <NavLink to="/blog" className={navClass}>
            {t("nav.blog")}
          </NavLink>
        </nav>

        <div className="ml-auto hidden w-56 md:block">
          <SearchBox id="search-desktop" language={language} />
        </div>

        <div className="ml-auto flex shrink-0 items-center gap-0.5 sm:gap-1 md:ml-0">
          <LanguageToggle language={language} />
          <CurrencyPicker currency={currency} id="currency-desktop" className="hidden md:flex" />
          <Link
            to="/cart"
            className="relative rounded-md px-2 py-1 text-sm font-medium hover:bg-white/10"
            aria-label={cartCount > 0 ? t("nav.cartItems", { count: cartCount }) : t("nav.cart")}
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="inline h-5 w-5"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <path d="M3 3h2l2.4 12.2a2 2 0 0 0 2 1.6h8.2a2 2 0 0 0 2-1.5L21 8H6" />
              <circle cx="10" cy="20" r="1.5" />
              <circle cx="18" cy="20" r="1.5" />
            </svg>
            <span className="ml-1 hidden sm:inline">{t("nav.cart")}</span>
            {cartCount > 0 ? (
              <span
                data-testid="cart-count"
                className="absolute -right-1 -top-1 min-w-5 rounded-full bg-amber-500 px-1.5 text-center text-xs font-bold leading-5 text-stone-900"
              >
                {cartCount}
              </span>
            ) : null}
          </Link>
          <UserMenu user={user} />

          {/* The mobile menu is a <details> element: it opens and closes without JavaScript. */}
          <details className="menu lg:hidden">
            <summary
              className="cursor-pointer rounded-md px-2 py-1 text-sm font-medium hover:bg-white/10"
              aria-label={t("nav.openMenu")}
            >
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                className="inline h-6 w-6"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
              >
                <path d="M4 6h16M4 12h16M4 18h16" />
              </svg>
              <span className="sr-only">{t("nav.menu")}</span>
            </summary>
            <div className="absolute inset-x-0 top-full flex flex-col gap-3 border-t border-white/10 bg-brand-900 p-4 shadow-xl">
              <SearchBox id="search-mobile" language={language} />
              <nav aria-label={t("nav.menu")} className="flex flex-col gap-1">
                {categoryLinks}
                <NavLink to="/blog" className={navClass}>
                  {t("nav.blog")}
                </NavLink>
              </nav>
              <CurrencyPicker currency={currency} id="currency-mobile" />
            </div>
          </details>
        </div>
      </div>
    </header>
  );
}
