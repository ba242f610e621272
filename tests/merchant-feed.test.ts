import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import type { Currency } from "#db/schema";
import { gtinCheckDigit, isValidGtin } from "~/lib/gtin";
import { publicUrl } from "~/lib/storage.server";
import { productJsonLd } from "~/lib/structured-data.server";
import { xmlText } from "~/lib/xml";
import { currencyContext } from "~/middleware/currency";
import { languageCookie } from "~/middleware/i18next";
import { createBrand } from "~/models/brands.server";
import { setProductZones } from "~/models/orders/restrictions.server";
import { findProduct } from "~/models/products/catalog.server";
import { applyProductImport, planProductImport, productCsvRecords } from "~/models/products/csv.server";
import { findProductForEdit } from "~/models/products/editor.server";
import { merchantFeedText } from "~/models/products/merchant-feed.server";
import { loadShop } from "~/models/settings/shop.server";
import { type Feed, loadEnabledFeeds, saveEnabledFeeds } from "~/models/settings/shopping-feeds.server";
import { createZone, type ZoneRate } from "~/models/shipping/zones.server";
import type { CurrentUser } from "~/request/auth.server";
import { action as productFormAction } from "~/routes/admin/product-form";
import { action as feedsAction, loader as feedsSettingsLoader } from "~/routes/admin/shopping-feeds";
import { loader as feedLoader } from "~/routes/resources/merchant-feed";
import { loader as productLoader } from "~/routes/store/product";
import { productSchema } from "~/schemas/product";
import { createCategory, createProduct } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { adminAccount, formOf, routeContext, runRoute, statusOf } from "./setup/route";
import { childrenNamed, childText, parseXml, type XmlElement } from "./setup/xml";

/**
 * Issue 28 item 5 (docs/decisions/056): the Google Merchant Center feed (per language and
 * currency, turned on by the owner), GTIN/MPN on products (form, CSV), and the product page's
 * ProductGroup structured data.
 */

const SITE = "http://localhost:3000";
const FUTURE_END = "2099-01-01T10:00:00.000Z";

let svc: TestServices;
let db: DB;
let owner: CurrentUser;
beforeEach(async () => {
  svc = await freshTestServices();
  db = svc.db;
  owner = await adminAccount(svc, "owner");
});

async function png(color: { r: number; g: number; b: number }): Promise<File> {
  const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: color } })
    .png()
    .toBuffer();
  return new File([new Uint8Array(bytes)], "photo.png", { type: "image/png" });
}

const EN_HKD: Feed = { language: "en", currency: "HKD" };

async function feedOf(feed: Feed = EN_HKD, at = new Date()): Promise<{ text: string; channel: XmlElement }> {
  const text = await merchantFeedText(db, feed, { siteUrl: SITE, shop: await loadShop(db), at, batchSize: 2 });
  const rss = parseXml(text);
  expect(rss.name).toBe("rss");
  expect(rss.attributes).toEqual({ version: "2.0", "xmlns:g": "http://base.google.com/ns/1.0" });
  const channel = childrenNamed(rss, "channel")[0] as XmlElement;
  for (const item of items(channel)) expectGoogleAttributes(item, feed.currency);
  return { text, channel };
}

/** What Google requires of every item (the image only where the product has one). */
function expectGoogleAttributes(item: XmlElement, currency: Currency) {
  const id = childText(item, "g:id") ?? "";
  for (const name of ["g:id", "g:item_group_id", "g:title", "g:description", "g:link", "g:condition"]) {
    expect(childText(item, name), `${id} ${name}`).toMatch(/\S/);
  }
  expect(childText(item, "g:link")).toMatch(/^http:\/\/localhost:3000\/product\/\d+/);
  expect(["in_stock", "out_of_stock"]).toContain(childText(item, "g:availability"));
  expect(childText(item, "g:price")).toMatch(new RegExp(`^\\d+\\.\\d{2} ${currency}$`));
  const identified = ["g:gtin", "g:mpn", "g:brand"].some((name) => childText(item, name) !== undefined);
  expect(identified || childText(item, "g:identifier_exists") === "no", id).toBe(true);
}

