import { type APIRequestContext, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { apiAddToCart, apiSignUp, CHECKOUT_DETAILS, uniqueEmail, uniquePassword, waitForReact } from "../e2e/fixtures";
import { jpeg, postMultipart } from "./files";
import { adminSignIn, createAdmin, FULL, openDatabase, removeFiles, type Shop, startShop } from "./shop";

/**
 * Stored XSS: an admin (or a shopper, for the order's details) saves names, descriptions,
 * colours, Markdown and addresses full of markup in both languages; every page that shows them,
 * in English and Chinese, must show them as text. The browser ignores the site's CSP here
 * (bypassCSP): the CSP is the second line of defence, and it would hide an escaping bug that
 * this spec is here to find. A dialog fails the test, and so does any injected element or
 * attribute in the DOM (event handler attributes, javascript: URLs, frames, foreign scripts).
 */

test.describe.configure({ mode: "serial" });

/** A word the search finds, so every page can be checked to really show the hostile text. */
const MARK = "Xssmark";

const PAYLOADS = [
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  '"><svg onload=alert(1)>',
  "'><img src=x onerror=alert(1)>",
  "</script><script>alert(1)</script>",
  "<iframe src=javascript:alert(1)></iframe>",
  "<details open ontoggle=alert(1)>",
  "{{constructor.constructor('alert(1)')()}}",
];

/** Markdown tricks on top of the raw HTML ones. */
const MARKDOWN = [
  `# ${MARK} heading <img src=x onerror=alert(1)>`,
  "[x](javascript:alert(1))",
  "[y](JaVaScRiPt:alert(1))",
  "[z](jav&#x09;ascript:alert(1))",
  "[w](data:text/html,<script>alert(1)</script>)",
  '![i](x" onerror="alert(1))',
  '<a href="javascript:alert(1)">link</a>',
  '<img src="https://example.com/a.png" onerror="alert(1)">',
  "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
  "<svg><animate onbegin=alert(1) attributeName=x dur=1s>",
  '<form action="javascript:alert(1)"><button>go</button></form>',
  "```\n</code></pre><img src=x onerror=alert(1)>\n```",
  ...PAYLOADS,
].join("\n\n");

const short = (text: string, max: number) => text.slice(0, max);

let shop: Shop;
let adminRequest: APIRequestContext;
let adminEmail = "";
let adminPassword = "";
let productId = 0;
let categoryId = 0;
let categorySlug = "";
let postId = 0;

async function postForm(request: APIRequestContext, url: string, form: Record<string, string>) {
  const response = await request.post(url, { form, maxRedirects: 0 });
  expect(response.status(), `${url}: ${(await response.text()).slice(0, 300)}`).toBe(302);
}

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(120_000);
  shop = await startShop({ name: "xss" });
  adminEmail = uniqueEmail("xss-admin");
  adminPassword = uniquePassword();
  createAdmin(shop.files, adminEmail, adminPassword);
  adminRequest = await playwright.request.newContext({ baseURL: shop.baseURL });
  await adminSignIn(adminRequest, adminEmail, adminPassword);

  const all = PAYLOADS.join(" ");
  await postForm(adminRequest, "/admin/categories?new=1", {
    intent: "create",
    name_en: short(`${MARK} ${PAYLOADS[1]} ${PAYLOADS[2]}`, 100),
    name_zh: short(`${MARK} 類別 ${PAYLOADS[0]} ${PAYLOADS[1]}`, 100),
    description_en: `${MARK} ${all}`,
    description_zh: `${MARK} 描述 ${all}`,
    slug: "xss-category",
    sort_order: "0",
    is_active: "on",
  });
  const db = openDatabase(shop.files);
  try {
    const category = db.prepare("SELECT id, slug FROM categories WHERE slug = ?").get("xss-category") as {
      id: number;
      slug: string;
    };
    categoryId = category.id;
    categorySlug = category.slug;
  } finally {
    db.close();
  }

  // The product, with a colour and an image, through the real multipart form.
  const image = { label: "photo", filename: "p.jpg", contentType: "image/jpeg", data: await jpeg(200, 150) };
  const product = await postMultipart(adminRequest, "/admin/products/new", [
    { name: "name_en", value: short(`${MARK} ${PAYLOADS[0]} ${PAYLOADS[1]} ${PAYLOADS[2]} ${PAYLOADS[4]}`, 200) },
    { name: "name_zh", value: short(`${MARK} 步槍 ${PAYLOADS[1]} ${PAYLOADS[3]} ${PAYLOADS[4]}`, 200) },
    { name: "description_en", value: `${MARK} ${all}\n\n${MARKDOWN}` },
    { name: "description_zh", value: `${MARK} 說明 ${all}\n\n${MARKDOWN}` },
    { name: "price_hkd", value: "123" },
    { name: "category_id", value: String(categoryId) },
    { name: "is_featured", value: "on" },
    { name: "variants[0].color", value: short(`"><img src=x onerror=alert(1)>`, 60) },
    { name: "variants[0].stock", value: "500" },
    { name: "variants[1].color", value: short("<script>alert(1)</script>", 60) },
    { name: "variants[1].stock", value: "500" },
    { name: "newImages", file: image },
  ]);
  expect(product.status, product.text.slice(0, 300)).toBe(302);

  await postForm(adminRequest, "/admin/blog/new", {
    title_en: short(`${MARK} ${PAYLOADS[0]} ${PAYLOADS[1]} ${PAYLOADS[2]}`, 200),
    title_zh: short(`${MARK} 文章 ${PAYLOADS[1]} ${PAYLOADS[4]}`, 200),
    content_en: `${MARK} intro\n\n${MARKDOWN}`,
    content_zh: `${MARK} 內容\n\n${MARKDOWN}`,
    author: short(`${MARK} <img src=x onerror=alert(1)>`, 100),
    published: "on",
  });

  const db2 = openDatabase(shop.files);
  try {
    productId = (db2.prepare("SELECT id FROM products WHERE name_en LIKE ?").get(`${MARK}%`) as { id: number }).id;
    postId = (db2.prepare("SELECT id FROM blog_posts WHERE title_en LIKE ?").get(`${MARK}%`) as { id: number }).id;
  } finally {
    db2.close();
  }
});

