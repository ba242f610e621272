import { expect, test } from "../fixtures";

// Language and currency are POST forms: they work with JavaScript off, and come back to the page.
test.describe("language and currency", () => {
  test("switches language and back, staying on the same page", async ({ page }) => {
    await page.goto("/faq");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Frequently Asked Questions|FAQ/i);

    await page.getByRole("button", { name: "中文" }).click();
    await expect(page).toHaveURL(/\/faq$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hant-HK");
    await expect(page.getByRole("status")).toContainText("語言已切換至中文");
    await expect(page.getByRole("link", { name: "常見問題" })).toBeVisible();
    // The header's category nav, kept from the English document with JavaScript (decision 071),
    // follows the language too.
    const rifles = page.locator('header a[href="/category/rifles"]');
    await expect(rifles).toHaveCount(1);
    await expect(rifles).toHaveText("長槍");

    await page.getByRole("button", { name: "English" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("status")).toContainText("Language changed to English");
    await expect(rifles).toHaveText("Rifles");
    // The flash message shows once.
    await page.reload();
    await expect(page.getByRole("status")).toHaveCount(0);
  });

  test("switches the currency of every price", async ({ page, jsEnabled }) => {
    await page.goto("/");
    const price = page
      .locator("section[aria-labelledby=featured-heading] article")
      .first()
      .getByText(/\d\.\d{2}$/);
    await expect(price).toHaveText(/^HK\$/);

    const picker = page.locator("header form[action='/resources/currency']").first();
    await picker.getByRole("combobox").selectOption("GBP");
    // With JavaScript the select submits itself; without, the shopper presses the button.
    if (!jsEnabled) await picker.getByRole("button").click();
    await expect(page.getByRole("status")).toContainText("Prices now shown in GBP");
    await expect(price).toHaveText(/^£\d/);
    await expect(page).toHaveURL(/\/$/);

    const euro = page.locator("header form[action='/resources/currency']").first();
    await euro.getByRole("combobox").selectOption("EUR");
    if (!jsEnabled) await euro.getByRole("button").click();
    await expect(price).toHaveText(/^€\d/);
  });

  test("refuses an unknown currency with 400 and keeps the old one", async ({ page, request }) => {
    const response = await request.post("/resources/currency", { form: { currency: "XYZ", redirectTo: "/" } });
    expect(response.status()).toBe(400);
    await page.goto("/");
    await expect(page.locator("section[aria-labelledby=featured-heading] article").first()).toContainText("HK$");
  });

  test("refuses a language form posted from another site", { tag: "@http" }, async ({ request, baseURL }) => {
    const response = await request.post("/resources/language", {
      form: { language: "zh", redirectTo: "/" },
      headers: { Origin: "https://evil.example" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(403);
    expect(response.headers()["set-cookie"]).toBeUndefined();
    expect(baseURL).toBeTruthy();
  });

  test("never redirects off-site after a switch", { tag: "@http" }, async ({ request }) => {
    const response = await request.post("/resources/language", {
      form: { language: "en", redirectTo: "//evil.example/phish" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(302);
    expect(response.headers().location).toBe("/");
  });
});
