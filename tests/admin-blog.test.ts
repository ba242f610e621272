import { createInstance } from "i18next";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import { I18nextInstanceProvider as I18nextProvider } from "~/lib/i18n";
import type { MemoryStorage } from "~/lib/storage.server";
import resources from "~/locales";
import { languageCookie } from "~/middleware/i18next";
import {
  createBlogPost,
  deleteBlogPost,
  findAdminPost,
  findPublishedPost,
  listAdminPosts,
  listPublishedPosts,
  updateBlogPost,
} from "~/models/blog.server";
import type { CurrentUser } from "~/request/auth.server";
import BlogList, { action as listAction, loader as listLoader } from "~/routes/admin/blog";
import BlogForm, { action as formAction, loader as formLoader } from "~/routes/admin/blog-form";
import { type BlogPostInput, blogPostSchema } from "~/schemas/blog";
import { createSignedIn, uniqueTag } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { formOf, runRoute } from "./setup/route";

let svc: TestServices;
let db: DB;
let storage: MemoryStorage;
let ADMIN: CurrentUser;
let CUSTOMER: CurrentUser;
let actor: { actorUserId: string };
beforeEach(async () => {
  svc = await freshTestServices();
  ({ db, storage } = svc);
  ADMIN = await createSignedIn(db, { email: "blog-boss@shop.hk", admin: true });
  CUSTOMER = await createSignedIn(db, { email: "blog-reader@shop.hk" });
  actor = { actorUserId: ADMIN.id };
});

function input(overrides: Partial<BlogPostInput> = {}): BlogPostInput {
  const tag = uniqueTag();
  return {
    title_en: `Field Report ${tag}`,
    title_zh: `戰地報告${tag}`,
    content_en: `## Report ${tag}\n\nText.`,
    content_zh: `## 報告${tag}\n\n內容。`,
    author: "Sam Range",
    published: false,
    remove_image: false,
    ...overrides,
  };
}

async function png(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 20, g: 60, b: 140 } } })
    .png()
    .toBuffer();
}

async function storedKey(): Promise<string> {
  const key = `blog/${crypto.randomUUID()}.webp`;
  await storage.put("public", key, await png(), "image/webp");
  return key;
}

async function auditOf(action: string, id: number) {
  const row = await db
    .selectFrom("audit_log")
    .selectAll()
    .where("action", "=", action)
    .where("entity_id", "=", String(id))
    .executeTakeFirstOrThrow();
  return { ...row, details: JSON.parse(row.details ?? "{}") as { before: unknown; after: unknown } };
}

/* ---------------------------------------------------------------------------------------- */

const run = (fn: (args: never) => Promise<unknown>, request: Request, user: CurrentUser | null, params = {}) =>
  runRoute(svc, fn, request, user, params);

async function post(url: string, form: FormData, user: CurrentUser | null = ADMIN, params = {}) {
  const request = new Request(`http://localhost${url}`, {
    method: "POST",
    body: form,
    headers: { Cookie: await languageCookie.serialize("en") },
  });
  const fn = url.startsWith("/admin/blog/") ? formAction : listAction;
  return run(fn, request, user, params);
}

function get(url: string, language: "en" | "zh" = "en") {
  return languageCookie
    .serialize(language)
    .then((cookie) => new Request(`http://localhost${url}`, { headers: { Cookie: cookie } }));
}

const VALID = {
  title_en: "Spring Skirmish",
  title_zh: "春季野戰",
  content_en: "## Day one\n\nWe played **all day**.",
  content_zh: "## 第一天\n\n我們玩了一整天。",
  author: "Alex Chan",
};

type Reply = {
  data: {
    result: { status?: string; error?: Record<string, string[]>; initialValue?: Record<string, unknown> } | null;
    problem?: { key: string; params: Record<string, string> };
    imageProblem?: { key: string } | null;
  };
  init: { status: number };
};

/* ---------------------------------------------------------------------------------------- */