function items(channel: XmlElement): XmlElement[] {
  return childrenNamed(channel, "item");
}

/** The item whose g:id is the SKU of this product's variant of `color` (and `option`). */
async function itemOf(channel: XmlElement, productId: number, color: string, option = ""): Promise<XmlElement> {
  const variant = await db
    .selectFrom("product_variants")
    .select("sku")
    .where("product_id", "=", productId)
    .where("color", "=", color)
    .where("option_value", "=", option)
    .executeTakeFirstOrThrow();
  const found = items(channel).find((item) => childText(item, "g:id") === variant.sku);
  if (!found) throw new Error(`no item for ${productId} ${color}`);
  return found;
}

function rate(feeCents: number, freeAboveCents: number | null): ZoneRate {
  return { feeCents, freeAboveCents, bands: [] };
}

function flatRates(feeCents: number, freeAboveCents: number | null): Record<Currency, ZoneRate> {
  return {
    HKD: rate(feeCents, freeAboveCents),
    GBP: rate(feeCents, freeAboveCents),
    EUR: rate(5_00, null),
    USD: rate(5_00, null),
  };
}

async function getFeed(path: string, headers: Record<string, string> = {}) {
  const [, lang = "", file = ""] = /^\/feeds\/google\/([^/]*)\/([^/]*)$/.exec(path) ?? [];
  return runRoute(svc, feedLoader, new Request(`${SITE}${path}`, { headers }), null, { lang, file });
}

describe("the tests' XML reader", () => {
  it("refuses what is not well-formed XML", () => {
    for (const bad of [
      "<a><b></a></b>",
      "<a>x & y</a>",
      "<a>1 < 2</a>",
      "<a>&nbsp;</a>",
      "<a></a><b></b>",
      "<a>",
      "<a x=1></a>",
      "<a>\u0001</a>",
    ]) {
      expect(() => parseXml(bad), bad).toThrow();
    }
    expect(parseXml('<a x="&lt;&#65;"><b>&amp;</b></a>')).toEqual({
      name: "a",
      attributes: { x: "<A" },
      children: [{ name: "b", attributes: {}, children: [], text: "&" }],
      text: "",
    });
  });
});

