import type { BrowserContext, Page } from "@playwright/test";
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
  waitForResetLink,
} from "../fixtures";

/**
 * Sessions, password change and password reset. The session cookie is `sid` over plain http;
 * its value is a token the server can revoke, so a copied cookie stops working when the
 * session ends.
 */

async function sessionCookie(context: BrowserContext) {
  return (await context.cookies()).find((cookie) => cookie.name === "sid");
}

async function expectAnonymous(page: Page) {
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Faccount$/);
  await expect(page.getByRole("heading", { level: 1, name: "Login" })).toBeVisible();
}

async function expectSignedInAs(page: Page, email: string) {
  await page.goto("/account");
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("heading", { level: 1, name: "My Account" })).toBeVisible();
  await expect(page.locator("main")).toContainText(email);
}

/** Fills the password form on /account and submits it. */
async function changePassword(page: Page, current: string, next: string, repeat = next) {
  const main = page.locator("main");
  await main.getByLabel("Current password", { exact: true }).fill(current);
  await main.getByLabel("New password", { exact: true }).fill(next);
  await main.getByLabel("Repeat the new password", { exact: true }).fill(repeat);
  await main.getByRole("button", { name: "Change Password" }).click();
}

test.describe("session cookie", () => {
  test("is httpOnly and SameSite=Lax, and gets a new value at sign-in", async ({ page, newShopper, baseURL }) => {
    const email = uniqueEmail();
    const password = uniquePassword();
    await signUpWithRequest(page.request, email, password);
    await page.context().clearCookies();

    // The visitor has an anonymous session before logging in: something worth keeping (here a
    // flash message, not shown yet) arrives while the login form is open.
    await page.goto("/login");
    const currency = await page.request.post("/resources/currency", {
      form: { currency: "HKD", redirectTo: "/" },
      maxRedirects: 0,
    });
    expect(currency.status()).toBe(302);
    const before = await sessionCookie(page.context());
    expect(before, "an anonymous session").toBeDefined();

    await submitAuthForm(page, email, password, "Login");
    await expect(page.getByRole("status")).toContainText("Login successful");
    const after = await sessionCookie(page.context());
    expect(after).toMatchObject({ name: "sid", path: "/", httpOnly: true, sameSite: "Lax", secure: false });
    expect(after?.value).not.toBe(before?.value);
    expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain("__Host-sid");

    // The pre-login value was not promoted to the signed-in session (no session fixation).
    const replay = await newShopper();
    await replay.context.addCookies([{ name: "sid", value: before?.value ?? "", url: baseURL ?? "" }]);
    await expectAnonymous(replay.page);
    await expectSignedInAs(page, email);
  });

  test("a cookie replayed after logout is anonymous", async ({ page, newShopper, baseURL }) => {
    test.slow(); // three browsers
    const email = uniqueEmail();
    const password = uniquePassword();
    await signUp(page, email, password);
    const cookie = await sessionCookie(page.context());
    expect(cookie?.value).toBeTruthy();

    // Copied while the session lives, the cookie signs in another browser...
    const copy = await newShopper();
    await copy.context.addCookies([{ name: "sid", value: cookie?.value ?? "", url: baseURL ?? "" }]);
    await expectSignedInAs(copy.page, email);

    await page.goto("/");
    await logOut(page, email);
    await expect(page.getByRole("banner").getByRole("link", { name: "Login", exact: true })).toBeVisible();
    await expectAnonymous(page);

    // ...and after logout the very same value is anonymous, in a fresh browser too.
    const replay = await newShopper();
    await replay.context.addCookies([{ name: "sid", value: cookie?.value ?? "", url: baseURL ?? "" }]);
    await expectAnonymous(replay.page);
    await copy.page.reload();
    await expectAnonymous(copy.page);
  });
});

