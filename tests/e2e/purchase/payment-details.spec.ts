import type { Page } from "@playwright/test";
import { seriousViolations } from "../a11y";
import {
  apiAddToCart,
  apiCheckout,
  apiSignUp,
  expect,
  mailsTo,
  productIdByName,
  readableMail,
  receiptJpeg,
  receiptTextAsPng,
  setLanguage,
  shopperTest as test,
  uniqueEmail,
  uniquePassword,
  waitForReact,
  withLock,
} from "../fixtures";

/**
 * Issue 14: what the shopper is told to pay. FPS carries Hong Kong dollars only: an HKD order
 * gets the FPS details, a GBP order the account's international transfer details (SWIFT/BIC,
 * bank address) and no FPS id, on the payment page and in the order e-mail. The main test shop
 * runs in demo mode (PUBLIC_URL is a loopback address), so the demo account shows, marked as a
 * demo. A receipt refused as "Invalid file type" stops saying so once another file is chosen,
 * with and without JavaScript.
 */

const DEMO_FPS = "1648203";
const DEMO_SWIFT = "HSBCHKHHHKH";
const DEMO_ACCOUNT = "848-302915-838";
/** Where the shop's alerts go while the owner has set no notification address. */
const SUPPORT = "support@harbourtactical.hk";
const PRODUCT = { GBP: "G-Series Gas Blowback Pistol", HKD: "GBB Pistol Spare Magazine 25 rds" } as const;

/** A new customer (signed up, in `currency`) with one item in the cart, at the payment step. */
async function toPayment(page: Page, currency: "HKD" | "GBP"): Promise<string> {
  const email = uniqueEmail(`pay-${currency.toLowerCase()}`);
  await apiSignUp(page.request, email, uniquePassword());
  const chosen = await page.request.post("/resources/currency", {
    form: { currency, redirectTo: "/" },
    maxRedirects: 0,
  });
  expect(chosen.status()).toBe(302);
  const productId = await productIdByName(page.request, PRODUCT[currency]);
  await apiAddToCart(page.request, productId, "Black", 1);
  await apiCheckout(page.request, email);
  return email;
}

/** The order e-mail to `email`, decoded. */
async function orderMail(email: string): Promise<string> {
  let text = "";
  await expect
    .poll(
      () => {
        const mail = mailsTo(email).find(({ raw }) => readableMail(raw).includes("ORD-"));
        text = mail ? readableMail(mail.raw) : "";
        return text;
      },
      { message: `the order e-mail to ${email}`, timeout: 15_000 },
    )
    .not.toBe("");
  return text;
}

/**
 * Submits the payment form with an invalid file, then a good one: the stale error goes as soon as
 * the good one is chosen. With `submitted` and `thanks` (the confirmation's and the success page's
 * headings), the shopper sees the confirmation without scrolling, however far down the form was:
 * with JavaScript the page's own "submitted" message for the 3 s before it moves on, then the
 * success page; without, the success page the server answers with, from its top.
 */
async function payWithReceipt(
  page: Page,
  jsEnabled: boolean,
  texts: { receipt: string; submit: string; invalid: string; submitted?: string; thanks?: string },
) {
  if (jsEnabled) await waitForReact(page);
  const receipt = page.getByLabel(texts.receipt, { exact: true });
  const submit = page.getByRole("button", { name: texts.submit });
  await receipt.setInputFiles(receiptTextAsPng());
  await submit.click();
  const problem = page.getByRole("alert").filter({ hasText: texts.invalid });
  await expect(problem).toBeVisible();
  await receipt.setInputFiles(await receiptJpeg());
  await expect(problem).toBeHidden();
  await expect(page.getByText(texts.invalid)).toBeHidden();
  await submit.click();
  if (jsEnabled && texts.submitted) {
    await expect(page.getByRole("heading", { level: 1, name: texts.submitted })).toBeInViewport({ ratio: 1 });
  }
  await expect(page).toHaveURL(/\/payment-success\?order=ORD-/, { timeout: 10_000 });
  if (texts.thanks) {
    await expect(page.getByRole("heading", { level: 1, name: texts.thanks })).toBeInViewport({ ratio: 1 });
    await expect(page.getByTestId("order-number")).toBeInViewport({ ratio: 1 });
  }
}

