import type { Locator, Page } from "@playwright/test";
import {
  CHECKOUT_DETAILS,
  colourStocks,
  expect,
  productIdByName,
  receiptJpeg,
  receiptTextAsPng,
  submitAuthForm,
  shopperTest as test,
  uniqueEmail,
  uniquePassword,
  waitForReact,
} from "../fixtures";

/**
 * The whole purchase in English, as a shopper does it: product page → cart → checkout (signed
 * out, then signed up on the way) → bank-transfer payment with a receipt → confirmation → the
 * order in the account. Each project buys its own product (the server's database is shared
 * with the other specs), and stock is checked relative to what the product page showed before.
 */
const PRODUCT: Record<string, string> = {
  js: "Compact Red Dot Sight 1x22",
  "no-js": "Mesh Lower Face Mask",
};

/** "HK$1,234.50" → 123450; "Free" → 0. */
function cents(text: string | null): number {
  const value = (text ?? "").trim();
  if (value === "Free") return 0;
  const digits = value.replace(/[^\d.]/g, "");
  if (!/^\d+\.\d{2}$/.test(digits)) throw new Error(`not an amount: ${JSON.stringify(value)}`);
  return Math.round(Number(digits) * 100);
}

function productForm(page: Page): Locator {
  return page.locator("main form").filter({ has: page.locator("input[name=productId]") });
}

async function chooseColour(page: Page, colour: string): Promise<void> {
  const selector = `input[type=radio][name=color][value="${colour}"]`;
  await productForm(page)
    .locator("label")
    .filter({ has: page.locator(selector) })
    .click();
  const radio = productForm(page).locator(selector);
  await expect(radio).toBeChecked();
}

function cartLine(page: Page, colour: string): Locator {
  return page.getByTestId("cart-line").filter({ hasText: `Colour: ${colour}` });
}

/** Checks the cart page adds up: unit × quantity per line, lines = subtotal, subtotal + shipping = total. */
async function expectCartAddsUp(page: Page): Promise<number> {
  const lines = await page.getByTestId("cart-line").all();
  let sum = 0;
  for (const line of lines) {
    const unit = cents(
      ((await line.locator("p", { hasText: /^Price: / }).textContent()) ?? "").slice("Price: ".length),
    );
    const quantity = Number(await line.getByRole("spinbutton", { name: "Quantity" }).inputValue());
    const total = cents(await line.getByTestId("line-total").textContent());
    expect(total).toBe(unit * quantity);
    sum += total;
  }
  const subtotal = cents(await page.getByTestId("subtotal").textContent());
  const shipping = cents(await page.getByTestId("shipping").textContent());
  const total = cents(await page.getByTestId("total").textContent());
  expect(subtotal).toBe(sum);
  expect(shipping).toBe(subtotal > 100_00 ? 0 : 10_00);
  expect(total).toBe(subtotal + shipping);
  return total;
}