describe("the blog post schema", () => {
  it("requires both titles, both contents and the author, with their own messages", () => {
    const result = blogPostSchema.safeParse({ title_en: " ", content_zh: "  \n " });
    expect(result.success).toBe(false);
    const issues = result.error?.issues.map((issue) => [issue.path.join("."), issue.message]);
    expect(issues).toContainEqual(["title_en", "adminBlog.errors.titleEnRequired"]);
    expect(issues).toContainEqual(["title_zh", "adminBlog.errors.titleZhRequired"]);
    expect(issues).toContainEqual(["content_en", "adminBlog.errors.contentEnRequired"]);
    expect(issues).toContainEqual(["content_zh", "adminBlog.errors.contentZhRequired"]);
    expect(issues).toContainEqual(["author", "adminBlog.errors.authorRequired"]);
  });

  it("limits titles to 200, the author to 100 and content to 100,000 characters", () => {
    const ok = blogPostSchema.safeParse({
      ...VALID,
      title_en: "t".repeat(200),
      author: "a".repeat(100),
      content_en: "c".repeat(100_000),
    });
    expect(ok.success).toBe(true);
    const long = blogPostSchema.safeParse({
      ...VALID,
      title_zh: "標".repeat(201),
      author: "a".repeat(101),
      content_en: "c".repeat(100_001),
    });
    const issues = long.error?.issues.map((issue) => [issue.path.join("."), issue.message]);
    expect(issues).toContainEqual(["title_zh", "adminBlog.errors.titleTooLong"]);
    expect(issues).toContainEqual(["author", "adminBlog.errors.authorTooLong"]);
    expect(issues).toContainEqual(["content_en", "adminBlog.errors.contentTooLong"]);
  });

  it("keeps Markdown as written (only CRLF becomes LF), trims titles, reads the checkboxes", () => {
    const value = blogPostSchema.parse({
      ...VALID,
      title_en: "  Spaced  ",
      content_en: "  indented code\r\n\r\n<b>raw</b>  ",
      published: "on",
    });
    expect(value.title_en).toBe("Spaced");
    expect(value.content_en).toBe("  indented code\n\n<b>raw</b>  ");
    expect(value.published).toBe(true);
    expect(value.remove_image).toBe(false);
    // A CRLF text of exactly the limit in characters as typed is not "too long".
    expect(blogPostSchema.safeParse({ ...VALID, content_en: `${"c".repeat(99_998)}\r\n` }).success).toBe(true);
  });
});

describe("the Blog list page (empty shop)", () => {
  it("says 'No blog posts yet' with no posts, and offers New Post", async () => {
    const html = await renderList("");
    expect(html).toContain("No blog posts yet");
    expect(html).toContain('href="/admin/blog/new"');
    expect(html).toContain("New Post");
  });
});

