import { data, Link } from "react-router";
import { MarkdownBody } from "~/components/markdown-body";
import { BlogByline } from "~/components/store/blog-byline";
import { publicPageMeta } from "~/components/store/public-page-meta";
import { Breadcrumb } from "~/components/ui/breadcrumb";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { useTranslation } from "~/lib/i18n";
import { parseId } from "~/lib/ids";
import { localized } from "~/lib/localize";
import { markdownToText, renderMarkdown } from "~/lib/markdown.server";
import { publicUrl } from "~/lib/storage.server";
import { getLanguage } from "~/middleware/i18next";
import { findPublishedPost } from "~/models/blog.server";
import { getShop, shopName } from "~/models/settings/shop.server";
import type { Route } from "./+types/blog-post";

const DESCRIPTION_LENGTH = 160;

/** /blog/:id: one published post. Drafts and unknown ids are the not-found page. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const id = parseId(params.id);
  if (id === null) throw data(null, { status: 404 });
  const { db, config } = services(context);
  const post = await findPublishedPost(db, id);
  if (!post) throw data(null, { status: 404 });

  const language = getLanguage(context);
  const content = localized(post, "content", language);
  const title = localized(post, "title", language);
  const imageUrl = publicUrl(post.image_path);
  return {
    id: post.id,
    title,
    siteName: shopName(await getShop(context), language),
    author: post.author,
    publishedAt: post.published_at,
    publishedOn: post.published_at ? formatDate(post.published_at, language, "longDate") : null,
    imageUrl,
    ogImage: imageUrl ? `${config.publicUrl}${imageUrl}` : null,
    description: markdownToText(content, DESCRIPTION_LENGTH),
    html: renderMarkdown(content),
  };
}

export default function BlogPost({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { title, author, publishedAt, publishedOn, imageUrl, html } = loaderData;
  return (
    <article className="mx-auto max-w-4xl px-4 py-12">
      <Breadcrumb items={[{ label: t("blog.title"), to: "/blog" }, { label: title }]} className="mb-6" />

      <h1 className="text-3xl font-bold sm:text-4xl">{title}</h1>
      <BlogByline author={author} publishedAt={publishedAt} publishedOn={publishedOn} className="mt-2" />

      {imageUrl ? (
        <img
          src={imageUrl}
          alt=""
          width={1600}
          height={900}
          className="mt-6 aspect-video h-auto w-full rounded-lg object-cover"
        />
      ) : null}

      <MarkdownBody html={html} className="mt-8" />

      <p className="mt-10 border-t border-stone-200 pt-6">
        <Link to="/blog" className="font-medium text-brand-700 hover:underline">
          ← {t("blog.backToBlog")}
        </Link>
      </p>
    </article>
  );
}

export const meta: Route.MetaFunction = ({ loaderData: post }) =>
  post
    ? publicPageMeta(`${post.title} | ${post.siteName}`, post.description, {
        "og:title": post.title,
        "og:description": post.description,
        "og:type": "article",
        "og:image": post.ogImage,
        "article:published_time": post.publishedAt,
      })
    : [];
