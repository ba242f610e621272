import type { Page } from "@playwright/test";
import {
  type ApiShopper,
  apiAddToCart,
  apiCheckout,
  expect,
  newApiShopper,
  productIdByName,
  receiptJpeg,
  signInAsAdmin,
  shopperTest as test,
  withLock,
} from "../fixtures";

/**
 * Settings (/admin/settings): the home page's hero image and the bank accounts shoppers pay
 * into, with and without JavaScript. Both projects share one server: the hero image and the
 * primary account are shop-wide, so each project changes them under a lock, and the demo
 * account is primary again when the lock is released (other specs read the payment page).
 */

const DEMO_ACCOUNT = "848-302915-838";
const DEMO_FPS = "1648203";

function flash(page: Page, text: string) {
  return page.getByRole("status").filter({ hasText: text });
}

function accountRow(page: Page, accountNumber: string) {
  return page.getByTestId("bank-account-row").filter({ hasText: accountNumber });
}

function homeHero(page: Page) {
  return page
    .locator("section", { has: page.getByRole("heading", { level: 1 }) })
    .locator("img")
    .first();
}

/** Makes the account with `accountNumber` primary with the list's button. */
async function makePrimary(page: Page, accountNumber: string) {
  await page.goto("/admin/settings");
  const button = accountRow(page, accountNumber).getByRole("button", { name: /^Make primary: / });
  if ((await button.count()) === 0) return; // already primary
  await button.click();
  await expect(flash(page, "Primary bank account changed successfully")).toBeVisible();
  await expect(accountRow(page, accountNumber).getByText("Primary", { exact: true })).toBeVisible();
}

