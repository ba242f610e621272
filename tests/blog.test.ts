import { beforeAll, describe, expect, it } from "vitest";
import { markdownToText, renderMarkdown } from "~/lib/markdown.server";
import type { Language } from "~/locales";
import { i18nextMiddleware, languageCookie } from "~/middleware/i18next";
import { findPublishedPost, listPublishedPostIds, listPublishedPosts } from "~/models/blog.server";
import { loader as blogLoader } from "~/routes/store/blog";
import { loader as postLoader } from "~/routes/store/blog-post";
import { createTestContext, createTestServices, type TestServices } from "./setup/db";

describe("renderMarkdown", () => {
  it("keeps headings, lists, emphasis and links, adding rel to links", () => {
    const html = renderMarkdown(
      "## Gear\n\nSome **bold** and *italic*.\n\n- one\n- two\n\n1. first\n\n[Guide](https://example.com/guide)",
    );
    expect(html).toContain("<h2>Gear</h2>");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<em>italic</em>");
    expect(html).toMatch(/<ul>\s*<li>one<\/li>\s*<li>two<\/li>\s*<\/ul>/);
    expect(html).toMatch(/<ol>\s*<li>first<\/li>\s*<\/ol>/);
    expect(html).toContain('<a href="https://example.com/guide" rel="noopener noreferrer nofollow">Guide</a>');
  });

  it("turns a body h1 into h2 (the page title is the only h1)", () => {
    expect(renderMarkdown("# Title")).toBe("<h2>Title</h2>");
  });

  it("removes script tags together with their content", () => {
    const html = renderMarkdown("Hello\n\n<script>alert('x')</script>\n\n<svg><script>alert(2)</script></svg>");
    expect(html).not.toMatch(/<script|alert/i);
    expect(html).toContain("Hello");
  });

  it("removes event handlers and images from other places", () => {
    const html = renderMarkdown(
      '<img src="x" onerror="alert(1)"> <img src="/uploads/blog/a.webp" alt="A" onerror="alert(1)"> ' +
        '<img src="http://plain.example/a.png"> <img src="//evil.example/a.png"> <img src="/uploads/../secret.png"> ' +
        '<img src="data:image/png;base64,AAAA"> ![ok](https://cdn.example/b.png) <p onclick="alert(1)">p</p>',
    );
    expect(html).not.toMatch(/onerror|onclick|alert/i);
    expect(html).toContain('<img src="/uploads/blog/a.webp" alt="A" />');
    expect(html).toContain('<img src="https://cdn.example/b.png" alt="ok" />');
    expect(html).not.toMatch(/src="x"|plain\.example|evil\.example|secret|data:/);
  });

  it("drops javascript: and other unsafe link targets but keeps the text", () => {
    const html = renderMarkdown(
      '[a](javascript:alert(1)) <a href="JaVaScRiPt:alert(2)">b</a> <a href="jav&#x09;ascript:alert(3)">c</a> [d](//evil.example) [e](data:text/html,x)',
    );
    expect(html).not.toMatch(/javascript|alert|href|evil|data:/i);
    expect(html).toMatch(/a\s+b\s+c\s+d\s+e/);
  });

  it("keeps mailto and same-site links, replacing any rel or target the author wrote", () => {
    const html = renderMarkdown(
      '[mail](mailto:shop@example.com) [rifles](/category/rifles) <a href="https://x.example" rel="opener" target="_blank" title="X">x</a>',
    );
    expect(html).toContain('<a href="mailto:shop@example.com" rel="noopener noreferrer nofollow">mail</a>');
    expect(html).toContain('<a href="/category/rifles" rel="noopener noreferrer nofollow">rifles</a>');
    expect(html).toContain('<a href="https://x.example" title="X" rel="noopener noreferrer nofollow">x</a>');
    expect(html).not.toMatch(/target|opener"/);
  });

  it("removes style attributes, style tags, classes and iframes", () => {
    const html = renderMarkdown(
      '<p style="color:red" class="big">styled</p>\n\n<style>body{display:none}</style>\n\n<iframe src="https://evil.example">fallback</iframe>',
    );
    expect(html).toBe("<p>styled</p>");
  });

  it("renders GFM tables and code blocks, escaping HTML inside code", () => {
    const html = renderMarkdown("| a | b |\n|:-:|---|\n| 1 | 2 |\n\n```\n<b>x</b>\n```");
    expect(html).toContain('<th align="center">a</th>');
    expect(html).toContain("<td>2</td>");
    expect(html).toContain("<pre><code>&lt;b&gt;x&lt;/b&gt;");
  });
});

describe("markdownToText", () => {
  it("gives plain text with entities decoded and blocks separated", () => {
    expect(markdownToText('## Tips\n\nUse **0.25 g** BBs & <em>check</em> "FPS".\n\n- one\n- two', 200)).toBe(
      'Tips Use 0.25 g BBs & check "FPS". one two',
    );
  });

  it("drops scripts entirely", () => {
    expect(markdownToText("Hi <script>alert(1)</script> there", 100)).toBe("Hi there");
  });

  it("cuts long English text on a word boundary and Chinese text anywhere, within maxLength", () => {
    const english = markdownToText("airsoft ".repeat(40), 50);
    expect(english.length).toBeLessThanOrEqual(50);
    expect(english).toMatch(/^(airsoft )+airsoft…$/);
    const chinese = markdownToText("氣槍".repeat(100), 21);
    expect(chinese).toBe(`${"氣槍".repeat(10)}…`);
  });
});

let svc: TestServices;
const ids: Record<string, number> = {};

async function insertPost(key: string, values: { published: 0 | 1; published_at: string | null; title?: string }) {
  const title = values.title ?? key;
  const row = await svc.db
    .insertInto("blog_posts")
    .values({
      title_en: `${title} (en)`,
      title_zh: `${title}（中文）`,
      content_en: `Content of **${title}**.`,
      content_zh: `${title} 的內容。`,
      author: "Marcus Lee",
      image_path: null,
      published: values.published,
      published_at: values.published_at,
      created_at: "2026-01-01T00:00:00.000Z",
      updated_at: values.published_at ?? "2026-01-01T00:00:00.000Z",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  ids[key] = row.id;
}

beforeAll(async () => {
  svc = await createTestServices();
  await insertPost("old", { published: 1, published_at: "2026-01-05T08:00:00.000Z" });
  await insertPost("draft", { published: 0, published_at: null });
  await insertPost("newest", { published: 1, published_at: "2026-03-01T08:00:00.000Z" });
  // Same moment as "tieB", inserted first: the higher id comes first.
  await insertPost("tieA", { published: 1, published_at: "2026-02-01T08:00:00.000Z" });
  await insertPost("tieB", { published: 1, published_at: "2026-02-01T08:00:00.000Z" });
  await insertPost("unpublished", { published: 0, published_at: "2026-02-15T08:00:00.000Z" });
});

describe("blog model", () => {
  it("lists published posts only, newest first, then by id", async () => {
    const result = await listPublishedPosts(svc.db, { page: 1, pageSize: 10 });
    expect(result.posts.map((post) => post.id)).toEqual([ids.newest, ids.tieB, ids.tieA, ids.old]);
    expect(result).toMatchObject({ total: 4, page: 1, pages: 1 });
  });

  it("pages without overlap", async () => {
    const first = await listPublishedPosts(svc.db, { page: 1, pageSize: 3 });
    const second = await listPublishedPosts(svc.db, { page: 2, pageSize: 3 });
    expect(first.pages).toBe(2);
    expect(first.posts.map((post) => post.id)).toEqual([ids.newest, ids.tieB, ids.tieA]);
    expect(second.posts.map((post) => post.id)).toEqual([ids.old]);
    expect((await listPublishedPosts(svc.db, { page: 3, pageSize: 3 })).posts).toEqual([]);
  });

  it("finds a published post but not a draft or a missing id", async () => {
    expect((await findPublishedPost(svc.db, ids.newest as number))?.title_en).toBe("newest (en)");
    expect(await findPublishedPost(svc.db, ids.draft as number)).toBeUndefined();
    expect(await findPublishedPost(svc.db, ids.unpublished as number)).toBeUndefined();
    expect(await findPublishedPost(svc.db, 999_999)).toBeUndefined();
  });

  it("lists the ids of published posts for the sitemap", async () => {
    const rows = await listPublishedPostIds(svc.db);
    expect(rows.map((row) => row.id).sort((a, b) => a - b)).toEqual(
      [ids.old, ids.newest, ids.tieA, ids.tieB].sort((a, b) => (a as number) - (b as number)),
    );
  });
});

/** Runs a loader behind the real i18n middleware, as the server does, for a reader of `language`. */
async function load<T>(
  loader: (args: never) => Promise<T>,
  url: string,
  params: Record<string, string>,
  language: Language,
): Promise<T> {
  const request = new Request(url, { headers: { Cookie: await languageCookie.serialize(language) } });
  const args = { request, params, context: createTestContext(svc), pattern: "" };
  let result: T | undefined;
  await i18nextMiddleware(args as unknown as Parameters<typeof i18nextMiddleware>[0], async () => {
    result = await loader(args as never);
    return new Response(null);
  });
  return result as T;
}

const post = (id: string | number, language: Language = "en") =>
  load(postLoader, `http://localhost/blog/${id}`, { id: String(id) }, language);
const list = (search: string, language: Language = "en") =>
  load(blogLoader, `http://localhost/blog${search}`, {}, language);

describe("/blog/:id loader", () => {
  it("returns the post in English with sanitised HTML and a plain-text description", async () => {
    const data = await post(ids.newest as number);
    expect(data.title).toBe("newest (en)");
    expect(data.html).toBe("<p>Content of <strong>newest</strong>.</p>");
    expect(data.description).toBe("Content of newest.");
    expect(data.publishedOn).toBe("1 March 2026");
  });

  it("returns the Chinese title and content for a reader in Chinese", async () => {
    const data = await post(ids.newest as number, "zh");
    expect(data.title).toBe("newest（中文）");
    expect(data.html).toContain("newest 的內容。");
    expect(data.publishedOn).toBe("2026年3月1日");
  });

  it.each([
    ["a draft", () => ids.draft as number],
    ["an unpublished post with a date", () => ids.unpublished as number],
    ["a missing id", () => 999_999],
    ["a non-numeric id", () => "abc"],
    ["an id with a sign or leading zero", () => "-1"],
    ["an id with a leading zero", () => `0${ids.newest}`],
  ])("throws a 404 for %s", async (_name, id) => {
    await expect(post(id())).rejects.toMatchObject({ init: { status: 404 } });
  });
});

describe("/blog loader", () => {
  it("lists published posts in the reader's language with excerpts", async () => {
    const data = await list("", "zh");
    expect(data.posts.map((p) => p.id)).toEqual([ids.newest, ids.tieB, ids.tieA, ids.old]);
    expect(data.posts[0]).toMatchObject({ title: "newest（中文）", excerpt: "newest 的內容。", imageUrl: null });
    expect(data.title).toContain("網誌");
    expect(data).toMatchObject({ page: 1, pages: 1, total: 4 });
  });

  it("throws a 404 for a page past the end or a malformed page number", async () => {
    await expect(list("?page=2")).rejects.toMatchObject({ init: { status: 404 } });
    await expect(list("?page=0")).rejects.toMatchObject({ init: { status: 404 } });
    await expect(list("?page=abc")).rejects.toMatchObject({ init: { status: 404 } });
  });
});
