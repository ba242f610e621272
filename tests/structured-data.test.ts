import { beforeEach, describe, expect, it } from "vitest";
import { currencyContext } from "~/middleware/currency";
import { languageCookie } from "~/middleware/i18next";
import { loader as homeLoader } from "~/routes/store/home";
import { loader as productLoader } from "~/routes/store/product";
import { createCategory, createProduct } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { routeContext, runRoute } from "./setup/route";

/**
 * Issue 25 item 7: the structured data (JSON-LD) of the home and product pages was English on
 * Chinese pages. It now speaks the page's language: names, descriptions, category, the shop's
 * name and address, `inLanguage`, and the Chinese page's own address (`?lng=zh`).
 */

let svc: TestServices;
const SITE = "http://localhost:3000";
beforeEach(async () => {
  svc = await freshTestServices();
});

/** A GET as a shopper who chose `language` with the language toggle (the `lng` cookie). */
async function get(path: string, language: "en" | "zh"): Promise<Request> {
  return new Request(`${SITE}${path}`, { headers: { Cookie: await languageCookie.serialize(language) } });
}

async function product() {
  const category = await createCategory(svc.db, { name_en: "Rifles", name_zh: "長槍" });
  return createProduct(svc.db, {
    name_en: "Field Carbine",
    name_zh: "野戰卡賓槍",
    description_en: "A light carbine.",
    description_zh: "輕巧卡賓槍。",
    category_id: category.id,
    is_featured: true,
    price_hkd_cents: 1_880_00,
  });
}

type Json = Record<string, unknown> & { "@graph"?: Record<string, unknown>[] };

describe("structured data in the page's language", () => {
  it("product page: Chinese name, description, category, language and the ?lng=zh address on a Chinese page", async () => {
    const { id } = await product();
    const zh = await runRoute(svc, productLoader, await get(`/product/${id}`, "zh"), null, { id: String(id) });
    const url = `${SITE}/product/${id}?lng=zh`;
    expect((zh.result as { jsonLd: Json }).jsonLd).toMatchObject({
      "@type": "ProductGroup",
      name: "野戰卡賓槍",
      description: "輕巧卡賓槍。",
      category: "長槍",
      url,
      hasVariant: [{ offers: { url: `${url}&colour=Black`, priceCurrency: "HKD", price: "1880.00" } }],
      mainEntityOfPage: { "@type": "ItemPage", "@id": url, url, inLanguage: "zh-Hant-HK" },
    });

    const en = await runRoute(svc, productLoader, await get(`/product/${id}`, "en"), null, { id: String(id) });
    expect((en.result as { jsonLd: Json }).jsonLd).toMatchObject({
      name: "Field Carbine",
      description: "A light carbine.",
      category: "Rifles",
      hasVariant: [{ offers: { url: `${SITE}/product/${id}?colour=Black` } }],
      mainEntityOfPage: { url: `${SITE}/product/${id}`, inLanguage: "en" },
    });
  });

  it("home page: the shop's Chinese name and address, featured products in Chinese (HKD prices), the page in zh-Hant-HK", async () => {
    const { id } = await product();
    // A shopper paying in GBP: the structured data still quotes HKD.
    const ctx = routeContext(svc, null);
    ctx.set(currencyContext, "GBP");
    const zh = await runRoute(svc, homeLoader, await get("/", "zh"), null, {}, ctx);
    const graph = (zh.result as { jsonLd: Json }).jsonLd["@graph"] ?? [];
    const [store, list, page] = graph;
    expect(store).toMatchObject({
      "@type": "Store",
      name: "港灣戰術",
      url: `${SITE}/?lng=zh`,
      paymentAccepted: "銀行轉帳、轉數快（FPS）",
    });
    expect(String(store?.address)).toMatch(/^九龍/);
    const items = (list as { itemListElement: { item: Record<string, unknown> }[] }).itemListElement;
    expect(items[0]?.item).toMatchObject({
      name: "野戰卡賓槍",
      description: "輕巧卡賓槍。",
      url: `${SITE}/product/${id}?lng=zh`,
      offers: { priceCurrency: "HKD", price: "1880.00", seller: { name: "港灣戰術" } },
    });
    expect(page).toMatchObject({ "@type": "WebPage", url: `${SITE}/?lng=zh`, inLanguage: "zh-Hant-HK" });

    const en = await runRoute(svc, homeLoader, await get("/", "en"), null);
    const [enStore, enList, enPage] = (en.result as { jsonLd: Json }).jsonLd["@graph"] ?? [];
    expect(enStore).toMatchObject({ name: "Harbour Tactical", url: `${SITE}/`, paymentAccepted: "Bank transfer, FPS" });
    expect((enList as { itemListElement: { item: Record<string, unknown> }[] }).itemListElement[0]?.item).toMatchObject(
      {
        name: "Field Carbine",
        url: `${SITE}/product/${id}`,
      },
    );
    expect(enPage).toMatchObject({ inLanguage: "en", url: `${SITE}/` });
  });
});
