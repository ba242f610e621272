import type { Page } from "@playwright/test";
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
  withMainDatabase,
} from "../fixtures";

/**
 * Restricted items end to end (issue 27, docs/decisions/049), JavaScript on and off: the admin
 * limits a new product to the Hong Kong zone with the product form's zone boxes (and gives it a
 * weight); its page says "Ships to Hong Kong only" (只寄往香港 in Chinese); a shopper with it in
 * the cart who chooses Taiwan at checkout is told which item cannot go there and where it can go,
 * placing the order is refused with the same words, and Hong Kong goes through. The product is
 * this run's own (no category): the demo catalogue stays as other specs expect it.
 */

interface Zone {
  id: number;
  name_en: string;
  name_zh: string;
}

/**
 * The zone that covers Hong Kong, made when the shop has none yet (a new shop has only its
 * "Everywhere" zone; the zones screen is tested in shipping-zones.spec.ts). It charges what
 * "Everywhere" charges, so Hong Kong's shipping stays what the other specs expect. One immediate
 * transaction: the JS and no-JS runs may ask at the same moment.
 */
function hongKongZone(): Zone {
  return withMainDatabase((db) =>
    db
      .transaction((): Zone => {
        const found = db
          .prepare(
            `SELECT z.id, z.name_en, z.name_zh FROM shipping_zone_countries c
             JOIN shipping_zones z ON z.id = c.zone_id WHERE c.country_code = 'HK'`,
          )
          .get() as Zone | undefined;
        if (found) return found;
        const rest = db.prepare("SELECT id FROM shipping_zones WHERE rest_of_world = 1").get() as { id: number };
        const at = new Date().toISOString();
        const { id } = db
          .prepare(
            `INSERT INTO shipping_zones (name_en, name_zh, sort_order, rest_of_world, created_at, updated_at)
             VALUES ('Hong Kong', '香港', 0, 0, ?, ?) RETURNING id`,
          )
          .get(at, at) as { id: number };
        db.prepare("INSERT INTO shipping_zone_countries (country_code, zone_id) VALUES ('HK', ?)").run(id);
        db.prepare(
          `INSERT INTO shipping_zone_rates (zone_id, currency, fee_cents, free_above_cents)
           SELECT ?, currency, fee_cents, free_above_cents FROM shipping_zone_rates WHERE zone_id = ?`,
        ).run(id, rest.id);
        db.prepare(
          `INSERT INTO shipping_zone_bands (zone_id, currency, max_grams, fee_cents)
           SELECT ?, currency, max_grams, fee_cents FROM shipping_zone_bands WHERE zone_id = ?`,
        ).run(id, rest.id);
        return { id, name_en: "Hong Kong", name_zh: "香港" };
      })
      .immediate(),
  );
}

async function open(page: Page, url: string, jsEnabled: boolean): Promise<void> {
  await page.goto(url);
  if (jsEnabled) await waitForReact(page);
}

