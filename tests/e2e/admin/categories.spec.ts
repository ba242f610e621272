import type { Page } from "@playwright/test";
import { expect, receiptJpeg, receiptTextAsPng, signInAsAdmin, shopperTest as test, waitForReact } from "../fixtures";

/**
 * The Category Manager (/admin/categories): create, edit and delete a category, with and
 * without JavaScript; the store's navigation follows at once.
 */

function row(page: Page, name: string) {
  return page.getByTestId("category-row").filter({ has: page.getByRole("heading", { name, exact: true }) });
}

function storeNav(page: Page) {
  return page.getByRole("navigation", { name: "Categories", exact: true });
}

test.describe("Category Manager", () => {
  test("an admin creates, edits and deletes a category; the store header follows", async ({ page, jsEnabled }) => {
    const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const nameEn = `Night Ops ${suffix}`;
    const nameZh = `夜戰裝備${suffix}`;
    const slug = `night-ops-${suffix}`;
    await signInAsAdmin(page, "admin");

    // The admin menu leads there, beside Products.
    const menu = page.getByRole("navigation", { name: "Admin menu", exact: true });
    await menu.getByRole("link", { name: "Categories", exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/categories$/);
    await expect(page.getByRole("heading", { level: 1, name: "Category Manager" })).toBeVisible();
    await expect(menu.getByRole("link", { name: "Categories", exact: true })).toHaveAttribute("aria-current", "page");
    await page.getByRole("link", { name: "Add Category" }).click();
    await expect(page.getByRole("heading", { name: "Add New Category" })).toBeVisible();
    const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Create" }) });

    // Both names are required.
    await form.getByRole("button", { name: "Create" }).click();
    await expect(form.getByText("English name is required")).toBeVisible();
    await expect(form.getByText("Chinese name is required")).toBeVisible();

    // An invalid image is refused next to the field; the typed values stay.
    await form.getByLabel("English Name").fill(nameEn);
    await form.getByLabel("Chinese Name").fill(nameZh);
    await form.getByLabel("English Description").fill("Gear for night games.");
    await form.getByLabel("Sort Order").fill("-100");
    await expect(form.getByLabel("Active")).toBeChecked();
    await form.getByLabel("Category Image").setInputFiles(receiptTextAsPng());
    await form.getByRole("button", { name: "Create" }).click();
    await expect(form.getByText("Invalid file type. Please upload a JPG, PNG or WebP image.")).toBeVisible();
    await expect(form.getByLabel("English Name")).toHaveValue(nameEn);
    await expect(form.getByLabel("Chinese Name")).toHaveValue(nameZh);

    await form.getByLabel("Category Image").setInputFiles(await receiptJpeg("night.jpg"));
    await form.getByRole("button", { name: "Create" }).click();
    await expect(page).toHaveURL(/\/admin\/categories$/);
    await expect(page.getByRole("status").filter({ hasText: "Category created successfully" })).toBeVisible();
    const created = row(page, nameEn);
    await expect(created).toContainText(nameZh);
    await expect(created).toContainText("Active");
    await expect(created).toContainText("Gear for night games.");
    await expect(created).toContainText(/\/uploads\/categories\/[\w-]+\.webp/);
    const imageUrl = (await created.getByText(/\/uploads\/categories\//).textContent())?.trim() ?? "";

    // The store's navigation shows the new active category at once.
    await page.goto("/");
    await expect(storeNav(page).getByRole("link", { name: nameEn })).toHaveAttribute("href", `/category/${slug}`);

    // Edit: rename and deactivate; the image and the address stay.
    const renamed = `${nameEn} Pro`;
    await page.goto("/admin/categories");
    await page.getByRole("link", { name: `Edit ${nameEn}` }).click();
    await expect(page.getByRole("heading", { name: "Edit Category" })).toBeVisible();
    const editForm = page.locator("form").filter({ has: page.getByRole("button", { name: "Update" }) });
    await expect(editForm.getByLabel("English Name")).toHaveValue(nameEn);
    await editForm.getByLabel("English Name").fill(renamed);
    await editForm.getByLabel("Active").uncheck();
    await editForm.getByRole("button", { name: "Update" }).click();
    await expect(page).toHaveURL(/\/admin\/categories$/);
    await expect(page.getByRole("status").filter({ hasText: "Category updated successfully" })).toBeVisible();
    const edited = row(page, renamed);
    await expect(edited).toContainText("Inactive");
    await expect(edited).toContainText(imageUrl);
    await expect(edited).toContainText(`/category/${slug}`);
    await page.goto("/");
    await expect(storeNav(page).getByRole("link", { name: renamed })).toHaveCount(0);

    // Delete, after a confirmation (with JavaScript, once React handles the button: before that it
    // is the no-JS confirmation page's link).
    await page.goto("/admin/categories");
    if (jsEnabled) {
      await waitForReact(page);
      page.once("dialog", async (dialog) => {
        expect(dialog.message()).toBe("Are you sure you want to delete this category?");
        await dialog.accept();
      });
      await page.getByRole("button", { name: `Delete ${renamed}` }).click();
    } else {
      await page.getByRole("button", { name: `Delete ${renamed}` }).click();
      await expect(page).toHaveURL(/\/admin\/categories\?delete=\d+$/);
      await expect(page.getByRole("heading", { name: "Are you sure you want to delete this category?" })).toBeVisible();
      await page.getByRole("button", { name: "Yes, delete" }).click();
    }
    await expect(page).toHaveURL(/\/admin\/categories$/);
    await expect(page.getByRole("status").filter({ hasText: "Category deleted successfully" })).toBeVisible();
    await expect(row(page, renamed)).toHaveCount(0);
  });

  test("a category products still use cannot be deleted", async ({ page, jsEnabled }) => {
    await signInAsAdmin(page, "admin");
    await page.goto("/admin/categories");
    if (jsEnabled) await waitForReact(page);
    // The demo catalogue's first category has products.
    const first = page.getByTestId("category-row").filter({ hasNotText: "Products: 0" }).first();
    const name = (await first.getByRole("heading").textContent())?.trim() ?? "";
    if (jsEnabled) page.once("dialog", (dialog) => dialog.accept());
    await page.getByRole("button", { name: `Delete ${name}`, exact: true }).click();
    if (!jsEnabled) await page.getByRole("button", { name: "Yes, delete" }).click();
    await expect(page.getByRole("alert")).toContainText("Failed to delete category");
    await expect(page.getByRole("alert")).toContainText("Move them to another category first");
    await page.goto("/admin/categories");
    await expect(row(page, name)).toHaveCount(1);
  });
});
