import type { Page } from "@playwright/test";
import enTranslation from "../../../app/locales/en/translation";
import {
  type ApiShopper,
  apiAddToCart,
  apiCheckout,
  apiOrders,
  apiPaymentKey,
  apiSubmitPayment,
  CJK,
  expect,
  newApiShopper,
  productIdByName,
  receiptJpeg,
  setLanguage,
  signInAsAdmin,
  shopperTest as test,
  type UploadFile,
  waitForReact,
} from "../fixtures";

/**
 * The back office in Traditional Chinese, with JavaScript on and off: every admin screen shows
 * Chinese and none of the English interface text (taken from app/locales/en, so a string that
 * is hard-coded or left untranslated fails here); a product is created through the Chinese form
 * and the store shows it in Chinese; an order is marked paid with the Chinese buttons.
 */

/** Each project buys its own product, one no other spec buys, so stock never runs short. */
const PRODUCT: Record<string, { name: string; colour: string }> = {
  js: { name: "Modular Chest Rig", colour: "Black" },
  "no-js": { name: "High-Cut Bump Helmet", colour: "Black" },
};

/** The translation namespaces of the back office (the shell, every screen, statuses). */
const ADMIN_NAMESPACES = [
  "admin",
  "adminHome",
  "adminCategories",
  "adminOrders",
  "adminCustomers",
  "adminBlog",
  "adminSettings",
  "adminProducts",
  "adminProductForm",
  "dashboard",
] as const;

interface EnglishString {
  key: string;
  text: string;
  pattern: RegExp;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A pattern that finds an English interface string in page text: placeholders ({{email}}) match
 * anything short, and a string that begins or ends with a letter must stand as whole words.
 */
function englishPattern(text: string): RegExp | null {
  const parts = text.split(/\{\{[^}]+\}\}/);
  if (!parts.some((part) => /[A-Za-z]{2,}/.test(part))) return null;
  // A one-word string ("Draft", "Paid") is a badge, a button or a heading: it counts when it
  // stands alone in its line or table cell, so a shopper's or a test's data ("Draft notes 12") does not.
  if (parts.length === 1 && !/\s/.test(text.trim())) {
    return new RegExp(`(?:^|[\\n\\t]) *${escapeRegExp(text.trim())} *(?=[\\n\\t]|$)`);
  }
  // The spaces around a placeholder stay: "{{count}} customer" needs "… customer".
  const body = parts.map((part) => escapeRegExp(part).replace(/\s+/g, "\\s+")).join("[\\s\\S]{1,120}?");
  const first = parts[0] ?? "";
  const last = parts.at(-1) ?? "";
  // Whole words, and not part of an e-mail address or a hyphenated name ("customer-1@…").
  const before = /^\w/.test(first) ? "(?<![\\w@.-])" : "";
  const after = /\w$/.test(last) ? "(?![\\w@-])" : "";
  return new RegExp(`${before}${body}${after}`);
}

/** Every English string under `en` (an untranslated Chinese string, equal to it, is caught too). */
function collectEnglish(en: unknown, key: string, out: EnglishString[]): void {
  if (typeof en === "string") {
    const pattern = englishPattern(en);
    if (pattern) out.push({ key, text: en, pattern });
    return;
  }
  if (en && typeof en === "object") {
    for (const [child, value] of Object.entries(en)) {
      collectEnglish(value, `${key}.${child}`, out);
    }
  }
}

const ENGLISH: EnglishString[] = (() => {
  const out: EnglishString[] = [];
  for (const namespace of ADMIN_NAMESPACES) {
    collectEnglish(enTranslation[namespace], namespace, out);
  }
  collectEnglish(enTranslation.orders.statuses, "orders.statuses", out);
  return out;
})();

/**
 * What a reader of the screen meets: the visible text of the sidebar and main area, the text
 * of <option>s, and the labels, placeholders, titles and alt texts of visible elements. Words
 * marked as another language (an e-mail's subject in its recipient's language, `lang="en"`) are
 * content, not the interface: they are left out.
 */
