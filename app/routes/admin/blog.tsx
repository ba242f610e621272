import { Link, redirect } from "react-router";
import { AdminTable } from "~/components/admin/admin-table";
import { DeleteButton, DeleteConfirmation } from "~/components/admin/delete-confirmation";
import { AdminPageHeader } from "~/components/admin/page-header";
import { ButtonLink } from "~/components/ui/button";
import { ProblemAlert } from "~/components/ui/field";
import { Pagination } from "~/components/ui/pagination";
import { SearchForm } from "~/components/ui/search-form";
import { Thumbnail } from "~/components/ui/thumbnail";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { formAction, succeed, UserError } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { parseId } from "~/lib/ids";
import { localized } from "~/lib/localize";
import { privatePageMeta } from "~/lib/meta";
import type { Language } from "~/locales";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { deleteBlogPost, findAdminPost, listAdminPosts } from "~/models/blog.server";
import { normalizeSearch } from "~/models/products/catalog.server";
import { adminOnly, requireAdmin } from "~/request/auth.server";
import { deleteBlogPostSchema } from "~/schemas/blog";
import type { Route } from "./+types/blog";

const PATH = "/admin/blog";

function positivePage(value: string | null): number {
  return value && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : 1;
}

/** The list URL with only its own parameters: where a delete and "Cancel" lead back to. */
function listUrl(q: string, page: number, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (page > 1) params.set("page", String(page));
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const query = params.toString();
  return query ? `${PATH}?${query}` : PATH;
}

/** GET /admin/blog?q=&page= (&delete=id: the confirmation step without JavaScript). */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const { db } = services(context);
  const url = new URL(request.url);
  const q = normalizeSearch(url.searchParams.get("q"));
  const language = getLanguage(context);
  const deleteId = parseId(url.searchParams.get("delete"));
  const [listing, deleting] = await Promise.all([
    listAdminPosts(db, { search: q, language, page: positivePage(url.searchParams.get("page")) }),
    deleteId ? findAdminPost(db, deleteId) : null,
  ]);
  const t = getInstance(context).t;
  return {
    posts: listing.posts.map((post) => ({ ...post, createdOn: formatDate(post.created_at, language) })),
    total: listing.total,
    page: listing.page,
    pages: listing.pages,
    q,
    language,
    deleting: deleting ? { id: deleting.id, title_en: deleting.title_en, title_zh: deleting.title_zh } : null,
    returnTo: listUrl(q, listing.page),
    title: `${t("adminBlog.title")} | ${t("admin.title")}`,
  };
}

/** intent=delete (id, confirmed): without confirmation it leads to the confirmation step. */
export const action = formAction(
  {
    schema: deleteBlogPostSchema,
    authorize: adminOnly,
  },
  async ({ request, context, form, value: { id, confirmed }, auth }) => {
    const { db, storage } = services(context);
    const url = new URL(request.url);
    const q = normalizeSearch(url.searchParams.get("q"));
    const page = positivePage(url.searchParams.get("page"));
    // Without JavaScript there is no confirm(): the confirmation is a second page.
    if (confirmed !== "1") return redirect(listUrl(q, page, { delete: String(id) }));
    const deleted = await deleteBlogPost(db, storage, id, { actorUserId: auth.id });
    if (!deleted) {
      const message = getInstance(context).t("adminBlog.errors.notFound");
      throw new UserError("adminBlog.errors.deleteFailed", { params: { message }, status: 404 });
    }
    return succeed(context, form, {
      redirectTo: listUrl(q, page),
      flash: { type: "success", key: "adminBlog.deleted" },
    });
  },
);

type Post = Route.ComponentProps["loaderData"]["posts"][number];

const COLUMNS = ["title", "author", "created", "status", "actions"] as const;