test.afterAll(async () => {
  await adminRequest?.dispose();
  await shop?.stop();
  if (shop) removeFiles(shop.files);
});

/** What the DOM must never hold: anything that runs script, whatever text it came from. */
async function injectedNodes(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const element of Array.from(document.querySelectorAll("*"))) {
      for (const attribute of Array.from(element.attributes)) {
        const name = attribute.name.toLowerCase();
        // Browsers skip control characters and spaces in a URL's scheme ("jav\tascript:").
        const value = Array.from(attribute.value)
          .filter((char) => char.charCodeAt(0) > 0x20)
          .join("")
          .toLowerCase();
        if (name.startsWith("on")) found.push(`<${element.localName} ${name}>`);
        if (
          ["href", "src", "action", "formaction", "xlink:href", "data"].includes(name) &&
          /^(javascript|vbscript|data:text\/html)/.test(value)
        ) {
          found.push(`<${element.localName} ${name}="${attribute.value}">`);
        }
      }
    }
    for (const element of Array.from(
      document.querySelectorAll("iframe, frame, object, embed, base, meta[http-equiv]"),
    )) {
      found.push(`<${element.localName}>`);
    }
    for (const script of Array.from(document.querySelectorAll("script"))) {
      const text = script.textContent ?? "";
      if (script.type === "application/ld+json") {
        // Product names go into JSON-LD: "<" must stay escaped, or "</script>" would end it.
        if (text.includes("<")) found.push("<script ld+json> with a raw <");
      } else if (!script.nonce && !script.hasAttribute("nonce")) {
        // The page's own scripts carry the response's nonce; the loader data inside them holds
        // the hostile strings as escaped JavaScript strings. A script without one was injected.
        found.push(`<script> without the page's nonce: ${text.slice(0, 60)}`);
      } else if (/^\s*alert\(/.test(text)) {
        found.push("<script> that is only alert()");
      }
    }
    return found;
  });
}

interface Visitor {
  context: BrowserContext;
  page: Page;
  dialogs: string[];
}

