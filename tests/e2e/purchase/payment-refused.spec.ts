import fs from "node:fs";
import path from "node:path";
import {
  apiAddToCart,
  apiCheckout,
  apiSignUp,
  expect,
  insertRifle,
  mainServerPaths,
  openPage,
  receiptJpeg,
  shopperTest as test,
  uniqueEmail,
  uniquePassword,
  withMainDatabase,
} from "../fixtures";

/**
 * A payment for a cart that can no longer be placed (the colour sold out while the shopper was on
 * the payment page) takes the shopper back to the cart, told why in their language, with
 * JavaScript and without (docs/decisions/075). No order and no receipt are kept.
 */

/** A product of its own (one colour, two left), written straight into the main server's database. */
function insertScarceProduct(): { id: number; en: string; zh: string } {
  return insertRifle({ en: "Refusal Pistol", zh: "拒絕手槍" }, [["Sand Storm", "風暴沙", 2]]);
}

const WORDS = {
  en: {
    submit: "Submit Payment",
    title: "Order submission failed",
    detail: (name: string) => `${name} (Sand Storm) has only 0 left in stock. Update your cart and try again.`,
  },
  zh: {
    submit: "提交付款",
    title: "提交訂單失敗",
    detail: (name: string) => `${name}（風暴沙）只剩 0 件庫存，請更新購物車後再試。`,
  },
} as const;

for (const language of ["en", "zh"] as const) {
  test(`a colour sold out while paying: back to the cart with the reason (${language})`, async ({
    page,
    jsEnabled,
    inChinese,
  }) => {
    const product = insertScarceProduct();
    if (language === "zh") await inChinese();
    const email = uniqueEmail("refused-buyer");
    await apiSignUp(page.request, email, uniquePassword());
    await apiAddToCart(page.request, product.id, "Sand Storm", 1);
    await apiCheckout(page.request, email);
    await openPage(page, "/payment", jsEnabled);
    await page.locator("#receipt").setInputFiles(await receiptJpeg());

    // Someone else takes the last pieces meanwhile.
    withMainDatabase((db) => db.prepare("UPDATE product_variants SET stock = 0 WHERE product_id = ?").run(product.id));
    await page.getByRole("button", { name: WORDS[language].submit, exact: true }).click();

    await expect(page).toHaveURL(/\/cart$/);
    const alert = page.getByRole("alert").filter({ hasText: WORDS[language].title });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText(WORDS[language].detail(language === "en" ? product.en : product.zh));
    // The cart still holds the line, to change or remove; nothing was ordered, no receipt kept.
    await expect(page.getByTestId("cart-line")).toHaveCount(1);
    const user = withMainDatabase((db) =>
      db.prepare("SELECT id FROM users WHERE email = ?").get(email.toLowerCase()),
    ) as { id: string };
    const ordered = withMainDatabase((db) =>
      db.prepare("SELECT COUNT(*) AS n FROM orders WHERE user_id = ?").get(user.id),
    ) as { n: number };
    expect(ordered.n).toBe(0);
    const receipts = path.join(mainServerPaths().uploads, "private", "receipts", user.id);
    expect(fs.existsSync(receipts) ? fs.readdirSync(receipts) : []).toEqual([]);
  });
}