describe("GTIN", () => {
  it("accepts 8, 12, 13 and 14 digits with the right check digit, and nothing else", () => {
    for (const valid of ["73513537", "036000291452", "4006381333931", "10614141000415", "9780306406157"]) {
      expect(isValidGtin(valid), valid).toBe(true);
    }
    expect(gtinCheckDigit("400638133393")).toBe(1);
    for (const invalid of [
      "4006381333932",
      "036000291453",
      "73513538",
      "400638133393",
      "40063813339311",
      "",
      "abcdefghijklm",
      "4006381333931 ",
    ]) {
      expect(isValidGtin(invalid), invalid).toBe(false);
    }
  });

  it("the product form refuses a wrong check digit next to the field (400, input kept) and saves a right one", async () => {
    const base = { intent: "save", name_en: "Scope", name_zh: "瞄準鏡", price_hkd: "100", stock: "1" };
    const parsed = productSchema.safeParse({ ...base, gtin: "4006381333932" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({ path: ["gtin"], message: "adminProductForm.errors.gtinInvalid" });

    const post = (fields: Record<string, string>) =>
      runRoute(
        svc,
        productFormAction,
        new Request(`${SITE}/admin/products/new`, { method: "POST", body: formOf({ ...base, ...fields }) }),
        owner,
      );
    const refused = await post({ gtin: "4006381333932", mpn: "SC-1" });
    const answer = refused.result as {
      data: { result: { error: Record<string, string[]>; initialValue: Record<string, string> } };
    };
    expect(statusOf(refused.result)).toBe(400);
    expect(answer.data.result.error.gtin).toEqual(["adminProductForm.errors.gtinInvalid"]);
    expect(answer.data.result.initialValue).toMatchObject({ gtin: "4006381333932", mpn: "SC-1" });
    const tooLong = await post({ mpn: "x".repeat(71) });
    expect(statusOf(tooLong.result)).toBe(400);

    const saved = await post({ gtin: "4006-3813-3393-1", mpn: " SC-1 " });
    expect(statusOf(saved.result)).toBe(302);
    const row = await db
      .selectFrom("products")
      .select(["id", "gtin", "mpn"])
      .where("name_en", "=", "Scope")
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ gtin: "4006381333931", mpn: "SC-1" });
    const edit = await findProductForEdit(db, row.id);
    expect(edit?.product.gtin).toBe("4006381333931");
  });

  it("CSV: exported as gtin and mpn; an invalid GTIN is a row error; a file without the columns leaves them as they are", async () => {
    const product = await createProduct(db, { name_en: "Sling", gtin: "4006381333931", mpn: "SL-9" });
    const records = [];
    for await (const record of productCsvRecords(db, SITE)) records.push(record);
    expect(records[0]).toMatchObject({ product_id: String(product.id), gtin: "4006381333931", mpn: "SL-9" });

    const header = Object.keys(records[0] ?? {});
    const csv = (rows: Record<string, string>[], columns = header) =>
      `${columns.join(",")}\n${rows.map((row) => columns.map((c) => JSON.stringify(row[c] ?? "")).join(",")).join("\n")}\n`;
    const bad = await planProductImport(db, csv([{ ...records[0], gtin: "4006381333932" } as Record<string, string>]));
    expect(bad.errors).toEqual([
      {
        line: 2,
        key: "adminProductCsv.errors.field",
        params: { column: "gtin", reason: "adminProductForm.errors.gtinInvalid" },
      },
    ]);

    const withoutColumns = header.filter((column) => column !== "gtin" && column !== "mpn");
    const plan = await planProductImport(
      db,
      csv([{ ...records[0], name_en: "Sling v2" } as Record<string, string>], withoutColumns),
    );
    expect(plan.errors).toEqual([]);
    await applyProductImport(db, plan, owner.id);
    expect(
      await db
        .selectFrom("products")
        .select(["name_en", "gtin", "mpn"])
        .where("id", "=", product.id)
        .executeTakeFirst(),
    ).toEqual({
      name_en: "Sling v2",
      gtin: "4006381333931",
      mpn: "SL-9",
    });

    const cleared = await planProductImport(
      db,
      csv([{ ...records[0], name_en: "Sling v2", gtin: "", mpn: "" } as Record<string, string>]),
    );
    await applyProductImport(db, cleared, owner.id);
    expect(
      await db.selectFrom("products").select(["gtin", "mpn"]).where("id", "=", product.id).executeTakeFirst(),
    ).toEqual({
      gtin: null,
      mpn: null,
    });
  });
});