test.describe("Settings", () => {
  test("an admin replaces the home page's hero image and resets it; customers cannot", async ({
    page,
    playwright,
    baseURL,
  }) => {
    test.slow();
    await signInAsAdmin(page, "admin");
    const customer = await newApiShopper(playwright, baseURL ?? "", "hero-customer");
    try {
      await withLock("hero", async () => {
        await page.goto("/admin/settings");
        await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
        await expect(page.getByRole("heading", { name: "Site Appearance" })).toBeVisible();
        const preview = page.getByTestId("hero-preview");
        const before = await preview.getAttribute("src");
        const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Upload Image" }) });

        // Over 10 MB: the spec's message, nothing changes.
        const { buffer } = await receiptJpeg("huge.jpg");
        await form.getByLabel("Background Image").setInputFiles({
          name: "huge.jpg",
          mimeType: "image/jpeg",
          buffer: Buffer.concat([buffer, Buffer.alloc(10 * 1024 * 1024 + 1024 - buffer.length, 0x20)]),
        });
        await form.getByRole("button", { name: "Upload Image" }).click();
        await expect(form.getByText("Image file size must be less than 10MB")).toBeVisible();
        await expect(preview).toHaveAttribute("src", before ?? "");

        await form.getByLabel("Background Image").setInputFiles(await receiptJpeg("new-hero.jpg"));
        await form.getByRole("button", { name: "Upload Image" }).click();
        await expect(flash(page, "Background image updated successfully")).toBeVisible();
        await expect(preview).toHaveAttribute("src", /^\/uploads\/hero\/[\w-]+\.webp$/);
        const uploaded = (await preview.getAttribute("src")) ?? "";
        expect(uploaded).not.toBe(before);
        const image = await page.request.get(uploaded);
        expect(image.status()).toBe(200);
        expect(image.headers()["content-type"]).toContain("image/webp");

        await page.goto("/");
        await expect(homeHero(page)).toHaveAttribute("src", uploaded);

        // A signed-in customer's posts are refused and change nothing.
        const hero = await receiptJpeg("evil.jpg");
        const refused = [
          await customer.request.post("/admin/settings", { multipart: { intent: "hero", hero }, maxRedirects: 0 }),
          await customer.request.post("/admin/settings", { form: { intent: "hero_reset" }, maxRedirects: 0 }),
        ];
        for (const response of refused) expect(response.status()).toBe(403);
        await page.reload();
        await expect(homeHero(page)).toHaveAttribute("src", uploaded);

        await page.goto("/admin/settings");
        await page.getByRole("button", { name: "Reset to default" }).click();
        await expect(flash(page, "Background image reset to default")).toBeVisible();
        await expect(preview).toHaveAttribute("src", "/images/hero-default.webp");
        await expect(page.getByRole("button", { name: "Reset to default" })).toHaveCount(0);
        await page.goto("/");
        await expect(homeHero(page)).toHaveAttribute("src", "/images/hero-default.webp");
        expect((await page.request.get(uploaded)).status()).toBe(404);
      });
    } finally {
      await customer.dispose();
    }
  });

  test("an admin adds, makes primary, edits and deletes a bank account; the payment page follows", async ({
    page,
    playwright,
    baseURL,
    jsEnabled,
  }) => {
    test.slow();
    const suffix = `${Date.now()}`.slice(-8);
    const bankName = `E2E Harbour Bank ${suffix}`;
    const accountNumber = `555-${suffix}`;
    await signInAsAdmin(page, "admin");

    // A shopper at the payment step (cart + checkout), who is shown the primary account.
    const shopper: ApiShopper = await newApiShopper(playwright, baseURL ?? "", "settings-shopper");
    const customer = await newApiShopper(playwright, baseURL ?? "", "settings-customer");
    try {
      const productId = await productIdByName(shopper.request, "0.25 g Precision BBs (4000 rds)");
      await apiAddToCart(shopper.request, productId, "Default", 1);
      await apiCheckout(shopper.request, shopper.email);
      const paymentPage = async () => (await shopper.request.get("/payment")).text();

      // Add: the required fields are checked first.
      await page.goto("/admin/settings");
      await expect(page.getByRole("heading", { name: "Banking Information" })).toBeVisible();
      const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Add Account" }) });
      await form.getByRole("button", { name: "Add Account" }).click();
      await expect(form.getByText("Bank name is required")).toBeVisible();
      await expect(form.getByText("Account holder is required")).toBeVisible();
      await expect(form.getByText("Account number is required")).toBeVisible();
      await form.getByLabel("Bank Name").fill(bankName);
      await form.getByLabel("Account Holder").fill("Harbour Tactical Limited");
      await form.getByLabel("Account Number").fill(accountNumber);
      // The shop's own FPS id, so other specs reading the payment page meanwhile still see it.
      await form.getByLabel("FPS ID").fill(DEMO_FPS);
      await form.getByLabel("SWIFT Code").fill("e2ehkhhx");
      await form.getByRole("button", { name: "Add Account" }).click();
      await expect(page).toHaveURL(/\/admin\/settings$/);
      await expect(flash(page, "Bank account added successfully")).toBeVisible();
      const row = accountRow(page, accountNumber);
      await expect(row).toContainText(bankName);
      await expect(row).toContainText("E2EHKHHX");
      await expect(row.getByText("Primary", { exact: true })).toHaveCount(0);
      // Newest first.
      await expect(page.getByTestId("bank-account-row").first()).toContainText(accountNumber);

      await withLock("primary", async () => {
        try {
          await makePrimary(page, accountNumber);
          await expect(accountRow(page, DEMO_ACCOUNT).getByText("Primary", { exact: true })).toHaveCount(0);
          const html = await paymentPage();
          expect(html).toContain(bankName);
          expect(html).toContain(accountNumber);
          expect(html).not.toContain(DEMO_ACCOUNT);
        } finally {
          await makePrimary(page, DEMO_ACCOUNT);
        }
      });
      expect(await paymentPage()).toContain(DEMO_ACCOUNT);

      // A signed-in customer's posts are refused and change nothing.
      const editHref = (await row.getByRole("link", { name: /^Edit / }).getAttribute("href")) ?? "";
      const id = /edit=(\d+)#bank-form$/.exec(editHref)?.[1] ?? "";
      expect(id).not.toBe("");
      const forbidden: Record<string, string>[] = [
        { intent: "create", bank_name: "Evil Bank", account_holder: "Evil", account_number: "666" },
        { intent: "update", id, bank_name: "Evil Bank", account_holder: "Evil", account_number: "666" },
        { intent: "make_primary", id },
        { intent: "delete", id, confirmed: "1" },
      ];
      for (const fields of forbidden) {
        const response = await customer.request.post("/admin/settings", { form: fields, maxRedirects: 0 });
        expect(response.status(), fields.intent).toBe(403);
      }
      await page.goto("/admin/settings");
      await expect(row).toContainText(bankName);
      await expect(row.getByText("Primary", { exact: true })).toHaveCount(0);
      await expect(page.getByText("Evil Bank")).toHaveCount(0);

      // Edit: pre-filled; a bad SWIFT code and an empty holder keep what was typed.
      await row.getByRole("link", { name: /^Edit / }).click();
      await expect(page).toHaveURL(new RegExp(`/admin/settings\\?edit=${id}#bank-form$`));
      await expect(page.getByRole("heading", { name: "Edit Bank Account" })).toBeVisible();
      const editForm = page.locator("form").filter({ has: page.getByRole("button", { name: "Update" }) });
      await expect(editForm.getByLabel("Bank Name")).toHaveValue(bankName);
      await expect(editForm.getByLabel("SWIFT Code")).toHaveValue("E2EHKHHX");
      const renamed = `${bankName} Renamed`;
      await editForm.getByLabel("Bank Name").fill(renamed);
      await editForm.getByLabel("Account Holder").fill("");
      await editForm.getByLabel("SWIFT Code").fill("BAD");
      await editForm.getByRole("button", { name: "Update" }).click();
      await expect(editForm.getByText("Account holder is required")).toBeVisible();
      await expect(editForm.getByText("A SWIFT code has 8 or 11 letters or digits.")).toBeVisible();
      await expect(editForm.getByLabel("Bank Name")).toHaveValue(renamed);
      await expect(editForm.getByLabel("SWIFT Code")).toHaveValue("BAD");
      await editForm.getByLabel("Account Holder").fill("Harbour Tactical Trading");
      await editForm.getByLabel("SWIFT Code").fill("");
      await editForm.getByRole("button", { name: "Update" }).click();
      await expect(page).toHaveURL(/\/admin\/settings$/);
      await expect(flash(page, "Bank account updated successfully")).toBeVisible();
      await expect(row).toContainText(renamed);
      await expect(row).toContainText("Harbour Tactical Trading");
      await expect(row).not.toContainText("E2EHKHHX");

      // Cancel Edit goes back to add mode.
      await row.getByRole("link", { name: /^Edit / }).click();
      await page.getByRole("link", { name: "Cancel Edit" }).click();
      await expect(page).toHaveURL(/\/admin\/settings$/);
      await expect(page.getByRole("heading", { name: "Add Bank Account" })).toBeVisible();

      // Delete, after a confirmation.
      const deleteButton = row.getByRole("button", { name: /^Delete / });
      if (jsEnabled) {
        page.once("dialog", async (dialog) => {
          expect(dialog.message()).toBe("Are you sure you want to delete this bank account?");
          await dialog.accept();
        });
        await deleteButton.click();
      } else {
        await deleteButton.click();
        await expect(page).toHaveURL(new RegExp(`/admin/settings\\?delete=${id}#bank-delete$`));
        await expect(
          page.getByRole("heading", { name: "Are you sure you want to delete this bank account?" }),
        ).toBeVisible();
        await page.getByRole("button", { name: "Yes, delete" }).click();
      }
      await expect(page).toHaveURL(/\/admin\/settings$/);
      await expect(flash(page, "Bank account deleted successfully")).toBeVisible();
      await expect(accountRow(page, accountNumber)).toHaveCount(0);
      await expect(accountRow(page, DEMO_ACCOUNT).getByText("Primary", { exact: true })).toBeVisible();
    } finally {
      await shopper.dispose();
      await customer.dispose();
    }
  });
});
