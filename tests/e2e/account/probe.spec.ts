import { expect, shopperTest as test } from "../fixtures";

test("probe", async ({ page, clientAddress, jsEnabled }) => {
  const r = await page.goto("/");
  expect(r?.status()).toBe(200);
  console.log("addr", clientAddress, jsEnabled);
  const form = page.locator("header form[role=search]").first();
  await form.evaluate((f) => f.setAttribute("novalidate", ""));
  expect(await form.getAttribute("novalidate")).toBe("");
  const resp = await page.request.get("/healthz");
  expect(resp.status()).toBe(200);
});