describe("blog model", () => {
  it("creates a draft without a publish time and a published post with one, and audits both", async () => {
    const draft = await createBlogPost(db, storage, input(), actor);
    expect(draft.published).toBe(0);
    expect(draft.published_at).toBeNull();
    const live = await createBlogPost(db, storage, input({ published: true }), actor);
    expect(live.published).toBe(1);
    expect(live.published_at).toBe(live.created_at);
    const audit = await auditOf("blog_post.created", live.id);
    expect(audit.actor_user_id).toBe(ADMIN.id);
    expect(audit.entity_type).toBe("blog_post");
    expect(audit.details).toMatchObject({ before: null, after: { id: live.id, title_en: live.title_en } });
    expect(await findPublishedPost(db, draft.id)).toBeUndefined();
    expect(await findPublishedPost(db, live.id)).toMatchObject({ id: live.id });
  });

  it("sets the publish time the first time a post is published and never moves it", async () => {
    const created = await createBlogPost(db, storage, input(), actor);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const published = await updateBlogPost(db, storage, created.id, input({ published: true }), actor);
    expect(published?.published_at).not.toBeNull();
    expect(published?.published_at).not.toBe(created.created_at);
    const firstTime = published?.published_at;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const hidden = await updateBlogPost(db, storage, created.id, input({ published: false }), actor);
    expect(hidden).toMatchObject({ published: 0, published_at: firstTime });
    const again = await updateBlogPost(db, storage, created.id, input({ published: true }), actor);
    expect(again).toMatchObject({ published: 1, published_at: firstTime });
    const audit = await db
      .selectFrom("audit_log")
      .select("details")
      .where("action", "=", "blog_post.updated")
      .where("entity_id", "=", String(created.id))
      .orderBy("id")
      .execute();
    expect(audit).toHaveLength(3);
    expect(JSON.parse(audit[0]?.details ?? "{}")).toMatchObject({ before: { published: 0 }, after: { published: 1 } });
  });

  it("keeps the image when editing without a new one; replacing or removing deletes the old file", async () => {
    const key = await storedKey();
    const created = await createBlogPost(db, storage, input(), { ...actor, imageKey: key });
    const kept = await updateBlogPost(db, storage, created.id, input({ title_en: "Renamed" }), actor);
    expect(kept).toMatchObject({ title_en: "Renamed", image_path: key });
    expect(await storage.exists("public", key)).toBe(true);

    const replacement = await storedKey();
    const replaced = await updateBlogPost(db, storage, created.id, input(), { ...actor, imageKey: replacement });
    expect(replaced?.image_path).toBe(replacement);
    expect(await storage.exists("public", key)).toBe(false);

    const removed = await updateBlogPost(db, storage, created.id, input(), { ...actor, removeImage: true });
    expect(removed?.image_path).toBeNull();
    expect(await storage.exists("public", replacement)).toBe(false);
  });

  it("answers null for a post that does not exist, and deletes the new image again", async () => {
    const key = await storedKey();
    expect(await updateBlogPost(db, storage, 999_999, input(), { ...actor, imageKey: key })).toBeNull();
    expect(await storage.exists("public", key)).toBe(false);
    expect(await deleteBlogPost(db, storage, 999_999, actor)).toBeNull();
  });

  it("deletes a post and then its image, with the before value in the audit", async () => {
    const key = await storedKey();
    const created = await createBlogPost(db, storage, input({ published: true }), { ...actor, imageKey: key });
    const deleted = await deleteBlogPost(db, storage, created.id, actor);
    expect(deleted?.id).toBe(created.id);
    expect(await findAdminPost(db, created.id)).toBeNull();
    expect(await storage.exists("public", key)).toBe(false);
    const audit = await auditOf("blog_post.deleted", created.id);
    expect(audit.details).toMatchObject({ before: { id: created.id, image_path: key }, after: null });
  });

  it("lists drafts and published posts newest first; searches the title in the admin's language or the author", async () => {
    const tag = `Q${Date.now()}`;
    const older = await createBlogPost(
      db,
      storage,
      input({ title_en: `Optics ${tag}`, title_zh: "瞄準鏡指南" }),
      actor,
    );
    const newer = await createBlogPost(
      db,
      storage,
      input({ title_en: `Tactics ${tag}`, title_zh: "戰術心得", author: `Writer ${tag}`, published: true }),
      actor,
    );
    const all = await listAdminPosts(db, { search: tag, language: "en" });
    expect(all.posts.map((p) => p.id)).toEqual([newer.id, older.id]);
    expect(all.posts[0]).toMatchObject({ published: true, image_url: null });
    expect(all.posts[1]?.published).toBe(false);
    // Chinese titles in Chinese; the English title is not searched then, the author still is.
    expect((await listAdminPosts(db, { search: "瞄準鏡", language: "zh" })).posts.map((p) => p.id)).toEqual([older.id]);
    expect((await listAdminPosts(db, { search: "瞄準鏡", language: "en" })).total).toBe(0);
    expect((await listAdminPosts(db, { search: `Writer ${tag}`, language: "zh" })).posts.map((p) => p.id)).toEqual([
      newer.id,
    ]);
    // LIKE wildcards are literal.
    expect((await listAdminPosts(db, { search: "%", language: "en" })).total).toBe(0);
  });

  it("pages by 20 and clamps a page past the end to the last page", async () => {
    const tag = `Page${Date.now()}`;
    for (let i = 0; i < 23; i++) await createBlogPost(db, storage, input({ title_en: `${tag} ${i}` }), actor);
    const first = await listAdminPosts(db, { search: tag, language: "en" });
    expect(first).toMatchObject({ total: 23, page: 1, pages: 2 });
    expect(first.posts).toHaveLength(20);
    const last = await listAdminPosts(db, { search: tag, language: "en", page: 9 });
    expect(last.page).toBe(2);
    expect(last.posts).toHaveLength(3);
    expect(new Set([...first.posts, ...last.posts].map((p) => p.id)).size).toBe(23);
  });
});