describe("feed settings", () => {
  it("a feed that is off answers 404; the owner turns feeds on (audited) and Settings lists their addresses", async () => {
    await createProduct(db);
    expect(statusOf((await getFeed("/feeds/google/en/HKD.xml")).thrown)).toBe(404);
    expect(await loadEnabledFeeds(db)).toEqual([]);

    const staff = await adminAccount(svc, "staff");
    const post = (user: CurrentUser, feeds: string[]) =>
      runRoute(
        svc,
        feedsAction,
        new Request(`${SITE}/admin/settings/feeds`, { method: "POST", body: formOf({ "feeds[]": feeds }) }),
        user,
      );
    const refused = await post(staff, ["en-HKD"]);
    expect(statusOf(refused.thrown ?? refused.result)).toBe(403);
    const forged = await post(owner, ["en-XXX"]);
    expect(statusOf(forged.result)).toBe(400);
    const errors = (forged.result as { data: { result: { error: Record<string, string[]> } } }).data.result.error;
    expect(Object.values(errors).flat()).toContain("error.badRequest");
    expect(await loadEnabledFeeds(db)).toEqual([]);

    const saved = await post(owner, ["zh-GBP", "en-HKD"]);
    expect(statusOf(saved.result)).toBe(302);
    expect(saved.flash).toMatchObject({ type: "success", key: "adminFeeds.saved" });
    expect(await loadEnabledFeeds(db)).toEqual([EN_HKD, { language: "zh", currency: "GBP" }]);
    const audit = await db
      .selectFrom("audit_log")
      .select("details")
      .where("action", "=", "settings.shopping_feeds_updated")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.details ?? "{}")).toEqual({ before: [], after: ["en-HKD", "zh-GBP"] });

    const page = await runRoute(svc, feedsSettingsLoader, new Request(`${SITE}/admin/settings/feeds`), owner);
    expect((page.result as { urls: unknown }).urls).toEqual([
      { name: "en-HKD", url: `${SITE}/feeds/google/en/HKD.xml` },
      { name: "zh-GBP", url: `${SITE}/feeds/google/zh/GBP.xml` },
    ]);

    const answer = await getFeed("/feeds/google/en/HKD.xml");
    const response = answer.result as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/xml; charset=utf-8");
    expect(response.headers.get("Cache-Control")).toMatch(/max-age=300/);
    expect(
      childrenNamed(childrenNamed(parseXml(await response.text()), "channel")[0] as XmlElement, "item"),
    ).toHaveLength(1);
    // Off, unknown or malformed: not found.
    for (const path of [
      "/feeds/google/en/GBP.xml",
      "/feeds/google/fr/HKD.xml",
      "/feeds/google/en/JPY.xml",
      "/feeds/google/en/HKD.json",
    ]) {
      expect(statusOf((await getFeed(path)).thrown), path).toBe(404);
    }
    // Lower-case currency works too (the same feed).
    expect(((await getFeed("/feeds/google/zh/gbp.xml")).result as Response).status).toBe(200);

    // Same catalogue: a 304 for the ETag it gave; a change to the catalogue: a new document.
    const etag = response.headers.get("ETag") ?? "";
    expect(((await getFeed("/feeds/google/en/HKD.xml", { "If-None-Match": etag })).result as Response).status).toBe(
      304,
    );
    await createProduct(db);
    const changed = (await getFeed("/feeds/google/en/HKD.xml", { "If-None-Match": etag })).result as Response;
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).not.toBe(etag);
  });
});

