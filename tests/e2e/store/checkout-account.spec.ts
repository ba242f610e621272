import type { Page } from "@playwright/test";
import en from "../../../app/locales/en/translation";
import zh from "../../../app/locales/zh/translation";
import { seriousViolations } from "../a11y";
import {
  apiAddToCart,
  apiCheckout,
  apiPaymentKey,
  apiSubmitPayment,
  CHECKOUT_DETAILS,
  expect,
  productIdByName,
  receiptJpeg,
  setLanguage,
  signUpWithRequest,
  submitAuthForm,
  shopperTest as test,
  uniqueEmail,
  uniquePassword,
} from "../fixtures";

/**
 * Before checkout: a signed-out shopper is told an account is needed (on the cart and on the
 * checkout page) with links that come back to checkout; a returning customer finds their last
 * order's name, phone and address filled in. The steps mark where the shopper is.
 */

const TEXT = { en, zh } as const;
/** Plenty of stock, bought by no other spec that counts it. */
const CART_PRODUCT = "Spring Pistol Training Twin Pack";
const ORDER_PRODUCT = "Starter Spring Carbine";

async function addToCart(page: Page, name = CART_PRODUCT, colour = "Default"): Promise<void> {
  await apiAddToCart(page.request, await productIdByName(page.request, name), colour);
}

async function currentStep(page: Page) {
  const current = page.locator("ol li[aria-current=step]");
  await expect(current).toHaveCount(1);
  const weights = await page
    .locator("ol[aria-label] > li")
    .evaluateAll((items) => items.map((li) => Number(getComputedStyle(li).fontWeight)));
  return { current, weights };
}

