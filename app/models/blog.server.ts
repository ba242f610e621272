import { type DB, now } from "#db/connect.server";
import { containsText } from "#db/dialect";
import { pickColumns } from "#db/query";
import type { BlogPostRow } from "#db/schema";
import { deletePublicImage, dropReplacedImage, keptImage, savingImage } from "~/lib/images.server";
import { publicUrl, type Storage } from "~/lib/storage.server";
import type { Language } from "~/locales";
import type { BlogPostInput } from "~/schemas/blog";
import { auditAction } from "./audit.server";
import { normalizeSearch } from "./products/catalog.server";

/* The storefront's blog: published posts only. */

/** What the storefront shows of a post: everything but the bookkeeping columns. */
export type PublishedPost = Pick<
  BlogPostRow,
  "id" | "title_en" | "title_zh" | "content_en" | "content_zh" | "author" | "image_path" | "published_at" | "updated_at"
>;

const POST_COLUMNS = [
  "id",
  "title_en",
  "title_zh",
  "content_en",
  "content_zh",
  "author",
  "image_path",
  "published_at",
  "updated_at",
] as const;

export interface PostPage {
  posts: PublishedPost[];
  /** Published posts in all. */
  total: number;
  /** The page asked for (at least 1), and how many pages there are (at least 1). */
  page: number;
  pages: number;
}

/**
 * One page of the blog. Only published posts are public; newest first by publish time, and by
 * id among posts published at the same moment, so pages never overlap or skip a post.
 */
export async function listPublishedPosts(
  db: DB,
  { page, pageSize }: { page: number; pageSize: number },
): Promise<PostPage> {
  const size = Math.max(1, Math.floor(pageSize));
  const current = Math.max(1, Math.floor(page));
  const [count, posts] = await Promise.all([
    db
      .selectFrom("blog_posts")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("published", "=", 1)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("blog_posts")
      .select(POST_COLUMNS)
      .where("published", "=", 1)
      .orderBy("published_at", "desc")
      .orderBy("id", "desc")
      .limit(size)
      .offset((current - 1) * size)
      .execute(),
  ]);
  const total = Number(count.n);
  return { posts, total, page: current, pages: Math.max(1, Math.ceil(total / size)) };
}

/** A published post; undefined for a draft or an id that does not exist. */
export async function findPublishedPost(db: DB, id: number): Promise<PublishedPost | undefined> {
  return db
    .selectFrom("blog_posts")
    .select(POST_COLUMNS)
    .where("id", "=", id)
    .where("published", "=", 1)
    .executeTakeFirst();
}

/** Every published post's id and last change, for the sitemap. */
export async function listPublishedPostIds(db: DB): Promise<{ id: number; updated_at: string }[]> {
  return db.selectFrom("blog_posts").select(["id", "updated_at"]).where("published", "=", 1).orderBy("id").execute();
}

/* ------------------------------------------------------------------------------------------
 * The admin side
 * ------------------------------------------------------------------------------------------ */

/**
 * The admin side of the blog: every post, drafts included, searched and paged for the list,
 * and the writes (create, update, delete), each recorded in the audit log with before/after.
 */

export const ADMIN_BLOG_PAGE_SIZE = 20;

/** A post as the admin list and form show it. */
export interface AdminPost {
  id: number;
  title_en: string;
  title_zh: string;
  content_en: string;
  content_zh: string;
  author: string;
  image_path: string | null;
  image_url: string | null;
  published: boolean;
  published_at: string | null;
  created_at: string;
  updated_at: string;
}

/** What the admin post form edits of a post (the form adds when it was first published). */
export type AdminPostFields = Pick<
  AdminPost,
  "id" | "title_en" | "title_zh" | "content_en" | "content_zh" | "author" | "published" | "image_url"
>;

function toAdminPost(row: BlogPostRow): AdminPost {
  return { ...row, image_url: publicUrl(row.image_path), published: row.published === 1 };
}

export type AdminPostSummary = Omit<AdminPost, "content_en" | "content_zh">;

export interface AdminPostListing {
  posts: AdminPostSummary[];
  total: number;
  page: number;
  pages: number;
}

/**
 * One page of every post, drafts included, newest first (by id among posts created at the same
 * moment, so pages never overlap). `search` matches the title in the admin's language or the
 * author. A page past the end shows the last page.
 */