test("a product limited to Hong Kong says so, and is refused for Taiwan with the item named", async ({
  page,
  browser,
  baseURL,
  jsEnabled,
}, testInfo) => {
  test.setTimeout(90_000);
  const zone = hongKongZone();
  const name = `HK Rifle ${Date.now().toString(36)}-${testInfo.project.name}`;

  // The admin: a new product, ticked for the Hong Kong zone only, 3.2 kg.
  await signInAsAdmin(page, "restrict-admin");
  await open(page, "/admin/products/new", jsEnabled);
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Add colour", exact: true }) });
  await form.getByLabel("English Name", { exact: true }).fill(name);
  await form.getByLabel("Chinese Name", { exact: true }).fill("香港步槍");
  await form.getByLabel("Price (HKD)", { exact: true }).fill("900.00");
  await form.getByLabel("Stock", { exact: true }).fill("5");
  await form.getByLabel("Weight (g)", { exact: true }).fill("3200");
  await form.getByRole("checkbox", { name: `${zone.name_en} / ${zone.name_zh}` }).check();
  await form.getByRole("button", { name: "Save", exact: true }).last().click();
  await expect(page).toHaveURL(/\/admin\/products(\?|$)/);
  const productId = withMainDatabase(
    (db) =>
      db.prepare("SELECT id, weight_grams FROM products WHERE name_en = ?").get(name) as {
        id: number;
        weight_grams: number;
      },
  );
  expect(productId.weight_grams).toBe(3200);

  const context = await browser.newContext({ baseURL, javaScriptEnabled: jsEnabled, locale: "en-GB" });
  const shopper = await context.newPage();
  try {
    // The product page, in both languages.
    await shopper.goto(`/product/${productId.id}`);
    await expect(shopper.locator("[data-ships-to]")).toHaveText(`Ships to ${zone.name_en} only`);
    await setLanguage(context, baseURL ?? "", "zh");
    await shopper.reload();
    await expect(shopper.locator("[data-ships-to]")).toHaveText(`只寄往${zone.name_zh}`);
    await setLanguage(context, baseURL ?? "", "en");

    await signUp(shopper, uniqueEmail("restrict-buyer"), uniquePassword());
    await apiAddToCart(shopper.request, await productIdByName(shopper.request, name), "Default", 1);
    const refusal = `${name} can only be sent to ${zone.name_en}. Remove it from your cart or choose a destination there.`;

    // The cart: choosing Taiwan there (the select submits itself with JavaScript, "Update shipping"
    // without) names the item before checkout, and checkout starts from the same country.
    await open(shopper, "/cart", jsEnabled);
    await shopper.getByLabel("Ship to", { exact: true }).selectOption("TW");
    if (!jsEnabled) await shopper.getByRole("button", { name: "Update shipping" }).click();
    await expect(shopper.getByText("Shipping is now computed for Taiwan.")).toBeVisible();
    await expect(shopper.locator("[data-restricted]")).toHaveText(refusal);
    await expect(shopper.getByLabel("Ship to", { exact: true })).toHaveValue("TW");

    await open(shopper, "/checkout", jsEnabled);
    const checkout = shopper.locator("form#checkout");
    await expect(checkout.getByLabel("Country / Region", { exact: true })).toHaveValue("TW");
    const fill = async () => {
      await checkout.getByLabel("First name", { exact: true }).fill("Chen");
      await checkout.getByLabel("Last name", { exact: true }).fill("Mei Ling");
      await checkout.getByLabel("Address", { exact: true }).fill("1 Zhongxiao East Road");
      await checkout.getByLabel("City / District", { exact: true }).fill("Taipei");
    };
    // Taiwan: the checkout names the item and where it can go.
    await fill();
    await checkout.getByLabel("Country / Region", { exact: true }).selectOption("TW");
    await checkout.getByRole("button", { name: "Update shipping" }).click();
    await expect(shopper.locator("[data-restricted]")).toHaveText(refusal);

    // Placing the order anyway is refused on the server with the same words; nothing is ordered.
    if (jsEnabled) await waitForReact(shopper);
    await fill();
    await checkout.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(shopper).toHaveURL(/\/payment$/);
    if (jsEnabled) await waitForReact(shopper);
    await shopper.getByRole("button", { name: "Place order, pay later" }).click();
    await expect(shopper.getByTestId("payment-problem")).toContainText(refusal);
    await expect(shopper).not.toHaveURL(/payment-success/);

    // Hong Kong goes through.
    await open(shopper, "/checkout", jsEnabled);
    await fill();
    await checkout.getByLabel("Country / Region", { exact: true }).selectOption("HK");
    await checkout.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(shopper).toHaveURL(/\/payment$/);
    if (jsEnabled) await waitForReact(shopper);
    await shopper.getByRole("button", { name: "Place order, pay later" }).click();
    await expect(shopper).toHaveURL(/\/payment-success\?order=ORD-/, { timeout: 10_000 });
  } finally {
    await context.close();
  }
});
