import { Link } from "react-router";
import { AdminSection } from "~/components/admin/admin-section";
import { AdminTable } from "~/components/admin/admin-table";
import { CustomerStatusBadge } from "~/components/admin/badges";
import { AdminPageHeader } from "~/components/admin/page-header";
import { SortInputs, useSortHeaders } from "~/components/admin/sort-header";
import { StatCard } from "~/components/admin/stat-card";
import { Pagination } from "~/components/ui/pagination";
import { SearchForm } from "~/components/ui/search-form";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { useTranslation } from "~/lib/i18n";
import { CUSTOMER_SORTS, parseSort } from "~/lib/list-sort";
import { privatePageMeta } from "~/lib/meta";
import { formatMoney } from "~/lib/money";
import { getInstance, getLanguage } from "~/middleware/i18next";
import {
  type CustomerRow,
  countryName,
  customerSummary,
  listCustomers,
  listIpActivity,
  type MoneyTotal,
  normalizeCustomerSearch,
} from "~/models/customers.server";
import { requireAdmin } from "~/request/auth.server";
import type { Route } from "./+types/customers";

const PATH = "/admin/customers";

/** GET /admin/customers?q=&sort=&dir=&page=: the cards, one page of 25 accounts and the IP activity. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const { db } = services(context);
  const url = new URL(request.url);
  const q = normalizeCustomerSearch(url.searchParams.get("q"));
  const language = getLanguage(context);
  const sort = parseSort(CUSTOMER_SORTS, url.searchParams);
  const [summary, listing, activity] = await Promise.all([
    customerSummary(db),
    listCustomers(db, { search: q, sort, page: Number(url.searchParams.get("page") ?? 1) }),
    listIpActivity(db),
  ]);
  const t = getInstance(context).t;
  return {
    summary: { ...summary, topCountryName: countryName(summary.topCountry, language) },
    // Country codes become names in the reader's language here, on the server.
    customers: listing.customers.map((customer) => ({ ...customer, location: locationOf(customer, language) })),
    total: listing.total,
    page: listing.page,
    pages: listing.pages,
    activity,
    q,
    sort,
    language,
    /** The export is the owner's. */
    canExport: admin.role === "owner",
    title: `${t("adminCustomers.title")} | ${t("admin.title")}`,
  };
}

function locationOf(customer: Pick<CustomerRow, "city" | "country">, language: "en" | "zh"): string | null {
  return [customer.city, countryName(customer.country, language)].filter(Boolean).join(", ") || null;
}

function Totals({ totals }: { totals: MoneyTotal[] }) {
  const { t } = useTranslation();
  if (totals.length === 0) return <span className="text-stone-500">{t("adminCustomers.none")}</span>;
  return (
    <ul className="flex flex-col gap-0.5">
      {totals.map((total) => (
        <li key={total.currency} className="whitespace-nowrap">
          {formatMoney(total.cents, total.currency)}
        </li>
      ))}
    </ul>
  );
}

const COLUMNS = ["email", "ip", "location", "lastLogin", "orders", "totalSpent", "status", "view"] as const;