describe("the feed's items", () => {
  it("one item per variant with every attribute Google requires, the colour's image and page, stock per variant", async () => {
    const storage = svc.storage;
    const category = await createCategory(db, { name_en: "Optics", name_zh: "瞄準器材" });
    const product = await createProduct(
      db,
      {
        name_en: "Red Dot",
        name_zh: "紅點鏡",
        description_en: "A bright\n\nred dot.",
        category_id: category.id,
        price_hkd_cents: 500_00,
        variants: [
          ["Black", "黑色", 4],
          ["Tan", "沙色", 0],
        ],
        gtin: "4006381333931",
      },
      { storage, images: [await png({ r: 1, g: 1, b: 1 }), await png({ r: 200, g: 180, b: 120 })] },
    );
    const [untagged, tanImage] = product.imageKeys as [string, string];
    await db.updateTable("product_images").set({ color: "Tan" }).where("path", "=", tanImage).execute();
    const { channel } = await feedOf();
    expect(childText(channel, "title")).toBe("Harbour Tactical");
    expect(childText(channel, "link")).toBe(`${SITE}/`);
    expect(items(channel)).toHaveLength(2);

    const black = await itemOf(channel, product.id, "Black");
    expect(childText(black, "g:item_group_id")).toBe(String(product.id));
    expect(childText(black, "g:title")).toBe("Red Dot - Black");
    expect(childText(black, "g:description")).toBe("A bright red dot.");
    expect(childText(black, "g:link")).toBe(`${SITE}/product/${product.id}?colour=Black`);
    expect(childText(black, "g:image_link")).toBe(`${SITE}${publicUrl(untagged)}`);
    expect(childrenNamed(black, "g:additional_image_link")).toEqual([]);
    expect(childText(black, "g:availability")).toBe("in_stock");
    expect(childText(black, "g:price")).toBe("500.00 HKD");
    expect(childText(black, "g:sale_price")).toBeUndefined();
    expect(childText(black, "g:condition")).toBe("new");
    expect(childText(black, "g:color")).toBe("Black");
    expect(childText(black, "g:gtin")).toBe("4006381333931");
    expect(childText(black, "g:identifier_exists")).toBeUndefined();
    expect(childText(black, "g:product_type")).toBe("Optics");

    const tan = await itemOf(channel, product.id, "Tan");
    expect(childText(tan, "g:availability")).toBe("out_of_stock");
    expect(childText(tan, "g:image_link")).toBe(`${SITE}${publicUrl(tanImage)}`);
    expect(childrenNamed(tan, "g:additional_image_link").map((e) => e.text)).toEqual([`${SITE}${publicUrl(untagged)}`]);

    // In Chinese: the Chinese name and colour, the Chinese page.
    await saveEnabledFeeds(db, owner.id, [{ language: "zh", currency: "HKD" }]);
    const zh = await feedOf({ language: "zh", currency: "HKD" });
    const zhBlack = await itemOf(zh.channel, product.id, "Black");
    expect(childText(zhBlack, "g:title")).toBe("紅點鏡 - 黑色");
    expect(childText(zhBlack, "g:color")).toBe("黑色");
    expect(childText(zhBlack, "g:link")).toBe(`${SITE}/product/${product.id}?lng=zh&colour=Black`);
    expect(childText(zhBlack, "g:product_type")).toBe("瞄準器材");
  });

  it("a product without colours: its name alone, no colour in the link, identifier_exists no without GTIN/MPN", async () => {
    const product = await createProduct(db, { name_en: "Bipod", variants: [["Default", 3]] });
    const { channel } = await feedOf();
    const item = await itemOf(channel, product.id, "Default");
    expect(childText(item, "g:title")).toBe("Bipod");
    expect(childText(item, "g:link")).toBe(`${SITE}/product/${product.id}`);
    expect(childText(item, "g:color")).toBeUndefined();
    expect(childText(item, "g:identifier_exists")).toBe("no");
    const withMpn = await createProduct(db, { mpn: "BP-2" });
    const other = await itemOf((await feedOf()).channel, withMpn.id, "Black");
    expect(childText(other, "g:mpn")).toBe("BP-2");
    expect(childText(other, "g:identifier_exists")).toBeUndefined();
    // A brand (decision 052) is named in the feed's language and counts as an identifier.
    const brand = await createBrand(db, { name: "Tokyo Marui", name_zh: "東京丸井" }, { actorUserId: null });
    const branded = await createProduct(db, { name_en: "Hi-Capa", brand_id: brand.id });
    const en = await itemOf((await feedOf()).channel, branded.id, "Black");
    expect(childText(en, "g:brand")).toBe("Tokyo Marui");
    expect(childText(en, "g:identifier_exists")).toBeUndefined();
    const zh = await itemOf((await feedOf({ language: "zh", currency: "HKD" })).channel, branded.id, "Black");
    expect(childText(zh, "g:brand")).toBe("東京丸井");
  });

  it("a second option (size): its value in the title, g:size, the page with the value chosen; JSON-LD varies by size", async () => {
    const product = await createProduct(db, {
      name_en: "Combat Shirt",
      name_zh: "作戰衫",
      variants: [["Black", "黑色", 3]],
    });
    // Two sizes of the colour, as the product form's option grid saves them (migration 0026).
    await db
      .updateTable("products")
      .set({ option_name: "Size", option_name_zh: "尺碼" })
      .where("id", "=", product.id)
      .execute();
    await db
      .updateTable("product_variants")
      .set({ option_value: "M", option_value_zh: "中碼", option_order: 0, sku: "CS-BLK-M" })
      .where("product_id", "=", product.id)
      .execute();
    await db
      .insertInto("product_variants")
      .values({
        product_id: product.id,
        color: "Black",
        color_zh: "黑色",
        stock: 0,
        sort_order: 0,
        option_value: "L",
        option_value_zh: "大碼",
        option_order: 1,
        sku: "CS-BLK-L",
      })
      .execute();
    const { channel } = await feedOf();
    expect(items(channel).map((item) => childText(item, "g:id"))).toEqual(["CS-BLK-M", "CS-BLK-L"]);
    const large = await itemOf(channel, product.id, "Black", "L");
    expect(childText(large, "g:title")).toBe("Combat Shirt - Black / L");
    expect(childText(large, "g:size")).toBe("L");
    expect(childText(large, "g:color")).toBe("Black");
    expect(childText(large, "g:link")).toBe(`${SITE}/product/${product.id}?colour=Black&option=L`);
    expect(childText(large, "g:availability")).toBe("out_of_stock");
    expect(childText(large, "g:item_group_id")).toBe(String(product.id));
    const zh = await itemOf((await feedOf({ language: "zh", currency: "HKD" })).channel, product.id, "Black", "M");
    expect([childText(zh, "g:title"), childText(zh, "g:size")]).toEqual(["作戰衫 - 黑色 / 中碼", "中碼"]);

    const page = await findProduct(db, product.id, "HKD");
    const jsonLd = page ? productJsonLd(page, SITE, "en") : null;
    expect(jsonLd?.variesBy).toEqual(["https://schema.org/color", "https://schema.org/size"]);
    expect(jsonLd?.hasVariant.map((v) => [v.sku, v.name, v.size, v.offers.url])).toEqual([
      ["CS-BLK-M", "Combat Shirt - Black / M", "M", `${SITE}/product/${product.id}?colour=Black&option=M`],
      ["CS-BLK-L", "Combat Shirt - Black / L", "L", `${SITE}/product/${product.id}?colour=Black&option=L`],
    ]);
  });

  it("prices in the feed's currency equal the product page's, derived ones included; a sale with its dates", async () => {
    const at = new Date("2030-06-01T08:00:00.123Z");
    const product = await createProduct(db, {
      price_hkd_cents: 500_00,
      price_gbp_cents: null,
      price_eur_cents: 61_23,
      price_usd_cents: null,
      sale: {
        price_hkd_cents: 450_00,
        price_gbp_cents: null,
        price_eur_cents: null,
        price_usd_cents: null,
        ends_at: FUTURE_END,
      },
    });
    const plain = await createProduct(db, { price_hkd_cents: 1_234_56, price_gbp_cents: null });
    for (const currency of ["HKD", "GBP", "EUR", "USD"] as const) {
      const { channel } = await feedOf({ language: "en", currency }, at);
      const page = await findProduct(db, product.id, currency, at);
      const item = await itemOf(channel, product.id, "Black");
      const money = (cents: number) => `${(cents / 100).toFixed(2)} ${currency}`;
      expect(childText(item, "g:price"), currency).toBe(money(page?.regular_price_cents ?? -1));
      expect(childText(item, "g:sale_price"), currency).toBe(money(page?.price_cents ?? -1));
      expect(childText(item, "g:sale_price_effective_date")).toBe(`2030-06-01T08:00:00Z/2099-01-01T10:00:00Z`);
      const plainPage = await findProduct(db, plain.id, currency, at);
      expect(childText(await itemOf(channel, plain.id, "Black"), "g:price")).toBe(money(plainPage?.price_cents ?? -1));
    }
    // Derived at the shop's default rate (0.1 GBP per HKD): 500.00 → 50.00, the sale 450.00 → 45.00.
    const gbp = await itemOf((await feedOf({ language: "en", currency: "GBP" }, at)).channel, product.id, "Black");
    expect([childText(gbp, "g:price"), childText(gbp, "g:sale_price")]).toEqual(["50.00 GBP", "45.00 GBP"]);
    expect(
      childText(
        await itemOf((await feedOf({ language: "en", currency: "GBP" }, at)).channel, plain.id, "Black"),
        "g:price",
      ),
    ).toBe("123.46 GBP");
    // After the sale's end: the regular price alone, with no write.
    const after = await itemOf((await feedOf(EN_HKD, new Date("2099-01-02T00:00:00Z"))).channel, product.id, "Black");
    expect(childText(after, "g:price")).toBe("500.00 HKD");
    expect(childText(after, "g:sale_price")).toBeUndefined();
    expect(childText(after, "g:sale_price_effective_date")).toBeUndefined();
  });

  it("escapes markup characters in names and descriptions, and drops characters XML cannot hold", async () => {
    const name = `Tom & Jerry <M4> "Elite" 'Mk\u0007II'`;
    const product = await createProduct(db, { name_en: name, description_en: "Fits <all> rails & mounts ]]>" });
    const { text, channel } = await feedOf();
    const item = await itemOf(channel, product.id, "Black");
    expect(childText(item, "g:title")).toBe(`Tom & Jerry <M4> "Elite" 'MkII' - Black`);
    expect(childText(item, "g:description")).toBe("Fits <all> rails & mounts ]]>");
    expect(text).toContain("Tom &amp; Jerry &lt;M4&gt; &quot;Elite&quot; &apos;MkII&apos;");
    expect(text).not.toContain("\u0007");
    expect(xmlText("a\uD800b\uFFFE\u{1F600}&")).toBe("ab\u{1F600}&amp;");
  });

  it("hidden products (inactive category) are left out; every product is in, across batches", async () => {
    const hidden = await createCategory(db, { is_active: false });
    const gone = await createProduct(db, { category_id: hidden.id });
    const shown = [];
    for (let i = 0; i < 5; i++) shown.push((await createProduct(db)).id);
    const { channel } = await feedOf();
    const groups = items(channel).map((item) => Number(childText(item, "g:item_group_id")));
    expect(groups).toEqual(shown);
    expect(groups).not.toContain(gone.id);
  });

  it("shipping: each zone's fee for the item per country it names, in the feed's currency; none without zones", async () => {
    const cheap = await createProduct(db, { price_hkd_cents: 80_00, price_gbp_cents: 8_00 });
    const dear = await createProduct(db, { price_hkd_cents: 900_00, price_gbp_cents: 90_00 });
    let item = await itemOf((await feedOf()).channel, cheap.id, "Black");
    expect(childrenNamed(item, "g:shipping")).toEqual([]);

    const europe = await createZone(db, owner.id, {
      nameEn: "Europe",
      nameZh: "歐洲",
      sortOrder: 1,
      countries: ["GB", "FR"],
      rates: flatRates(60_00, 500_00),
    });
    await createZone(db, owner.id, {
      nameEn: "Macau",
      nameZh: "澳門",
      sortOrder: 2,
      countries: ["MO"],
      rates: flatRates(20_00, null),
    });
    const shipping = (element: XmlElement) =>
      childrenNamed(element, "g:shipping").map((s) => [
        childText(s, "g:country"),
        childText(s, "g:service"),
        childText(s, "g:price"),
      ]);
    const { channel } = await feedOf();
    expect(shipping(await itemOf(channel, cheap.id, "Black"))).toEqual([
      ["FR", "Europe", "60.00 HKD"],
      ["GB", "Europe", "60.00 HKD"],
      ["MO", "Macau", "20.00 HKD"],
    ]);
    // Above Europe's free-above threshold: free there.
    expect(shipping(await itemOf(channel, dear.id, "Black"))[0]).toEqual(["FR", "Europe", "0.00 HKD"]);
    // In GBP, the GBP rate; in Chinese, the zone's Chinese name.
    item = await itemOf((await feedOf({ language: "zh", currency: "GBP" })).channel, cheap.id, "Black");
    expect(shipping(item)[2]).toEqual(["MO", "澳門", "20.00 GBP"]);
    // A product limited to Europe lists Europe's countries only.
    await setProductZones(db, cheap.id, [europe]);
    expect(shipping(await itemOf((await feedOf()).channel, cheap.id, "Black")).map(([country]) => country)).toEqual([
      "FR",
      "GB",
    ]);
  });
});

