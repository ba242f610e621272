import type { FormEvent, MouseEvent, ReactNode } from "react";
import { useNavigate, useSubmit } from "react-router";
import { useTranslation } from "~/lib/i18n";
import { useVisitor, type VisitorView } from "~/lib/root-data";

/**
 * The header's per-visitor part: the cart link with its badge and the account menu
 * (docs/decisions/067). The page cache stores catalogue pages without it and puts in each
 * visitor's own at serve time (server/page-slots.ts), rendered from `VisitorSlotMarkup` alone,
 * outside React Router: so its markup is plain elements whose every attribute comes from the
 * view and the language (no router-made href, no `useId`); client navigation is an onClick,
 * which is not in the markup.
 */
export function VisitorSlot() {
  const visitor = useVisitor();
  const navigate = useNavigate();
  const submit = useSubmit();
  // A page rendered to be stored: a marker where each visitor's own part goes.
  if (visitor.slot) return <b hidden data-vs={visitor.slot} />;
  return (
    <VisitorSlotMarkup
      view={visitor}
      onNavigate={(event) => {
        if (!isPlainClick(event)) return;
        event.preventDefault();
        void navigate(event.currentTarget.getAttribute("href") ?? "/");
      }}
      onLogout={(event) => {
        event.preventDefault();
        void submit(event.currentTarget);
      }}
    />
  );
}

/** The marker a page rendered for the cache holds in the VisitorSlot's place (as React renders it). */
export function slotMarker(token: string): string {
  return `<b hidden="" data-vs="${token}"></b>`;
}

/** A left click without a modifier key: the one a link's client navigation takes over (as Link does). */
function isPlainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !event.metaKey &&
    !event.altKey &&
    !event.ctrlKey &&
    !event.shiftKey
  );
}

/** A 24×24 line icon in the text's colour (user, cart); decorative, the control names itself. */
function LineIcon({ className, children }: { className: string; children: ReactNode }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth="2">
      {children}
    </svg>
  );
}

/**
 * The cart link and the account menu for one view. Signed out: a Login link. Signed in: a user
 * icon opening a menu (a <details>, no JS needed); the e-mail is inside the menu, never in the
 * bar, so a long address cannot squeeze the header. The handlers are the in-page render's only.
 */
export function VisitorSlotMarkup({
  view,
  onNavigate,
  onLogout,
}: {
  view: VisitorView;
  onNavigate?: (event: MouseEvent<HTMLAnchorElement>) => void;
  onLogout?: (event: FormEvent<HTMLFormElement>) => void;
}) {
  const { t } = useTranslation();
  const { cartCount } = view;
  return (
    <>
      <a
        href="/cart"
        onClick={onNavigate}
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
      </a>
      {view.email === null ? (
        <a
          href="/login"
          onClick={onNavigate}
          className="whitespace-nowrap rounded-md px-1.5 py-1 text-sm font-medium hover:bg-white/10 sm:px-2"
        >
          {t("nav.login")}
        </a>
      ) : (
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
                {view.email}
              </span>
            </p>
            <a href="/account" onClick={onNavigate} className="rounded px-2 py-1.5 text-sm hover:bg-stone-100">
              {t("userMenu.account")}
            </a>
            {/* The admin is another application: a whole page load. */}
            {view.admin ? (
              <a href="/admin" className="rounded px-2 py-1.5 text-sm hover:bg-stone-100">
                {t("userMenu.admin")}
              </a>
            ) : null}
            <form method="post" action="/logout" onSubmit={onLogout}>
              <button type="submit" className="w-full rounded px-2 py-1.5 text-left text-sm hover:bg-stone-100">
                {t("userMenu.logout")}
              </button>
            </form>
          </div>
        </details>
      )}
    </>
  );
}