export default function AdminCustomers({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { summary, customers, total, page, pages, activity, q, sort, language, canExport } = loaderData;
  const none = t("adminCustomers.none");
  const sortable = useSortHeaders(CUSTOMER_SORTS, sort);
  return (
    <div className="max-w-7xl">
      <AdminPageHeader title={t("adminCustomers.title")} intro={t("adminCustomers.intro")}>
        {/* A native form post: the answer is a file download, with or without JavaScript. */}
        {canExport ? (
          <form method="post" action={`${PATH}/export`} className="flex flex-col gap-1 sm:items-end">
            {q ? <input type="hidden" name="q" value={q} /> : null}
            <button
              type="submit"
              className="self-start rounded-md border border-stone-300 bg-white px-4 py-2 text-sm font-semibold hover:bg-stone-50 sm:self-end"
            >
              {t("adminCustomers.exportData")}
            </button>
            {/* stone-600: 4.5:1 and more on the page's stone-100 (stone-500 was 4.38:1). */}
            <p className="max-w-xs text-xs text-stone-600 sm:text-right">{t("adminCustomers.exportHint")}</p>
          </form>
        ) : null}
      </AdminPageHeader>

      <section aria-label={t("adminCustomers.title")} className="mt-6 grid grid-cols-2 gap-4 lg:grid-cols-4">
        <StatCard testId="card-total" label={t("adminCustomers.cards.total")} value={summary.total} />
        <StatCard
          testId="card-active"
          label={t("adminCustomers.cards.active")}
          value={summary.active}
          hint={t("adminCustomers.cards.activePercent", { percent: summary.activePercent })}
        />
        <StatCard testId="card-countries" label={t("adminCustomers.cards.countries")} value={summary.countries} />
        <StatCard
          testId="card-top-country"
          label={t("adminCustomers.cards.topCountry")}
          value={summary.topCountryName ?? none}
        />
      </section>

      <SearchForm
        id="customer-search"
        q={q}
        label={t("adminCustomers.searchLabel")}
        placeholder={t("adminCustomers.searchPlaceholder")}
        submitLabel={t("adminCustomers.search")}
        clear={{ to: PATH, label: t("adminCustomers.clearSearch") }}
        className="mt-6"
      >
        <SortInputs sort={sort} />
      </SearchForm>

      {total === 0 ? (
        <p className="mt-6 rounded-lg bg-white p-8 text-center text-stone-600 shadow-sm" data-testid="empty-state">
          {q ? t("adminCustomers.noMatch", { q }) : t("adminCustomers.empty")}
        </p>
      ) : (
        <>
          <p className="mt-4 text-sm text-stone-600" data-testid="customer-count">
            {t("adminCustomers.showing", { count: total })}
          </p>
          <AdminTable
            columns={COLUMNS.map((column) =>
              column === "email" || column === "status"
                ? sortable(column, t(`adminCustomers.columns.${column}`))
                : t(`adminCustomers.columns.${column}`),
            )}
            minWidth="min-w-[52rem]"
            testId="customers-table"
          >
            {customers.map((customer) => (
              <tr key={customer.id} data-customer-id={customer.id}>
                <td className="max-w-[14rem] px-3 py-2">
                  <span className="block truncate font-medium" title={customer.email}>
                    {customer.email}
                  </span>
                  {customer.name ? (
                    <span className="block truncate text-xs text-stone-600" data-testid="customer-name">
                      {customer.name}
                    </span>
                  ) : null}
                </td>
                <td className="whitespace-nowrap px-3 py-2 font-mono text-xs">{customer.last_login_ip ?? none}</td>
                <td className="min-w-[9rem] px-3 py-2">{customer.location ?? none}</td>
                <td className="whitespace-nowrap px-3 py-2">
                  <span className="block">{formatDate(customer.last_login_at, language)}</span>
                  <span className="block text-xs text-stone-500">
                    {formatDate(customer.last_login_at, language, "time")}
                  </span>
                </td>
                <td className="px-3 py-2 text-right tabular-nums" data-testid="order-count">
                  {customer.order_count}
                </td>
                <td className="px-3 py-2 tabular-nums" data-testid="total-spent">
                  <Totals totals={customer.totals} />
                </td>
                <td className="px-3 py-2">
                  <CustomerStatusBadge status={customer.status} />
                </td>
                <td className="px-3 py-2">
                  <Link
                    to={`${PATH}/${customer.id}`}
                    aria-label={t("adminCustomers.viewNamed", { email: customer.email })}
                    className="whitespace-nowrap rounded-md border border-stone-300 px-2 py-1 text-xs font-medium hover:bg-stone-100"
                  >
                    {t("adminCustomers.view")}
                  </Link>
                </td>
              </tr>
            ))}
          </AdminTable>
          <Pagination page={page} pages={pages} />
        </>
      )}

      <AdminSection
        id="ip-activity"
        look="bare"
        className="mt-10"
        heading={t("adminCustomers.ipActivity.title")}
        intro={t("adminCustomers.ipActivity.intro")}
        empty={activity.length === 0 ? t("adminCustomers.ipActivity.empty") : null}
      >
        <AdminTable
          columns={[
            { label: t("adminCustomers.ipActivity.address"), className: "whitespace-nowrap" },
            { label: t("adminCustomers.ipActivity.accounts"), className: "text-right" },
            { label: t("adminCustomers.ipActivity.signIns"), className: "text-right" },
            t("adminCustomers.ipActivity.lastSeen"),
          ]}
          minWidth="min-w-[36rem]"
          className="mt-3"
          tableTestId="ip-activity"
          labelledBy="ip-activity-heading"
        >
          {activity.map((entry) => (
            <tr key={entry.ip} data-ip={entry.ip}>
              <td className="px-3 py-2">
                <span className="font-mono text-xs">{entry.ip}</span>
                {entry.accounts > 1 ? (
                  <span
                    data-testid="shared-ip"
                    className="ml-2 inline-block whitespace-nowrap rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900"
                  >
                    {t("adminCustomers.ipActivity.shared", { count: entry.accounts })}
                  </span>
                ) : null}
              </td>
              <td className="px-3 py-2 text-right tabular-nums">{entry.accounts}</td>
              <td className="px-3 py-2 text-right tabular-nums">{entry.sign_ins}</td>
              <td className="whitespace-nowrap px-3 py-2">{formatDate(entry.last_seen, language, "dateTime")}</td>
            </tr>
          ))}
        </AdminTable>
      </AdminSection>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Customers");
