import type { Page } from "@playwright/test";
import {
  expect,
  newApiShopper,
  productIdByName,
  setLanguage,
  signInAsAdmin,
  shopperTest as test,
  type UploadFile,
  waitForReact,
} from "../fixtures";

/**
 * The admin product form (/admin/products/new and /admin/products/edit/:id) end to end: an
 * admin creates a product with two colours and two images, the store shows it at once (category,
 * search in both languages, product page), an edit to zero stock makes it "Out of Stock", and a
 * customer's direct post to the form is refused. Each run makes its own product, so the seeded
 * catalogue stays as it is.
 */

const ZH_DIGITS = "零一二三四五六七八九";

/** A unique name per run: an ASCII tag for English, the same digits as Chinese numerals. */
function uniqueNames(project: string) {
  const digits = `${Date.now()}${Math.floor(Math.random() * 1e6)
    .toString()
    .padStart(6, "0")}`;
  const zhTag = [...digits].map((digit) => ZH_DIGITS[Number(digit)]).join("");
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  return { tag, zhTag, en: `Flow Rifle ${tag}-${project}`, zh: `流程測試步槍${zhTag}` };
}

/** A small real image made with sharp. */
async function image(name: string, format: "png" | "jpeg", colour: { r: number; g: number; b: number }) {
  const { default: sharp } = await import("sharp");
  const base = sharp({ create: { width: 320, height: 320, channels: 3, background: colour } });
  const buffer = format === "png" ? await base.png().toBuffer() : await base.jpeg({ quality: 85 }).toBuffer();
  return { name, mimeType: `image/${format}`, buffer } satisfies UploadFile;
}

async function open(page: Page, url: string, jsEnabled: boolean): Promise<void> {
  await page.goto(url);
  if (jsEnabled) await waitForReact(page);
}

function productForm(page: Page) {
  return page.locator("form").filter({ has: page.getByRole("button", { name: "Add colour", exact: true }) });
}

/** The store's product card with this exact name. */
function card(page: Page, name: string) {
  return page.locator("main article").filter({ has: page.getByRole("heading", { name, exact: true }) });
}

