import path from "node:path";
import type { Page } from "@playwright/test";
import Database from "better-sqlite3";
import { CJK, expect, mainServerPaths, signInAsAdmin, shopperTest as test, waitForReact } from "../fixtures";

/**
 * The admin product list (/admin/products): list, search, category filter, the inline
 * category change and delete with its confirmation, with JavaScript on (auto-submit,
 * confirm()) and off (Save button, the ?delete= step). Products the tests change are their
 * own, written straight into the main server's database, so the seeded catalogue other specs
 * rely on stays as it is.
 */

function uniqueName(prefix: string): { en: string; zh: string } {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  return { en: `${prefix} ${tag}`, zh: `測試產品 ${tag}` };
}

/** Inserts a product (in Rifles) with colour variants; returns its id. */
function insertProduct(name: { en: string; zh: string }, variants: { color: string; stock: number }[]): number {
  const db = new Database(path.join(mainServerPaths().data, "shop.db"));
  try {
    db.pragma("busy_timeout = 10000");
    const category = db.prepare("SELECT id FROM categories WHERE slug = 'rifles'").get() as { id: number };
    const at = new Date().toISOString();
    const info = db
      .prepare(
        `INSERT INTO products (category_id, name_en, name_zh, description_en, description_zh, price_hkd_cents,
           price_gbp_cents, price_eur_cents, price_usd_cents, is_featured, created_at, updated_at)
         VALUES (?, ?, ?, '', '', 123400, 12399, 14599, 15899, 1, ?, ?)`,
      )
      .run(category.id, name.en, name.zh, at, at);
    const id = Number(info.lastInsertRowid);
    const addVariant = db.prepare(
      "INSERT INTO product_variants (product_id, color, stock, sort_order) VALUES (?, ?, ?, ?)",
    );
    variants.forEach((variant, i) => {
      addVariant.run(id, variant.color, variant.stock, i);
    });
    return id;
  } finally {
    db.close();
  }
}

function row(page: Page, id: number) {
  return page.locator(`tr[data-product-id="${id}"]`);
}

async function open(page: Page, url: string, jsEnabled: boolean): Promise<void> {
  await page.goto(url);
  if (jsEnabled) await waitForReact(page);
}

