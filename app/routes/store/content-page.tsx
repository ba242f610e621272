import { data } from "react-router";
import { contentPage, isContentPageSlug } from "~/content/pages";
import { useTranslation } from "~/lib/i18n";
import { getInstance, getLanguage } from "~/middleware/i18next";
import type { Route } from "./+types/content-page";

/** /shipping, /returns, /faq, /contact, /privacy, /terms: one template, text in the reader's language. */
export async function loader({ request, context }: Route.LoaderArgs) {
  // One module serves six paths; the path names the page (".data" on client navigations).
  const slug = new URL(request.url).pathname.replace(/\.data$/, "").split("/")[1] ?? "";
  if (!isContentPageSlug(slug)) throw data(null, { status: 404 });
  const language = getLanguage(context);
  const page = contentPage(slug, language);
  return { slug, page, siteName: getInstance(context).t("meta.siteName"), language };
}

export default function ContentPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { page, language } = loaderData;
  const updated = new Intl.DateTimeFormat(language === "zh" ? "zh-HK" : "en-GB", { dateStyle: "long" }).format(
    new Date(page.updated),
  );
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-bold">{page.title}</h1>
      <p className="mt-1 text-sm text-stone-500">{t("content.lastUpdated", { date: updated })}</p>
      <p className="mt-6 text-lg leading-relaxed text-stone-700">{page.intro}</p>
      {page.sections.map((section) => (
        <section key={section.heading} className="mt-8">
          <h2 className="mb-3 text-xl font-semibold">{section.heading}</h2>
          {section.paragraphs?.map((paragraph) => (
            <p key={paragraph} className="mb-3 leading-relaxed text-stone-700">
              {paragraph}
            </p>
          ))}
          {section.items ? (
            <ul className="mb-3 list-disc space-y-1 pl-6 text-stone-700">
              {section.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          ) : null}
          {section.qa ? (
            <dl className="space-y-4">
              {section.qa.map(({ q, a }) => (
                <div key={q} className="rounded-md border border-stone-200 bg-white p-4">
                  <dt className="font-semibold">{q}</dt>
                  <dd className="mt-1 leading-relaxed text-stone-700">{a}</dd>
                </div>
              ))}
            </dl>
          ) : null}
        </section>
      ))}
    </article>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  return [
    { title: `${loaderData.page.title} | ${loaderData.siteName}` },
    { name: "description", content: loaderData.page.description },
  ];
}
