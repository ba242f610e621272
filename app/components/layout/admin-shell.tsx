import type { ReactNode } from "react";
import { Form, Link, NavLink } from "react-router";
import type { AdminRole } from "#db/schema";
import { DemoAccountBanner } from "~/components/admin/demo-banner";
import { LanguageToggle } from "~/components/layout/preference-forms";
import { FlashBanner } from "~/components/ui/flash-banner";
import { useTranslation } from "~/lib/i18n";
import { useRootData } from "~/lib/root-data";

/** The sections; `ownerOnly` ones are not shown to staff (the server refuses them too). */
const SECTIONS = [
  { to: "/admin", key: "admin.dashboard", end: true, ownerOnly: false },
  { to: "/admin/products", key: "admin.products", end: false, ownerOnly: false },
  { to: "/admin/categories", key: "admin.categories", end: false, ownerOnly: false },
  { to: "/admin/brands", key: "adminBrands.nav", end: false, ownerOnly: false },
  { to: "/admin/orders", key: "admin.orders", end: false, ownerOnly: false },
  { to: "/admin/discounts", key: "adminDiscounts.nav", end: false, ownerOnly: false },
  { to: "/admin/messages", key: "adminMessages.nav", end: false, ownerOnly: false },
  { to: "/admin/customers", key: "admin.customers", end: false, ownerOnly: false },
  { to: "/admin/blog", key: "admin.blog", end: false, ownerOnly: false },
  { to: "/admin/staff", key: "adminStaff.nav", end: false, ownerOnly: true },
  { to: "/admin/settings", key: "admin.settings", end: false, ownerOnly: true },
] as const;

/**
 * The sections, once in the desk sidebar and once in the phone drawer (CSS shows one): each
 * `nav` has its own label, so the two landmarks are told apart.
 */
function AdminNav({ label, role }: { label: string; role: AdminRole }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={label} className="flex flex-col gap-1">
      {SECTIONS.filter((section) => role === "owner" || !section.ownerOnly).map((section) => (
        <NavLink
          key={section.to}
          to={section.to}
          end={section.end}
          className={({ isActive }) =>
            `rounded-md px-3 py-2 text-sm font-medium ${isActive ? "bg-white/15 text-white" : "text-stone-300 hover:bg-white/10 hover:text-white"}`
          }
        >
          {t(section.key)}
        </NavLink>
      ))}
    </nav>
  );
}

function ShellActions({ email }: { email: string }) {
  const { t } = useTranslation();
  const root = useRootData();
  return (
    <div className="mt-auto flex flex-col gap-2 border-t border-white/10 pt-4 text-sm">
      <p className="truncate text-stone-400" title={email}>
        {email}
      </p>
      <LanguageToggle language={root?.language ?? "en"} className="text-stone-200" />
      <Link to="/" className="rounded-md px-2 py-1 text-stone-200 hover:bg-white/10">
        {t("admin.viewStore")}
      </Link>
      <Form method="post" action="/logout">
        <input type="hidden" name="to" value="/admin/login" />
        <button type="submit" className="w-full rounded-md px-2 py-1 text-left text-stone-200 hover:bg-white/10">
          {t("admin.logout")}
        </button>
      </Form>
    </div>
  );
}

export interface AdminShellData {
  email: string;
  role: AdminRole;
  demoBanner: { demoMode: boolean } | null;
}

/** The admin shell (sidebar, phone drawer, demo banner, flash) around an admin page or its error page. */
export function AdminShell({ email, role, demoBanner, children }: AdminShellData & { children: ReactNode }) {
  const { t } = useTranslation();
  const root = useRootData();
  return (
    <div className="min-h-screen bg-stone-100 lg:flex">
      <aside className="hidden w-60 shrink-0 flex-col gap-6 bg-stone-900 p-4 text-white lg:flex">
        <Link to="/admin" className="text-lg font-bold [overflow-wrap:anywhere]">
          {root?.shop.name} · {t("admin.title")}
        </Link>
        <AdminNav label={t("admin.menu")} role={role} />
        <ShellActions email={email} />
      </aside>
      {/* Phone-width drawer: a <details> element, opens without JavaScript. */}
      <details className="menu bg-stone-900 text-white lg:hidden">
        <summary className="flex cursor-pointer items-center justify-between gap-3 px-4 py-3 font-bold">
          <span className="min-w-0 [overflow-wrap:anywhere]">
            {root?.shop.name} · {t("admin.title")}
          </span>
          <span aria-hidden="true">☰</span>
          <span className="sr-only">{t("admin.menu")}</span>
        </summary>
        <div className="flex flex-col gap-4 px-4 pb-4">
          <AdminNav label={t("admin.navDrawer")} role={role} />
          <ShellActions email={email} />
        </div>
      </details>
      <main id="main" className="min-w-0 flex-1 p-4 lg:p-8">
        {demoBanner ? <DemoAccountBanner demoMode={demoBanner.demoMode} owner={role === "owner"} /> : null}
        <FlashBanner flash={root?.flash} />
        {children}
      </main>
    </div>
  );
}