export default function AdminBlog({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { posts, total, page, pages, q, language, deleting, returnTo } = loaderData;
  return (
    <div className="max-w-6xl">
      <AdminPageHeader title={t("adminBlog.title")} intro={t("adminBlog.intro")}>
        <ButtonLink to="/admin/blog/new">{t("adminBlog.newPost")}</ButtonLink>
      </AdminPageHeader>

      {actionData?.problem ? (
        <div className="mt-4">
          <ProblemAlert problem={actionData.problem} />
        </div>
      ) : null}

      {deleting ? (
        <DeleteConfirmation
          heading={t("adminBlog.confirmDelete")}
          action={returnTo}
          fields={{ intent: "delete", id: deleting.id }}
          confirmLabel={t("adminBlog.confirmDeleteButton")}
          cancelLabel={t("adminBlog.cancel")}
          cancelTo={returnTo}
        >
          {deleting.title_en} · <span lang="zh-HK">{deleting.title_zh}</span>
        </DeleteConfirmation>
      ) : null}

      <SearchForm
        id="admin-blog-search"
        action={PATH}
        q={q}
        label={t("adminBlog.searchLabel")}
        placeholder={t("adminBlog.searchPlaceholder")}
        submitLabel={t("adminBlog.search")}
        clear={{ to: PATH, label: t("adminBlog.clearSearch") }}
        className="mt-6"
      />

      {total === 0 ? (
        <p className="mt-8 rounded-lg bg-white p-8 text-center text-stone-600 shadow-sm" data-testid="empty-state">
          {q ? t("adminBlog.noMatch") : t("adminBlog.empty")}
        </p>
      ) : (
        <>
          <p className="mt-4 text-sm text-stone-600">{t("adminBlog.count", { count: total })}</p>
          <AdminTable
            columns={COLUMNS.map((column) => t(`adminBlog.columns.${column}`))}
            minWidth="min-w-[44rem]"
            testId="posts-table"
          >
            {posts.map((post) => (
              <PostRow key={post.id} post={post} language={language} returnTo={returnTo} />
            ))}
          </AdminTable>
          <Pagination page={page} pages={pages} />
        </>
      )}
    </div>
  );
}

function PostRow({ post, language, returnTo }: { post: Post; language: Language; returnTo: string }) {
  const { t } = useTranslation();
  const title = localized(post, "title", language);
  return (
    <tr data-post-id={post.id}>
      <td className="px-3 py-2">
        <div className="flex items-center gap-3">
          <Thumbnail src={post.image_url} width={64} height={48} className="h-12 w-16 shrink-0 rounded" />
          <span className="font-medium">{title}</span>
        </div>
      </td>
      <td className="px-3 py-2">{post.author}</td>
      <td className="whitespace-nowrap px-3 py-2">
        <time dateTime={post.created_at}>{post.createdOn}</time>
      </td>
      <td className="px-3 py-2">
        <span
          data-testid="status-badge"
          className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${post.published ? "bg-green-100 text-green-800" : "bg-stone-200 text-stone-700"}`}
        >
          {post.published ? t("adminBlog.statusPublished") : t("adminBlog.statusDraft")}
        </span>
      </td>
      <td className="px-3 py-2">
        <div className="flex items-center gap-2">
          {post.published ? (
            <Link
              to={`/blog/${post.id}`}
              aria-label={t("adminBlog.viewNamed", { title })}
              className="rounded-md px-2 py-1.5 text-sm text-brand-700 hover:underline"
            >
              {t("adminBlog.view")}
            </Link>
          ) : null}
          <Link
            to={`/admin/blog/edit/${post.id}`}
            aria-label={t("adminBlog.editNamed", { title })}
            className="rounded-md border border-stone-300 px-3 py-1.5 text-sm hover:bg-stone-50"
          >
            {t("adminBlog.edit")}
          </Link>
          <DeleteForm id={post.id} title={title} returnTo={returnTo} />
        </div>
      </td>
    </tr>
  );
}

function DeleteForm({ id, title, returnTo }: { id: number; title: string; returnTo: string }) {
  const { t } = useTranslation();
  return (
    <DeleteButton
      action={returnTo}
      fields={{ intent: "delete", id }}
      question={t("adminBlog.confirmDelete")}
      label={t("adminBlog.delete")}
      ariaLabel={t("adminBlog.deleteNamed", { title })}
    />
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Admin");
