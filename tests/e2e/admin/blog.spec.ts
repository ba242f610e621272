import type { Page } from "@playwright/test";
import {
  expect,
  newApiShopper,
  receiptJpeg,
  setLanguage,
  signInAsAdmin,
  shopperTest as test,
  waitForReact,
} from "../fixtures";

/**
 * The admin blog (/admin/blog, /admin/blog/new, /admin/blog/edit/:id) end to end, with and
 * without JavaScript: an admin writes a post in both languages with an image, publishes it, the
 * storefront shows it (rendered inert: the Markdown carries a script, an event handler and a
 * javascript: link), an edit keeps the input on a validation error, and a delete asks first.
 * A draft stays off the storefront; a customer's posts to the blog actions are refused.
 */

/** Raw HTML and a javascript: link, all of which the storefront must render harmless. */
const HOSTILE_MARKDOWN = [
  "Our first outing of the season.",
  "",
  "<script>window.__xss=1</script>",
  "",
  '<img src=x onerror="window.__xss=2">',
  "",
  "[link](javascript:alert(1))",
].join("\n");

function uniqueTitles(project: string) {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}-${project}`;
  return { tag, en: `Field Day ${tag}`, zh: `野戰日記 ${tag}` };
}

async function open(page: Page, url: string, jsEnabled: boolean): Promise<void> {
  await page.goto(url);
  if (jsEnabled) await waitForReact(page);
}

function postForm(page: Page) {
  return page.locator("main form").filter({ has: page.getByRole("button", { name: "Save", exact: true }) });
}

function flash(page: Page, text: string) {
  return page.getByRole("status").filter({ hasText: text });
}

async function postIdOf(page: Page, title: string): Promise<number> {
  const href = await page.getByRole("link", { name: `Edit ${title}`, exact: true }).getAttribute("href");
  const id = Number(/\/admin\/blog\/edit\/(\d+)$/.exec(href ?? "")?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}

/** The post body on /blog/:id carries nothing that runs, and nothing ran. */
async function expectInert(page: Page, jsEnabled: boolean, dialogs: string[]): Promise<void> {
  const article = page.locator("article");
  await expect(article.getByText("Our first outing of the season.")).toBeVisible();
  await expect(article.locator("script")).toHaveCount(0);
  await expect(article.locator("[onerror]")).toHaveCount(0);
  await expect(article.locator('img[src="x"]')).toHaveCount(0);
  await expect(article.locator('a[href^="javascript:" i]')).toHaveCount(0);
  // The refused link keeps its text, without the link.
  await expect(article.getByText("link", { exact: true })).toBeVisible();
  if (jsEnabled) {
    await waitForReact(page);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  }
  expect(dialogs).toEqual([]);
}

test.describe("Admin blog", () => {
  test("an admin writes, publishes, edits and deletes a post; the blog shows it in both languages", async ({
    page,
    context,
    baseURL,
    jsEnabled,
  }, testInfo) => {
    // One long flow (create, storefront in two languages, edit, delete) on a shared 2-core machine.
    test.slow();
    const title = uniqueTitles(testInfo.project.name);
    const dialogs: string[] = [];
    await signInAsAdmin(page, "blog-admin");

    await open(page, "/admin/blog", jsEnabled);
    await expect(page.getByRole("heading", { level: 1, name: "Blog Posts" })).toBeVisible();
    await page.getByRole("link", { name: "New Post" }).click();
    await expect(page).toHaveURL(/\/admin\/blog\/new$/);
    await expect(page.getByRole("heading", { level: 1, name: "New Post" })).toBeVisible();
    if (jsEnabled) await waitForReact(page);
    const form = postForm(page);

    // Everything but the image is required, with the message next to each field.
    await form.getByRole("button", { name: "Save" }).click();
    for (const message of [
      "English title is required",
      "Chinese title is required",
      "English content is required",
      "Chinese content is required",
      "Author is required",
    ]) {
      await expect(form.getByText(message)).toBeVisible();
    }

    await form.getByLabel("English Title").fill(title.en);
    await form.getByLabel("Chinese Title").fill(title.zh);
    await form.getByLabel("English Content").fill(HOSTILE_MARKDOWN);
    await form.getByLabel("Chinese Content").fill("## 第一節\n\n今季第一次出隊。");
    await form.getByLabel("Author").fill("Alex Chan");
    await form.getByLabel("Featured Image").setInputFiles(await receiptJpeg("cover.jpg"));
    if (jsEnabled) await expect(form.getByRole("img", { name: "Preview of the chosen image" })).toBeVisible();
    await form.getByLabel("Publish this post").check();
    await form.getByRole("button", { name: "Save" }).click();

    await expect(page).toHaveURL(/\/admin\/blog$/);
    await expect(flash(page, "Blog post created successfully")).toBeVisible();
    const row = page.locator("tr").filter({ hasText: title.en });
    await expect(row).toContainText("Alex Chan");
    await expect(row.getByTestId("status-badge")).toHaveText("Published");
    await expect(row.locator("img")).toHaveAttribute("src", /^\/uploads\/blog\/[\w-]+\.webp$/);
    const id = await postIdOf(page, title.en);

    // The storefront: listed and readable, in English and in Chinese, and inert.
    page.on("dialog", async (dialog) => {
      dialogs.push(dialog.message());
      await dialog.dismiss();
    });
    await open(page, "/blog", jsEnabled);
    await expect(page.getByRole("link", { name: title.en, exact: true })).toHaveAttribute("href", `/blog/${id}`);
    await page.goto(`/blog/${id}`);
    await expect(page.getByRole("heading", { level: 1, name: title.en })).toBeVisible();
    await expect(page.getByText("By Alex Chan")).toBeVisible();
    await expect(page.locator("article img").first()).toHaveAttribute("src", /^\/uploads\/blog\//);
    await expectInert(page, jsEnabled, dialogs);

    await setLanguage(context, baseURL ?? "", "zh");
    await page.goto("/blog");
    await expect(page.getByRole("link", { name: title.zh, exact: true })).toBeVisible();
    await page.goto(`/blog/${id}`);
    await expect(page.getByRole("heading", { level: 1, name: title.zh })).toBeVisible();
    await expect(page.locator("article").getByText("今季第一次出隊。")).toBeVisible();
    // The admin list searches the title in the admin's language.
    await page.goto(`/admin/blog?q=${encodeURIComponent(title.zh)}`);
    await expect(page.getByRole("heading", { level: 1, name: "網誌文章" })).toBeVisible();
    await expect(page.locator("tr").filter({ hasText: title.zh }).getByTestId("status-badge")).toHaveText("已發佈");
    await setLanguage(context, baseURL ?? "", "en");

    // Edit: a validation error keeps what was typed; then the change shows on the blog.
    const renamed = `${title.en} (updated)`;
    await open(page, `/admin/blog?q=${encodeURIComponent(title.tag)}`, jsEnabled);
    await page.getByRole("link", { name: `Edit ${title.en}`, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/blog/edit/${id}$`));
    await expect(page.getByRole("heading", { level: 1, name: "Edit Post" })).toBeVisible();
    if (jsEnabled) await waitForReact(page);
    const editForm = postForm(page);
    await expect(editForm.getByLabel("English Title")).toHaveValue(title.en);
    await expect(editForm.getByLabel("Publish this post")).toBeChecked();
    await editForm.getByLabel("English Title").fill(renamed);
    await editForm.getByLabel("Author").fill("");
    await editForm.getByRole("button", { name: "Save" }).click();
    await expect(editForm.getByText("Author is required")).toBeVisible();
    await expect(editForm.getByLabel("English Title")).toHaveValue(renamed);
    await expect(editForm.getByLabel("Chinese Title")).toHaveValue(title.zh);
    await editForm.getByLabel("Author").fill("Jo Wong");
    await editForm.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(/\/admin\/blog$/);
    await expect(flash(page, "Blog post updated successfully")).toBeVisible();
    await expect(page.locator("tr").filter({ hasText: renamed })).toContainText("Jo Wong");

    await page.goto(`/blog/${id}`);
    await expect(page.getByRole("heading", { level: 1, name: renamed })).toBeVisible();
    // Edited without a new image: the image stays.
    await expect(page.locator("article img").first()).toHaveAttribute("src", /^\/uploads\/blog\//);

    // Delete, after a confirmation.
    await open(page, `/admin/blog?q=${encodeURIComponent(title.tag)}`, jsEnabled);
    if (jsEnabled) {
      page.removeAllListeners("dialog");
      page.once("dialog", async (dialog) => {
        expect(dialog.message()).toBe("Are you sure you want to delete this post?");
        await dialog.accept();
      });
      await page.getByRole("button", { name: `Delete ${renamed}` }).click();
    } else {
      await page.getByRole("button", { name: `Delete ${renamed}` }).click();
      await expect(page).toHaveURL(/\/admin\/blog\?.*delete=\d+/);
      await expect(page.getByRole("heading", { name: "Are you sure you want to delete this post?" })).toBeVisible();
      await page.getByRole("button", { name: "Yes, delete" }).click();
    }
    await expect(flash(page, "Blog post deleted successfully")).toBeVisible();
    await expect(page.getByText("No posts found matching your search")).toBeVisible();
    expect((await page.goto(`/blog/${id}`))?.status()).toBe(404);
  });

  test("a draft stays off the storefront; a customer's posts to the blog actions are refused", async ({
    page,
    playwright,
    baseURL,
    jsEnabled,
  }, testInfo) => {
    const title = uniqueTitles(testInfo.project.name);
    await signInAsAdmin(page, "blog-admin");
    await open(page, "/admin/blog/new", jsEnabled);
    const form = postForm(page);
    await form.getByLabel("English Title").fill(title.en);
    await form.getByLabel("Chinese Title").fill(title.zh);
    await form.getByLabel("English Content").fill("Not ready yet.");
    await form.getByLabel("Chinese Content").fill("未準備好。");
    await form.getByLabel("Author").fill("Draft Writer");
    await form.getByRole("button", { name: "Save" }).click();
    await expect(flash(page, "Blog post created successfully")).toBeVisible();
    await expect(page.locator("tr").filter({ hasText: title.en }).getByTestId("status-badge")).toHaveText("Draft");
    const id = await postIdOf(page, title.en);

    expect((await page.goto(`/blog/${id}`))?.status()).toBe(404);
    await page.goto("/blog");
    await expect(page.getByText(title.en)).toHaveCount(0);

    const customer = await newApiShopper(playwright, baseURL ?? "", "blog-customer");
    try {
      const attempts = [
        customer.request.post("/admin/blog/new", {
          multipart: { title_en: "Hacked", title_zh: "入侵", content_en: "x", content_zh: "x", author: "x" },
          maxRedirects: 0,
        }),
        customer.request.post(`/admin/blog/edit/${id}`, {
          form: {
            title_en: "Hacked",
            title_zh: "入侵",
            content_en: "x",
            content_zh: "x",
            author: "x",
            published: "on",
          },
          maxRedirects: 0,
        }),
        customer.request.post("/admin/blog", {
          form: { intent: "delete", id: String(id), confirmed: "1" },
          maxRedirects: 0,
        }),
      ];
      for (const response of await Promise.all(attempts)) expect(response.status()).toBe(403);
    } finally {
      await customer.dispose();
    }

    await open(page, `/admin/blog?q=${encodeURIComponent(title.tag)}`, jsEnabled);
    const row = page.locator("tr").filter({ hasText: title.en });
    await expect(row.getByTestId("status-badge")).toHaveText("Draft");
    await expect(page.getByText("Hacked")).toHaveCount(0);
    expect((await page.goto(`/blog/${id}`))?.status()).toBe(404);
  });
});
