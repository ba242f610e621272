import type { Page } from "@playwright/test";
import {
  expect,
  logOut,
  signIn,
  signUp,
  signUpWithRequest,
  submitAuthForm,
  shopperTest as test,
  uniqueEmail,
  uniquePassword,
  userMenu,
} from "../fixtures";

/**
 * Sign-up, sign-in and logout on /login, in both projects (JavaScript on and off). Every test
 * uses its own accounts and reaches the shop from its own client address (see fixtures.ts).
 */

const headerLogin = (page: Page) => page.getByRole("banner").getByRole("link", { name: "Login", exact: true });
const alert = (page: Page) => page.locator("main").getByRole("alert");
const emailInput = (page: Page) => page.locator("main").getByLabel("E-mail", { exact: true });
const passwordInput = (page: Page) => page.locator("main").getByLabel("Password", { exact: true });

/** The fields the login form posts (see the hidden inputs of /login). */
function loginForm(email: string, password: string, extra: Record<string, string> = {}) {
  return { intent: "login", email, password, redirectTo: "/", ...extra };
}

/** Whether this browser is signed in, judged by the server: /account lets it in or not. */
async function expectSignedOut(page: Page) {
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Faccount$/);
}

test.describe("sign-up, login and logout", () => {
  test("signs up, logs out and logs back in through the header menu", async ({ page }) => {
    const email = uniqueEmail();
    const password = uniquePassword();

    await page.goto("/");
    await headerLogin(page).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("heading", { level: 1, name: "Login" })).toBeVisible();
    await expect(page.locator("main").getByRole("link", { name: "Forgot password?" })).toHaveAttribute(
      "href",
      "/forgot-password",
    );
    await page.locator("main").getByRole("link", { name: "Sign up", exact: true }).click();
    await expect(page).toHaveURL(/\/login\?mode=signup$/);
    await expect(page.getByRole("heading", { level: 1, name: "Sign Up" })).toBeVisible();
    await expect(page.locator("main").getByText("At least 6 characters.")).toBeVisible();

    await submitAuthForm(page, email, password, "Sign Up");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("status")).toContainText("Sign up successful");
    // Signed in: the header shows the e-mail as the user menu instead of "Login".
    await expect(headerLogin(page)).toHaveCount(0);
    const menu = userMenu(page, email);
    await expect(menu.locator("summary")).toBeVisible();
    await menu.locator("summary").click();
    await expect(menu.getByRole("link", { name: "My Account" })).toHaveAttribute("href", "/account");
    await expect(menu.getByRole("link", { name: "Admin", exact: true })).toHaveCount(0);
    await expect(menu.getByRole("button", { name: "Logout" })).toBeVisible();

    // A signed-in shopper has nothing to do on /login.
    await page.goto("/login");
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/login?mode=signup");
    await expect(page).toHaveURL(/\/$/);

    await logOut(page, email);
    await expect(page.getByRole("status")).toContainText("Success");
    await expect(headerLogin(page)).toBeVisible();
    await expect(userMenu(page, email)).toHaveCount(0);
    await expectSignedOut(page);

    await signIn(page, email, password);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("status")).toContainText("Welcome back!");
    await expect(userMenu(page, email).locator("summary")).toBeVisible();
    await page.goto("/account");
    await expect(page.getByRole("heading", { level: 1, name: "My Account" })).toBeVisible();
  });

  test("a wrong password and an unknown e-mail get the same answer", async ({ page }) => {
    const email = uniqueEmail();
    const password = uniquePassword();
    await signUpWithRequest(page.request, email, password);
    await page.context().clearCookies();

    await page.goto("/login");
    await submitAuthForm(page, email, `${password}-wrong`, "Login");
    await expect(alert(page)).toContainText("Login failed");
    await expect(alert(page)).toContainText("The e-mail or password is not correct.");
    const wrongPassword = await alert(page).innerText();

    await page.goto("/login");
    await submitAuthForm(page, uniqueEmail("nobody"), password, "Login");
    await expect(alert(page)).toContainText("Login failed");
    const unknownEmail = await alert(page).innerText();
    expect(unknownEmail).toBe(wrongPassword);

    // The server answers both alike too, and neither signs anybody in.
    const wrong = await page.request.post("/login", { form: loginForm(email, `${password}-wrong`), maxRedirects: 0 });
    const unknown = await page.request.post("/login", {
      form: loginForm(uniqueEmail("nobody"), password),
      maxRedirects: 0,
    });
    expect(wrong.status()).toBe(unknown.status());
    expect(wrong.status()).toBeGreaterThanOrEqual(400);
    expect(wrong.headers()["set-cookie"]).toBeUndefined();
    expect(unknown.headers()["set-cookie"]).toBeUndefined();
    await expectSignedOut(page);
  });

  test("refuses to sign up an e-mail that has an account already", async ({ page }) => {
    const email = uniqueEmail();
    const password = uniquePassword();
    await signUpWithRequest(page.request, email, password);
    await page.context().clearCookies();

    await page.goto("/login?mode=signup");
    await submitAuthForm(page, email, uniquePassword(), "Sign Up");
    await expect(alert(page)).toContainText("Account already exists");
    await expect(alert(page)).toContainText("Please try logging in instead");
    await expectSignedOut(page);
    // The first password still works: the second sign-up changed nothing.
    await signIn(page, email, password);
  });

  test("toggling between login and sign-up clears the fields", async ({ page }) => {
    await page.goto("/login");
    await emailInput(page).fill("typed@example.com");
    await passwordInput(page).fill("typed-secret");
    await page.locator("main").getByRole("link", { name: "Sign up", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Sign Up" })).toBeVisible();
    await expect(page.locator("main").getByRole("button", { name: "Sign Up", exact: true })).toBeVisible();
    await expect(page.locator("main").getByText("At least 6 characters.")).toBeVisible();
    await expect(emailInput(page)).toHaveValue("");
    await expect(passwordInput(page)).toHaveValue("");

    await emailInput(page).fill("other@example.com");
    await passwordInput(page).fill("other-secret");
    await page.locator("main").getByRole("link", { name: "Login", exact: true }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("heading", { level: 1, name: "Login" })).toBeVisible();
    await expect(page.locator("main").getByRole("button", { name: "Login", exact: true })).toBeVisible();
    await expect(page.locator("main").getByText("At least 6 characters.")).toHaveCount(0);
    await expect(emailInput(page)).toHaveValue("");
    await expect(passwordInput(page)).toHaveValue("");
  });
});