test.describe("payment details follow the order's currency", () => {
  test("a GBP order: international transfer details with SWIFT/BIC, no FPS id, on the page and in the e-mail", async ({
    page,
    jsEnabled,
  }) => {
    test.setTimeout(90_000);
    const email = await toPayment(page, "GBP");
    await withLock("primary", async () => {
      await page.goto("/payment");
      await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
      const section = page.locator("[data-payment=international]");
      await expect(section).toContainText("This is an international bank transfer in GBP");
      const details = page.getByTestId("bank-account");
      await expect(details).toContainText("SWIFT/BIC code");
      await expect(details).toContainText(DEMO_SWIFT);
      await expect(details).toContainText("Bank address");
      await expect(details).toContainText(DEMO_ACCOUNT);
      await expect(details.locator("dt:has-text('Amount to pay') + dd")).toHaveText(/^£\d/);
      await expect(page.locator("main")).not.toContainText("FPS ID");
      await expect(page.locator("main")).not.toContainText(DEMO_FPS);
      // Demo mode: the demo account is marked as such.
      await expect(page.getByTestId("demo-account")).toContainText("Demo account");
      await expect(page.getByTestId("demo-account")).toContainText("Do not send real money");

      await payWithReceipt(page, jsEnabled, {
        receipt: "Transfer receipt",
        submit: "Submit Payment",
        invalid: "Invalid file type",
      });
      const mail = await orderMail(email);
      expect(mail).toContain("The account for this order (international bank transfer in GBP):");
      expect(mail).toContain(`SWIFT/BIC code: ${DEMO_SWIFT}`);
      expect(mail).toContain("demo account");
      expect(mail).not.toContain(DEMO_FPS);
      expect(mail).not.toContain("FPS ID");
    });
  });

  test("an HKD order: the FPS id, bank and account number, on the page and in the e-mail", async ({
    page,
    jsEnabled,
  }) => {
    test.setTimeout(90_000);
    const email = await toPayment(page, "HKD");
    await withLock("primary", async () => {
      await page.goto("/payment");
      const details = page.getByTestId("bank-account");
      await expect(page.locator("[data-payment=fps]")).toContainText("by FPS or bank transfer");
      await expect(details.locator("dt:has-text('FPS ID') + dd")).toHaveText(DEMO_FPS);
      await expect(details.locator("dt:has-text('Account number') + dd")).toHaveText(DEMO_ACCOUNT);
      await expect(details).not.toContainText("SWIFT");
      await expect(details.locator("dt:has-text('Amount to pay') + dd")).toHaveText(/^HK\$\d/);
      await expect(page.getByTestId("demo-account")).toBeVisible();

      await payWithReceipt(page, jsEnabled, {
        receipt: "Transfer receipt",
        submit: "Submit Payment",
        invalid: "Invalid file type",
      });
      const mail = await orderMail(email);
      expect(mail).toContain(`FPS ID: ${DEMO_FPS}`);
      expect(mail).toContain(`Account number: ${DEMO_ACCOUNT}`);
      expect(mail).not.toContain("SWIFT");
      // Nothing is paid or confirmed yet.
      expect(mail).not.toContain("Paid to");
      expect(mail).not.toContain("in a few minutes");
      expect(mail).toContain("e-mail you when your payment is confirmed");
      // The shop is told too (issue 26): by default at its support e-mail, in English, with a link
      // to the order in the admin.
      const number = new URL(page.url()).searchParams.get("order") ?? "";
      let alert = "";
      await expect
        .poll(
          () => {
            alert =
              mailsTo(SUPPORT)
                .map(({ raw }) => readableMail(raw))
                .find((text) => text.includes(number)) ?? "";
            return alert;
          },
          { message: `the shop's alert of ${number}`, timeout: 15_000 },
        )
        .not.toBe("");
      expect(alert).toContain(`New order ${number}: HK$`);
      expect(alert).toContain(`Customer: Chan Tai Man <${email}>`);
      expect(alert).toMatch(/https?:\/\/[^/\s]+\/admin\/orders\/[0-9a-f-]{36}/);
    });
  });

  test.describe("in Chinese at phone width", () => {
    test.use({ viewport: { width: 390, height: 844 } });

    for (const currency of ["GBP", "HKD"] as const) {
      test(`a ${currency} order's payment details, and the stale error cleared`, async ({
        page,
        context,
        baseURL,
        jsEnabled,
      }) => {
        test.setTimeout(90_000);
        await setLanguage(context, baseURL ?? "", "zh");
        const email = await toPayment(page, currency);
        await withLock("primary", async () => {
          await page.goto("/payment");
          await expect(page.getByRole("heading", { level: 1, name: "付款" })).toBeVisible();
          const details = page.getByTestId("bank-account");
          if (currency === "GBP") {
            await expect(page.locator("[data-payment=international]")).toContainText("以 GBP 付款的國際銀行電匯");
            await expect(details.locator("dt:has-text('SWIFT/BIC 代碼') + dd")).toHaveText(DEMO_SWIFT);
            await expect(page.locator("main")).not.toContainText("轉數快識別碼");
            await expect(page.locator("main")).not.toContainText(DEMO_FPS);
          } else {
            await expect(details.locator("dt:has-text('轉數快識別碼') + dd")).toHaveText(DEMO_FPS);
            await expect(details).not.toContainText("SWIFT");
          }
          await expect(page.getByTestId("demo-account")).toContainText("示範帳戶");
          // Nothing runs off the side of a phone.
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          expect(overflow).toBeLessThanOrEqual(0);
          expect(await seriousViolations(page, jsEnabled)).toEqual([]);

          await payWithReceipt(page, jsEnabled, {
            receipt: "轉帳收據",
            submit: "提交付款",
            invalid: "檔案類型無效",
            submitted: "付款已成功提交！",
            thanks: "多謝你的訂購！",
          });
          const mail = await orderMail(email);
          if (currency === "GBP") {
            expect(mail).toContain("以 GBP 國際銀行電匯");
            expect(mail).not.toContain(DEMO_FPS);
          } else {
            expect(mail).toContain(`轉數快識別碼: ${DEMO_FPS}`);
          }
          expect(mail).not.toContain("付款帳戶：");
          expect(mail).toContain("確認收款後會再以電郵通知你");
        });
      });
    }
  });
});
