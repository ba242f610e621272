import { seriousViolations } from "../a11y";
import { expect, signInAsAdmin, submitAuthForm, shopperTest as test, uniqueEmail, uniquePassword } from "../fixtures";

/**
 * Issue 19, staff accounts, one journey (JavaScript on and off): the owner adds a member of staff
 * by e-mail, who signs in and sees Orders but not Settings, and gets "only the shop owner" on
 * Settings; the owner removes them (confirmed on a second step) and their next page is signed
 * out of the admin.
 */
test("the owner adds a member of staff, who works the orders but not the settings, then removes them", async ({
  page,
  request,
  newShopper,
  jsEnabled,
}) => {
  // Two browsers, two sign-ins and an accessibility scan: longer than the default.
  test.setTimeout(90_000);
  await signInAsAdmin(page, "staff-owner");
  const email = uniqueEmail("staff-member");
  const password = uniquePassword();
  // The staff member's own account (a customer until the owner adds them).
  const signUp = await request.post("/login", {
    form: { intent: "signup", email, password, redirectTo: "/" },
    maxRedirects: 0,
  });
  expect([302, 303]).toContain(signUp.status());

  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Admin menu" }).getByRole("link", { name: "Staff" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Staff" })).toBeVisible();
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "Add staff" }).click();
  await expect(page.getByRole("status").filter({ hasText: `${email} is now staff.` })).toBeVisible();
  const row = page.getByTestId("staff-row").filter({ hasText: email });
  await expect(row).toContainText("Staff");
  await expect(page.getByTestId("activity-row").first()).toContainText("staff.added");
  expect(await seriousViolations(page, jsEnabled)).toEqual([]);

  const staff = await newShopper();
  await staff.page.goto("/admin/login");
  await submitAuthForm(staff.page, email, password, "Login");
  await expect(staff.page).toHaveURL(/\/admin$/);
  const menu = staff.page.getByRole("navigation", { name: "Admin menu" });
  await expect(menu.getByRole("link", { name: "Orders" })).toBeVisible();
  await expect(menu.getByRole("link", { name: "Settings" })).toHaveCount(0);
  await expect(menu.getByRole("link", { name: "Staff" })).toHaveCount(0);
  const refused = await staff.page.goto("/admin/settings");
  expect(refused?.status()).toBe(403);
  await expect(staff.page.getByRole("heading", { name: "Only the shop owner can use this page" })).toBeVisible();
  await staff.page.goto("/admin/orders");
  await expect(staff.page.getByRole("heading", { level: 1, name: "Orders Management" })).toBeVisible();

  // Remove, confirmed on the second step (the same with and without JavaScript).
  await row.getByRole("button", { name: /^Remove/ }).click();
  await expect(page.getByRole("alertdialog")).toContainText(`Remove ${email} from the admins?`);
  await page.getByRole("button", { name: "Yes, remove" }).click();
  await expect(page.getByRole("status").filter({ hasText: `${email} is no longer an admin` })).toBeVisible();
  await expect(page.getByTestId("staff-row").filter({ hasText: email })).toHaveCount(0);

  await staff.page.goto("/admin/orders");
  await expect(staff.page).toHaveURL(/\/admin\/login$/);
});
