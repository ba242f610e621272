import en from "../../../app/locales/en/translation";
import {
  CJK,
  colourStocks,
  expect,
  productIdByName,
  receiptJpeg,
  signUp,
  shopperTest as test,
  uniqueEmail,
  uniquePassword,
  waitForReact,
} from "../fixtures";

/**
 * The purchase again, shorter, in Traditional Chinese: a signed-in shopper who chose Chinese
 * buys one item and pays. Each project buys its own product (see purchase.spec.ts).
 */
const PRODUCT: Record<string, string> = {
  js: "Vertical Foregrip",
  "no-js": "Two-Point Padded Sling",
};

/** English interface text that must not show on the Chinese payment page. */
const ENGLISH_UI = [
  ...Object.values(en.payment),
  en.checkout.stepsLabel,
  en.checkout.stepShipping,
  en.checkout.stepPayment,
  en.checkout.stepComplete,
  en.cart.summary,
  en.cart.subtotal,
  en.cart.shipping,
  en.cart.free,
  en.cart.orderTotal,
  en.nav.home,
  en.nav.cart,
  en.nav.blog,
  en.nav.search,
  en.nav.account,
  en.nav.categories,
].filter((text) => !text.includes("{{"));

test.describe("purchase in Chinese", () => {
  test("a shopper adds to the cart, checks out and pays in Chinese", async ({
    page,
    browser,
    baseURL,
    jsEnabled,
    inChinese,
  }, testInfo) => {
    test.setTimeout(90_000);
    const name = PRODUCT[testInfo.project.name];
    test.skip(!name, "runs in the js and no-js projects");
    const productId = await productIdByName(page.request, name as string);
    const before = await colourStocks(browser, baseURL as string, productId);
    const colour = Object.keys(before).find((c) => (before[c] ?? 0) >= 3);
    if (!colour) throw new Error(`${name} has no colour with stock: ${JSON.stringify(before)}`);

    const email = uniqueEmail("zh-buyer");
    await signUp(page, email, uniquePassword());
    await inChinese();

    // Product page: 加入購物車.
    await page.goto(`/product/${productId}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(CJK);
    if (jsEnabled) await waitForReact(page);
    const form = page.locator("main form").filter({ has: page.locator("input[name=productId]") });
    const selector = `input[type=radio][name=color][value="${colour}"]`;
    await form
      .locator("label")
      .filter({ has: page.locator(selector) })
      .click();
    await expect(form.locator(selector)).toBeChecked();
    await form.getByRole("button", { name: "加入購物車", exact: true }).click();
    if (jsEnabled) await expect(page.getByTestId("cart-message")).toContainText("已加入購物車");
    else await expect(page.getByRole("status").filter({ hasText: "已加入購物車" })).toBeVisible();
    await expect(page.getByTestId("cart-count")).toHaveText("1");

    // 購物車 → 前往結帳.
    await page.getByRole("link", { name: "購物車，1 件貨品" }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.getByRole("heading", { level: 1, name: "購物車" })).toBeVisible();
    await expect(page.getByTestId("cart-line")).toHaveCount(1);
    const total = ((await page.getByTestId("total").textContent()) ?? "").trim();
    await page.getByRole("link", { name: "前往結帳" }).click();
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(page.getByRole("heading", { level: 1, name: "結帳" })).toBeVisible();
    const checkout = page.locator("form#checkout");
    await checkout.getByLabel("名字", { exact: true }).fill("大文");
    await checkout.getByLabel("姓氏", { exact: true }).fill("陳");
    await expect(checkout.getByLabel("電郵", { exact: true })).toHaveValue(email);
    await checkout.getByLabel("地址", { exact: true }).fill("九龍彌敦道 1 號 12 樓 A 室");
    await checkout.getByLabel("城市／地區", { exact: true }).fill("尖沙咀");
    // The country is a select of ISO codes named in the page's language, Hong Kong first.
    const country = checkout.getByLabel("國家／地區", { exact: true });
    await expect(country).toHaveValue("HK");
    await expect(country.locator("option:checked")).toHaveText("香港");
    await checkout.getByRole("button", { name: "繼續付款" }).click();

    // 付款: Chinese only.
    await expect(page).toHaveURL(/\/payment$/);
    await expect(page.getByRole("heading", { level: 1, name: "付款" })).toBeVisible();
    await expect(page.getByTestId("bank-account")).toContainText("轉數快識別碼");
    await expect(page.getByTestId("bank-account")).toContainText("1648203");
    await expect(page.getByTestId("order-total")).toHaveText(total);
    const text = await page.locator("body").innerText();
    for (const english of ENGLISH_UI) {
      const pattern = new RegExp(`\\b${english.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`);
      expect(text, `English "${english}" on the Chinese payment page`).not.toMatch(pattern);
    }

    if (jsEnabled) await waitForReact(page);
    await page.getByLabel("轉帳收據").setInputFiles(await receiptJpeg());
    await page.getByRole("button", { name: "提交付款" }).click();
    if (jsEnabled) await expect(page.getByRole("heading", { name: "付款已成功提交！" })).toBeVisible();
    await expect(page).toHaveURL(/\/payment-success\?order=ORD-\d{13}-[0-9A-F]{6}$/, { timeout: 6_000 });
    const orderNumber = new URL(page.url()).searchParams.get("order");
    await expect(page.getByRole("heading", { level: 1, name: "多謝你的訂購！" })).toBeVisible();
    await expect(page.getByTestId("order-number")).toHaveText(`訂單編號：${orderNumber}`);
    await expect(page.locator("main")).toContainText("48 小時");
    await expect(page.getByRole("heading", { name: "接下來" })).toBeVisible();
    await expect(page.getByTestId("cart-count")).toHaveCount(0);

    const after = await colourStocks(browser, baseURL as string, productId);
    expect(after[colour]).toBe((before[colour] ?? 0) - 1);
  });
});