test.describe("checkout needs an account, and knows a returning customer", () => {
  for (const lang of ["en", "zh"] as const) {
    test(`a signed-out shopper is told before checkout, and signs up on the way (${lang})`, async ({
      page,
      context,
      baseURL,
      jsEnabled,
    }) => {
      const t = TEXT[lang].checkout;
      await setLanguage(context, baseURL ?? "", lang);
      await addToCart(page);

      // The cart says it next to "Proceed to Checkout", with links back to checkout.
      await page.goto("/cart");
      const summary = page.locator("aside[aria-labelledby=summary-heading]");
      await expect(summary.getByRole("link", { name: TEXT[lang].cart.checkout })).toBeVisible();
      const notice = summary.getByRole("region", { name: t.accountNeeded });
      await expect(notice).toBeVisible();
      await expect(notice.getByRole("link", { name: t.signIn, exact: true })).toHaveAttribute(
        "href",
        "/login?redirectTo=%2Fcheckout",
      );
      await expect(notice.getByRole("link", { name: t.signUp, exact: true })).toHaveAttribute(
        "href",
        "/login?mode=signup&redirectTo=%2Fcheckout",
      );

      // The checkout page says it above the form.
      await summary.getByRole("link", { name: TEXT[lang].cart.checkout }).click();
      await expect(page).toHaveURL(/\/checkout$/);
      // The URL changes a moment before the new page is drawn: wait for the checkout form.
      await expect(page.locator("form#checkout")).toBeVisible();
      const top = page.getByRole("region", { name: t.accountNeeded });
      await expect(top).toBeVisible();
      const noticeBox = await top.boundingBox();
      const formBox = await page.locator("form#checkout").boundingBox();
      expect(noticeBox && formBox && noticeBox.y + noticeBox.height <= formBox.y, "notice above the form").toBe(true);
      const { current, weights } = await currentStep(page);
      await expect(current).toContainText(t.stepShipping);
      expect(weights[0]).toBeGreaterThanOrEqual(600);
      expect(Math.max(...weights.slice(1))).toBeLessThan(600);
      expect(await seriousViolations(page, jsEnabled)).toEqual([]);

      // Sign up from the notice: back on checkout, signed in, the notice gone, the cart kept.
      await top.getByRole("link", { name: t.signUp, exact: true }).click();
      await expect(page).toHaveURL(/\/login\?mode=signup&redirectTo=%2Fcheckout$/);
      if (lang === "en") {
        await submitAuthForm(page, uniqueEmail("notice"), uniquePassword(), "Sign Up");
      } else {
        const form = page.locator("main form").filter({ has: page.locator("input[name=password]") });
        await form.locator("input[name=email]").fill(uniqueEmail("notice-zh"));
        await form.locator("input[name=password]").fill(uniquePassword());
        await form.locator("button[type=submit]").first().click();
      }
      await expect(page).toHaveURL(/\/checkout$/);
      await expect(page.getByRole("region", { name: t.accountNeeded })).toHaveCount(0);
      await expect(page.getByTestId("cart-count")).toHaveText("1");
      await page.goto("/cart");
      await expect(page.getByTestId("account-needed")).toHaveCount(0);
    });
  }

  test("a returning customer's checkout starts from the last order", async ({ page, context, baseURL }) => {
    test.setTimeout(60_000);
    const email = uniqueEmail("returning");
    await signUpWithRequest(page.request, email, uniquePassword());

    // First order, placed as the forms post it.
    await addToCart(page, ORDER_PRODUCT, "Black");
    await apiCheckout(page.request, email);
    const paid = await apiSubmitPayment(page.request, await apiPaymentKey(page.request), await receiptJpeg());
    expect(paid.status()).toBe(302);
    expect(paid.headers().location).toMatch(/\/payment-success\?order=ORD-/);

    // Next time: name, phone and address come back; the e-mail is the account's.
    await addToCart(page);
    for (const lang of ["en", "zh"] as const) {
      await setLanguage(context, baseURL ?? "", lang);
      await page.goto("/checkout");
      const form = page.locator("form#checkout");
      await expect(form.locator("input[name=firstName]")).toHaveValue(CHECKOUT_DETAILS.firstName);
      await expect(form.locator("input[name=lastName]")).toHaveValue(CHECKOUT_DETAILS.lastName);
      await expect(form.locator("input[name=phone]")).toHaveValue(CHECKOUT_DETAILS.phone);
      await expect(form.locator("[name=address]")).toHaveValue(CHECKOUT_DETAILS.address);
      await expect(form.locator("input[name=city]")).toHaveValue(CHECKOUT_DETAILS.city);
      await expect(form.locator("select[name=country]")).toHaveValue(CHECKOUT_DETAILS.country);
      await expect(form.locator("input[name=email]")).toHaveValue(email);
      await expect(form.locator("textarea[name=notes]")).toHaveValue("");
      await expect(page.getByTestId("account-needed")).toHaveCount(0);
    }

    // The prefilled form goes straight on to payment, whose step is now the current one.
    await setLanguage(context, baseURL ?? "", "en");
    await page.goto("/checkout");
    await page.locator("form#checkout").getByRole("button", { name: en.checkout.continue }).click();
    await expect(page).toHaveURL(/\/payment$/);
    const { current, weights } = await currentStep(page);
    await expect(current).toContainText(en.checkout.stepPayment);
    expect(weights[1]).toBeGreaterThanOrEqual(600);
    expect(Math.max(weights[0] ?? 0, weights[2] ?? 0, weights[3] ?? 0)).toBeLessThan(600);
    await setLanguage(context, baseURL ?? "", "zh");
    await page.goto("/payment");
    await expect((await currentStep(page)).current).toContainText(zh.checkout.stepPayment);
  });

  test("cart and checkout: named links, a valid street-address field, no serious axe findings", async ({
    page,
    context,
    baseURL,
    jsEnabled,
  }) => {
    await signUpWithRequest(page.request, uniqueEmail("a11y"), uniquePassword());
    await addToCart(page);
    for (const lang of ["en", "zh"] as const) {
      await setLanguage(context, baseURL ?? "", lang);
      await page.goto("/cart");
      const line = page.getByTestId("cart-line");
      await expect(line).toHaveCount(1);
      // The picture repeats the product link: out of the tab order and the accessibility tree.
      const pictureLink = line.locator('a[href^="/product/"]').first();
      await expect(pictureLink.locator("img")).toHaveCount(1);
      await expect(pictureLink).toHaveAttribute("aria-hidden", "true");
      await expect(pictureLink).toHaveAttribute("tabindex", "-1");
      for (const link of await line.getByRole("link").all()) await expect(link).not.toHaveAccessibleName("");
      expect(await seriousViolations(page, jsEnabled)).toEqual([]);

      await page.goto("/checkout");
      // A whole street address (several lines) belongs in a textarea.
      const address = page.locator("form#checkout [name=address]");
      expect(await address.evaluate((el) => el.tagName)).toBe("TEXTAREA");
      await expect(address).toHaveAttribute("autocomplete", "street-address");
      await expect(page.locator("form#checkout input[autocomplete=street-address]")).toHaveCount(0);
      expect(await seriousViolations(page, jsEnabled)).toEqual([]);
    }
  });
});
