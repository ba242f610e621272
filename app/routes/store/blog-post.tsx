import { data, Link } from "react-router";
import { services } from "~/context";
import { useTranslation } from "~/lib/i18n";
import { localized } from "~/lib/localize";
import { markdownToText, renderMarkdown } from "~/lib/markdown.server";
import { publicUrl } from "~/lib/storage.server";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { findPublishedPost } from "~/models/blog.server";
import type { Route } from "./+types/blog-post";

const DESCRIPTION_LENGTH = 160;

/** A post id as written in the URL: digits only, no sign, no leading zero. */
function parseId(value: string | undefined): number | null {
  if (!value || !/^[1-9]\d{0,14}$/.test(value)) return null;
  return Number(value);
}

/** /blog/:id: one published post. Drafts and unknown ids are the not-found page. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const id = parseId(params.id);
  if (id === null) throw data(null, { status: 404 });
  const { db, config } = services(context);
  const post = await findPublishedPost(db, id);
  if (!post) throw data(null, { status: 404 });

  const language = getLanguage(context);
  const t = getInstance(context).t;
  const content = localized(post, "content", language);
  const title = localized(post, "title", language);
  const imageUrl = publicUrl(post.image_path);
  return {
    id: post.id,
    title,
    siteName: t("meta.siteName"),
    author: post.author,
    publishedAt: post.published_at,
    // The shop's own time zone, so server and browser render the same day.
    publishedOn: post.published_at
      ? new Intl.DateTimeFormat(language === "zh" ? "zh-HK" : "en-GB", {
          dateStyle: "long",
          timeZone: "Asia/Hong_Kong",
        }).format(new Date(post.published_at))
      : null,
    imageUrl,
    ogImage: imageUrl ? `${config.publicUrl}${imageUrl}` : null,
    description: markdownToText(content, DESCRIPTION_LENGTH),
    html: renderMarkdown(content),
  };
}

const BODY_CLASSES = [
  "mt-8 leading-relaxed text-stone-800",
  "[&_p]:mb-4",
  "[&_h2]:mt-8 [&_h2]:mb-3 [&_h2]:text-2xl [&_h2]:font-semibold",
  "[&_h3]:mt-6 [&_h3]:mb-2 [&_h3]:text-xl [&_h3]:font-semibold",
  "[&_h4]:mt-4 [&_h4]:mb-2 [&_h4]:font-semibold",
  "[&_a]:text-brand-700 [&_a]:underline",
  "[&_ul]:mb-4 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:mb-4 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:mb-1",
  "[&_blockquote]:mb-4 [&_blockquote]:border-l-4 [&_blockquote]:border-brand-500 [&_blockquote]:pl-4 [&_blockquote]:italic",
  "[&_code]:rounded [&_code]:bg-stone-100 [&_code]:px-1 [&_code]:text-sm",
  "[&_pre]:mb-4 [&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-stone-100 [&_pre]:p-4 [&_pre_code]:p-0",
  "[&_img]:my-4 [&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-lg",
  "[&_hr]:my-8 [&_hr]:border-stone-200",
  "[&_table]:mb-4 [&_table]:w-full [&_table]:border-collapse [&_table]:text-sm",
  "[&_th]:border [&_th]:border-stone-300 [&_th]:bg-stone-50 [&_th]:p-2 [&_td]:border [&_td]:border-stone-300 [&_td]:p-2",
].join(" ");

export default function BlogPost({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { title, author, publishedAt, publishedOn, imageUrl, html } = loaderData;
  return (
    <article className="mx-auto max-w-4xl px-4 py-12">
      <nav aria-label={t("blog.breadcrumb")} className="mb-6 text-sm text-stone-600">
        <ol className="flex flex-wrap items-center gap-1">
          <li>
            <Link to="/" className="text-brand-700 hover:underline">
              {t("nav.home")}
            </Link>
          </li>
          <li aria-hidden="true">›</li>
          <li>
            <Link to="/blog" className="text-brand-700 hover:underline">
              {t("blog.title")}
            </Link>
          </li>
          <li aria-hidden="true">›</li>
          <li aria-current="page" className="text-stone-800">
            {title}
          </li>
        </ol>
      </nav>

      <h1 className="text-3xl font-bold sm:text-4xl">{title}</h1>
      <p className="mt-2 text-sm text-stone-500">
        {t("blog.by", { author })}
        {publishedAt && publishedOn ? (
          <>
            {" · "}
            <time dateTime={publishedAt}>{t("blog.publishedOn", { date: publishedOn })}</time>
          </>
        ) : null}
      </p>

      {imageUrl ? (
        <img
          src={imageUrl}
          alt=""
          width={1600}
          height={900}
          className="mt-6 aspect-video h-auto w-full rounded-lg object-cover"
        />
      ) : null}

      <div
        className={BODY_CLASSES}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown sanitises with a strict allow-list (no scripts, styles, handlers or frames)
        dangerouslySetInnerHTML={{ __html: html }}
      />

      <p className="mt-10 border-t border-stone-200 pt-6">
        <Link to="/blog" className="font-medium text-brand-700 hover:underline">
          ← {t("blog.backToBlog")}
        </Link>
      </p>
    </article>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  return [
    { title: `${loaderData.title} | ${loaderData.siteName}` },
    { name: "description", content: loaderData.description },
    { property: "og:title", content: loaderData.title },
    { property: "og:description", content: loaderData.description },
    { property: "og:type", content: "article" },
    ...(loaderData.ogImage ? [{ property: "og:image", content: loaderData.ogImage }] : []),
    ...(loaderData.publishedAt ? [{ property: "article:published_time", content: loaderData.publishedAt }] : []),
  ];
}