async function screenText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const foreign = [...document.querySelectorAll<HTMLElement>("aside [lang], main [lang]")].filter(
      (el) => !el.hidden && !el.lang.startsWith("zh"),
    );
    for (const el of foreign) el.hidden = true;
    const roots = [...document.querySelectorAll<HTMLElement>("aside, main")].filter((el) => el.offsetParent !== null);
    const chunks: string[] = [document.title];
    for (const root of roots) {
      chunks.push(root.innerText);
      for (const option of root.querySelectorAll("option")) chunks.push(option.text);
      for (const el of root.querySelectorAll<HTMLElement>("[aria-label], [placeholder], [title], img[alt]")) {
        if (el.getClientRects().length === 0 && !(el instanceof HTMLOptionElement)) continue;
        for (const attribute of ["aria-label", "placeholder", "title", "alt"]) {
          const value = el.getAttribute(attribute);
          if (value) chunks.push(value);
        }
      }
    }
    for (const el of foreign) el.hidden = false;
    return chunks.join("\n");
  });
}

/** Asserts the screen is in Chinese: CJK text, and no English interface string anywhere on it. */
async function expectChineseScreen(page: Page, url: string): Promise<void> {
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hant-HK");
  const text = await screenText(page);
  expect.soft(text, `${url} shows Chinese`).toMatch(CJK);
  const found = ENGLISH.filter(({ pattern }) => pattern.test(text)).map(
    ({ key, text: english }) => `${key}: ${JSON.stringify(english)}`,
  );
  expect.soft(found, `English interface text on ${url}`).toEqual([]);
}

async function open(page: Page, url: string, jsEnabled: boolean): Promise<void> {
  const response = await page.goto(url);
  expect(response?.status(), url).toBe(200);
  if (jsEnabled) await waitForReact(page);
}

/** A shopper who buys one of the project's product and pays with a receipt (plain HTTP). */
async function placeOrder(shopper: ApiShopper, project: string) {
  const { name, colour } = PRODUCT[project] ?? { name: "", colour: "" };
  const productId = await productIdByName(shopper.request, name);
  await apiAddToCart(shopper.request, productId, colour, 1);
  await apiCheckout(shopper.request, shopper.email);
  const response = await apiSubmitPayment(shopper.request, await apiPaymentKey(shopper.request), await receiptJpeg());
  expect(response.status()).toBe(302);
  const [order] = await apiOrders(shopper.request);
  if (!order) throw new Error("the order is missing from the shopper's account");
  return order;
}

/** A small real PNG made with sharp. */
async function png(name: string): Promise<UploadFile> {
  const { default: sharp } = await import("sharp");
  const buffer = await sharp({ create: { width: 240, height: 240, channels: 3, background: { r: 90, g: 70, b: 40 } } })
    .png()
    .toBuffer();
  return { name, mimeType: "image/png", buffer };
}

const ZH_DIGITS = "零一二三四五六七八九";

