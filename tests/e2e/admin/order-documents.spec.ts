import type { Page } from "@playwright/test";
import { extractText } from "unpdf";
import { htmlErrors, seriousViolations } from "../a11y";
import {
  type ApiShopper,
  apiAddToCart,
  apiCheckout,
  apiOrders,
  apiPaymentKey,
  apiSubmitPayment,
  expect,
  newApiShopper,
  productIdByName,
  receiptJpeg,
  signInAsAdmin,
  shopperTest as test,
  waitForReact,
} from "../fixtures";

/**
 * Packing slips and invoices (issue 29 item 3, docs/decisions/060), with and without
 * JavaScript, on one page: an English order's packing slip printed to PDF by Chromium (one A4
 * page; on paper only the sheet, with the order number and lines and no price), its invoice's
 * total equal to the order's, a selection printed one order a page, a Chinese order's documents
 * in Chinese, and the shopper's invoice link once the order is paid.
 *
 * The PDF Chromium prints is read back with a PDF text parser (unpdf, Mozilla's pdf.js): its
 * pages and the text on each, so "no price on a packing slip" is checked on paper itself.
 */

const REVOLVER = "Six-Inch CO2 Revolver";
const BATTERY = "11.1V 1300 mAh LiPo Battery";

async function placeOrder(shopper: ApiShopper, lines: { id: number; colour: string; quantity: number }[]) {
  for (const line of lines) await apiAddToCart(shopper.request, line.id, line.colour, line.quantity);
  await apiCheckout(shopper.request, shopper.email);
  const response = await apiSubmitPayment(shopper.request, await apiPaymentKey(shopper.request), await receiptJpeg());
  expect(response.status()).toBe(302);
  const [order] = await apiOrders(shopper.request);
  if (!order) throw new Error("the order is missing from the shopper's account");
  return order;
}

/** Prints the page to PDF as Chromium does (A4) and reads back the text of each printed page. */
async function printedPages(page: Page): Promise<string[]> {
  const pdf = await page.pdf({ format: "A4" });
  expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  const { totalPages, text } = await extractText(new Uint8Array(pdf), { mergePages: false });
  expect(text).toHaveLength(totalPages);
  return text;
}

/** No serious axe finding on the page as shown, no html-validate error in its server HTML. */
async function expectAccessible(page: Page, jsEnabled: boolean) {
  if (jsEnabled) await waitForReact(page);
  const html = await (await page.request.get(page.url())).text();
  const [violations, problems] = await Promise.all([seriousViolations(page, jsEnabled), htmlErrors(html)]);
  expect(violations, page.url()).toEqual([]);
  expect(problems, page.url()).toEqual([]);
}

/** What the paper shows: the screen toolbar hidden, every sheet visible. */
async function expectPrintsOnlySheets(page: Page, sheets: number) {
  await page.emulateMedia({ media: "print" });
  await expect(page.getByTestId("documents-toolbar")).toBeHidden();
  await expect(page.locator("article[data-document]")).toHaveCount(sheets);
  for (const sheet of await page.locator("article[data-document]").all()) await expect(sheet).toBeVisible();
  // Back to no emulation (not "screen"): page.pdf prints with print media, as a browser does.
  await page.emulateMedia({ media: null });
}