async function newVisitor(browser: import("@playwright/test").Browser): Promise<Visitor> {
  const context = await browser.newContext({ baseURL: shop.baseURL, bypassCSP: true, locale: "en-GB" });
  const page = await context.newPage();
  // Bounded waits: a page broken by injected markup may never finish hydrating.
  page.setDefaultTimeout(20_000);
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()} on ${page.url()}`);
    dialog.dismiss().catch(() => {});
  });
  return { context, page, dialogs };
}

/** Opens `path` in both languages and checks it shows the hostile text as text, and nothing runs. */
async function visit(visitor: Visitor, path: string, options: { mark?: boolean; languages?: string[] } = {}) {
  for (const language of options.languages ?? ["en", "zh"]) {
    const url = `${path}${path.includes("?") ? "&" : "?"}lng=${language}`;
    const response = await visitor.page.goto(url);
    expect(response?.status(), url).toBe(200);
    // The server's HTML first, then again once React has hydrated (the client renders it too).
    await visitor.page.waitForLoadState("load");
    expect(visitor.dialogs, url).toEqual([]);
    expect(await injectedNodes(visitor.page), url).toEqual([]);
    await waitForReact(visitor.page);
    if (options.mark !== false) {
      await expect(visitor.page.locator("body"), `${url} shows the hostile text`).toContainText(MARK);
    }
    expect(await injectedNodes(visitor.page), url).toEqual([]);
    expect(visitor.dialogs, url).toEqual([]);
  }
}

test("markup saved in the catalogue and blog is shown as text on every store page", async ({ browser }) => {
  const visitor = await newVisitor(browser);
  try {
    await visit(visitor, "/");
    await visit(visitor, `/category/${categorySlug}`);
    await visit(visitor, `/product/${productId}`);
    await visit(visitor, `/search?q=${MARK}`);
    await visit(visitor, "/blog");
    await visit(visitor, `/blog/${postId}`);

    // The header's live search, with JavaScript.
    for (const language of ["en", "zh"]) {
      await visitor.page.goto(`/?lng=${language}`);
      await waitForReact(visitor.page);
      await visitor.page.locator("header input[type=search]").first().fill(MARK);
      const panel = visitor.page.getByTestId("search-panel").first();
      await expect(panel).toContainText(MARK);
      expect(await injectedNodes(visitor.page)).toEqual([]);
      expect(visitor.dialogs).toEqual([]);
    }

    // Cart, checkout and payment with the product in the cart, then the order in the account.
    const request = visitor.page.request;
    const email = uniqueEmail("xss-buyer");
    await apiSignUp(request, email, uniquePassword());
    await apiAddToCart(request, productId, `"><img src=x onerror=alert(1)>`, 1);
    await apiAddToCart(request, productId, "<script>alert(1)</script>", 1);
    await visit(visitor, "/cart");
    await visit(visitor, "/checkout");
    const checkout = await request.post("/checkout", {
      form: {
        ...CHECKOUT_DETAILS,
        email,
        firstName: `${MARK} <img src=x onerror=alert(1)>`,
        lastName: `"><svg onload=alert(1)>`,
        address: `</script><script>alert(1)</script> ${PAYLOADS[0]}`,
        city: "<iframe src=javascript:alert(1)>",
      },
      maxRedirects: 0,
    });
    expect(checkout.status()).toBe(302);
    await visit(visitor, "/payment");
    const page = await request.get("/payment");
    const key = /name="submissionKey" value="([^"]+)"/.exec(await page.text())?.[1] ?? "";
    const paid = await postMultipart(request, "/payment", [
      { name: "submissionKey", value: key },
      {
        name: "receipt",
        file: { label: "r", filename: "r.jpg", contentType: "image/jpeg", data: await jpeg(100, 80) },
      },
    ]);
    expect(paid.status).toBe(302);
    const db = openDatabase(shop.files);
    const order = db.prepare("SELECT id FROM orders ORDER BY created_at DESC LIMIT 1").get() as { id: string };
    db.close();
    await visit(visitor, "/account/orders");
    await visit(visitor, `/account/orders/${order.id}`);

    // The back office: lists and forms. They show both languages' fields whatever the interface
    // language, so the fast level opens them in English only; the full level in both.
    const adminLanguages = FULL ? ["en", "zh"] : ["en"];
    const admin = await newVisitor(browser);
    try {
      const signIn = await admin.page.request.post("/admin/login", {
        form: { intent: "login", email: adminEmail, password: adminPassword },
        maxRedirects: 0,
      });
      expect(signIn.status()).toBe(302);
      await visit(admin, "/admin", { mark: false, languages: adminLanguages });
      await visit(admin, `/admin/products?search=${MARK}`, { languages: adminLanguages });
      await visit(admin, `/admin/products/edit/${productId}`, { languages: adminLanguages });
      await visit(admin, "/admin/categories", { languages: adminLanguages });
      await visit(admin, `/admin/categories?edit=${categoryId}`, { languages: adminLanguages });
      await visit(admin, "/admin/blog", { languages: adminLanguages });
      await visit(admin, `/admin/blog/edit/${postId}`, { languages: adminLanguages });
      await visit(admin, "/admin/orders", { languages: adminLanguages });
      await visit(admin, `/admin/orders/${order.id}`, { languages: adminLanguages });
      await visit(admin, "/admin/customers", { mark: false, languages: adminLanguages });
    } finally {
      await admin.context.close();
    }
  } finally {
    await visitor.context.close();
  }
});
