import type { Locator, Page } from "@playwright/test";
import { htmlErrors, seriousViolations } from "../a11y";
import {
  apiAddToCart,
  apiCheckout,
  apiOrders,
  apiSignUp,
  expect,
  ownerServer,
  productIdByName,
  receiptJpeg,
  setLanguage,
  signInAsAdmin,
  shopperTest as test,
  uniqueEmail,
  uniquePassword,
  waitForReact,
} from "../fixtures";

/**
 * Issue 14, demo data that cannot go live silently, on a shop of its own in live mode
 * (DEMO_MODE=off, the "owner" projects of playwright.config.ts; after shop-details.spec.ts). While
 * the seeded demo account is primary, every admin page says so and the payment page neither
 * shows it nor takes an order; "Remove demo data" removes the demo catalogue, blog, bank account
 * and hero in one step and never an order. Serial: every step changes the whole shop.
 */
test.describe.configure({ mode: "serial" });

const DEMO_ACCOUNT = "848-302915-838";
const DEMO_FPS = "1648203";
const OWN = { bank: "Lion Rock Bank", account: "012-345678-901", fps: "9876543" };
const PRODUCT = "Mesh Lower Face Mask";
const CLOSED = /This shop cannot take payments yet — please contact us at \S+@\S+/;
/** Demo products the owner edits before removing the demo: one kept, one let go (neither featured). */
const KEPT = { demo: "Folding Rail Bipod", edited: "Folding Rail Bipod (Lion Rock pick)" };
const LET_GO = "Vertical Foregrip";
/** The order the owner's account took (test 2), which "Remove demo data" must leave alone (test 3). */
let placedOrder = "";

function banner(page: Page) {
  return page.getByTestId("demo-banner");
}

function flash(page: Page, text: string) {
  return page.getByRole("status").filter({ hasText: text });
}

/** A new customer with the product in the cart, at the payment step (HKD). */
async function shopperAtPayment(page: Page): Promise<string> {
  const email = uniqueEmail("owner-shopper");
  await apiSignUp(page.request, email, uniquePassword());
  await page.request.post("/resources/currency", { form: { currency: "HKD", redirectTo: "/" }, maxRedirects: 0 });
  await apiAddToCart(page.request, await productIdByName(page.request, PRODUCT), "Black", 1);
  await apiCheckout(page.request, email);
  return email;
}

/** Makes the account with `accountNumber` primary with the Settings list's button. */
async function makePrimary(page: Page, accountNumber: string) {
  await page.goto("/admin/settings");
  const row = page.getByTestId("bank-account-row").filter({ hasText: accountNumber });
  await row.getByRole("button", { name: /^Make primary: / }).click();
  await expect(flash(page, "Primary bank account changed successfully")).toBeVisible();
  await expect(row.getByText("Primary", { exact: true })).toBeVisible();
}

