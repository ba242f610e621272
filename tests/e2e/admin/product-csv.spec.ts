import fs from "node:fs";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { expect, productIdByName, signInAsAdmin, test } from "../fixtures";

/**
 * Product CSV export and import (issue 19, docs/decisions/036), without JavaScript: the admin
 * downloads the export, changes one price in it, uploads it, sees "1 product will be updated"
 * in the preview, confirms, and the store shows the new price. The uploaded file keeps only the
 * test's own product: the shared shop's other products belong to other tests running alongside.
 */
test.describe("product CSV", () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled !== false, "the JavaScript-off journey");

  test("export, edit one price, preview, confirm", async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    const name = `CSV Rifle ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    await signInAsAdmin(page, "csv-admin");

    await page.goto("/admin/products/new");
    const form = page.locator("form").filter({ has: page.locator("#product-price_hkd") });
    await form.getByLabel("English Name", { exact: true }).fill(name);
    await form.getByLabel("Chinese Name", { exact: true }).fill('匯入測試步槍，"特別版"');
    await form.getByLabel("Price (HKD)", { exact: true }).fill("500");
    await form.getByLabel("Stock", { exact: true }).fill("3");
    await form.getByRole("button", { name: "Save", exact: true }).last().click();
    await expect(page).toHaveURL(/\/admin\/products$/);
    const id = await productIdByName(page.request, name);

    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^products-\d{4}-\d{2}-\d{2}\.csv$/);
    const exported = fs.readFileSync((await download.path()) ?? "");
    const rows: Record<string, string>[] = parse(exported, { bom: true, columns: true });
    const mine = rows.filter((row) => row.product_id === String(id));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ price_hkd: "500.00", price_gbp: "", stock: "3" });
    const edited = stringify(
      mine.map((row) => ({ ...row, price_hkd: "612.50" })),
      { bom: true, header: true, record_delimiter: "\r\n" },
    );

    await page.getByRole("link", { name: "Import CSV" }).click();
    await expect(page.getByRole("heading", { name: "Import products" })).toBeVisible();
    await page.getByLabel("CSV file").setInputFiles({
      name: "products.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(edited),
    });
    await page.getByRole("button", { name: "Preview import" }).click();
    const preview = page.getByTestId("import-preview");
    await expect(preview).toContainText("1 product will be updated");
    await expect(preview).toContainText("0 products will be created");
    await expect(preview).toContainText("Images are not imported");
    await preview.getByRole("button", { name: "Confirm import" }).click();
    await expect(page).toHaveURL(/\/admin\/products$/);
    await expect(page.getByText("Import done: 0 created, 1 updated, 0 unchanged.")).toBeVisible();

    await page.goto(`/product/${id}`);
    await expect(page.locator("main [data-price]").first()).toContainText("612.50");
    testInfo.annotations.push({ type: "product", description: String(id) });
  });
});