test.describe("admin product form", () => {
  test("creates a product the store shows at once, then sells it out", async ({
    page,
    context,
    baseURL,
    jsEnabled,
  }, testInfo) => {
    test.setTimeout(90_000);
    const name = uniqueNames(testInfo.project.name);
    await signInAsAdmin(page, "flow-admin");

    await test.step("create with two colours and two images", async () => {
      await open(page, "/admin/products/new", jsEnabled);
      await expect(page.getByRole("heading", { level: 1, name: "New Product" })).toBeVisible();
      const form = productForm(page);
      await form.getByLabel("English Name", { exact: true }).fill(name.en);
      await form.getByLabel("Chinese Name", { exact: true }).fill(name.zh);
      await form.getByLabel("English Description", { exact: true }).fill("A rifle made by the product-flow test.");
      await form.getByLabel("Chinese Description", { exact: true }).fill("流程測試建立的步槍。");
      await form.getByLabel("Price (HKD)", { exact: true }).fill("888.00");
      await form.getByLabel("Category", { exact: true }).selectOption({ label: "Rifles / 長槍" });
      // A new product starts without colour rows: the plain Stock field becomes the first row's stock.
      await form.getByLabel("Stock", { exact: true }).fill("3");

      await form.getByRole("button", { name: "Add colour", exact: true }).click();
      await expect(form.getByLabel("Colour", { exact: true })).toHaveCount(1);
      // The form intent re-renders the page with what was typed.
      await expect(form.getByLabel("English Name", { exact: true })).toHaveValue(name.en);
      await expect(form.getByLabel("Chinese Name", { exact: true })).toHaveValue(name.zh);
      await expect(form.getByLabel("Price (HKD)", { exact: true })).toHaveValue("888.00");
      await expect(form.getByLabel("Stock", { exact: true })).toHaveValue("3");
      await form.getByLabel("Colour", { exact: true }).fill("Black");

      await form.getByRole("button", { name: "Add colour", exact: true }).click();
      await expect(form.getByLabel("Colour", { exact: true })).toHaveCount(2);
      await expect(form.getByLabel("English Name", { exact: true })).toHaveValue(name.en);
      await expect(form.getByLabel("Colour", { exact: true }).nth(0)).toHaveValue("Black");
      await expect(form.getByLabel("Stock", { exact: true }).nth(0)).toHaveValue("3");
      // The total follows the rows as last rendered: Black 3 and the new row's 0.
      await expect(form.getByText("Total stock: 3")).toBeVisible();
      await form.getByLabel("Colour", { exact: true }).nth(1).fill("Tan");
      await form.getByLabel("Stock", { exact: true }).nth(1).fill("2");

      await form
        .getByLabel("Add images", { exact: true })
        .setInputFiles([
          await image("front.png", "png", { r: 40, g: 60, b: 30 }),
          await image("side.jpg", "jpeg", { r: 150, g: 120, b: 80 }),
        ]);
      // The visible Save (a hidden one first makes Enter save).
      await form.getByRole("button", { name: "Save", exact: true }).last().click();
      await expect(page).toHaveURL(/\/admin\/products$/);
      await expect(page.getByRole("status").filter({ hasText: "Product created successfully" })).toBeVisible();
    });

    const id = await productIdByName(page.request, name.en);

    await test.step("the store shows it at once", async () => {
      await open(page, "/category/rifles?sort=newest", jsEnabled);
      await expect(card(page, name.en)).toBeVisible();
      await expect(card(page, name.en).locator("[data-price]")).toHaveText("HK$888.00");

      await open(page, `/search?q=${encodeURIComponent(name.tag)}`, jsEnabled);
      await expect(card(page, name.en)).toBeVisible();
      await expect(page.locator("main article")).toHaveCount(1);

      await setLanguage(context, baseURL ?? "", "zh");
      await open(page, `/search?q=${encodeURIComponent(name.zhTag)}`, jsEnabled);
      await expect(card(page, name.zh)).toBeVisible();
      await expect(page.locator("main article")).toHaveCount(1);
      await setLanguage(context, baseURL ?? "", "en");

      await open(page, `/product/${id}`, jsEnabled);
      await expect(page.getByRole("heading", { level: 1, name: name.en })).toBeVisible();
      await expect(page.locator("main [data-price]").first()).toHaveText("HK$888.00");
      const colours = page.locator("main input[type=radio][name=color]");
      await expect(colours).toHaveCount(2);
      await expect(colours.nth(0)).toHaveValue("Black");
      await expect(colours.nth(1)).toHaveValue("Tan");
      await expect(colours.nth(0)).toBeChecked();
      await expect(page.getByTestId("image-counter")).toHaveText("1 / 2");
      await expect(page.getByRole("link", { name: "Show image 2" })).toHaveCount(1);
      await expect(page.getByTestId("stock")).toHaveText("3 in stock");
      // The product's own form (the related products' cards have Add to Cart buttons too).
      await expect(
        page
          .locator("main form")
          .filter({ has: page.locator("#quantity") })
          .getByRole("button", { name: "Add to Cart" }),
      ).toBeEnabled();
    });

    await test.step("an edit to zero stock sells it out", async () => {
      await open(page, `/admin/products/edit/${id}`, jsEnabled);
      await expect(page.getByRole("heading", { level: 1, name: "Edit Product" })).toBeVisible();
      const form = productForm(page);
      await expect(form.getByLabel("English Name", { exact: true })).toHaveValue(name.en);
      await expect(form.getByLabel("Colour", { exact: true })).toHaveCount(2);
      await expect(form.getByRole("img", { name: /^Product image \d$/ })).toHaveCount(2);
      await form.getByLabel("Stock", { exact: true }).nth(0).fill("0");
      await form.getByLabel("Stock", { exact: true }).nth(1).fill("0");
      await form.getByRole("button", { name: "Save", exact: true }).last().click();
      await expect(page).toHaveURL(/\/admin\/products$/);
      await expect(page.getByRole("status").filter({ hasText: "Product updated successfully" })).toBeVisible();

      await open(page, `/product/${id}`, jsEnabled);
      await expect(page.getByTestId("stock")).toHaveText("Sold out");
      // The product's own form (the related products' cards have forms too).
      const buy = page
        .locator("main form")
        .filter({ has: page.locator("#quantity") })
        .locator("button[type=submit]");
      await expect(buy).toHaveText("Out of Stock");
      await expect(buy).toBeDisabled();
      await expect(
        page
          .locator("main form")
          .filter({ has: page.locator("#quantity") })
          .getByRole("button", { name: "Add to Cart" }),
      ).toHaveCount(0);
      // The images and colours are kept.
      await expect(page.getByTestId("image-counter")).toHaveText("1 / 2");
      await expect(page.locator("main input[type=radio][name=color]")).toHaveCount(2);

      await open(page, "/category/rifles?sort=newest", jsEnabled);
      const listed = card(page, name.en);
      await expect(listed.locator("p", { hasText: "Out of Stock" })).toBeVisible();
      // The card's button is named by its text and described by the card's title (decision 068).
      const soldOut = listed.getByRole("button", { name: "Out of Stock", exact: true });
      await expect(soldOut).toBeDisabled();
      await expect(soldOut).toHaveAccessibleDescription(name.en);
    });
  });

  test("images chosen before 'Add colour' are saved with the product, with and without JavaScript", async ({
    page,
    jsEnabled,
  }, testInfo) => {
    test.setTimeout(90_000);
    const name = uniqueNames(`${testInfo.project.name}-kept`);
    await signInAsAdmin(page, "kept-images-admin");
    await open(page, "/admin/products/new", jsEnabled);
    const form = productForm(page);
    await form.getByLabel("English Name", { exact: true }).fill(name.en);
    await form.getByLabel("Chinese Name", { exact: true }).fill(name.zh);
    await form.getByLabel("Price (HKD)", { exact: true }).fill("120");
    const picker = form.getByLabel("Add images", { exact: true });
    const hint = form.locator("#product-newImages-hint");
    await expect(hint).toContainText("You can add up to 5 more images.");
    await picker.setInputFiles([
      await image("red.png", "png", { r: 220, g: 20, b: 20 }),
      await image("green.png", "png", { r: 20, g: 200, b: 20 }),
    ]);
    // With JavaScript the hint counts the chosen files; without, it says what is true either way.
    await expect(hint).toContainText(jsEnabled ? "2 images chosen (room for 5)." : "You can add up to 5 more images.");

    await form.getByRole("button", { name: "Add colour", exact: true }).click();
    await form.getByLabel("Colour", { exact: true }).fill("Black");
    const kept = form.getByTestId("kept-images");
    if (jsEnabled) {
      // The colour row was added in the page: the file input still holds both files.
      await expect(kept).toHaveCount(0);
      await expect(hint).toContainText("2 images chosen (room for 5).");
    } else {
      // The page came back from the server, which kept the two files for the save.
      await expect(kept.getByRole("img")).toHaveCount(2);
      await expect(kept.getByRole("img", { name: "Kept image 1: red.png" })).toBeVisible();
      await expect(kept.getByRole("img", { name: "Kept image 2: green.png" })).toBeVisible();
      await expect(hint).toContainText("You can add up to 3 more images.");
      // A third one chosen now is kept too, after them; one of the kept ones can be left out.
      await picker.setInputFiles([await image("blue.png", "png", { r: 20, g: 20, b: 220 })]);
      await form.getByRole("button", { name: "Add colour", exact: true }).click();
      await expect(kept.getByRole("img")).toHaveCount(3);
      await expect(hint).toContainText("You can add up to 2 more images.");
      await kept.getByRole("checkbox", { name: "Leave out green.png" }).check();
      await form.getByLabel("Colour", { exact: true }).nth(1).fill("Tan");
    }
    await form.getByRole("button", { name: "Save", exact: true }).last().click();
    await expect(page).toHaveURL(/\/admin\/products$/);
    await expect(page.getByRole("status").filter({ hasText: "Product created successfully" })).toBeVisible();

    // The saved images, in order, told apart by their colour.
    const id = await productIdByName(page.request, name.en);
    await open(page, `/admin/products/edit/${id}`, jsEnabled);
    const saved = productForm(page).getByRole("img", { name: /^Product image \d$/ });
    const colours: string[] = [];
    for (const src of await saved.evaluateAll((images) => images.map((img) => img.getAttribute("src") ?? ""))) {
      const { default: sharp } = await import("sharp");
      const { dominant } = await sharp(await (await page.request.get(src)).body()).stats();
      colours.push(dominant.r > 150 ? "red" : dominant.g > 150 ? "green" : dominant.b > 150 ? "blue" : "other");
    }
    expect(colours).toEqual(jsEnabled ? ["red", "green"] : ["red", "blue"]);
  });

  test("a customer's direct post to the form is refused", async ({
    page,
    playwright,
    baseURL,
    jsEnabled,
  }, testInfo) => {
    const name = uniqueNames(testInfo.project.name);
    const customer = await newApiShopper(playwright, baseURL ?? "", "flow-customer");
    try {
      const multipart = await customer.request.post("/admin/products/new", {
        multipart: {
          intent: "save",
          name_en: name.en,
          name_zh: name.zh,
          description_en: "Should never exist.",
          description_zh: "不應存在。",
          price_hkd: "888.00",
          category_id: "",
          stock: "3",
          newImages: await image("front.png", "png", { r: 10, g: 10, b: 10 }),
        },
        maxRedirects: 0,
      });
      expect(multipart.status()).toBe(403);
      const urlencoded = await customer.request.post("/admin/products/new", {
        form: { intent: "save", name_en: name.en, name_zh: name.zh, price_hkd: "888.00", stock: "3" },
        maxRedirects: 0,
      });
      expect(urlencoded.status()).toBe(403);
    } finally {
      await customer.dispose();
    }

    await open(page, `/search?q=${encodeURIComponent(name.tag)}`, jsEnabled);
    await expect(page.getByText("No products found.")).toBeVisible();
    await expect(card(page, name.en)).toHaveCount(0);
  });
});