describe("product page JSON-LD", () => {
  it("is a ProductGroup with a Product per variant, offers in the shopper's currency and language", async () => {
    const product = await createProduct(db, {
      name_en: "Plate Carrier",
      name_zh: "防彈背心",
      price_hkd_cents: 1_000_00,
      price_gbp_cents: 99_00,
      price_eur_cents: null,
      price_usd_cents: null,
      gtin: "036000291452",
      mpn: "PC-1",
      variants: [
        ["Black", "黑色", 2],
        ["Ranger Green", "遊騎兵綠", 0],
      ],
      sale: {
        price_hkd_cents: 800_00,
        price_gbp_cents: 79_00,
        price_eur_cents: null,
        price_usd_cents: null,
        ends_at: FUTURE_END,
      },
    });
    const ctx = routeContext(svc, null);
    ctx.set(currencyContext, "GBP");
    const request = new Request(`${SITE}/product/${product.id}`, {
      headers: { Cookie: await languageCookie.serialize("zh") },
    });
    const { result } = await runRoute(svc, productLoader, request, null, { id: String(product.id) }, ctx);
    const jsonLd = (result as { jsonLd: ReturnType<typeof productJsonLd> }).jsonLd;
    const variants = await db
      .selectFrom("product_variants")
      .select(["sku", "color"])
      .where("product_id", "=", product.id)
      .orderBy("sort_order")
      .execute();
    expect(jsonLd).toMatchObject({
      "@type": "ProductGroup",
      productGroupID: String(product.id),
      variesBy: ["https://schema.org/color"],
    });
    expect(jsonLd.name).toBe("防彈背心");
    const page = `${SITE}/product/${product.id}?lng=zh&colour=`;
    expect(jsonLd.hasVariant).toEqual([
      expect.objectContaining({
        "@type": "Product",
        sku: variants[0]?.sku,
        name: "防彈背心 - 黑色",
        color: "黑色",
        gtin: "036000291452",
        mpn: "PC-1",
        offers: expect.objectContaining({
          url: `${page}Black`,
          priceCurrency: "GBP",
          price: "79.00",
          priceValidUntil: FUTURE_END,
          priceSpecification: expect.objectContaining({
            price: "99.00",
            priceType: "https://schema.org/StrikethroughPrice",
          }),
          availability: "https://schema.org/InStock",
        }),
      }),
      expect.objectContaining({
        sku: variants[1]?.sku,
        offers: expect.objectContaining({ url: `${page}Ranger+Green`, availability: "https://schema.org/OutOfStock" }),
      }),
    ]);
    // The same sku as the feed's g:id.
    await saveEnabledFeeds(db, owner.id, [EN_HKD]);
    const { channel } = await feedOf();
    expect(items(channel).map((item) => childText(item, "g:id"))).toEqual(jsonLd.hasVariant.map((v) => v.sku));
  });
});
