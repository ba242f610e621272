import type { DB } from "#db/connect.server";
import type { BlogPostRow } from "#db/schema";

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