test("while the demo account is primary, the admin says so and the payment page refuses", async ({
  page,
  context,
  baseURL,
  jsEnabled,
  newShopper,
}) => {
  test.setTimeout(90_000);
  await signInAsAdmin(page, "owner-demo", ownerServer(jsEnabled));
  for (const path of ["/admin", "/admin/orders", "/admin/settings"]) {
    await page.goto(path);
    await expect(banner(page)).toContainText("Demo bank account — shoppers are told to pay into it");
    await expect(banner(page)).toContainText("The shop is live (demo mode off)");
  }
  await expect(banner(page).getByRole("link", { name: "Bank accounts" })).toHaveAttribute(
    "href",
    "/admin/settings#banking-heading",
  );
  await expect(banner(page).getByRole("link", { name: "Remove demo data" })).toHaveAttribute(
    "href",
    "/admin/demo-data",
  );
  // Settings links to the screen too.
  await expect(page.getByRole("link", { name: "Review and remove demo data" })).toHaveAttribute(
    "href",
    "/admin/demo-data",
  );
  await setLanguage(context, baseURL ?? "", "zh");
  await page.goto("/admin/products");
  await expect(banner(page)).toContainText("示範銀行帳戶——顧客會被要求付款至此帳戶");
  await expect(banner(page).getByRole("link", { name: "移除示範資料" })).toBeVisible();
  await setLanguage(context, baseURL ?? "", "en");

  // A shopper at the payment step: no demo details, no form, whom to write to.
  const shopper = await newShopper();
  await shopperAtPayment(shopper.page);
  const response = await shopper.page.goto("/payment");
  expect(response?.status()).toBe(200);
  await expect(shopper.page.getByTestId("payments-closed")).toHaveText(CLOSED);
  await expect(shopper.page.getByTestId("payments-closed").getByRole("link")).toHaveAttribute(
    "href",
    /^mailto:\S+@\S+$/,
  );
  await expect(shopper.page.getByTestId("bank-account")).toHaveCount(0);
  await expect(shopper.page.getByRole("button", { name: "Submit Payment" })).toHaveCount(0);
  const html = await (await shopper.page.request.get("/payment")).text();
  expect(html).not.toContain(DEMO_ACCOUNT);
  expect(html).not.toContain(DEMO_FPS);
});

test("an order sent while the demo account became primary again is refused; the owner's account takes one", async ({
  page,
  jsEnabled,
  newShopper,
}) => {
  test.setTimeout(120_000);
  await signInAsAdmin(page, "owner-demo", ownerServer(jsEnabled));
  // The owner adds their own account and makes it primary: the banner goes.
  await page.goto("/admin/settings");
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Add Account" }) });
  await form.getByLabel("Bank Name").fill(OWN.bank);
  await form.getByLabel("Account Holder").fill("Lion Rock Airsoft Limited");
  await form.getByLabel("Account Number").fill(OWN.account);
  await form.getByLabel("FPS ID").fill(OWN.fps);
  await form.getByRole("button", { name: "Add Account" }).click();
  await expect(flash(page, "Bank account added successfully")).toBeVisible();
  await makePrimary(page, OWN.account);
  await expect(banner(page)).toHaveCount(0);

  // Two shoppers see the owner's account; one pays.
  const first = await newShopper();
  const second = await newShopper();
  await shopperAtPayment(first.page);
  await shopperAtPayment(second.page);
  for (const shopper of [first, second]) {
    await shopper.page.goto("/payment");
    await expect(shopper.page.getByTestId("bank-account").locator("dt:has-text('FPS ID') + dd")).toHaveText(OWN.fps);
    await expect(shopper.page.getByTestId("demo-account")).toHaveCount(0);
    if (jsEnabled) await waitForReact(shopper.page);
  }
  await first.page.getByLabel("Transfer receipt").setInputFiles(await receiptJpeg());
  await first.page.getByRole("button", { name: "Submit Payment" }).click();
  await expect(first.page).toHaveURL(/\/payment-success\?order=ORD-/, { timeout: 10_000 });
  placedOrder = new URL(first.page.url()).searchParams.get("order") ?? "";
  expect((await apiOrders(first.page.request)).map((order) => order.number)).toEqual([placedOrder]);

  // The demo account is made primary again (the banner is back) while the other shopper's page is open.
  await makePrimary(page, DEMO_ACCOUNT);
  await expect(banner(page)).toBeVisible();
  await second.page.getByLabel("Transfer receipt").setInputFiles(await receiptJpeg());
  // Without JavaScript the refusal is the document itself: a 409 (with it, the same answer as data).
  const answer = jsEnabled
    ? null
    : second.page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/payment");
  await second.page.getByRole("button", { name: "Submit Payment" }).click();
  if (answer) expect((await answer).status()).toBe(409);
  // The refusal, next to the form (JavaScript) or as the page that no longer offers it (without).
  await expect(second.page.locator("main").getByText(CLOSED).first()).toBeVisible();
  await expect(second.page).toHaveURL(/\/payment$/);
  expect(await apiOrders(second.page.request)).toHaveLength(0);
  await second.page.goto("/payment");
  await expect(second.page.getByTestId("payments-closed")).toHaveText(CLOSED);
});

