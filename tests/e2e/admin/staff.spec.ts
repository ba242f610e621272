import { htmlErrors, seriousViolations } from "../a11y";
import {
  expect,
  mailsTo,
  readableMail,
  signInAsAdmin,
  submitAuthForm,
  shopperTest as test,
  uniqueEmail,
  uniquePassword,
} from "../fixtures";

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
  await expect(
    page.getByRole("status").filter({ hasText: `${email} is now staff; we e-mailed them an invitation.` }),
  ).toBeVisible();
  const row = page.getByTestId("staff-row").filter({ hasText: email });
  await expect(row).toContainText("Staff");
  // Other specs write the audit log at the same moment: the entry is among the latest, not always first.
  await expect(page.getByTestId("activity-row").filter({ hasText: "staff.added" }).first()).toBeVisible();
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

/**
 * Issue 25, the staff invitation (JavaScript on and off): the owner adds a new address with the
 * invitation in Chinese; the e-mail says who invited them, to which shop and what staff do, with
 * a link to /join that reads as an invitation (not "reset"); the new member sets a password there
 * and signs in to the admin; the link then no longer works.
 */
test("a new member of staff joins through the invitation e-mail", async ({ page, newShopper, jsEnabled }) => {
  test.setTimeout(90_000);
  const owner = await signInAsAdmin(page, "staff-inviter");
  const email = uniqueEmail("invited-staff");
  await page.goto("/admin/staff");
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Language of the invitation").selectOption("zh");
  await page.getByRole("button", { name: "Add staff" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: `We created an account for ${email} and e-mailed an invitation` }),
  ).toContainText("valid for 7 days");
  await expect(page.getByTestId("staff-row").filter({ hasText: email })).toContainText(
    "invitation sent, not accepted yet",
  );

  let text = "";
  await expect
    .poll(() => {
      text = mailsTo(email)
        .map(({ raw }) => readableMail(raw))
        .join("\n");
      return text;
    })
    .toContain("誠邀你加入");
  expect(text).toContain(`${owner} 已將你加入`);
  expect(text).toContain("7 日內有效");
  expect(text).not.toContain("/reset-password");
  const link = /https?:\/\/[^\s"'<>]+\/join\?token=[A-Za-z0-9_\-.~%]+/.exec(text)?.[0];
  expect(link, "the invitation link").toBeTruthy();

  const invitee = await newShopper();
  await invitee.page.goto(link as string);
  await expect(invitee.page.getByRole("heading", { level: 1 })).toHaveText(/^Set your password to join \S/);
  await expect(invitee.page.locator("main")).toContainText(`Choose a password for your account ${email}`);
  await expect(invitee.page.locator("main")).not.toContainText(/reset/i);
  expect(await seriousViolations(invitee.page, jsEnabled)).toEqual([]);
  expect(await htmlErrors(await (await invitee.page.request.get(link as string)).text())).toEqual([]);
  const password = uniquePassword();
  await invitee.page.getByLabel("New password", { exact: true }).fill(password);
  await invitee.page.getByLabel("Repeat the new password", { exact: true }).fill(password);
  await invitee.page.getByRole("button", { name: "Set password and join" }).click();
  await expect(invitee.page).toHaveURL(/\/admin\/login$/);
  await expect(invitee.page.getByRole("status")).toContainText(`Sign in with ${email} to open the admin.`);
  await submitAuthForm(invitee.page, email, password, "Login");
  await expect(invitee.page).toHaveURL(/\/admin$/);

  // Accepted: the owner's list no longer says so, and the link is spent.
  await page.goto("/admin/staff");
  await expect(page.getByTestId("staff-row").filter({ hasText: email })).not.toContainText("invitation");
  const spent = await invitee.page.goto(link as string);
  expect(spent?.status()).toBe(400);
  await expect(invitee.page.getByRole("heading", { level: 1, name: "This invitation does not work" })).toBeVisible();
});
