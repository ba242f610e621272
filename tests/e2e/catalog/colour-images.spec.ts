import type { Page } from "@playwright/test";
import { expect, openPage, productIdByName, signInAsAdmin, solidPng, test } from "../fixtures";

/**
 * Images per colour (docs/decisions/035), one journey with JavaScript on and off: an admin makes
 * a product in Black and Tan with one image each and tags them; a shopper chooses Tan from the
 * colour links and sees Tan's image as the gallery's main image, with Tan chosen in the Add to
 * Cart form. With JavaScript the link switches the gallery in place; without, the server renders
 * the page for `?colour=Tan`.
 */

function productForm(page: Page) {
  return page.locator("form").filter({ has: page.getByRole("button", { name: "Add colour", exact: true }) });
}

test("a shopper who chooses the second colour sees its image first", async ({ page, context, jsEnabled }, testInfo) => {
  test.setTimeout(90_000);
  const name = `Colour Photos ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}-${testInfo.project.name}`;
  await signInAsAdmin(page, "colour-images");

  await test.step("the admin makes a product in two colours and tags an image for each", async () => {
    await openPage(page, "/admin/products/new", jsEnabled);
    const form = productForm(page);
    await form.getByLabel("English Name", { exact: true }).fill(name);
    await form.getByLabel("Chinese Name", { exact: true }).fill("顏色相片測試");
    await form.getByLabel("Price (HKD)", { exact: true }).fill("100.00");
    await form.getByLabel("Stock", { exact: true }).fill("3");
    await form.getByRole("button", { name: "Add colour", exact: true }).click();
    await expect(form.getByLabel("Colour", { exact: true })).toHaveCount(1);
    await form.getByLabel("Colour", { exact: true }).fill("Black");
    await form.getByRole("button", { name: "Add colour", exact: true }).click();
    await expect(form.getByLabel("Colour", { exact: true })).toHaveCount(2);
    await form.getByLabel("Colour", { exact: true }).nth(1).fill("Tan");
    await form.getByLabel("Stock", { exact: true }).nth(1).fill("2");
    await form
      .getByLabel("Add images", { exact: true })
      .setInputFiles([
        await solidPng("black.png", { r: 10, g: 10, b: 10 }, 320),
        await solidPng("tan.png", { r: 210, g: 180, b: 140 }, 320),
      ]);
    await form.getByRole("button", { name: "Save", exact: true }).last().click();
    await expect(page).toHaveURL(/\/admin\/products$/);

    const id = await productIdByName(page.request, name);
    await openPage(page, `/admin/products/edit/${id}`, jsEnabled);
    const edit = productForm(page);
    await edit.getByLabel("Colour of image 1", { exact: true }).selectOption({ label: "Black" });
    await edit.getByLabel("Colour of image 2", { exact: true }).selectOption({ label: "Tan" });
    await edit.getByRole("button", { name: "Save", exact: true }).last().click();
    await expect(page).toHaveURL(/\/admin\/products$/);
  });

  const id = await productIdByName(page.request, name);
  await openPage(page, `/admin/products/edit/${id}`, jsEnabled);
  const edit = productForm(page);
  await expect(edit.getByLabel("Colour of image 2", { exact: true })).toHaveValue("Tan");
  const blackSrc = await edit.getByRole("img", { name: "Product image 1" }).getAttribute("src");
  const tanSrc = await edit.getByRole("img", { name: "Product image 2" }).getAttribute("src");
  expect(blackSrc).toBeTruthy();
  expect(tanSrc).not.toBe(blackSrc);

  await test.step("a shopper on a phone chooses Tan and sees Tan's image", async () => {
    // An anonymous shopper: the page cache (decision 032) keeps pages by address, ?colour= included.
    await context.clearCookies();
    await page.setViewportSize({ width: 375, height: 800 });
    await openPage(page, `/product/${id}`, jsEnabled);
    const gallery = page.getByRole("region", { name: "Product images" });
    const main = gallery.getByRole("img", { name });
    await expect(main).toHaveAttribute("src", blackSrc ?? "");
    const colours = page.getByRole("navigation", { name: "Photos by colour" });
    await expect(colours.getByRole("link", { name: "Black" })).toHaveAttribute("aria-current", "true");

    // With JavaScript the page is not loaded again: a mark left on the window stays.
    if (jsEnabled) await page.evaluate(() => Object.assign(window, { colourMark: 1 }));
    await colours.getByRole("link", { name: "Tan" }).click();
    await expect(page).toHaveURL(new RegExp(`/product/${id}\\?colour=Tan$`));
    await expect(main).toHaveAttribute("src", tanSrc ?? "");
    await expect(colours.getByRole("link", { name: "Tan" })).toHaveAttribute("aria-current", "true");
    await expect(colours.getByRole("link", { name: "Black" })).not.toHaveAttribute("aria-current", "true");
    await expect(page.locator("main input[type=radio][name=color][value=Tan]")).toBeChecked();
    await expect(page.getByTestId("stock")).toHaveText("2 in stock");
    if (jsEnabled) expect(await page.evaluate(() => "colourMark" in window)).toBe(true);

    // Back to Black by its link: the gallery and the form follow.
    await colours.getByRole("link", { name: "Black" }).click();
    await expect(main).toHaveAttribute("src", blackSrc ?? "");
    await expect(page.locator("main input[type=radio][name=color][value=Black]")).toBeChecked();
  });
});
