import type { APIRequestContext, Page } from "@playwright/test";
import {
  createAdmin,
  expect,
  signUp,
  signUpWithRequest,
  submitAuthForm,
  shopperTest as test,
  uniqueEmail,
  uniquePassword,
  userMenu,
} from "../fixtures";

/**
 * The admin area: only admins get in; everyone else is sent to /admin/login, and posts to
 * admin actions are refused. Admins are made with the real CLI (`admin:create`).
 */

const SIDEBAR_LINKS = ["Dashboard", "Products", "Orders", "Customers", "Blog", "Settings"];

/** Signs in on /admin/login and presses Login. */
async function adminLogin(page: Page, email: string, password: string) {
  await page.goto("/admin/login");
  await expect(page.getByRole("heading", { level: 1, name: "Admin Login" })).toBeVisible();
  await submitAuthForm(page, email, password, "Login");
}

async function expectDashboard(page: Page, email: string) {
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByText(`Welcome, ${email}`)).toBeVisible();
}

/** /admin is not open to this browser: it lands on /admin/login. */
async function expectNoAdminAccess(page: Page) {
  const response = await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/login$/);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Admin Login" })).toBeVisible();
  await expect(page.getByText(/^Welcome, /)).toHaveCount(0);
}

test.describe("admin access", () => {
  test("signed-out visitors are sent to /admin/login", async ({ page }) => {
    await expectNoAdminAccess(page);
    for (const path of ["/admin/products", "/admin/orders", "/admin/customers", "/admin/settings", "/admin/x/y"]) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/admin\/login$/);
    }
  });

  test("customers are sent to /admin/login and see no Admin link", async ({ page }) => {
    const email = uniqueEmail("customer");
    await signUp(page, email, uniquePassword());
    await userMenu(page, email).locator("summary").click();
    await expect(userMenu(page, email).getByRole("link", { name: "My Account" })).toBeVisible();
    await expect(userMenu(page, email).getByRole("link", { name: "Admin", exact: true })).toHaveCount(0);
    await expectNoAdminAccess(page);
    await page.goto("/admin/customers");
    await expect(page).toHaveURL(/\/admin\/login$/);
  });

  test("an admin signs in on /admin/login and sees the dashboard", async ({ page }) => {
    const email = uniqueEmail("admin");
    const password = uniquePassword();
    createAdmin(email, password);

    await adminLogin(page, email, password);
    await expectDashboard(page, email);
    for (const name of SIDEBAR_LINKS) {
      await expect(page.getByRole("link", { name, exact: true }).first(), name).toBeVisible();
    }
    await expect(page.getByRole("link", { name: "View store" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();

    // In the store, the user menu leads back to the admin area.
    await page.goto("/");
    await userMenu(page, email).locator("summary").click();
    const adminLink = userMenu(page, email).getByRole("link", { name: "Admin", exact: true });
    await expect(adminLink).toHaveAttribute("href", "/admin");
    await adminLink.click();
    await expectDashboard(page, email);

    // Logging out from the admin area closes it.
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).not.toHaveURL(/\/admin$/);
    await expectNoAdminAccess(page);
  });

  test("a wrong admin password fails", async ({ page }) => {
    const email = uniqueEmail("admin");
    const password = uniquePassword();
    createAdmin(email, password);
    await adminLogin(page, email, `${password}-wrong`);
    await expect(page.getByRole("alert")).toContainText("Login failed");
    await expect(page).toHaveURL(/\/admin\/login$/);
    await expectNoAdminAccess(page);
  });

  test("a customer on /admin/login is shown the setup command and signed out", async ({ page }) => {
    const email = uniqueEmail("customer");
    const password = uniquePassword();
    await signUp(page, email, password);
    await expect(userMenu(page, email).locator("summary")).toBeVisible();

    await adminLogin(page, email, password);
    await expect(page.getByRole("alert")).toContainText("This account does not have admin privileges");
    await expect(page.getByText("Admin setup required")).toBeVisible();
    await expect(page.getByText("npm run admin:create")).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/login$/);

    // Signed out everywhere: no user menu in the store, /account asks to log in.
    await page.goto("/");
    await expect(userMenu(page, email)).toHaveCount(0);
    await expect(page.getByRole("banner").getByRole("link", { name: "Login", exact: true })).toBeVisible();
    await page.goto("/account");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Faccount$/);
    await expectNoAdminAccess(page);
  });

  test("a customer cannot make themselves admin; an admin can", async ({ page, newShopper }) => {
    const email = uniqueEmail("customer");
    await signUpWithRequest(page.request, email, uniquePassword());

    const refused = await page.request.post("/admin", { form: { intent: "grant", email }, maxRedirects: 0 });
    expect(refused.status()).toBe(403);
    await expectNoAdminAccess(page);

    // The same post from an admin grants the right to that existing account.
    const adminEmail = uniqueEmail("admin");
    const adminPassword = uniquePassword();
    createAdmin(adminEmail, adminPassword);
    const admin = await newShopper();
    await adminLogin(admin.page, adminEmail, adminPassword);
    await expectDashboard(admin.page, adminEmail);
    const granted = await admin.page.request.post("/admin", { form: { intent: "grant", email } });
    expect(granted.status()).toBeLessThan(400);

    await page.goto("/admin");
    await expectDashboard(page, email);
  });
});

