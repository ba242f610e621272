import { useEffect, useState } from "react";
import { data, Links, Meta, Outlet, ScrollRestoration } from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { ErrorMessage, errorPageHeaders } from "./components/layout/route-error-boundary";
import { Scripts } from "./components/ui/scripts";
import { services } from "./context";
import { isDocumentRequest, putDocumentOnly } from "./lib/document-only";
import { useSetTranslations, useTranslation } from "./lib/i18n";
import { localized } from "./lib/localize";
import { useNonce } from "./lib/nonce";
import {
  cacheRenderContext,
  NAV_CATEGORIES,
  SHOP_FOOTER,
  SLOT_PREFIX,
  useRootData,
  type VisitorView,
  visitorJson,
} from "./lib/root-data";
import { loadTranslations } from "./lib/translations";
import { translationsUrl } from "./lib/translations.server";
import { HTML_LANG } from "./locales";
import { partForPath } from "./locales/parts";
import { getCurrency } from "./middleware/currency";
import { getLanguage } from "./middleware/i18next";
import { outageMiddleware, retryAfterMiddleware } from "./middleware/outage";
import { pageViewMiddleware } from "./middleware/page-views";
import { traceMiddleware } from "./middleware/trace";
import { visitorMiddleware } from "./middleware/visitor";
import { listActiveCategories } from "./models/categories.server";
import { getShop, shopIdentity } from "./models/settings/shop.server";
import { getUser } from "./request/auth.server";
import { headerCartCount } from "./request/cart.server";
import { takeFlash } from "./request/flash.server";

export const middleware: Route.MiddlewareFunction[] = [
  retryAfterMiddleware,
  outageMiddleware,
  visitorMiddleware,
  traceMiddleware,
  pageViewMiddleware,
];

/**
 * Canonical URL and hreflang alternates: both languages live at the same path, told apart by
 * ?lng=. A page's canonical URL is the address that shows what it shows: a Chinese page (by
 * ?lng=zh, the cookie or Accept-Language) is its `?lng=zh` address, as its structured data says
 * (app/lib/structured-data.server.ts); an English one the plain address (x-default).
 */
function seoLinks(request: Request, publicUrl: string, language: string) {
  const url = new URL(request.url);
  const path = url.pathname.replace(/\.data$/, "") || "/";
  const keep = new URLSearchParams();
  for (const key of ["q", "page"]) {
    const value = url.searchParams.get(key);
    if (value) keep.set(key, value);
  }
  const at = (lng?: string) => {
    const params = new URLSearchParams(keep);
    if (lng) params.set("lng", lng);
    const query = params.toString();
    return `${publicUrl}${path}${query ? `?${query}` : ""}`;
  };
  const lng = url.searchParams.get("lng");
  return {
    canonical: at(lng === "en" ? "en" : language === "zh" ? "zh" : undefined),
    alternates: [
      { hrefLang: "en", href: at("en") },
      { hrefLang: "zh-Hant-HK", href: at("zh") },
      { hrefLang: "x-default", href: at() },
    ],
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, config } = services(context);
  const [categories, cartCount, shop] = await Promise.all([
    listActiveCategories(db),
    headerCartCount(context, request),
    getShop(context),
  ]);
  const user = getUser(context);
  const language = getLanguage(context);
  // What the header shows of the visitor, as one string (docs/decisions/067); on a render for the
  // page cache, a token the cache cuts at instead (server/page-slots.ts): the stored page holds nobody's.
  const slot = context.get(cacheRenderContext);
  const path = new URL(request.url).pathname.replace(/\.data$/, "");
  // The nav's categories in the reader's language only (a language change loads the root again).
  const nav = categories.map((category) => ({ slug: category.slug, name: localized(category, "name", language) }));
  // A storefront document shows them in its header and footer: its data does not repeat them
  // (decision 071). A client navigation's data, and an admin document's, carry them.
  const documentNav = isDocumentRequest(request) && partForPath(path) === "store";
  const identity = shopIdentity(shop, language);
  if (documentNav) {
    putDocumentOnly(context, NAV_CATEGORIES, nav);
    putDocumentOnly(context, SHOP_FOOTER, identity);
  }
  const view: VisitorView = { email: user?.email ?? null, admin: user?.isAdmin === true, cartCount };
  return data({
    language,
    // The owner's shop name (Settings → Shop details): the header and the admin's bar show it.
    shop: { name: identity.name },
    // The footer's shop details (address, support e-mail, "Supported By" mark); like the nav
    // categories, not repeated in a storefront document's data (decision 071).
    footer: documentNav ? null : identity,
    currency: getCurrency(context),
    // The root loader alone reads the flash message, so it shows in the server HTML.
    flash: takeFlash(context),
    year: new Date().getFullYear(),
    visitor: slot ? `${SLOT_PREFIX}${slot}` : visitorJson(view),
    seo: seoLinks(request, config.publicUrl, language),
    // The browser's interface text: fetched as JSON before hydration, not bundled in the scripts.
    translations: translationsUrl(getLanguage(context), partForPath(path)),
    categories: documentNav ? null : nav,
  });
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRootData();
  const { t, language: rendered } = useTranslation();
  const nonce = useNonce();
  // Without the root loader's data (it failed: the error page), the language the page renders in.
  const language = root?.language ?? (rendered === "zh" ? "zh" : "en");
  return (
    <html lang={HTML_LANG[language]}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#232a12" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        {root ? <link rel="canonical" href={root.seo.canonical} /> : null}
        {root?.seo.alternates.map((alt) => (
          <link key={alt.hrefLang} rel="alternate" hrefLang={alt.hrefLang} href={alt.href} />
        ))}
        {root ? (
          <link rel="preload" href={root.translations} as="fetch" crossOrigin="use-credentials" id="translations" />
        ) : null}
        <Links />
      </head>
      <body>
        <a href="#main" className="skip">
          {t("nav.skipToContent")}
        </a>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const setTranslations = useSetTranslations();
  const { language, translations } = loaderData;
  const [loaded, setLoaded] = useState(translations);
  // Moving between the storefront and /admin, or changing language, without a page load: fetch
  // the text the new page needs before showing it (the server already rendered it that way).
  useEffect(() => {
    if (loaded === translations) return;
    let cancelled = false;
    void loadTranslations(translations).then((messages) => {
      if (cancelled) return;
      setTranslations(language, messages);
      setLoaded(translations);
    });
    return () => {
      cancelled = true;
    };
  }, [translations, loaded, language, setTranslations]);
  return <Outlet />;
}

/** A thrown 503's Retry-After reaches the error page's answer. */
export const headers = errorPageHeaders;

/** Last resort, for errors outside the store and admin layouts: no stack trace, in the reader's language where known. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <main id="main">
      <ErrorMessage error={error} />
    </main>
  );
}