/** Saves the demo product `name` on its admin form with `change` made: an edit by the owner. */
async function editProduct(page: Page, name: string, jsEnabled: boolean, change: (form: Locator) => Promise<void>) {
  await page.goto(`/admin/products/edit/${await productIdByName(page.request, name)}`);
  if (jsEnabled) await waitForReact(page);
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Add colour", exact: true }) });
  await change(form);
  // The visible Save (a hidden one first makes Enter save).
  await form.getByRole("button", { name: "Save", exact: true }).last().click();
  await expect(page).toHaveURL(/\/admin\/products$/);
}

test("Remove demo data removes the demo catalogue, blog, bank account and hero, and never an order", async ({
  page,
  jsEnabled,
}) => {
  test.setTimeout(120_000);
  await signInAsAdmin(page, "owner-demo", ownerServer(jsEnabled));
  const productId = await productIdByName(page.request, PRODUCT);
  expect(placedOrder).toMatch(/^ORD-/);

  // Issue 25: the owner has made two demo products their own; they decide which stay.
  await editProduct(page, KEPT.demo, jsEnabled, (form) =>
    form.getByLabel("English Name", { exact: true }).fill(KEPT.edited),
  );
  await editProduct(page, LET_GO, jsEnabled, (form) =>
    form.getByLabel("English Description", { exact: true }).fill("Our own words, then changed our mind."),
  );
  const keptId = await productIdByName(page.request, KEPT.edited);
  const letGoId = await productIdByName(page.request, LET_GO);

  await banner(page).getByRole("link", { name: "Remove demo data" }).click();
  await expect(page).toHaveURL(/\/admin\/demo-data$/);
  await expect(page.getByRole("heading", { level: 1, name: "Remove demo data" })).toBeVisible();
  const summary = page.getByTestId("demo-data-summary");
  await expect(summary.locator("dt:has-text('Demo products') + dd")).toHaveText(/^[1-9]\d*$/);
  await expect(summary.locator("dt:has-text('Demo categories') + dd")).toHaveText(/^[1-9]\d*$/);
  await expect(summary.locator("dt:has-text('Demo blog posts') + dd")).toHaveText(/^[1-9]\d*$/);
  await expect(summary.locator("dt:has-text('Demo bank account') + dd")).toHaveText("1");
  // The demo's subtitle is still on the home page (shop-details.spec.ts changed the rest).
  await expect(summary.locator("dt:has-text('Demo texts') + dd")).toHaveText("Yes");

  // The edited ones, newest edit first, each with its date and ticked "Keep" by default.
  const edited = page.getByTestId("demo-edited");
  await expect(page.getByRole("group", { name: "2 demo products you have edited" })).toBeVisible();
  await expect(edited.getByTestId("demo-edited-product")).toHaveCount(2);
  await expect(edited.getByTestId("demo-edited-product").first()).toContainText(LET_GO);
  await expect(edited.getByTestId("demo-edited-product").first()).toContainText(/Last edited \d/);
  await expect(edited.getByRole("checkbox", { name: `Keep ${KEPT.edited}` })).toBeChecked();
  expect(await seriousViolations(page, jsEnabled)).toEqual([]);
  expect(await htmlErrors(await (await page.request.get("/admin/demo-data")).text())).toEqual([]);
  await edited.getByRole("checkbox", { name: `Keep ${LET_GO}` }).uncheck();
  await page.getByRole("button", { name: "Remove demo data now" }).click();

  await expect(page).toHaveURL(/\/admin$/);
  await expect(flash(page, "Demo data removed")).toContainText(
    /Removed: products [1-9]\d* · categories [1-9]\d* · blog posts [1-9]\d* · bank accounts 1\. Kept as your own: 1 edited products\./,
  );
  await expect(banner(page)).toHaveCount(0);
  // The kept one is the owner's product now; the one let go is gone with the demo.
  expect((await page.request.get(`/product/${keptId}`)).status()).toBe(200);
  expect((await page.request.get(`/product/${letGoId}`)).status()).toBe(404);

  // The demo catalogue is gone; the demo account is gone and the owner's is primary.
  expect((await page.request.get(`/product/${productId}`)).status()).toBe(404);
  const search = await (await page.request.get(`/resources/search?q=${encodeURIComponent(PRODUCT)}`)).json();
  expect(search.results).toEqual([]);
  await page.goto("/admin/products");
  await expect(page.getByRole("link", { name: PRODUCT })).toHaveCount(0);
  await page.goto("/admin/settings");
  await expect(page.getByTestId("bank-account-row")).toHaveCount(1);
  await expect(page.getByTestId("bank-account-row").filter({ hasText: OWN.account })).toContainText("Primary");
  await expect(page.locator("main")).not.toContainText(DEMO_ACCOUNT);

  // The order is untouched: still listed, its line as it was bought.
  await page.goto("/admin/orders");
  await page.getByRole("link", { name: placedOrder, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(placedOrder);
  await expect(page.locator("main")).toContainText(PRODUCT);

  // Nothing is left: the screen says so.
  await page.goto("/admin/demo-data");
  await expect(page.getByTestId("demo-data-empty")).toHaveText("There is no demo data left to remove.");
});

/**
 * Issue 25, the home page after the demo: a shopper sees a neutral note where the featured
 * products were (never "add products in the admin panel"), the headline the owner wrote and no
 * demo subtitle; the owner is told what to do on the admin dashboard, with a link to the
 * products (issue 31: the home page is the same for everyone, signed in or not, and comes from
 * the page cache, docs/decisions/067). The owner's view never lands in the shopper's page.
 */
test("after the demo, shoppers see a neutral home page; the admin dashboard says what to do", async ({
  page,
  jsEnabled,
  newShopper,
}) => {
  const shopper = await newShopper();
  const first = await shopper.page.goto("/");
  expect(first?.status()).toBe(200);
  const expectShopperView = async () => {
    await expect(shopper.page.getByTestId("featured-empty")).toHaveText("Featured products will appear here soon.");
    await expect(shopper.page.getByTestId("featured-empty-admin")).toHaveCount(0);
    await expect(shopper.page.locator("main")).not.toContainText("admin panel");
    await expect(shopper.page.getByRole("heading", { level: 1 })).toHaveText("Kit for Kowloon's fields");
    await expect(shopper.page.getByTestId("hero-text")).toHaveCount(0);
    await expect(shopper.page.getByTestId("footer-blurb")).toHaveText("Open Saturdays, noon to 8 pm.");
    // Rifles went with the demo: "Shop Now" leads to every product, not to a missing page.
    await expect(shopper.page.getByRole("link", { name: "Shop Now" })).toHaveAttribute("href", "/category/all");
  };
  await expectShopperView();
  expect((await shopper.page.goto("/"))?.headers()["x-page-cache"]).toBe("hit");

  await signInAsAdmin(page, "owner-home", ownerServer(jsEnabled));
  await page.goto("/");
  await expect(page.getByTestId("featured-empty")).toHaveText("Featured products will appear here soon.");
  await expect(page.getByTestId("featured-empty-admin")).toHaveCount(0);
  await page.goto("/admin");
  const hint = page.getByTestId("featured-empty-admin");
  await expect(hint).toContainText(
    "No featured products yet. Add products in the admin panel and mark them as featured.",
  );
  await expect(hint.getByRole("link", { name: "Open Products in the admin" })).toHaveAttribute(
    "href",
    "/admin/products",
  );

  // The shopper's next visit (from the cache) is still the neutral one.
  expect((await shopper.page.goto("/"))?.headers()["x-page-cache"]).toBe("hit");
  await expectShopperView();
  await hint.getByRole("link", { name: "Open Products in the admin" }).click();
  await expect(page).toHaveURL(/\/admin\/products$/);
});
