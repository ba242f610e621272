import type { Locator, Page } from "@playwright/test";
import {
  apiAddToCart,
  expect,
  productIdByName,
  setLanguage,
  signInAsAdmin,
  signUp,
  test,
  uniqueEmail,
  uniquePassword,
  waitForReact,
} from "../fixtures";

/**
 * Shipping zones end to end (issue 27, docs/decisions/047), JavaScript on and off: the owner adds
 * a zone on Settings → Shipping zones (its country ticked in the list, an HKD fee of its own); a
 * shopper who chooses that country at checkout sees that zone's fee, and the order is charged
 * it. The two projects share one shop and a country can be in one zone only, so each adds its
 * own: Macau with JavaScript (then checked again in Chinese at phone width), Singapore without.
 */

const ZONES = {
  js: { code: "MO", en: "Macau", zh: "澳門" },
  "no-js": { code: "SG", en: "Singapore", zh: "新加坡" },
} as const;

async function open(page: Page, url: string, jsEnabled: boolean): Promise<void> {
  await page.goto(url);
  if (jsEnabled) await waitForReact(page);
}

/** The summary's shipping amount (checkout and payment). */
function shippingOf(page: Page): Locator {
  return page.locator("dl div", { has: page.locator("dt", { hasText: /^(Shipping|運費)$/ }) }).locator("dd");
}

