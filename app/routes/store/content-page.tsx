import { data } from "react-router";
import { MarkdownBody } from "~/components/markdown-body";
import { publicPageMeta } from "~/components/store/public-page-meta";
import { isContentPageSlug } from "~/content/pages";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { useTranslation } from "~/lib/i18n";
import { renderMarkdown } from "~/lib/markdown.server";
import { getCurrency } from "~/middleware/currency";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { fillPlaceholders, findContentPage, placeholderValues } from "~/models/settings/content-pages.server";
import { getShop, shopName } from "~/models/settings/shop.server";
import type { Route } from "./+types/content-page";

/**
 * /shipping, /returns, /faq, /contact, /privacy, /terms: one template, the owner's text (or the
 * default) in the reader's language, with the shop's details and delivery charges (in the
 * reader's currency) filled in.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  // One module serves six paths; the path names the page (".data" on client navigations).
  const slug = new URL(request.url).pathname.replace(/\.data$/, "").split("/")[1] ?? "";
  if (!isContentPageSlug(slug)) throw data(null, { status: 404 });
  const language = getLanguage(context);
  const t = getInstance(context).t;
  const [page, shop] = await Promise.all([findContentPage(services(context).db, slug), getShop(context)]);
  const values = placeholderValues(shop, language, getCurrency(context), t("content.neverFree"));
  const text = page.text[language];
  return {
    title: fillPlaceholders(text.title, values, { markdown: false }),
    description: fillPlaceholders(text.description, values, { markdown: false }),
    html: renderMarkdown(fillPlaceholders(text.body, values, { markdown: true })),
    updated: formatDate(page.updated, language, "longDate"),
    siteName: shopName(shop, language),
  };
}

export default function ContentPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { title, html, updated } = loaderData;
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="mt-1 text-sm text-stone-500">{t("content.lastUpdated", { date: updated })}</p>
      <MarkdownBody html={html} className="mt-6" />
    </article>
  );
}

export const meta: Route.MetaFunction = ({ loaderData: page }) =>
  page ? publicPageMeta(`${page.title} | ${page.siteName}`, page.description) : [];