test.describe("my account", () => {
  test("signed out, /account goes to login and comes back after it", async ({ page }) => {
    const email = uniqueEmail();
    const password = uniquePassword();
    await signUpWithRequest(page.request, email, password);
    await page.context().clearCookies();

    await page.goto("/account");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Faccount$/);
    await submitAuthForm(page, email, password, "Login");
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole("status")).toContainText("Login successful");
    await expect(page.getByRole("heading", { level: 1, name: "My Account" })).toBeVisible();
    await expect(page.locator("main")).toContainText(email);
    // The user menu leads there too.
    await page.goto("/");
    await userMenu(page, email).locator("summary").click();
    await userMenu(page, email).getByRole("link", { name: "My Account" }).click();
    await expect(page).toHaveURL(/\/account$/);
  });

  test("changing the password needs the current one and signs out the other sessions", async ({ page, newShopper }) => {
    test.slow(); // two browsers, a dozen pages
    const email = uniqueEmail();
    const password = uniquePassword();
    const newPassword = uniquePassword();
    await signUp(page, email, password);
    const laptop = await newShopper();
    await signIn(laptop.page, email, password);

    await page.goto("/account");
    await expect(page.locator("main")).toContainText(email);
    await changePassword(page, `${password}-wrong`, newPassword);
    const current = page.locator("main").getByLabel("Current password", { exact: true });
    await expect(current).toHaveAccessibleDescription(/The current password is not correct/);
    await expect(page.getByRole("status").filter({ hasText: "Password changed" })).toHaveCount(0);
    // Nothing changed: the other session lives on and the old password still works.
    await expectSignedInAs(laptop.page, email);

    await page.goto("/account");
    await changePassword(page, password, newPassword);
    await expect(page.getByRole("status")).toContainText("Password changed");
    // This browser stays signed in; the other one is signed out.
    await expectSignedInAs(page, email);
    await expectAnonymous(laptop.page);

    // The old password no longer works, the new one does.
    await laptop.page.goto("/login");
    await submitAuthForm(laptop.page, email, password, "Login");
    await expect(laptop.page.locator("main").getByRole("alert")).toContainText("Login failed");
    await signIn(laptop.page, email, newPassword);
    await expectSignedInAs(laptop.page, email);
  });
});

test.describe("forgotten password", () => {
  test("a reset link sets a new password once", async ({ page }) => {
    const email = uniqueEmail("reset");
    const password = uniquePassword();
    const newPassword = uniquePassword();
    await signUpWithRequest(page.request, email, password);
    await page.context().clearCookies();

    await page.goto("/login");
    await page.locator("main").getByRole("link", { name: "Forgot password?" }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);

    // An unknown address gets the same answer as a known one.
    await page.locator("main").getByLabel("E-mail", { exact: true }).fill(uniqueEmail("nobody"));
    await page.locator("main").getByRole("button", { name: "Send Reset Link" }).click();
    const flash = page.getByRole("status");
    await expect(flash).toContainText("Check your email");
    const unknownAnswer = await flash.innerText();

    const requestedAt = Date.now() - 1000;
    await page.goto("/forgot-password");
    await page.locator("main").getByLabel("E-mail", { exact: true }).fill(email);
    await page.locator("main").getByRole("button", { name: "Send Reset Link" }).click();
    await expect(flash).toContainText("Check your email");
    expect(await flash.innerText()).toBe(unknownAnswer);

    const link = await waitForResetLink(email, { since: requestedAt });
    expect(new URL(link, "http://x").pathname).toBe("/reset-password");
    await page.goto(link);
    const main = page.locator("main");
    await main.getByLabel("New password", { exact: true }).fill(newPassword);
    await main.getByLabel("Repeat the new password", { exact: true }).fill(newPassword);
    await main.getByRole("button", { name: "Save New Password" }).click();
    await expect(page).toHaveURL(/\/login(\?.*)?$/);
    await expect(page.getByRole("status")).toContainText("Password changed");
    await expect(page.getByRole("status")).toContainText("Log in with your new password.");

    await submitAuthForm(page, email, password, "Login");
    await expect(main.getByRole("alert")).toContainText("Login failed");
    await signIn(page, email, newPassword);
    await expectSignedInAs(page, email);

    // The link worked once.
    await page.context().clearCookies();
    await page.goto(link);
    await expect(page.locator("main")).toContainText("This link does not work");
    await expect(main.getByRole("button", { name: "Save New Password" })).toHaveCount(0);
  });
});