test("the owner adds a zone; a shopper there sees its fee at checkout and the order is charged it", async ({
  page,
  browser,
  baseURL,
  jsEnabled,
}, testInfo) => {
  test.setTimeout(120_000);
  const place = ZONES[testInfo.project.name as keyof typeof ZONES];
  const tag = Date.now().toString(36);
  const zoneEn = `${place.en} ${tag}`;
  const name = `Zone Test Vest ${tag}-${testInfo.project.name}`;

  // The owner: a product of this run (HK$400, so below the free-shipping threshold), then the zone.
  await signInAsAdmin(page, "zones-admin");
  await open(page, "/admin/products/new", jsEnabled);
  const product = page.locator("form").filter({ has: page.getByRole("button", { name: "Add colour", exact: true }) });
  await product.getByLabel("English Name", { exact: true }).fill(name);
  await product.getByLabel("Chinese Name", { exact: true }).fill("區域測試背心");
  await product.getByLabel("Price (HKD)", { exact: true }).fill("400.00");
  await product.getByLabel("Stock", { exact: true }).fill("5");
  await product.getByRole("button", { name: "Save", exact: true }).last().click();
  await expect(page).toHaveURL(/\/admin\/products(\?|$)/);

  await open(page, "/admin/settings", jsEnabled);
  await page.getByRole("link", { name: "Manage shipping zones" }).click();
  await expect(page.getByRole("heading", { name: "Shipping zones", level: 1 })).toBeVisible();
  if (jsEnabled) await waitForReact(page);
  await page.getByRole("link", { name: "Add a zone" }).click();
  if (jsEnabled) await waitForReact(page);
  const zone = page.locator("form[id^=zone]");
  await zone.getByLabel("Name (English)").fill(zoneEn);
  await zone.getByLabel("Name (Chinese)").fill(place.zh);
  await zone.getByLabel("Flat fee (HKD)").fill("35");
  await zone.getByLabel("Free shipping above (HKD)").fill("5000");
  if (jsEnabled) await zone.getByRole("searchbox", { name: "Filter countries" }).fill(place.en.slice(0, 4));
  await zone.getByRole("checkbox", { name: place.en, exact: true }).check();
  // A weight band row, added without JavaScript through the server, then removed the same way.
  await zone.getByRole("button", { name: "Add a weight band (USD)" }).click();
  await zone.getByRole("button", { name: "Remove USD band 1" }).click();
  await expect(zone.getByRole("button", { name: "Remove USD band 1" })).toHaveCount(0);
  // The typed fields survived the round trips.
  await expect(zone.getByLabel("Flat fee (HKD)")).toHaveValue("35");
  await expect(zone.getByRole("checkbox", { name: place.en, exact: true })).toBeChecked();
  await zone.getByRole("button", { name: "Save zone" }).click();
  await expect(page).toHaveURL(/\/admin\/settings\/shipping$/);
  const row = page.getByTestId("zone-row").filter({ hasText: zoneEn });
  await expect(row.getByTestId("zone-countries")).toHaveText(place.en);
  await expect(row.getByTestId("zone-rate-HKD")).toHaveText("HK$35.00 · free above HK$5,000.00");

  const context = await browser.newContext({ baseURL, javaScriptEnabled: jsEnabled, locale: "en-GB" });
  const shopper = await context.newPage();
  try {
    await signUp(shopper, uniqueEmail("zones-buyer"), uniquePassword());
    await apiAddToCart(shopper.request, await productIdByName(shopper.request, name), "Default", 1);
    await open(shopper, "/checkout", jsEnabled);
    const checkout = shopper.locator("form#checkout");
    // Hong Kong first, under Everywhere's rule: HK$400 is above HK$100, so free.
    await expect(checkout.getByLabel("Country / Region", { exact: true })).toHaveValue("HK");
    await expect(shippingOf(shopper)).toHaveText("Free");

    await checkout.getByLabel("First name", { exact: true }).fill("Ho");
    await checkout.getByLabel("Last name", { exact: true }).fill("Ka Wai");
    await checkout.getByLabel("Address", { exact: true }).fill("1 Avenida da Praia Grande");
    await checkout.getByLabel("City / District", { exact: true }).fill(place.en);
    await checkout.getByLabel("Country / Region", { exact: true }).selectOption(place.code);
    // With JavaScript the select submits itself; without, the shopper presses "Update shipping".
    if (!jsEnabled) await checkout.getByRole("button", { name: "Update shipping" }).click();
    await expect(shippingOf(shopper)).toHaveText("HK$35.00");
    await expect(checkout.getByLabel("Country / Region", { exact: true })).toHaveValue(place.code);
    await expect(checkout.getByLabel("First name", { exact: true })).toHaveValue("Ho");

    if (jsEnabled) {
      // In Chinese at phone width: the same destination, named in Chinese, the same fee.
      await shopper.setViewportSize({ width: 390, height: 844 });
      await setLanguage(context, baseURL ?? "", "zh");
      await open(shopper, "/checkout", jsEnabled);
      const select = shopper.locator("form#checkout select[name=country]");
      await expect(select.locator("option:checked")).toHaveText(place.zh);
      await expect(shippingOf(shopper)).toHaveText("HK$35.00");
      await setLanguage(context, baseURL ?? "", "en");
      await shopper.setViewportSize({ width: 1280, height: 800 });
      await open(shopper, "/checkout", jsEnabled);
    }

    await checkout.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(shopper).toHaveURL(/\/payment$/);
    await expect(shippingOf(shopper)).toHaveText("HK$35.00");
    await expect(shopper.getByTestId("order-total")).toHaveText("HK$435.00");
    if (jsEnabled) await waitForReact(shopper);
    await shopper.getByRole("button", { name: "Place order, pay later" }).click();
    await expect(shopper).toHaveURL(/\/payment-success\?order=ORD-/, { timeout: 10_000 });
    // The order, as the shopper's account shows it: charged the zone's fee.
    const number = new URL(shopper.url()).searchParams.get("order") ?? "";
    await open(shopper, "/account/orders", jsEnabled);
    await shopper
      .getByRole("link", { name: new RegExp(number) })
      .first()
      .click();
    await expect(shopper.getByTestId("order-total")).toHaveText("HK$435.00");
    await expect(shippingOf(shopper)).toHaveText("HK$35.00");
  } finally {
    await context.close();
  }
});