export async function listAdminPosts(
  db: DB,
  query: { search?: string | null; language: Language; page?: number; pageSize?: number },
): Promise<AdminPostListing> {
  const pageSize = query.pageSize ?? ADMIN_BLOG_PAGE_SIZE;
  const search = normalizeSearch(query.search);
  let base = db.selectFrom("blog_posts");
  if (search) {
    base = base.where((eb) =>
      eb.or([containsText(db, `title_${query.language}`, search), containsText(db, "author", search)]),
    );
  }
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow();
  const pages = Math.max(1, Math.ceil(Number(total) / pageSize));
  const page = Math.min(Math.max(1, Math.trunc(query.page ?? 1) || 1), pages);
  const rows = await base
    .select([
      "id",
      "title_en",
      "title_zh",
      "author",
      "image_path",
      "published",
      "published_at",
      "created_at",
      "updated_at",
    ])
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  const posts = rows.map((row) => ({ ...row, image_url: publicUrl(row.image_path), published: row.published === 1 }));
  return { posts, total: Number(total), page, pages };
}

/** Any post, draft or published; null when there is none with this id. */
export async function findAdminPost(db: DB, id: number): Promise<AdminPost | null> {
  const row = await db.selectFrom("blog_posts").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toAdminPost(row) : null;
}

/** The form fields a post stores as they are. */
const POST_FIELDS = ["title_en", "title_zh", "content_en", "content_zh", "author"] as const;

function postValues(input: BlogPostInput) {
  return { ...pickColumns(input, POST_FIELDS), published: input.published ? 1 : 0 };
}

/**
 * Creates a post. `imageKey` is an image already stored through the pipeline. A post
 * published at once gets its publish time now (the storefront orders by it).
 */
export async function createBlogPost(
  db: DB,
  storage: Storage,
  input: BlogPostInput,
  options: { imageKey?: string | null; actorUserId: string | null },
): Promise<BlogPostRow> {
  const imageKey = options.imageKey ?? null;
  const timestamp = now();
  return savingImage(storage, imageKey, () =>
    db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto("blog_posts")
        .values({
          ...postValues(input),
          image_path: imageKey,
          published_at: input.published ? timestamp : null,
          created_at: timestamp,
          updated_at: timestamp,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await auditAction(trx, options.actorUserId, "blog_post.created", row.id, { after: row });
      return row;
    }),
  );
}

/**
 * Updates a post; null when it does not exist (a new image is then deleted again). The publish
 * time is set the first time a post is published and never moves after that, so unpublishing
 * and publishing again does not push an old post to the top of the blog. The image stays
 * unless a new one is uploaded or `removeImage` is set; the old file is deleted once the row no
 * longer points at it.
 */
export async function updateBlogPost(
  db: DB,
  storage: Storage,
  id: number,
  input: BlogPostInput,
  options: { imageKey?: string | null; removeImage?: boolean; actorUserId: string | null },
): Promise<BlogPostRow | null> {
  const newImage = options.imageKey ?? null;
  let before: BlogPostRow | undefined;
  const post = await savingImage(storage, newImage, () =>
    db.transaction().execute(async (trx) => {
      before = await trx.selectFrom("blog_posts").selectAll().where("id", "=", id).executeTakeFirst();
      if (!before) return null;
      const timestamp = now();
      const row = await trx
        .updateTable("blog_posts")
        .set({
          ...postValues(input),
          image_path: keptImage(before.image_path, newImage, options.removeImage),
          published_at: before.published_at ?? (input.published ? timestamp : null),
          updated_at: timestamp,
        })
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await auditAction(trx, options.actorUserId, "blog_post.updated", id, { before, after: row });
      return row;
    }),
  );
  if (!post) {
    await deletePublicImage(storage, newImage);
    return null;
  }
  await dropReplacedImage(storage, before?.image_path, post.image_path);
  return post;
}

/** Deletes a post and then its image; null when it does not exist. */
export async function deleteBlogPost(
  db: DB,
  storage: Storage,
  id: number,
  options: { actorUserId: string | null },
): Promise<BlogPostRow | null> {
  const before = await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("blog_posts").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) return null;
    await trx.deleteFrom("blog_posts").where("id", "=", id).execute();
    await auditAction(trx, options.actorUserId, "blog_post.deleted", id, { before: row });
    return row;
  });
  await deletePublicImage(storage, before?.image_path);
  return before;
}
