import { Outlet } from "react-router";
import { SiteFooter } from "~/components/layout/site-footer";
import { SiteHeader } from "~/components/layout/site-header";
import { FlashBanner } from "~/components/ui/flash-banner";
import { useRootData } from "~/lib/root-data";

/** Header and footer around every storefront page. */
export default function StoreLayout() {
  const root = useRootData();
  if (!root) return <Outlet />;
  return (
    <>
      <SiteHeader
        shopName={root.shop.name}
        language={root.language}
        currency={root.currency}
        categories={root.categories}
        user={root.user}
        cartCount={root.cartCount}
      />
      <div className="px-4">
        <FlashBanner flash={root.flash} />
      </div>
      <main id="main">
        <Outlet />
      </main>
      <SiteFooter language={root.language} categories={root.categories} year={root.year} shop={root.shop} />
    </>
  );
}