test("packing slip and invoice: printed to PDF, totals, a selection, a Chinese order, the shopper's invoice", async ({
  page,
  playwright,
  baseURL,
  jsEnabled,
}) => {
  test.setTimeout(120_000);
  const english = await newApiShopper(playwright, baseURL as string, "documents-en");
  const chinese = await newApiShopper(playwright, baseURL as string, "documents-zh");
  try {
    const revolver = await productIdByName(english.request, REVOLVER);
    const battery = await productIdByName(english.request, BATTERY);
    const order = await placeOrder(english, [
      { id: revolver, colour: "Black", quantity: 1 },
      { id: battery, colour: "Default", quantity: 2 },
    ]);
    // The Chinese shopper chose Chinese before ordering: the order's language.
    await chinese.request.post("/resources/language", { form: { language: "zh", redirectTo: "/" } });
    const chineseOrder = await placeOrder(chinese, [{ id: battery, colour: "Default", quantity: 1 }]);

    // Not paid yet: no invoice for the shopper.
    const before = await english.request.get(`/account/orders/${order.id}`);
    expect(await before.text()).not.toContain(`/account/orders/${order.id}/invoice`);
    expect((await english.request.get(`/account/orders/${order.id}/invoice`)).status()).toBe(404);

    await signInAsAdmin(page, "documents-admin");
    await page.goto(`/admin/orders/${order.id}`);
    await page.getByRole("button", { name: "Mark Paid" }).click();
    await expect(page.getByTestId("order-status").first()).toHaveText("Paid");
    const orderTotal = (await page.getByTestId("order-total").first().textContent())?.trim();
    expect(orderTotal).toMatch(/^HK\$[\d,]+\.\d{2}$/);

    // The packing slip: the order number (also as a barcode), the lines, no price; one A4 page.
    await page.getByRole("navigation", { name: "Documents" }).getByRole("link", { name: "Packing slip" }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/orders/${order.id}/packing-slip$`));
    const slip = page.locator('article[data-document="packing-slip"]');
    await expect(slip.getByTestId("document-order-number")).toHaveText(order.number);
    await expect(slip.getByRole("img", { name: order.number })).toBeVisible();
    await expect(slip.getByTestId("document-line")).toHaveCount(2);
    await expect(slip).toContainText(REVOLVER);
    await expect(slip).toContainText(BATTERY);
    await expect(slip).toContainText("3 items");
    expect(await slip.innerText()).not.toMatch(/HK\$|\d\.\d\d/);
    await expect(page.getByTestId("print-button")).toHaveCount(jsEnabled ? 1 : 0);
    await expect(page.getByText(/Print with your browser/)).toBeVisible();
    await expectPrintsOnlySheets(page, 1);
    // On paper: one A4 page with the order number and both lines, and no price or amount.
    const [slipPaper, ...noMore] = await printedPages(page);
    expect(noMore).toEqual([]);
    expect(slipPaper).toContain(order.number);
    expect(slipPaper).toContain(REVOLVER);
    expect(slipPaper).toContain(BATTERY);
    expect(slipPaper).not.toMatch(/HK\$|\d\.\d\d/);
    await expectAccessible(page, jsEnabled);

    // The invoice: numbered by the order, its total the order's.
    // Back to the order (the toolbar's link), then its invoice (with JavaScript, both client-side).
    await page.getByRole("link", { name: "← Back to the order" }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/orders/${order.id}$`));
    await page.getByRole("navigation", { name: "Documents" }).getByRole("link", { name: "Invoice" }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/orders/${order.id}/invoice$`));
    const invoice = page.locator('article[data-document="invoice"]');
    await expect(invoice.getByTestId("document-order-number")).toHaveText(order.number);
    await expect(invoice.getByTestId("invoice-total")).toHaveText(orderTotal ?? "");
    // On paper too: the invoice's number and the order's total.
    const [invoicePaper] = await printedPages(page);
    expect(invoicePaper).toContain(order.number);
    expect(invoicePaper).toContain(orderTotal ?? "?");
    await expect(invoice.getByTestId("invoice-paid")).toContainText("Paid on");
    await expect(invoice).toContainText("Bank transfer / FPS");
    await expectAccessible(page, jsEnabled);

    // A selection (as the orders list sends it): one sheet a page, an unknown id named, not printed.
    const unknown = "00000000-0000-4000-8000-000000000000";
    await page.goto(`/admin/orders/print?doc=packing-slip&id=${order.id}&id=${chineseOrder.id}&id=${unknown}`);
    await expect(page.getByTestId("documents-missing")).toContainText(unknown);
    await expectPrintsOnlySheets(page, 2);
    // One order a page, in the order they were sent; the unknown id nowhere on paper.
    const selection = await printedPages(page);
    expect(selection).toHaveLength(2);
    expect(selection[0]).toContain(order.number);
    expect(selection[1]).toContain(chineseOrder.number);
    expect(selection.join("\n")).not.toContain(unknown);
    await expectAccessible(page, jsEnabled);

    // The Chinese order's documents are Chinese, read by an English admin.
    await page.goto(`/admin/orders/${chineseOrder.id}/invoice`);
    const chineseInvoice = page.locator('article[data-document="invoice"]');
    await expect(chineseInvoice).toHaveAttribute("lang", "zh-Hant-HK");
    await expect(chineseInvoice.getByRole("heading", { level: 1 })).toHaveText("發票");
    await expect(chineseInvoice).toContainText("11.1V 1300 mAh 鋰電池");
    await expect(chineseInvoice).toContainText("尚未付款");
    await expect(page.getByRole("link", { name: "← Back to the order" })).toBeVisible();

    // Paid: the shopper's order page links their invoice, which is theirs alone.
    const after = await english.request.get(`/account/orders/${order.id}`);
    expect(await after.text()).toContain(`href="/account/orders/${order.id}/invoice"`);
    const own = await english.request.get(`/account/orders/${order.id}/invoice`);
    expect(own.status()).toBe(200);
    const ownHtml = await own.text();
    expect(ownHtml).toContain(order.number);
    expect(ownHtml).toContain(orderTotal ?? "");
    expect((await chinese.request.get(`/account/orders/${order.id}/invoice`)).status()).toBe(404);
  } finally {
    await english.dispose();
    await chinese.dispose();
  }
});
