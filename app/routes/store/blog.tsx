import { data, Link } from "react-router";
import { BlogByline } from "~/components/store/blog-byline";
import { publicPageMeta } from "~/components/store/public-page-meta";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { useTranslation } from "~/lib/i18n";
import { parseId } from "~/lib/ids";
import { localized } from "~/lib/localize";
import { markdownToText } from "~/lib/markdown.server";
import { useRootData } from "~/lib/root-data";
import { publicUrl } from "~/lib/storage.server";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { listPublishedPosts } from "~/models/blog.server";
import { getShop, shopName, titleWithShop } from "~/models/settings/shop.server";
import type { Route } from "./+types/blog";

const PAGE_SIZE = 10;
const EXCERPT_LENGTH = 220;

/** ?page=N with N a whole number from 1 (the id rule); no parameter is page 1, anything else is no page at all. */
function parsePage(value: string | null): number | null {
  return value === null ? 1 : parseId(value);
}

/** /blog: published posts in the reader's language, newest first, ten a page. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const page = parsePage(new URL(request.url).searchParams.get("page"));
  if (page === null) throw data(null, { status: 404 });
  const { posts, total, pages } = await listPublishedPosts(services(context).db, { page, pageSize: PAGE_SIZE });
  if (page > pages) throw data(null, { status: 404 });

  const language = getLanguage(context);
  const t = getInstance(context).t;
  const title = page > 1 ? t("blog.titlePage", { page }) : t("blog.title");
  return {
    title: await titleWithShop(context, title),
    description: t("blog.metaDescription", { shop: shopName(await getShop(context), language) }),
    page,
    pages,
    total,
    posts: posts.map((post) => ({
      id: post.id,
      title: localized(post, "title", language),
      author: post.author,
      publishedAt: post.published_at,
      publishedOn: post.published_at ? formatDate(post.published_at, language, "longDate") : null,
      imageUrl: publicUrl(post.image_path),
      excerpt: markdownToText(localized(post, "content", language), EXCERPT_LENGTH),
    })),
  };
}

export default function Blog({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const root = useRootData();
  const { posts, page, pages } = loaderData;
  return (
    <div className="mx-auto max-w-4xl px-4 py-12">
      <header className="mb-8">
        <h1 className="text-3xl font-bold">{t("blog.title")}</h1>
        <p className="mt-2 text-lg text-stone-600">{t("blog.intro", { shop: root?.shop.name ?? "" })}</p>
      </header>

      {posts.length === 0 ? (
        <div className="rounded-lg border border-dashed border-stone-300 p-8 text-center">
          <p className="text-lg font-semibold">{t("blog.emptyTitle")}</p>
          <p className="mt-1 text-stone-600">{t("blog.emptyText")}</p>
        </div>
      ) : (
        <ul className="space-y-8">
          {posts.map((post) => (
            <li key={post.id}>
              <article className="overflow-hidden rounded-lg border border-stone-200 bg-white shadow-sm">
                {post.imageUrl ? (
                  <Link to={`/blog/${post.id}`} tabIndex={-1} aria-hidden="true">
                    <img
                      src={post.imageUrl}
                      alt=""
                      width={1600}
                      height={900}
                      loading="lazy"
                      className="aspect-video h-auto w-full object-cover"
                    />
                  </Link>
                ) : null}
                <div className="p-6">
                  <h2 className="text-2xl font-bold">
                    <Link to={`/blog/${post.id}`} className="hover:text-brand-700 hover:underline">
                      {post.title}
                    </Link>
                  </h2>
                  <BlogByline
                    author={post.author}
                    publishedAt={post.publishedAt}
                    publishedOn={post.publishedOn}
                    className="mt-1"
                  />
                  <p className="mt-3 leading-relaxed text-stone-700">{post.excerpt}</p>
                  <Link
                    to={`/blog/${post.id}`}
                    className="mt-4 inline-block font-medium text-brand-700 hover:underline"
                    aria-label={t("blog.readMoreAbout", { title: post.title })}
                  >
                    {t("blog.readMore")} →
                  </Link>
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}

      {pages > 1 ? (
        <nav aria-label={t("blog.pagination")} className="mt-10 flex items-center justify-between gap-4 text-sm">
          {page > 1 ? (
            <Link
              to={page === 2 ? "/blog" : `/blog?page=${page - 1}`}
              rel="prev"
              className="rounded-md border border-stone-300 px-4 py-2 font-medium text-brand-700 hover:bg-stone-50"
            >
              ← {t("blog.previous")}
            </Link>
          ) : (
            <span />
          )}
          <span className="text-stone-600">{t("blog.pageOf", { page, pages })}</span>
          {page < pages ? (
            <Link
              to={`/blog?page=${page + 1}`}
              rel="next"
              className="rounded-md border border-stone-300 px-4 py-2 font-medium text-brand-700 hover:bg-stone-50"
            >
              {t("blog.next")} →
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData: page }) =>
  page
    ? publicPageMeta(page.title, page.description, { "og:title": page.title, "og:description": page.description })
    : [];
