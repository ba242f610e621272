import { parse } from "csv-parse/sync";
import {
  apiAddToCart,
  apiCheckout,
  apiOrders,
  apiPaymentKey,
  apiSubmitPayment,
  createAdmin,
  expect,
  newApiShopper,
  productIdByName,
  receiptJpeg,
  shopperTest as test,
  uniqueEmail,
  uniquePassword,
} from "../fixtures";

/**
 * The orders export (issue 29, docs/decisions/059) over HTTP against the production build: the
 * owner filters the list, posts its export form as the page has it and gets that order's lines;
 * a member of staff sees no export form and is refused with 403.
 */

/** A colourless product with plenty of stock whose stock no spec asserts (see purchase/security.spec.ts). */
const PRODUCT = "0.25 g Precision BBs (4000 rds)";

/** The Hong Kong date of an instant, as the list's date fields take it. */
const hongKongDay = (at: number) => new Date(at + 8 * 3_600_000).toISOString().slice(0, 10);

test("the owner downloads the export of the filtered list; staff get 403", { tag: "@http" }, async ({
  playwright,
  baseURL,
}) => {
  const buyer = await newApiShopper(playwright, baseURL as string, "order-export");
  let number: string;
  try {
    await apiAddToCart(buyer.request, await productIdByName(buyer.request, PRODUCT), "Default", 2);
    await apiCheckout(buyer.request, buyer.email);
    const paid = await apiSubmitPayment(buyer.request, await apiPaymentKey(buyer.request), await receiptJpeg());
    expect(paid.status()).toBe(302);
    number = (await apiOrders(buyer.request))[0]?.number ?? "";
    expect(number).toMatch(/^ORD-/);
  } finally {
    await buyer.dispose();
  }

  const signedIn = async (role: "owner" | "staff") => {
    const email = uniqueEmail(`order-export-${role}`);
    const password = uniquePassword();
    createAdmin(email, password, "main", role);
    const request = await playwright.request.newContext({ baseURL });
    const login = await request.post("/admin/login", {
      form: { intent: "login", email, password },
      maxRedirects: 0,
    });
    expect(login.status(), `${role} sign-in`).toBe(302);
    return request;
  };

  const today = hongKongDay(Date.now());
  const listUrl = `/admin/orders?${new URLSearchParams({ q: buyer.email, status: "review", from: today, to: today })}`;
  const owner = await signedIn("owner");
  const staff = await signedIn("staff");
  try {
    // The export form on the filtered list carries the list's filters.
    const list = await owner.get(listUrl);
    expect(list.status()).toBe(200);
    const html = await list.text();
    const start = html.indexOf('action="/admin/orders/export"');
    expect(start, "the export form on the list").toBeGreaterThan(0);
    const form = html.slice(start, html.indexOf("</form>", start));
    const fields = Object.fromEntries(
      [...form.matchAll(/<input[^>]*type="hidden"[^>]*>/g)].map((m) => [
        /name="([^"]+)"/.exec(m[0])?.[1],
        /value="([^"]*)"/.exec(m[0])?.[1],
      ]),
    );
    expect(fields).toEqual({ q: buyer.email, status: "review", from: today, to: today });

    const before = Date.now();
    const exported = await owner.post("/admin/orders/export", { form: fields, maxRedirects: 0 });
    expect(exported.status()).toBe(200);
    expect(exported.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    const names = [before, Date.now()].map((at) => `attachment; filename="orders-${hongKongDay(at)}.csv"`);
    expect(names).toContain(exported.headers()["content-disposition"]);
    const bytes = await exported.body();
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parse(bytes, { bom: true, columns: true, record_delimiter: "\r\n" }) as Record<string, string>[];
    // The one order the filters select, its one line.
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      "Order Number": number,
      Email: buyer.email,
      Status: "receipt_checking",
      Product: PRODUCT,
      Quantity: "2",
      Currency: "HKD",
    });
    expect(rows[0]?.["Placed At (HKT)"]).toMatch(new RegExp(`^${today} \\d{2}:\\d{2}$`));

    // Staff work the orders list, without the export.
    const staffList = await staff.get(listUrl);
    expect(staffList.status()).toBe(200);
    expect(await staffList.text()).not.toContain('action="/admin/orders/export"');
    const refused = await staff.post("/admin/orders/export", { form: fields, maxRedirects: 0 });
    expect(refused.status()).toBe(403);
    expect(refused.headers()["content-disposition"]).toBeUndefined();
    expect(await refused.text()).not.toContain(number);
  } finally {
    await owner.dispose();
    await staff.dispose();
  }
});