test.describe("purchase", () => {
  test("a shopper buys two colours, pays by bank transfer and finds the order", async ({
    page,
    browser,
    baseURL,
    jsEnabled,
  }, testInfo) => {
    test.setTimeout(120_000);
    const name = PRODUCT[testInfo.project.name];
    test.skip(!name, "runs in the js and no-js projects");
    const productId = await productIdByName(page.request, name as string);
    const before = await colourStocks(browser, baseURL as string, productId);
    const [colourA, colourB] = Object.keys(before).filter((colour) => (before[colour] ?? 0) >= 5);
    if (!colourA || !colourB) throw new Error(`${name} needs two colours with stock: ${JSON.stringify(before)}`);
    const email = uniqueEmail("buyer");
    const password = uniquePassword();

    // Product page: colour A × 2, then colour B × 1.
    await page.goto(`/product/${productId}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name as string);
    for (const [colour, quantity, lines] of [
      [colourA, 2, 1],
      [colourB, 1, 2],
    ] as const) {
      if (jsEnabled) await waitForReact(page);
      await chooseColour(page, colour);
      await productForm(page).getByRole("spinbutton", { name: "Quantity" }).fill(String(quantity));
      await productForm(page).getByRole("button", { name: "Add to Cart", exact: true }).click();
      if (jsEnabled) {
        // A fetcher: the page stays, the message shows next to the button, the badge follows.
        await expect(page.getByTestId("cart-message")).toContainText("Added to cart");
        await expect(page.getByTestId("cart-message")).toContainText(`${name} added to cart`);
      } else {
        // A plain form post: the cart redirects back here with a flash message.
        await expect(page.getByRole("status").filter({ hasText: "Added to cart" })).toBeVisible();
      }
      // With JavaScript, choosing a colour keeps it in the address (?colour=, the gallery's link).
      await expect(page).toHaveURL(new RegExp(`/product/${productId}(\\?colour=[^&]+)?$`));
      await expect(page.getByTestId("cart-count")).toHaveText(String(lines));
    }

    // Cart: two lines, nothing over stock, totals that add up; + and − change a line.
    await page.getByRole("link", { name: "Cart, 2 items" }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.getByRole("heading", { level: 1, name: "Shopping Cart" })).toBeVisible();
    await expect(page.getByTestId("cart-line")).toHaveCount(2);
    await expect(page.getByText(/Only \d+ in stock/)).toHaveCount(0);
    const quantityA = cartLine(page, colourA).getByRole("spinbutton", { name: "Quantity" });
    await expect(quantityA).toHaveValue("2");
    await expect(cartLine(page, colourB).getByRole("spinbutton", { name: "Quantity" })).toHaveValue("1");
    const firstTotal = await expectCartAddsUp(page);

    await cartLine(page, colourA).getByRole("button", { name: "Increase quantity" }).click();
    await expect(quantityA).toHaveValue("3");
    await expect(page.getByRole("status").filter({ hasText: "Cart updated" })).toBeVisible();
    const raisedTotal = await expectCartAddsUp(page);
    expect(raisedTotal).toBeGreaterThan(firstTotal);

    await cartLine(page, colourA).getByRole("button", { name: "Decrease quantity" }).click();
    await expect(quantityA).toHaveValue("2");
    const cartTotal = await expectCartAddsUp(page);
    expect(cartTotal).toBe(firstTotal);
    const cartTotalText = ((await page.getByTestId("total").textContent()) ?? "").trim();

    // Checkout while signed out: a wrong e-mail is shown next to its field, typed values stay.
    await page.getByRole("link", { name: "Proceed to Checkout" }).click();
    await expect(page).toHaveURL(/\/checkout$/);
    const form = page.locator("form#checkout");
    const field = (label: string) => form.getByLabel(label, { exact: true });
    await field("First name").fill(CHECKOUT_DETAILS.firstName);
    await field("Last name").fill(CHECKOUT_DETAILS.lastName);
    await field("E-mail").fill("buyer.example.com");
    await field("Phone (optional)").fill(CHECKOUT_DETAILS.phone);
    await field("Address").fill(CHECKOUT_DETAILS.address);
    await field("City / District").fill(CHECKOUT_DETAILS.city);
    await expect(field("Country / Region")).toHaveValue("HK");
    await form.getByRole("button", { name: "Continue to Payment" }).click();

    await expect(field("E-mail")).toHaveAttribute("aria-invalid", "true");
    const describedBy = await field("E-mail").getAttribute("aria-describedby");
    expect(describedBy).toBeTruthy();
    await expect(page.locator(`[id="${describedBy}"]`)).toHaveText("Enter a valid e-mail address");
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(field("First name")).toHaveValue(CHECKOUT_DETAILS.firstName);
    await expect(field("Last name")).toHaveValue(CHECKOUT_DETAILS.lastName);
    await expect(field("E-mail")).toHaveValue("buyer.example.com");
    await expect(field("Phone (optional)")).toHaveValue(CHECKOUT_DETAILS.phone);
    await expect(field("Address")).toHaveValue(CHECKOUT_DETAILS.address);
    await expect(field("City / District")).toHaveValue(CHECKOUT_DETAILS.city);

    await field("E-mail").fill(email);
    await form.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fcheckout$/);
    const notice = page.getByRole("status").filter({ hasText: "Authentication required" });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText("Please log in to submit your order");

    // Sign up from there: back on the checkout with the form filled in again.
    await page.locator("main").getByRole("link", { name: "Sign up", exact: true }).click();
    await expect(page).toHaveURL(/\/login\?mode=signup&redirectTo=%2Fcheckout$/);
    await submitAuthForm(page, email, password, "Sign Up");
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(page.getByRole("status").filter({ hasText: "Sign up successful" })).toBeVisible();
    await expect(field("First name")).toHaveValue(CHECKOUT_DETAILS.firstName);
    await expect(field("Last name")).toHaveValue(CHECKOUT_DETAILS.lastName);
    await expect(field("E-mail")).toHaveValue(email);
    await expect(field("Phone (optional)")).toHaveValue(CHECKOUT_DETAILS.phone);
    await expect(field("Address")).toHaveValue(CHECKOUT_DETAILS.address);
    await expect(field("City / District")).toHaveValue(CHECKOUT_DETAILS.city);
    await expect(field("Country / Region")).toHaveValue(CHECKOUT_DETAILS.country);
    // The anonymous cart came along into the new account.
    await expect(page.getByTestId("cart-count")).toHaveText("2");
    await expect(page.getByTestId("order-total")).toHaveText(cartTotalText);

    // Payment: the shop's FPS id and the amount to pay.
    await form.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page).toHaveURL(/\/payment$/);
    await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
    const account = page.getByTestId("bank-account");
    await expect(account).toContainText("FPS ID");
    await expect(account).toContainText("1648203");
    await expect(account.locator("dt:has-text('Amount to pay') + dd")).toHaveText(cartTotalText);
    await expect(page.getByTestId("order-total")).toHaveText(cartTotalText);

    // A text file renamed .png is refused by its bytes.
    const receipt = page.getByLabel("Transfer receipt");
    const submit = page.getByRole("button", { name: "Submit Payment" });
    if (jsEnabled) await waitForReact(page);
    await receipt.setInputFiles(receiptTextAsPng());
    await submit.click();
    const problem = page.getByRole("alert").filter({ hasText: "Invalid file type" });
    await expect(problem).toBeVisible();
    await expect(problem).toContainText("Please upload an image file (JPG, PNG, etc.)");
    await expect(page).toHaveURL(/\/payment$/);

    // A real JPEG goes through.
    await receipt.setInputFiles(await receiptJpeg());
    await submit.click();
    if (jsEnabled) {
      await expect(page.getByRole("heading", { name: "Payment submitted successfully!" })).toBeVisible();
      await expect(
        page.getByText("will be delivered within 48 hours after payment verification").first(),
      ).toBeVisible();
      await expect(page).toHaveURL(/\/payment-success\?order=ORD-\d{13}-[0-9A-F]{6}$/, { timeout: 6_000 });
    } else {
      await expect(page).toHaveURL(/\/payment-success\?order=ORD-\d{13}-[0-9A-F]{6}$/);
    }
    const orderNumber = new URL(page.url()).searchParams.get("order") as string;
    await expect(page.getByRole("heading", { level: 1, name: "Thank you for your order!" })).toBeVisible();
    await expect(page.getByTestId("order-number")).toHaveText(`Order number: ${orderNumber}`);
    await expect(page.locator("main")).toContainText("48 hours");
    await expect(page.getByRole("heading", { name: "What happens next" })).toBeVisible();
    await expect(page.getByTestId("cart-count")).toHaveCount(0);

    // My Orders lists it; its page shows the lines, the total and the receipt.
    await page.goto("/account/orders");
    const row = page.getByTestId("order-row").filter({ hasText: orderNumber });
    await expect(row).toHaveCount(1);
    await expect(page.getByTestId("order-row")).toHaveCount(1);
    // Paid with a receipt: the shop is checking it (issue 14), not "Awaiting payment".
    await expect(row).toContainText("Receipt in review");
    await expect(row).toContainText(cartTotalText);
    await row.getByRole("link", { name: orderNumber }).click();
    await expect(page).toHaveURL(/\/account\/orders\/[0-9a-f-]{36}$/);
    const orderPath = new URL(page.url()).pathname;
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Order ${orderNumber}`);
    await expect(page.getByTestId("order-status")).toHaveText("Receipt in review");
    const summary = page.locator("aside[aria-labelledby=order-summary-heading] ul li");
    await expect(summary).toHaveCount(2);
    await expect(summary.filter({ hasText: `${name} · ${colourA} × 2` })).toHaveCount(1);
    await expect(summary.filter({ hasText: `${name} · ${colourB} × 1` })).toHaveCount(1);
    await expect(page.getByTestId("order-total")).toHaveText(cartTotalText);

    const image = page.getByRole("img", { name: "Payment receipt" });
    await expect(image).toHaveAttribute("src", `${orderPath}/receipt`);
    await image.scrollIntoViewIfNeeded();
    await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);

    const response = await page.request.get(`${orderPath}/receipt`);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("image/jpeg");
    expect(response.headers()["cache-control"]).toBe("private, no-store");
    // The header may be sent as a list (Fetch reads its first value): every value must be nosniff.
    const nosniff = (response.headers()["x-content-type-options"] ?? "").split(",").map((value) => value.trim());
    expect(nosniff[0]).toBe("nosniff");
    expect(new Set(nosniff)).toEqual(new Set(["nosniff"]));
    const body = await response.body();
    // Receipts are stored re-encoded as JPEG (app/lib/images.server.ts).
    expect([...body.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);

    // Stock went down by exactly what was bought, colour by colour; the cart is empty.
    const after = await colourStocks(browser, baseURL as string, productId);
    expect(after[colourA]).toBe((before[colourA] ?? 0) - 2);
    expect(after[colourB]).toBe((before[colourB] ?? 0) - 1);
    for (const colour of Object.keys(before)) {
      if (colour !== colourA && colour !== colourB) expect(after[colour], colour).toBe(before[colour]);
    }
    await page.goto(`/product/${productId}`);
    await expect(page.getByTestId("cart-count")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Cart", exact: true })).toBeVisible();
  });
});