test.describe("the back office in Chinese", () => {
  test(
    "every admin screen is in Chinese, with no English interface text",
    { tag: "@render" },
    async ({ page, baseURL, playwright, jsEnabled }, testInfo) => {
      test.setTimeout(60_000);
      const shopper = await newApiShopper(playwright, baseURL as string, "zh-walk-buyer");
      try {
        const order = await placeOrder(shopper, testInfo.project.name);
        await signInAsAdmin(page, "zh-walk-admin");
        // The shell's own language toggle (a POST form) switches the back office to Chinese.
        if (jsEnabled) await waitForReact(page);
        await page.locator("aside").getByRole("button", { name: "中文", exact: true }).click();
        await expect(page.getByRole("heading", { level: 1, name: /^歡迎，/ })).toBeVisible();

        await open(page, `/admin/customers?q=${encodeURIComponent(shopper.email)}`, jsEnabled);
        const customerHref = await page.getByRole("link", { name: `查看 ${shopper.email}` }).getAttribute("href");
        expect(customerHref).toMatch(/^\/admin\/customers\/[\w-]+$/);

        const screens = [
          "/admin",
          "/admin/products",
          "/admin/products/new",
          "/admin/categories",
          "/admin/brands",
          "/admin/orders",
          `/admin/orders/${order.id}`,
          `/admin/orders/ship?id=${order.id}`,
          "/admin/customers",
          customerHref as string,
          "/admin/blog",
          "/admin/blog/new",
          "/admin/settings",
          "/admin/settings/shipping",
          "/admin/settings/shipping/new",
        ];
        for (const url of screens) {
          await test.step(url, async () => {
            await open(page, url, jsEnabled);
            await expectChineseScreen(page, url);
            // Content with both languages is shown in the reader's language first.
            if (url === "/admin/categories") {
              await expect(
                page.getByTestId("category-row").getByRole("heading", { name: "長槍", exact: true }),
              ).toBeVisible();
            }
          });
        }
        // The shell carries the shop's Chinese name; the sidebar names every section in Chinese.
        await expect(page.locator("aside").getByRole("link", { name: "港灣戰術 · 管理後台" })).toBeVisible();
        const nav = page.getByRole("navigation", { name: "管理選單" }).first();
        for (const section of ["儀表板", "產品", "訂單", "客戶", "網誌", "設定"]) {
          await expect(nav.getByRole("link", { name: section, exact: true })).toBeVisible();
        }
      } finally {
        await shopper.dispose();
      }
    },
  );

  test("creates a product through the Chinese form and the store shows it in Chinese", async ({
    page,
    context,
    baseURL,
    jsEnabled,
  }, testInfo) => {
    test.setTimeout(60_000);
    const digits = `${Date.now()}${Math.floor(Math.random() * 1e4)}`;
    const zhTag = [...digits].map((digit) => ZH_DIGITS[Number(digit)]).join("");
    const nameEn = `Zh Form Carbine ${Date.now().toString(36)}-${testInfo.project.name}`;
    const nameZh = `中文表格卡賓槍${zhTag}`;
    await signInAsAdmin(page, "zh-form-admin");
    await setLanguage(context, baseURL ?? "", "zh");
    await open(page, "/admin/products/new", jsEnabled);
    await expect(page.getByRole("heading", { level: 1, name: "新增產品" })).toBeVisible();
    const form = page.locator("form").filter({ has: page.getByRole("button", { name: "新增顏色", exact: true }) });
    const save = form.getByRole("button", { name: "儲存", exact: true }).last();

    // Without an English name the form comes back with the Chinese message beside the field.
    await form.getByLabel("中文名稱", { exact: true }).fill(nameZh);
    await form.getByLabel("中文描述", { exact: true }).fill("中文表格測試建立的卡賓槍。");
    await form.getByLabel("價格（港幣）", { exact: true }).fill("1234.00");
    await save.click();
    await expect(page.getByRole("alert")).toContainText("請修正以下錯誤");
    const nameEnInput = form.getByLabel("英文名稱", { exact: true });
    await expect(nameEnInput).toHaveAttribute("aria-invalid", "true");
    await expect(nameEnInput).toHaveAttribute("aria-describedby", "product-name_en-error");
    await expect(page.locator("#product-name_en-error")).toHaveText("請輸入英文名稱");
    await expect(form.getByLabel("中文名稱", { exact: true })).toHaveValue(nameZh);
    await expect(form.getByLabel("價格（港幣）", { exact: true })).toHaveValue("1234.00");
    await expectChineseScreen(page, "/admin/products/new (errors)");

    await nameEnInput.fill(nameEn);
    await form.getByLabel("英文描述", { exact: true }).fill("A carbine made through the Chinese form.");
    await form.getByLabel("分類", { exact: true }).selectOption({ label: "Rifles / 長槍" });
    await form.getByLabel("庫存", { exact: true }).fill("4");
    await form.getByRole("button", { name: "新增顏色", exact: true }).click();
    await expect(form.getByLabel("顏色", { exact: true })).toHaveCount(1);
    await expect(form.getByLabel("英文名稱", { exact: true })).toHaveValue(nameEn);
    await form.getByLabel("顏色", { exact: true }).fill("Black");
    await form.getByRole("button", { name: "新增顏色", exact: true }).click();
    await expect(form.getByLabel("顏色", { exact: true })).toHaveCount(2);
    await expect(form.getByLabel("庫存", { exact: true }).nth(0)).toHaveValue("4");
    await form.getByLabel("顏色", { exact: true }).nth(1).fill("Tan");
    await form.getByLabel("庫存", { exact: true }).nth(1).fill("3");
    // With JavaScript the total follows the typed stocks; without, it is the last render's.
    await expect(form.getByText(jsEnabled ? "總庫存：7" : "總庫存：4")).toBeVisible();
    await form.getByLabel("新增圖片", { exact: true }).setInputFiles([await png("front.png")]);
    await save.click();
    await expect(page).toHaveURL(/\/admin\/products$/);
    await expect(page.getByRole("status").filter({ hasText: "產品已成功建立" })).toBeVisible();

    // The store, in Chinese, finds it by its Chinese name and shows both colours and the image.
    await open(page, `/search?q=${encodeURIComponent(zhTag)}`, jsEnabled);
    const card = page.locator("main article").filter({ has: page.getByRole("heading", { name: nameZh, exact: true }) });
    await expect(card).toBeVisible();
    await expect(page.locator("main article")).toHaveCount(1);
    await card.getByRole("link").first().click();
    await expect(page.getByRole("heading", { level: 1, name: nameZh })).toBeVisible();
    await expect(page.locator("main [data-price]").first()).toHaveText("HK$1,234.00");
    await expect(page.locator("main input[type=radio][name=color]")).toHaveCount(2);
    // The uploaded image, not the placeholder of a product without images.
    const photo = page.getByRole("region", { name: "產品圖片" }).getByRole("img", { name: nameZh });
    await expect(photo).toHaveAttribute("src", /\/uploads\//);
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  });

  test("an order is marked paid with the Chinese buttons", async ({
    page,
    context,
    baseURL,
    playwright,
    jsEnabled,
  }, testInfo) => {
    test.setTimeout(60_000);
    const shopper = await newApiShopper(playwright, baseURL as string, "zh-paid-buyer");
    try {
      const order = await placeOrder(shopper, testInfo.project.name);
      await signInAsAdmin(page, "zh-paid-admin");
      await setLanguage(context, baseURL ?? "", "zh");

      await open(page, "/admin/orders", jsEnabled);
      await expect(page.getByRole("heading", { level: 1, name: "訂單管理" })).toBeVisible();
      await page.getByLabel("訂單編號、訂單 ID 或電郵").fill(order.number);
      await page.getByRole("button", { name: "篩選", exact: true }).click();
      const row = page.getByTestId("order-row");
      await expect(row).toHaveCount(1);
      // Placed with its receipt: waiting for review, not "awaiting payment" (one set of status words, decision 041).
      await expect(row.getByTestId("order-status")).toHaveText("收據審核中");
      await row.getByRole("link", { name: `詳情 ${order.number}` }).click();
      await expect(page.getByRole("heading", { level: 1, name: `訂單 ${order.number}` })).toBeVisible();
      await expect(page.getByRole("img", { name: `訂單 ${order.number} 的轉帳收據` })).toBeVisible();

      await page.getByRole("button", { name: "標記為已付款", exact: true }).click();
      const flash = page.getByRole("status").filter({ hasText: "訂單狀態已成功更新" });
      await expect(flash).toBeVisible();
      await expect(flash).toContainText("已經以電郵通知客戶。");
      await expect(page.getByTestId("order-status").first()).toHaveText("已付款");
      await expect(page.getByText("已標記為已付款")).toBeVisible();
      await expectChineseScreen(page, `/admin/orders/${order.id} (paid)`);
    } finally {
      await shopper.dispose();
    }
  });
});