test.describe("validation", () => {
  /**
   * Turns off the browser's own constraint checks, so the shop's messages show. They come from
   * the server either way (storefront forms validate there only: docs/decisions/015); with
   * JavaScript the page shows them without a reload.
   */
  async function skipBrowserValidation(page: Page) {
    await page
      .locator("main form")
      .first()
      .evaluate((form) => form.setAttribute("novalidate", ""));
  }

  test("shows the messages next to the fields", async ({ page, jsEnabled }) => {
    await page.goto("/login");
    await skipBrowserValidation(page);
    await page.locator("main").getByRole("button", { name: "Login", exact: true }).click();
    await expect(emailInput(page)).toHaveAccessibleDescription(/E-mail is required/);
    await expect(passwordInput(page)).toHaveAccessibleDescription(/Password is required/);
    await expect(emailInput(page)).toHaveAttribute("aria-invalid", "true");
    // With JavaScript the answer comes without a reload and takes the focus to the first field in error.
    if (jsEnabled) await expect(emailInput(page)).toBeFocused();

    await page.goto("/login");
    await skipBrowserValidation(page);
    await submitAuthForm(page, "not-an-email", "whatever-password", "Login");
    await expect(emailInput(page)).toHaveAccessibleDescription(/Enter a valid e-mail address/);
    await expect(page.locator("main").getByText("Password is required")).toHaveCount(0);

    const email = uniqueEmail();
    await page.goto("/login?mode=signup");
    await skipBrowserValidation(page);
    await submitAuthForm(page, email, "abc12", "Sign Up");
    await expect(passwordInput(page)).toHaveAccessibleDescription(/Password must be at least 6 characters/);
    if (jsEnabled) await expect(passwordInput(page)).toBeFocused();
    await expect(emailInput(page)).toHaveValue(email);
    // Without JavaScript this page is the server's answer: it keeps the e-mail, never the password.
    if (!jsEnabled) await expect(passwordInput(page)).toHaveValue("");
    await expect(page.getByRole("heading", { level: 1, name: "Sign Up" })).toBeVisible();

    // Nothing was created: the same e-mail can still sign up.
    await page.goto("/login?mode=signup");
    await submitAuthForm(page, email, uniquePassword(), "Sign Up");
    await expect(page.getByRole("status")).toContainText("Sign up successful");
  });

  test("the server refuses invalid fields with 400 and never echoes the password", async ({ page }) => {
    const email = uniqueEmail();
    const shortPassword = "Qz9#k";
    const response = await page.request.post("/login", {
      form: { intent: "signup", email, password: shortPassword, redirectTo: "/" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(400);
    const html = await response.text();
    expect(html).toContain("Password must be at least 6 characters");
    expect(html).toContain(email);
    expect(html).not.toContain(shortPassword);
    expect(response.headers()["set-cookie"]).toBeUndefined();

    for (const [fields, message] of [
      [{ email: "", password: "" }, "E-mail is required"],
      [{ email: "not-an-email", password: "long-enough-secret" }, "Enter a valid e-mail address"],
      [{ email, password: "" }, "Password is required"],
    ] as const) {
      const login = await page.request.post("/login", { form: loginForm(fields.email, fields.password) });
      expect(login.status(), message).toBe(400);
      expect(await login.text(), message).toContain(message);
    }
    // The refused sign-up created no account.
    await signUp(page, email, uniquePassword());
  });
});

test.describe("redirectTo", () => {
  test("returns to a safe page after login and sign-up", async ({ page }) => {
    const email = uniqueEmail();
    const password = uniquePassword();
    await page.goto(`/login?redirectTo=${encodeURIComponent("/faq")}`);
    const toSignup = page.locator("main").getByRole("link", { name: "Sign up", exact: true });
    await expect(toSignup).toHaveAttribute("href", /[?&]mode=signup/);
    await expect(toSignup).toHaveAttribute("href", /[?&]redirectTo=%2Ffaq(&|$)/);
    await toSignup.click();
    await expect(page.getByRole("heading", { level: 1, name: "Sign Up" })).toBeVisible();
    await submitAuthForm(page, email, password, "Sign Up");
    await expect(page).toHaveURL(/\/faq$/);
    await expect(page.getByRole("status")).toContainText("Sign up successful");

    await page.context().clearCookies();
    await page.goto(`/login?redirectTo=${encodeURIComponent("/shipping?from=login")}`);
    await submitAuthForm(page, email, password, "Login");
    await expect(page).toHaveURL(/\/shipping\?from=login$/);
    await expect(page.getByRole("status")).toContainText("Login successful");
  });

  for (const unsafe of ["//evil.example", "https://evil.example", "/\\evil.example", "javascript:alert(1)"]) {
    test(`sends an unsafe redirectTo (${unsafe}) home instead`, async ({ page, baseURL }) => {
      const email = uniqueEmail();
      const password = uniquePassword();
      await signUpWithRequest(page.request, email, password);
      await page.context().clearCookies();

      await page.goto(`/login?redirectTo=${encodeURIComponent(unsafe)}`);
      await submitAuthForm(page, email, password, "Login");
      await expect(page.getByRole("status")).toContainText("Login successful");
      expect(page.url()).toBe(`${baseURL}/`);

      // Posted straight to the action, the target is refused as well.
      await page.context().clearCookies();
      const response = await page.request.post("/login", {
        form: loginForm(email, password, { redirectTo: unsafe }),
        maxRedirects: 0,
      });
      expect([302, 303]).toContain(response.status());
      expect(response.headers().location).toBe("/");
    });
  }
});

test.describe("throttling", () => {
  test("after 5 failed logins the account answers 429, even with the right password", async ({ page, newShopper }) => {
    test.slow(); // two browsers
    const email = uniqueEmail("throttled");
    const password = uniquePassword();
    await signUpWithRequest(page.request, email, password);
    await page.context().clearCookies();

    for (let attempt = 1; attempt <= 5; attempt++) {
      const response = await page.request.post("/login", { form: loginForm(email, `wrong-${attempt}`) });
      expect(response.status(), `attempt ${attempt}`).toBe(400);
      expect(await response.text()).toContain("Login failed");
    }
    const blocked = await page.request.post("/login", { form: loginForm(email, password), maxRedirects: 0 });
    expect(blocked.status()).toBe(429);
    expect(await blocked.text()).toContain("Too many attempts");
    expect(blocked.headers()["set-cookie"]).toBeUndefined();

    // The form says so too, and the shopper stays signed out.
    await page.goto("/login");
    await submitAuthForm(page, email, password, "Login");
    await expect(alert(page)).toContainText("Too many attempts");
    await expectSignedOut(page);

    // The limit belongs to the account: another address gets no fresh attempts for it...
    const other = await newShopper();
    const elsewhere = await other.page.request.post("/login", { form: loginForm(email, password), maxRedirects: 0 });
    expect(elsewhere.status()).toBe(429);
    // ...while other accounts sign in as usual.
    const bystander = uniqueEmail("bystander");
    const bystanderPassword = uniquePassword();
    await signUpWithRequest(other.page.request, bystander, bystanderPassword);
    await other.context.clearCookies();
    await signIn(other.page, bystander, bystanderPassword);
  });
});

test.describe("in Chinese", () => {
  test("logs in and signs up in Chinese", async ({ page, inChinese }) => {
    await inChinese();
    const email = uniqueEmail("zh");
    const password = uniquePassword();

    await page.goto("/login");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("登入");
    await page.locator("main").getByLabel("電郵", { exact: true }).fill(email);
    await page.locator("main").getByLabel("密碼", { exact: true }).fill(password);
    await page.locator("main").getByRole("button", { name: "登入", exact: true }).click();
    await expect(alert(page)).toContainText("登入失敗");
    await expect(alert(page)).not.toContainText("Login failed");

    await page.goto("/login?mode=signup");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("註冊");
    await page.locator("main").getByLabel("電郵", { exact: true }).fill(email);
    await page.locator("main").getByLabel("密碼", { exact: true }).fill(password);
    await page.locator("main").getByRole("button", { name: "註冊", exact: true }).click();
    await expect(page.getByRole("status")).toContainText("註冊成功");
    await expect(userMenu(page, email).locator("summary")).toBeVisible();
  });
});
