import { seriousViolations } from "../a11y";
import {
  apiAddToCart,
  apiCheckout,
  apiPaymentKey,
  apiSubmitPayment,
  expect,
  newApiShopper,
  productIdByName,
  receiptJpeg,
  setLanguage,
  signInAsAdmin,
  shopperTest as test,
} from "../fixtures";

/**
 * The back office for assistive technology, in English and Chinese, with and without
 * JavaScript: no serious or critical axe finding (contrast of the dashboard captions and the
 * export hint; the Mark Paid buttons' names start with their visible text), and the two menus
 * of the shell (desk sidebar, phone drawer) are landmarks with names of their own.
 */

/** A product whose stock no spec asserts (see customers.spec.ts). */
const PRODUCT = "0.25 g Precision BBs (4000 rds)";

const SCREENS = ["/admin", "/admin/orders", "/admin/customers", "/admin/products"];

test.describe("admin accessibility", () => {
  for (const language of ["en", "zh"] as const) {
    test(`no serious axe findings and named menus (${language})`, async ({
      page,
      context,
      baseURL,
      playwright,
      jsEnabled,
    }) => {
      // English with JavaScript, Chinese without: both languages and both modes, each screen once.
      test.skip(jsEnabled !== (language === "en"), "each language is checked in one mode");
      test.setTimeout(90_000);
      // An order waiting for payment: the dashboard lists it, the orders list offers Mark Paid.
      const shopper = await newApiShopper(playwright, baseURL as string, "a11y-buyer");
      try {
        await apiAddToCart(shopper.request, await productIdByName(shopper.request, PRODUCT), "Default", 1);
        await apiCheckout(shopper.request, shopper.email);
        const paid = await apiSubmitPayment(shopper.request, await apiPaymentKey(shopper.request), await receiptJpeg());
        expect(paid.status()).toBe(302);
      } finally {
        await shopper.dispose();
      }
      await signInAsAdmin(page, "a11y-admin");
      await setLanguage(context, baseURL as string, language);

      for (const url of SCREENS) {
        await test.step(url, async () => {
          await page.goto(url === "/admin/orders" ? `${url}?q=${encodeURIComponent(shopper.email)}` : url);
          if (url === "/admin/orders") {
            await expect(page.getByTestId("order-row")).toHaveCount(1);
            const markPaid = page.getByTestId("order-row").getByRole("button").first();
            const visible = (await markPaid.textContent())?.trim() ?? "";
            expect.soft((await markPaid.getAttribute("aria-label")) ?? "").toMatch(new RegExp(`^${visible} ORD-`));
          }
          // Soft: every screen reports its findings, not only the first one with any.
          expect.soft(await seriousViolations(page, jsEnabled), url).toEqual([]);
          // Every navigation landmark has a name, and no two share one.
          const names = await page
            .locator("nav")
            .evaluateAll((navs) => navs.map((nav) => nav.getAttribute("aria-label")));
          expect(names.length).toBeGreaterThanOrEqual(2);
          expect
            .soft(
              names.every((name) => Boolean(name?.trim())),
              `${url}: unnamed nav`,
            )
            .toBe(true);
          expect.soft(new Set(names).size, `${url}: nav names ${names.join(" | ")}`).toBe(names.length);
        });
      }
    });
  }
});