/* ---------------------------------------------------------------------------------------- */

describe("the blog routes", () => {
  it("refuse a non-admin post with 403 and change nothing", async () => {
    const target = await createBlogPost(db, storage, input({ published: true }), actor);
    const count = async () => (await db.selectFrom("blog_posts").select("id").execute()).length;
    const before = await count();
    for (const user of [CUSTOMER, null]) {
      const attempts = [
        post("/admin/blog/new", formOf({ ...VALID, published: "on" }), user),
        post(`/admin/blog/edit/${target.id}`, formOf({ ...VALID, title_en: "Hacked" }), user, {
          id: String(target.id),
        }),
        post("/admin/blog", formOf({ intent: "delete", id: String(target.id), confirmed: "1" }), user),
      ];
      for (const { thrown } of await Promise.all(attempts)) {
        expect(thrown).toBeInstanceOf(Response);
        expect((thrown as Response).status).toBe(403);
      }
    }
    expect(await count()).toBe(before);
    expect(await findAdminPost(db, target.id)).toMatchObject({ title_en: target.title_en });
  });

  it("send a non-admin page view to /admin/login", async () => {
    for (const [fn, url] of [
      [listLoader, "/admin/blog"],
      [formLoader, "/admin/blog/new"],
    ] as const) {
      const { thrown } = await run(fn, await get(url), CUSTOMER);
      expect((thrown as Response).headers.get("Location")).toBe("/admin/login");
    }
  });

  it("create a published post with an image, redirect with the flash; the storefront shows it", async () => {
    const form = formOf({ ...VALID, title_en: "Created Through Route", published: "on" });
    form.set("image", new File([new Uint8Array(await png())], "cover.png", { type: "image/png" }));
    const { result, thrown, flash } = await post("/admin/blog/new", form);
    expect(thrown).toBeUndefined();
    expect((result as Response).headers.get("Location")).toBe("/admin/blog");
    expect(flash).toMatchObject({ type: "success", key: "adminBlog.created" });
    const row = await db
      .selectFrom("blog_posts")
      .selectAll()
      .where("title_en", "=", "Created Through Route")
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ title_zh: VALID.title_zh, content_en: VALID.content_en, author: "Alex Chan" });
    expect(row.image_path).toMatch(/^blog\/[\w-]+\.webp$/);
    expect(await storage.exists("public", row.image_path ?? "")).toBe(true);
    const page = await listPublishedPosts(db, { page: 1, pageSize: 1 });
    expect(page.posts[0]?.id).toBe(row.id);
  });

  it("answer missing fields with 400, the messages and the input kept", async () => {
    const { result } = await post("/admin/blog/new", formOf({ title_en: "Kept Title", content_zh: "保留內容" }));
    const reply = result as unknown as Reply;
    expect(reply.init.status).toBe(400);
    expect(reply.data.result?.error).toMatchObject({
      title_zh: ["adminBlog.errors.titleZhRequired"],
      content_en: ["adminBlog.errors.contentEnRequired"],
      author: ["adminBlog.errors.authorRequired"],
    });
    expect(reply.data.result?.initialValue).toMatchObject({ title_en: "Kept Title", content_zh: "保留內容" });
    expect(await db.selectFrom("blog_posts").where("title_en", "=", "Kept Title").selectAll().execute()).toEqual([]);
  });

  it("answer an invalid image with 400 next to the field, and save nothing", async () => {
    const form = formOf({ ...VALID, title_en: "Bad Image Post" });
    form.set("image", new File(["not an image"], "x.png", { type: "image/png" }));
    const { result } = await post("/admin/blog/new", form);
    const reply = result as unknown as Reply;
    expect(reply.init.status).toBe(400);
    expect(reply.data.result?.error?.image).toEqual(["errors.image.unsupportedType"]);
    expect(await db.selectFrom("blog_posts").where("title_en", "=", "Bad Image Post").selectAll().execute()).toEqual(
      [],
    );
  });

  it("edit: keep the image without a new one, remove it when asked, 404 for an unknown post", async () => {
    const key = await storedKey();
    const created = await createBlogPost(db, storage, input(), { ...actor, imageKey: key });
    const { result, flash } = await post(
      `/admin/blog/edit/${created.id}`,
      formOf({ ...VALID, title_en: "Edited Title", published: "on" }),
      ADMIN,
      { id: String(created.id) },
    );
    expect((result as Response).headers.get("Location")).toBe("/admin/blog");
    expect(flash).toMatchObject({ key: "adminBlog.updated" });
    const row = await findAdminPost(db, created.id);
    expect(row).toMatchObject({ title_en: "Edited Title", image_path: key, published: true });
    expect(row?.published_at).not.toBeNull();

    const removed = await post(
      `/admin/blog/edit/${created.id}`,
      formOf({ ...VALID, title_en: "Edited Title", remove_image: "on" }),
      ADMIN,
      { id: String(created.id) },
    );
    expect((removed.result as Response).status).toBe(302);
    expect(await findAdminPost(db, created.id)).toMatchObject({ image_path: null, published: false });
    expect(await storage.exists("public", key)).toBe(false);

    for (const id of ["999999", "abc", "0"]) {
      const missing = await post(`/admin/blog/edit/${id}`, formOf(VALID), ADMIN, { id });
      expect((missing.thrown as { init?: { status: number } }).init?.status).toBe(404);
      const view = await run(formLoader, await get(`/admin/blog/edit/${id}`), ADMIN, { id });
      expect((view.thrown as { init?: { status: number } }).init?.status).toBe(404);
    }
  });

  it("delete: ask first without JavaScript, then delete with the flash; an unknown post is a 404", async () => {
    const created = await createBlogPost(db, storage, input(), actor);
    const first = await post("/admin/blog?q=Report&page=1", formOf({ intent: "delete", id: String(created.id) }));
    expect((first.result as Response).headers.get("Location")).toBe(`/admin/blog?q=Report&delete=${created.id}`);
    expect(await findAdminPost(db, created.id)).not.toBeNull();

    const done = await post(
      "/admin/blog?q=Report",
      formOf({ intent: "delete", id: String(created.id), confirmed: "1" }),
    );
    expect((done.result as Response).headers.get("Location")).toBe("/admin/blog?q=Report");
    expect(done.flash).toMatchObject({ key: "adminBlog.deleted" });
    expect(await findAdminPost(db, created.id)).toBeNull();

    const again = await post("/admin/blog", formOf({ intent: "delete", id: String(created.id), confirmed: "1" }));
    const reply = again.result as unknown as Reply;
    expect(reply.init.status).toBe(404);
    expect(reply.data.problem).toMatchObject({ key: "adminBlog.errors.deleteFailed" });
    const bad = await post("/admin/blog", formOf({ intent: "nonsense", id: "x" }));
    expect((bad.result as unknown as Reply).init.status).toBe(400);
  });
});

