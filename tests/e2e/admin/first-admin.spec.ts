import type { Page } from "@playwright/test";
import { expect, signUp, shopperTest as test, uniqueEmail, uniquePassword } from "../fixtures";

/**
 * The first admin of a new shop: a customer signs up, then uses "Add Me As Admin" on
 * /admin/login with the one-time setup token from the server log. Runs in the "setup-js" and
 * "setup-no-js" projects, each against its own fresh server where no admin exists yet, whose
 * token is E2E_SETUP_TOKEN. The setup can happen once per server, so the steps run in order.
 */

const SETUP_TOKEN = process.env.E2E_SETUP_TOKEN ?? "";

test.describe.configure({ mode: "serial" });

test.describe("first admin", () => {
  const owner = { email: uniqueEmail("owner"), password: uniquePassword() };

  async function adminLogin(page: Page, email: string, password: string) {
    await page.goto("/admin/login");
    await expect(page.getByRole("heading", { level: 1, name: "Admin Login" })).toBeVisible();
    const loginForm = page.locator("form").filter({ has: page.getByRole("button", { name: "Login", exact: true }) });
    await loginForm.getByLabel("E-mail", { exact: true }).fill(email);
    await loginForm.getByLabel("Password", { exact: true }).fill(password);
    await loginForm.getByRole("button", { name: "Login", exact: true }).click();
  }

  function setupForm(page: Page) {
    return page.locator("form").filter({ has: page.getByRole("button", { name: "Add Me As Admin" }) });
  }

  async function submitSetup(page: Page, email: string, password: string, token: string) {
    const form = setupForm(page);
    await form.getByLabel("E-mail", { exact: true }).fill(email);
    await form.getByLabel("Password", { exact: true }).fill(password);
    await form.getByLabel("Setup token", { exact: true }).fill(token);
    await form.getByRole("button", { name: "Add Me As Admin" }).click();
  }

  async function expectNoAdminAccess(page: Page) {
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/admin\/login$/);
    await expect(page.getByText(/^Welcome, /)).toHaveCount(0);
  }

  test("a new customer is offered Add Me As Admin; a wrong token is refused", async ({ page }) => {
    expect(SETUP_TOKEN, "E2E_SETUP_TOKEN (set by playwright.config.ts)").not.toBe("");
    await signUp(page, owner.email, owner.password);
    await adminLogin(page, owner.email, owner.password);
    await expect(
      page.getByRole("alert").filter({ hasText: "This account does not have admin privileges" }),
    ).toBeVisible();
    await expect(page.getByRole("heading", { name: "Add Me As Admin" })).toBeVisible();
    const form = setupForm(page);
    await expect(form.getByLabel("E-mail", { exact: true })).toBeVisible();
    await expect(form.getByLabel("Password", { exact: true })).toBeVisible();
    await expect(form.getByLabel("Setup token", { exact: true })).toBeVisible();

    await submitSetup(page, owner.email, owner.password, `${SETUP_TOKEN}-wrong`);
    await expect(page.getByText("The setup token is not correct")).toBeVisible();
    await expectNoAdminAccess(page);
    // Still a customer: signing in on /admin/login does not open the admin area.
    await adminLogin(page, owner.email, owner.password);
    await expect(
      page.getByRole("alert").filter({ hasText: "This account does not have admin privileges" }),
    ).toBeVisible();
    await expectNoAdminAccess(page);
  });

  test("the right token makes the customer admin and asks them to log in again", async ({ page }) => {
    await adminLogin(page, owner.email, owner.password);
    await expect(
      page.getByRole("alert").filter({ hasText: "This account does not have admin privileges" }),
    ).toBeVisible();
    await submitSetup(page, owner.email, owner.password, SETUP_TOKEN);
    const flash = page.getByRole("status");
    await expect(flash).toContainText("Admin access granted");
    await expect(flash).toContainText("Please log in again.");
    // Signed out: neither the store account nor the admin area opens without logging in.
    await page.goto("/account");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Faccount$/);
    await expectNoAdminAccess(page);

    await adminLogin(page, owner.email, owner.password);
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByText(`Welcome, ${owner.email}`)).toBeVisible();
  });

  test("afterwards the setup is closed for everyone", async ({ page }) => {
    await page.goto("/admin/login");
    await expect(page.getByRole("heading", { level: 1, name: "Admin Login" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Add Me As Admin" })).toHaveCount(0);

    const latecomer = { email: uniqueEmail("latecomer"), password: uniquePassword() };
    await signUp(page, latecomer.email, latecomer.password);
    await adminLogin(page, latecomer.email, latecomer.password);
    await expect(
      page.getByRole("alert").filter({ hasText: "This account does not have admin privileges" }),
    ).toBeVisible();
    await expect(page.getByText("Admin setup required")).toBeVisible();
    await expect(setupForm(page)).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Add Me As Admin" })).toHaveCount(0);

    // Posting the setup form anyway, even with the right token, is refused.
    const response = await page.request.post("/admin/login", {
      form: { intent: "setup", email: latecomer.email, password: latecomer.password, token: SETUP_TOKEN },
      maxRedirects: 0,
    });
    expect(response.status()).toBeGreaterThanOrEqual(400);
    expect(await response.text()).toContain("Admin setup is closed");
    await adminLogin(page, latecomer.email, latecomer.password);
    await expect(
      page.getByRole("alert").filter({ hasText: "This account does not have admin privileges" }),
    ).toBeVisible();
    await expectNoAdminAccess(page);

    // The first admin keeps their access.
    await adminLogin(page, owner.email, owner.password);
    await expect(page.getByText(`Welcome, ${owner.email}`)).toBeVisible();
  });
});
