import fs from "node:fs";
import type { Page } from "@playwright/test";
import {
  apiAddToCart,
  apiCheckout,
  apiPaymentKey,
  apiSubmitPayment,
  CHECKOUT_DETAILS,
  expect,
  newApiShopper,
  productIdByName,
  receiptJpeg,
  signIn,
  signInAsAdmin,
  signUp,
  submitAuthForm,
  shopperTest as test,
  uniqueEmail,
  uniquePassword,
  userMenu,
} from "../fixtures";

/**
 * Customers (/admin/customers): an admin finds a new customer, blocks them (they are signed
 * out and cannot sign in) and unblocks them; exports the CSV; a customer cannot do either.
 * Runs with JavaScript on and off.
 */

/** A colourless product with plenty of stock whose stock no spec asserts (see purchase/security.spec.ts). */
const PRODUCT = "0.25 g Precision BBs (4000 rds)";

/** Searches the list for `email` with the search form and returns its table row. */
async function findCustomer(page: Page, email: string) {
  await page.goto("/admin/customers");
  await expect(page.getByRole("heading", { level: 1, name: "Customer Management" })).toBeVisible();
  await page.getByRole("searchbox", { name: "Search customers" }).fill(email);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/customers\?q=/);
  const row = page.getByTestId("customers-table").locator("tbody tr").filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await expect(page.getByTestId("customer-count")).toHaveText("1 customer");
  return row;
}

test.describe("Customers", () => {
  test("an admin finds a new customer, blocks them (signed out, cannot sign in) and unblocks them", async ({
    page,
    newShopper,
  }) => {
    test.slow(); // two browsers, three sign-ins
    const customer = await newShopper();
    const email = uniqueEmail("cust-block");
    const password = uniquePassword();
    await signUp(customer.page, email, password);
    await expect(userMenu(customer.page, email)).toBeVisible();

    await signInAsAdmin(page, "cust-admin");
    const row = await findCustomer(page, email);
    // The address the shop saw at sign-up, recorded by the server.
    await expect(row.getByRole("cell", { name: customer.address, exact: true })).toBeVisible();
    await expect(row.getByTestId("customer-status")).toHaveText("Active");
    await expect(row.getByTestId("order-count")).toHaveText("0");
    await expect(row.getByTestId("total-spent")).toHaveText("—");
    await row.getByRole("link", { name: `View ${email}` }).click();
    await expect(page.getByRole("heading", { level: 1, name: email })).toBeVisible();
    await expect(page.getByTestId("customer-sign-ins")).toContainText(customer.address);

    await page.getByRole("button", { name: "Block", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "Customer blocked" })).toBeVisible();
    await expect(page.getByTestId("customer-status")).toHaveText("Blocked");

    // The customer's open session has ended, and signing in is refused.
    await customer.page.goto("/account");
    await expect(customer.page).toHaveURL(/\/login/);
    await expect(userMenu(customer.page, email)).toHaveCount(0);
    await submitAuthForm(customer.page, email, password, "Login");
    await expect(customer.page.getByRole("alert").filter({ hasText: "Login failed" })).toBeVisible();

    await page.getByRole("button", { name: "Unblock", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "Customer unblocked" })).toBeVisible();
    await expect(page.getByTestId("customer-status")).toHaveText("Active");
    await signIn(customer.page, email, password);
  });

  test("an admin exports the customers of a search as CSV", async ({ page, playwright, baseURL }) => {
    const buyer = await newApiShopper(playwright, baseURL as string, "cust-export");
    try {
      await apiAddToCart(buyer.request, await productIdByName(buyer.request, PRODUCT), "Default", 1);
      await apiCheckout(buyer.request, buyer.email);
      const paid = await apiSubmitPayment(buyer.request, await apiPaymentKey(buyer.request), await receiptJpeg());
      expect(paid.status()).toBe(302);
    } finally {
      await buyer.dispose();
    }

    await signInAsAdmin(page, "cust-admin");
    const row = await findCustomer(page, buyer.email);
    await expect(row.getByTestId("order-count")).toHaveText("1");

    const before = Date.now();
    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export Data" }).click();
    const download = await downloading;
    // Dated in Hong Kong, whatever the UTC date (either side of a Hong Kong midnight during the click).
    const hongKongDates = [before, Date.now()].map(
      (at) => `customers-${new Date(at + 8 * 3_600_000).toISOString().slice(0, 10)}.csv`,
    );
    expect(hongKongDates).toContain(download.suggestedFilename());
    const bytes = fs.readFileSync(await download.path());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString("utf8").split("\r\n");
    expect(lines[0]).toBe(
      "Email,Name,Phone,IP Address,Country,City,Last Login (HKT),Order Count," +
        "Total Spent HKD,Total Spent GBP,Total Spent EUR,Total Spent USD,Status,Created At (HKT)",
    );
    // The search is kept: the one customer it finds, then the final line end.
    expect(lines).toHaveLength(3);
    const cells = lines[1]?.split(",") ?? [];
    expect(cells[0]).toBe(buyer.email);
    // Name and phone of the order; a phone number's leading + is no formula: as written (issue 25).
    expect(cells[1]).toBe(`${CHECKOUT_DETAILS.firstName} ${CHECKOUT_DETAILS.lastName}`);
    expect(cells[2]).toBe(CHECKOUT_DETAILS.phone);
    expect(cells[3]).toBe(buyer.address);
    expect(cells[6]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(cells[7]).toBe("1");
    // The order is not paid yet (its receipt awaits checking): nothing spent.
    expect(cells.slice(8, 12)).toEqual(["0.00", "0.00", "0.00", "0.00"]);
    expect(cells[12]).toBe("active");
    await expect(page).toHaveURL(/\/admin\/customers\?q=/);
  });

  test("a signed-in customer cannot block anyone or export: 403 and nothing changes", async ({
    page,
    playwright,
    baseURL,
  }) => {
    const victim = await newApiShopper(playwright, baseURL as string, "cust-victim");
    const intruder = await newApiShopper(playwright, baseURL as string, "cust-intruder");
    try {
      await signInAsAdmin(page, "cust-admin");
      const row = await findCustomer(page, victim.email);
      const href = await row.getByRole("link", { name: `View ${victim.email}` }).getAttribute("href");
      expect(href).toMatch(/^\/admin\/customers\/[0-9a-f-]{36}$/);

      const block = await intruder.request.post(href as string, { form: { intent: "block" }, maxRedirects: 0 });
      expect(block.status()).toBe(403);
      const exported = await intruder.request.post("/admin/customers/export", { form: { q: "" }, maxRedirects: 0 });
      expect(exported.status()).toBe(403);
      expect(exported.headers()["content-disposition"]).toBeUndefined();

      // The victim is still active and still signed in.
      await page.goto(href as string);
      await expect(page.getByTestId("customer-status")).toHaveText("Active");
      const account = await victim.request.get("/account", { maxRedirects: 0 });
      expect(account.status()).toBe(200);
    } finally {
      await victim.dispose();
      await intruder.dispose();
    }
  });
});