test.describe("cross-site posts", () => {
  // Each is refused before any action runs; the same post from the shop itself is the control.
  const CROSS_SITE: { name: string; headers: Record<string, string> }[] = [
    { name: "a foreign Origin", headers: { Origin: "https://evil.example" } },
    { name: "Origin: null", headers: { Origin: "null" } },
    { name: "no Origin but Sec-Fetch-Site: cross-site", headers: { "Sec-Fetch-Site": "cross-site" } },
  ];

  /** Where GET `path` sends this client (its Location), or null when it is served. */
  async function redirectOf(request: APIRequestContext, path: string) {
    const response = await request.get(path, { maxRedirects: 0 });
    return response.status() >= 300 && response.status() < 400 ? (response.headers().location ?? "") : null;
  }

  test("to /login sign nobody in", async ({ page, newShopper }) => {
    const email = uniqueEmail("customer");
    const password = uniquePassword();
    await signUpWithRequest((await newShopper()).page.request, email, password);
    const form = { intent: "login", email, password, redirectTo: "/" };
    for (const { name, headers } of CROSS_SITE) {
      const response = await page.request.post("/login", { form, headers, maxRedirects: 0 });
      expect(response.status(), name).toBe(403);
      expect(response.headers()["set-cookie"], name).toBeUndefined();
      expect(await redirectOf(page.request, "/account"), name).toBe("/login?redirectTo=%2Faccount");
    }
    const sameSite = await page.request.post("/login", { form, maxRedirects: 0 });
    expect([302, 303]).toContain(sameSite.status());
    expect(await redirectOf(page.request, "/account")).toBeNull();
  });

  test("to /logout sign nobody out", async ({ page }) => {
    const email = uniqueEmail("customer");
    await signUpWithRequest(page.request, email, uniquePassword());
    expect(await redirectOf(page.request, "/account")).toBeNull();
    for (const { name, headers } of CROSS_SITE) {
      const response = await page.request.post("/logout", { form: {}, headers, maxRedirects: 0 });
      expect(response.status(), name).toBe(403);
      expect(response.headers()["set-cookie"], name).toBeUndefined();
      expect(await redirectOf(page.request, "/account"), name).toBeNull();
    }
    // In the browser too, the shopper is still signed in.
    await page.goto("/account");
    await expect(page.getByRole("heading", { level: 1, name: "My Account" })).toBeVisible();
    await expect(page.locator("main")).toContainText(email);

    const sameSite = await page.request.post("/logout", { form: {}, maxRedirects: 0 });
    expect([302, 303]).toContain(sameSite.status());
    expect(await redirectOf(page.request, "/account")).toBe("/login?redirectTo=%2Faccount");
  });

  test("to /admin grant nothing, even from an admin's browser", async ({ page, newShopper }) => {
    const email = uniqueEmail("customer");
    await signUpWithRequest(page.request, email, uniquePassword());
    const adminEmail = uniqueEmail("admin");
    const adminPassword = uniquePassword();
    createAdmin(adminEmail, adminPassword);
    const admin = await newShopper();
    await adminLogin(admin.page, adminEmail, adminPassword);
    await expectDashboard(admin.page, adminEmail);

    for (const { name, headers } of CROSS_SITE) {
      const response = await admin.page.request.post("/admin", {
        form: { intent: "grant", email },
        headers,
        maxRedirects: 0,
      });
      expect(response.status(), name).toBe(403);
      expect(await redirectOf(page.request, "/admin"), name).toBe("/admin/login");
    }
    const sameSite = await admin.page.request.post("/admin", { form: { intent: "grant", email }, maxRedirects: 0 });
    expect(sameSite.status()).toBeLessThan(400);
    expect(await redirectOf(page.request, "/admin")).toBeNull();
  });
});
