import { type ReactNode, useEffect } from "react";
import { useRevalidator } from "react-router";
import { FOOTER_MARKUP, SiteFooter } from "~/components/layout/site-footer";
import { type NavCategory, SiteHeader } from "~/components/layout/site-header";
import { FlashBanner } from "~/components/ui/flash-banner";
import { hasKeptMarkup } from "~/components/ui/kept-markup";
import { useDocumentOnly } from "~/lib/document-only";
import { NAV_CATEGORIES, SHOP_FOOTER, useRootData } from "~/lib/root-data";
import type { ShopIdentity } from "~/models/settings/shop.server";

/** Header, flash message and footer around a storefront page (or its error page). */
export function StoreShell({ children }: { children: ReactNode }) {
  const root = useRootData();
  // On the server, a document's categories are kept for its render; in the browser they are in
  // the root's data once it has loaded again, and until then the header and footer keep the
  // document's markup (decision 071).
  const documentNav = useDocumentOnly<NavCategory[]>(NAV_CATEGORIES);
  const categories = documentNav ?? root?.categories ?? null;
  const footer = useDocumentOnly<ShopIdentity>(SHOP_FOOTER) ?? root?.footer ?? null;
  const { revalidate } = useRevalidator();
  // Put on the screen without a storefront document's markup to keep (a storefront page reached
  // from a document that had no store header): ask the root for its categories.
  useEffect(() => {
    if (!root) return;
    if ((!categories && !hasKeptMarkup(NAV_CATEGORIES)) || (!footer && !hasKeptMarkup(FOOTER_MARKUP)))
      void revalidate();
  }, [root, categories, footer, revalidate]);
  if (!root) return <main id="main">{children}</main>;
  return (
    <>
      <SiteHeader shopName={root.shop.name} language={root.language} currency={root.currency} categories={categories} />
      <div className="px-4">
        <FlashBanner flash={root.flash} />
      </div>
      <main id="main">{children}</main>
      <SiteFooter categories={categories} year={root.year} shop={footer} />
    </>
  );
}