/* ---------------------------------------------------------------------------------------- */

async function i18nFor(language: "en" | "zh") {
  const i18n = createInstance();
  await i18n.init({ resources, lng: language, interpolation: { escapeValue: false } });
  return i18n;
}

async function renderList(search: string, language: "en" | "zh" = "en") {
  const { result } = await run(listLoader, await get(`/admin/blog${search}`, language), ADMIN);
  const Stub = createRoutesStub([{ id: "admin-blog", path: "/admin/blog", Component: BlogList }]);
  return renderToString(
    createElement(
      I18nextProvider,
      { i18n: await i18nFor(language) },
      createElement(Stub, {
        initialEntries: [`/admin/blog${search}`],
        hydrationData: { loaderData: { "admin-blog": result } },
      }),
    ),
  );
}

async function renderForm(id: number | null, actionData?: unknown) {
  const url = id === null ? "/admin/blog/new" : `/admin/blog/edit/${id}`;
  const params: Record<string, string> = id === null ? {} : { id: String(id) };
  const { result } = await run(formLoader, await get(url), ADMIN, params);
  const routeId = id === null ? "admin-blog-new" : "admin-blog-edit";
  const Stub = createRoutesStub([
    { id: routeId, path: id === null ? "/admin/blog/new" : "/admin/blog/edit/:id", Component: BlogForm },
  ]);
  return renderToString(
    createElement(
      I18nextProvider,
      { i18n: await i18nFor("en") },
      createElement(Stub, {
        initialEntries: [url],
        hydrationData: {
          loaderData: { [routeId]: result },
          ...(actionData ? { actionData: { [routeId]: actionData } } : {}),
        },
      }),
    ),
  );
}

