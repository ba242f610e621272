import type { ReactNode } from "react";
import { SiteFooter } from "~/components/layout/site-footer";
import { SiteHeader } from "~/components/layout/site-header";
import { FlashBanner } from "~/components/ui/flash-banner";
import { useRootData } from "~/lib/root-data";

/** Header, flash message and footer around a storefront page (or its error page). */
export function StoreShell({ children }: { children: ReactNode }) {
  const root = useRootData();
  if (!root) return <main id="main">{children}</main>;
  return (
    <>
      <SiteHeader
        shopName={root.shop.name}
        language={root.language}
        currency={root.currency}
        categories={root.categories}
      />
      <div className="px-4">
        <FlashBanner flash={root.flash} />
      </div>
      <main id="main">{children}</main>
      <SiteFooter categories={root.categories} year={root.year} shop={root.shop} />
    </>
  );
}