test.describe("admin product list", () => {
  test("lists, searches and filters products", async ({ page, jsEnabled }) => {
    const name = uniqueName("Listed Carbine");
    const id = insertProduct(name, [
      { color: "Black", stock: 0 },
      { color: "Tan", stock: 4 },
      { color: "Olive Drab", stock: 3 },
      { color: "Grey", stock: 2 },
    ]);
    await signInAsAdmin(page, "products-admin");
    await open(page, "/admin/products", jsEnabled);

    await expect(page.getByRole("heading", { level: 1, name: "Products" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Manage Categories" })).toHaveAttribute("href", "/admin/categories");
    await expect(page.getByRole("link", { name: "New Product" })).toHaveAttribute("href", "/admin/products/new");
    for (const column of ["Image", "Category", "Colours & Stock", "Stock", "Featured", "Actions"]) {
      await expect(page.getByRole("columnheader", { name: column, exact: true })).toBeVisible();
    }
    // Name and price sort (decision 058): their headers are links, named with the hint.
    for (const column of ["Name", "Price"]) {
      const header = page.getByRole("columnheader", { name: new RegExp(`^${column} \\(`) });
      await expect(header).toBeVisible();
      await expect(header.getByRole("link")).toHaveAttribute("href", new RegExp(`sort=${column.toLowerCase()}`));
    }
    // Newest first: the product just added is on the first page.
    await expect(row(page, id)).toBeVisible();
    expect(await page.locator("tbody tr").count()).toBeLessThanOrEqual(20);

    await page.getByPlaceholder("Search products...").fill(name.en);
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/[?&]q=/);
    await expect(page.locator("tbody tr")).toHaveCount(1);
    const found = row(page, id);
    await expect(found.getByRole("cell", { name: name.en })).toBeVisible();
    await expect(found.getByTestId("price")).toHaveText("HK$1,234.00");
    await expect(found.getByTestId("colours")).toContainText("Tan (4)");
    await expect(found.getByTestId("colours")).toContainText("Olive Drab (3)");
    await expect(found.getByTestId("colours")).toContainText("+1 more");
    await expect(found.getByTestId("colours")).not.toContainText("Black");
    await expect(found.getByTestId("stock-badge")).toHaveText("9");
    await expect(found.getByTestId("stock-badge")).toHaveAttribute("data-level", "low");
    await expect(found.getByText("Featured", { exact: true })).toBeVisible();
    await expect(found.getByRole("link", { name: "Edit" })).toHaveAttribute("href", `/admin/products/edit/${id}`);

    // Category filter: the product is a rifle, so it is not among the pistols.
    await page.getByLabel("Category", { exact: true }).selectOption({ label: "Pistols" });
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page.getByText("No products found matching your filters")).toBeVisible();
    await page.getByLabel("Category", { exact: true }).selectOption({ label: "All Categories" });
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(row(page, id)).toBeVisible();

    // At phone width each product is a card: neither the page nor the list scrolls sideways
    // (tests/e2e/admin/phone-layout.spec.ts checks that status and actions are on screen).
    await page.setViewportSize({ width: 375, height: 800 });
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
      box: document.querySelector("[data-testid=products-table]")?.scrollWidth ?? 0,
      boxClient: document.querySelector("[data-testid=products-table]")?.clientWidth ?? 0,
    }));
    expect(widths.page).toBeLessThanOrEqual(widths.viewport);
    expect(widths.box).toBeLessThanOrEqual(widths.boxClient);
  });

  test("changes a product's category inline", async ({ page, jsEnabled }) => {
    const name = uniqueName("Moved Carbine");
    const id = insertProduct(name, [{ color: "Black", stock: 12 }]);
    await signInAsAdmin(page, "products-admin");
    const url = `/admin/products?q=${encodeURIComponent(name.en)}`;
    await open(page, url, jsEnabled);
    await expect(row(page, id).getByTestId("stock-badge")).toHaveAttribute("data-level", "high");

    const select = row(page, id).getByRole("combobox");
    await select.selectOption({ label: "Pistols" });
    // With JavaScript the change submits itself; without, the Save button does.
    if (!jsEnabled) await row(page, id).getByRole("button", { name: "Save" }).click();

    await expect(page.getByRole("status").filter({ hasText: "Product category updated successfully" })).toBeVisible();
    // Back on the same list: the search is kept.
    expect(new URL(page.url()).pathname).toBe("/admin/products");
    expect(new URL(page.url()).searchParams.get("q")).toBe(name.en);
    await expect(row(page, id).getByRole("combobox").locator("option:checked")).toHaveText("Pistols");
    await page.reload();
    await expect(row(page, id).getByRole("combobox").locator("option:checked")).toHaveText("Pistols");
  });

  test("deletes a product after confirmation", async ({ page, jsEnabled }) => {
    const name = uniqueName("Doomed Carbine");
    const id = insertProduct(name, [{ color: "Black", stock: 0 }]);
    await signInAsAdmin(page, "products-admin");
    await open(page, `/admin/products?q=${encodeURIComponent(name.en)}`, jsEnabled);
    await expect(row(page, id).getByTestId("colours")).toHaveText("Out of stock");
    await expect(row(page, id).getByTestId("stock-badge")).toHaveAttribute("data-level", "none");

    const confirmation = "Are you sure you want to delete this product? Orders that contain it are kept.";
    if (jsEnabled) {
      // Dismissing the dialog keeps the product.
      page.once("dialog", (dialog) => void dialog.dismiss());
      await row(page, id).getByRole("link", { name: "Delete" }).click();
      await expect(row(page, id)).toBeVisible();

      const message = new Promise<string>((resolve) => {
        page.once("dialog", (dialog) => {
          resolve(dialog.message());
          void dialog.accept();
        });
      });
      await row(page, id).getByRole("link", { name: "Delete" }).click();
      expect(await message).toBe(confirmation);
    } else {
      await row(page, id).getByRole("link", { name: "Delete" }).click();
      await expect(page).toHaveURL(new RegExp(`[?&]delete=${id}`));
      const step = page.getByRole("alertdialog").filter({ hasText: confirmation });
      await expect(step).toBeVisible();
      await expect(step).toContainText(name.en);
      // Cancel goes back without deleting.
      await step.getByRole("link", { name: "Cancel" }).click();
      await expect(row(page, id)).toBeVisible();
      await row(page, id).getByRole("link", { name: "Delete" }).click();
      await page
        .getByRole("alertdialog")
        .filter({ hasText: confirmation })
        .getByRole("button", { name: "Delete" })
        .click();
    }

    await expect(page.getByRole("status").filter({ hasText: "Product deleted successfully" })).toBeVisible();
    await expect(page).not.toHaveURL(/delete=/);
    await expect(page.getByText("No products found matching your filters")).toBeVisible();
  });

  test("shows the list in Chinese and searches Chinese names", async ({ page, jsEnabled, inChinese }) => {
    const name = uniqueName("Chinese Carbine");
    const id = insertProduct(name, []);
    await signInAsAdmin(page, "products-admin");
    await inChinese();
    await open(page, `/admin/products?q=${encodeURIComponent(name.zh)}`, jsEnabled);
    await expect(page.getByRole("heading", { level: 1, name: "產品" })).toBeVisible();
    await expect(page.getByRole("link", { name: "新增產品" })).toBeVisible();
    await expect(row(page, id).getByRole("cell", { name: name.zh })).toBeVisible();
    await expect(row(page, id).getByTestId("colours")).toHaveText("沒有顏色");
    await expect(row(page, id).getByRole("combobox").locator("option:checked")).toHaveText(CJK);
    await expect(page.getByRole("columnheader", { name: "操作" })).toBeVisible();
  });
});