describe("the Blog pages", () => {
  it("list title, author, date, Published or Draft, Edit and Delete; no match says so", async () => {
    const tag = `Render${Date.now()}`;
    const key = await storedKey();
    const live = await createBlogPost(
      db,
      storage,
      input({ title_en: `Live ${tag}`, title_zh: `上線${tag}`, published: true, author: "Pat Lee" }),
      { ...actor, imageKey: key },
    );
    await createBlogPost(db, storage, input({ title_en: `Hidden ${tag}` }), actor);
    const html = await renderList(`?q=${tag}`);
    expect(html).toContain(`Live ${tag}`);
    expect(html).toContain(`Hidden ${tag}`);
    expect(html).toContain("Pat Lee");
    expect(html).toContain(">Published<");
    expect(html).toContain(">Draft<");
    expect(html).toContain(`src="/uploads/${key}"`);
    expect(html).toContain(`href="/admin/blog/edit/${live.id}"`);
    expect(html).toContain(`Delete Live ${tag}`);
    // Without JavaScript the delete post carries no confirmation: the action asks on a second page.
    expect(html).not.toContain('name="confirmed"');
    const zh = await renderList(`?q=${tag}`, "zh");
    expect(zh).toContain(`上線${tag}`);
    expect(zh).toContain("已發佈");
    expect(zh).toContain("草稿");
    expect(await renderList("?q=nothing-like-this-exists")).toContain("No posts found matching your search");
  });

  it("show the confirmation step for ?delete=", async () => {
    const created = await createBlogPost(db, storage, input({ title_en: "Confirm Me" }), actor);
    const html = await renderList(`?delete=${created.id}`);
    expect(html).toContain("Are you sure you want to delete this post?");
    expect(html).toContain('name="confirmed" value="1"');
    expect(html).toContain("Confirm Me");
  });

  it("render the new form empty and the edit form filled, with the current image and the publish box", async () => {
    const fresh = await renderForm(null);
    expect(fresh).toContain("New Post");
    expect(fresh).toMatch(/enctype="multipart\/form-data"/i);
    expect(fresh).toContain("Publish this post");
    expect(fresh).not.toMatch(/<input[^>]*type="checkbox"[^>]*checked=""/);
    const key = await storedKey();
    const created = await createBlogPost(db, storage, input({ title_en: "Filled In", published: true }), {
      ...actor,
      imageKey: key,
    });
    const edit = await renderForm(created.id);
    expect(edit).toContain("Edit Post");
    expect(edit).toContain('value="Filled In"');
    expect(edit).toContain(`src="/uploads/${key}"`);
    expect(edit).toContain("Remove image");
    expect(edit).toMatch(
      /<input[^>]*type="checkbox"[^>]*name="published"[^>]*checked=""|checked=""[^>]*name="published"/,
    );
  });

  it("keep the typed values and show the messages next to the fields after a 400", async () => {
    const { result } = await post("/admin/blog/new", formOf({ title_en: "Typed Title", content_en: "Typed *body*" }));
    const html = await renderForm(null, (result as unknown as Reply).data);
    expect(html).toContain('value="Typed Title"');
    expect(html).toContain("Typed *body*");
    expect(html).toContain("Chinese title is required");
    expect(html).toContain("Author is required");
  });
});
