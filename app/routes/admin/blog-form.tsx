import { data, Link } from "react-router";
import { BLOG_UNREAD, BLOG_LIST_PATH as LIST_PATH, PostForm } from "~/components/admin/blog-post-form";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { formAction, succeed } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { parseId } from "~/lib/ids";
import { IMAGE_PRESETS, storeChosenImage } from "~/lib/images.server";
import { privatePageMeta } from "~/lib/meta";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { type AdminPost, createBlogPost, findAdminPost, updateBlogPost } from "~/models/blog.server";
import { requireAdmin } from "~/request/auth.server";
import { blogPostSchema } from "~/schemas/blog";
import type { Route } from "./+types/blog-form";

/*
 * The blog post form at /admin/blog/new and /admin/blog/edit/:id (one module, two route ids).
 * A plain multipart form: a refusal re-renders it with the input kept and the messages next to
 * the fields; a save redirects to the list with a flash message.
 */

/** The image limit plus room for four texts of up to 100,000 characters (4 bytes each at most). */
const BODY_LIMIT = IMAGE_PRESETS.blog.maxBytes + 2 * 1024 * 1024;

/** The post id of /admin/blog/edit/:id; null on /admin/blog/new. Anything else is not a page. */
function postId(params: { id?: string }): number | null {
  if (params.id === undefined) return null;
  const id = parseId(params.id);
  if (id === null) throw data(null, { status: 404 });
  return id;
}

async function loadPost(context: Route.LoaderArgs["context"], id: number | null): Promise<AdminPost | null> {
  if (id === null) return null;
  const post = await findAdminPost(services(context).db, id);
  if (!post) throw data(null, { status: 404 });
  return post;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const post = await loadPost(context, postId(params));
  const language = getLanguage(context);
  const t = getInstance(context).t;
  const firstPublished = post?.published_at ? formatDate(post.published_at, language, "longDate") : null;
  return {
    post: post
      ? {
          id: post.id,
          title_en: post.title_en,
          title_zh: post.title_zh,
          content_en: post.content_en,
          content_zh: post.content_zh,
          author: post.author,
          published: post.published,
          image_url: post.image_url,
          firstPublished,
        }
      : null,
    title: `${t(post ? "adminBlog.form.editTitle" : "adminBlog.form.newTitle")} | ${t("admin.title")}`,
  };
}

/** Saves the post. The admin right (and that the post exists) is checked before the body is read. */
export const action = formAction(
  {
    schema: blogPostSchema,
    maxBytes: BODY_LIMIT,
    unread: BLOG_UNREAD,
    authorize: async ({ context, request, params }: Route.ActionArgs) => {
      const admin = requireAdmin(context, request);
      const id = postId(params);
      await loadPost(context, id);
      return { admin, id };
    },
  },
  async ({ context, form, value, auth: { admin, id } }) => {
    const { db, storage } = services(context);
    // An image is optional; a chosen one goes through the pipeline before anything is saved.
    const imageKey = await storeChosenImage(storage, form.get("image"), "blog", { folder: "blog", field: "image" });
    const actor = { actorUserId: admin.id, imageKey };
    if (id === null) {
      await createBlogPost(db, storage, value, actor);
    } else {
      const saved = await updateBlogPost(db, storage, id, value, { ...actor, removeImage: value.remove_image });
      if (!saved) throw data(null, { status: 404 });
    }
    return succeed(context, form, {
      redirectTo: LIST_PATH,
      flash: { type: "success", key: id === null ? "adminBlog.created" : "adminBlog.updated" },
    });
  },
);

export default function BlogPostForm({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { post } = loaderData;
  return (
    <div className="max-w-4xl">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold">{t(post ? "adminBlog.form.editTitle" : "adminBlog.form.newTitle")}</h1>
        <Link to={LIST_PATH} className="text-sm font-medium text-brand-700 hover:underline">
          ← {t("adminBlog.form.back")}
        </Link>
      </div>
      <PostForm
        key={post ? `edit-${post.id}` : "new"}
        post={post}
        lastResult={actionData?.result}
        problem={actionData?.problem ?? null}
      />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Admin");
