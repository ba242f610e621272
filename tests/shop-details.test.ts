import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import { now } from "#db/connect.server";
import { convertFromHkd, parseRate, rateToText } from "~/lib/money";
import type { MemoryStorage } from "~/lib/storage.server";
import { currencyContext } from "~/middleware/currency";
import { addToCart, cartIdForUser } from "~/models/cart.server";
import {
  fillPlaceholders,
  findContentPage,
  listContentPages,
  placeholderValues,
  resetContentPage,
  saveContentPage,
} from "~/models/settings/content-pages.server";
import {
  DEFAULT_SHOP,
  heroTexts,
  loadShop,
  parseShopDetails,
  recomputeDerivedPrices,
  SHOP_DETAILS_KEY,
  shopDetailsFormValues,
} from "~/models/settings/shop.server";
import type { CurrentUser } from "~/request/auth.server";
import { action as pageAction, loader as pageLoader } from "~/routes/admin/content-page-form";
import { action, loader } from "~/routes/admin/shop-details";
import Cart, { loader as cartLoader } from "~/routes/store/cart";
import { loader as checkoutLoader } from "~/routes/store/checkout";
import { loader as contentLoader } from "~/routes/store/content-page";
import { loader as homeLoader } from "~/routes/store/home";
import { catalogueVersion } from "../server/page-cache";
import { createProduct, createSignedIn, placeTestOrder } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { renderPage } from "./setup/render";
import { formOf, routeContext, runRoute } from "./setup/route";

let svc: TestServices;
let db: DB;
let storage: MemoryStorage;
let ADMIN: CurrentUser;
beforeEach(async () => {
  svc = await freshTestServices();
  ({ db, storage } = svc);
  ADMIN = await createSignedIn(db, { email: "shop-owner@shop.hk", admin: true });
});
const CUSTOMER: CurrentUser = { id: "someone", email: "buyer@shop.hk", isAdmin: false, role: null };

/** The Shop details form as the page first shows it (the defaults), with `changes`. */
function shopForm(changes: Record<string, string> = {}): FormData {
  return formOf({ ...shopDetailsFormValues(DEFAULT_SHOP), ...changes });
}

function post(path: string, body: FormData): Request {
  return new Request(`http://shop.test${path}`, { method: "POST", body });
}

/**
 * A product written as a row: its derived prices are set to values the current rate would not
 * give, a state only a rate change makes (the editor always derives from the rate of the day).
 */
async function insertProduct(hkd: number, prices: { gbp: number; gbpDerived: 0 | 1; eur: number; eurDerived: 0 | 1 }) {
  const at = now();
  const { id } = await db
    .insertInto("products")
    .values({
      name_en: `Product ${hkd}`,
      name_zh: `產品 ${hkd}`,
      description_en: "",
      description_zh: "",
      price_hkd_cents: hkd,
      price_gbp_cents: prices.gbp,
      price_gbp_derived: prices.gbpDerived,
      price_eur_cents: prices.eur,
      price_eur_derived: prices.eurDerived,
      price_usd_cents: 1,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

async function prices(id: number) {
  return db
    .selectFrom("products")
    .select(["price_gbp_cents", "price_eur_cents", "price_usd_cents"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

describe("exchange rates and derived prices", () => {
  it("converts HKD cents at a rate in millionths, rounding half up, in integers", () => {
    expect(convertFromHkd(888_00, 100_000)).toBe(88_80);
    expect(convertFromHkd(1_888_00, 100_000)).toBe(188_80);
    expect(convertFromHkd(5, 100_000)).toBe(1); // 0.5 cent rounds up
    expect(convertFromHkd(4, 100_000)).toBe(0);
    expect(convertFromHkd(999_999_999, 9_999_999)).toBe(9_999_998_990); // no float drift at the top
    expect(parseRate("0.118")).toBe(118_000);
    expect(parseRate("1")).toBe(1_000_000);
    expect(parseRate("0.1234567")).toBeNull();
    expect(parseRate("-1")).toBeNull();
    expect(rateToText(118_000)).toBe("0.118");
    expect(rateToText(2_000_000)).toBe("2");
  });

  it("recomputes only the derived prices of a currency, with the same rounding as the form", async () => {
    const derived = await insertProduct(1_888_00, { gbp: 88_80, gbpDerived: 1, eur: 99_00, eurDerived: 0 });
    const typed = await insertProduct(1_888_00, { gbp: 150_00, gbpDerived: 0, eur: 99_00, eurDerived: 1 });
    await recomputeDerivedPrices(db, "GBP", 98_765);
    expect((await prices(derived)).price_gbp_cents).toBe(convertFromHkd(1_888_00, 98_765));
    expect((await prices(typed)).price_gbp_cents).toBe(150_00);
    // EUR was not touched by a GBP recompute.
    expect((await prices(typed)).price_eur_cents).toBe(99_00);
  });
});

describe("shop details", () => {
  it("are the shipped defaults until the owner saves, and survive a damaged stored value", async () => {
    expect(await loadShop(db)).toEqual(DEFAULT_SHOP);
    expect(parseShopDetails("{not json")).toEqual(DEFAULT_SHOP);
    const partial = parseShopDetails(
      JSON.stringify({ name: { en: "Lion Rock" }, shipping: { GBP: { feeCents: 500, freeAboveCents: null } } }),
    );
    expect(partial.name).toEqual({ en: "Lion Rock", zh: DEFAULT_SHOP.name.zh });
    expect(partial.shipping.GBP).toEqual({ feeCents: 500, freeAboveCents: null });
    expect(partial.shipping.HKD).toEqual(DEFAULT_SHOP.shipping.HKD);
    // A negative or fractional amount is not a price.
    expect(
      parseShopDetails(JSON.stringify({ shipping: { HKD: { feeCents: -5, freeAboveCents: 1.5 } } })).shipping.HKD,
    ).toEqual(DEFAULT_SHOP.shipping.HKD);
  });

  it("are for admins only", async () => {
    const get = await runRoute(svc, loader, new Request("http://shop.test/admin/settings/shop"), CUSTOMER);
    expect((get.thrown as Response).status).toBe(302);
    const write = await runRoute(svc, action, post("/admin/settings/shop", shopForm({ name_en: "Hacked" })), CUSTOMER);
    expect((write.thrown as Response).status).toBe(403);
    expect((await loadShop(db)).name.en).toBe(DEFAULT_SHOP.name.en);
  });

  it("refuses bad input with 400, the messages next to the fields and everything typed kept", async () => {
    const { result } = await runRoute(
      svc,
      action,
      post(
        "/admin/settings/shop",
        shopForm({ name_en: " ", support_email: "not-an-email", fee_gbp: "1.234", rate_usd: "0", address_en: "Kept" }),
      ),
      ADMIN,
    );
    const reply = result as unknown as {
      data: { result: { error: Record<string, string[]>; initialValue: Record<string, string> } };
      init: { status: number };
    };
    expect(reply.init.status).toBe(400);
    expect(reply.data.result.error).toMatchObject({
      name_en: ["adminShop.errors.nameRequired"],
      support_email: ["adminShop.errors.emailInvalid"],
      fee_gbp: ["adminShop.errors.moneyInvalid"],
      rate_usd: ["adminShop.errors.rateInvalid"],
    });
    expect(reply.data.result.initialValue.address_en).toBe("Kept");
    expect(
      await db.selectFrom("site_settings").select("key").where("key", "=", SHOP_DETAILS_KEY).executeTakeFirst(),
    ).toBeUndefined();
  });

  it("saves name, contact, delivery per currency and rates; a new rate moves every derived price at once", async () => {
    const derived = await insertProduct(1_000_00, { gbp: 100_00, gbpDerived: 1, eur: 118_00, eurDerived: 1 });
    const logo = await sharp({ create: { width: 600, height: 300, channels: 4, background: "#a3b86c" } })
      .png()
      .toBuffer();
    const form = shopForm({
      name_en: "Lion Rock Airsoft",
      name_zh: "獅子山氣槍",
      support_email: "Help@LionRock.example",
      sender_email: "orders@lionrock.example",
      fee_gbp: "4.50",
      free_above_gbp: "",
      free_above_hkd: "800",
      rate_gbp: "0.095",
    });
    form.set("supported_by_logo", new File([new Uint8Array(logo)], "logo.png", { type: "image/png" }));
    const { result, flash } = await runRoute(svc, action, post("/admin/settings/shop", form), ADMIN);
    expect((result as Response).status).toBe(302);
    expect(flash?.key).toBe("adminShop.savedRates");

    const shop = await loadShop(db);
    expect(shop.name).toEqual({ en: "Lion Rock Airsoft", zh: "獅子山氣槍" });
    expect(shop.supportEmail).toBe("help@lionrock.example");
    expect(shop.shipping.GBP).toEqual({ feeCents: 4_50, freeAboveCents: null });
    expect(shop.shipping.HKD).toEqual({ feeCents: 10_00, freeAboveCents: 800_00 });
    expect(shop.exchangeRates.GBP).toBe(95_000);
    // The logo went through the image pipeline: WebP, fitted into 480x240.
    const key = shop.supportedBy.logoKey ?? "";
    expect(key).toMatch(/^logos\/.+\.webp$/);
    const stored = await storage.get("public", key);
    const meta = await sharp(Buffer.from(stored?.data ?? [])).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 480, 240]);

    // Every derived GBP price follows the new rate; EUR (same rate) did not move.
    expect(await prices(derived)).toMatchObject({ price_gbp_cents: 95_00, price_eur_cents: 118_00 });
    const audit = await db
      .selectFrom("audit_log")
      .select(["actor_user_id", "details"])
      .where("action", "=", "setting.shop_details_updated")
      .executeTakeFirstOrThrow();
    expect(audit.actor_user_id).toBe(ADMIN.id);

    // Saving again without a file keeps the logo; removing it deletes the file.
    const keep = await runRoute(svc, action, post("/admin/settings/shop", formOf(shopDetailsFormValues(shop))), ADMIN);
    expect(keep.flash?.key).toBe("adminShop.saved");
    expect((await loadShop(db)).supportedBy.logoKey).toBe(key);
    await runRoute(
      svc,
      action,
      post("/admin/settings/shop", formOf({ ...shopDetailsFormValues(shop), supported_by_logo_remove: "on" })),
      ADMIN,
    );
    expect((await loadShop(db)).supportedBy.logoKey).toBeNull();
    expect(await storage.get("public", key)).toBeNull();
  });

  it("save the home headline, subtitle and footer text in both languages, shown at once on cached pages", async () => {
    const home = async (lng: string) => {
      const { result } = await runRoute(svc, homeLoader, new Request(`http://shop.test/?lng=${lng}`), null);
      return (result as { hero: { title: string; text: string } }).hero;
    };
    expect(await home("en")).toEqual({ title: DEFAULT_SHOP.heroTitle.en, text: DEFAULT_SHOP.heroText.en });
    const version = await catalogueVersion(db);
    const texts = {
      hero_title_en: "Lion Rock Airsoft",
      hero_title_zh: "獅子山氣槍",
      hero_text_en: "Kit for Kowloon's fields.",
      hero_text_zh: "",
      footer_text_en: "Open Saturdays.",
      footer_text_zh: "逢星期六營業。",
    };
    const saved = await runRoute(svc, action, post("/admin/settings/shop", shopForm(texts)), ADMIN);
    expect((saved.result as Response).status).toBe(302);
    // The anonymous pages the cache holds are filed under the old version: none is served again.
    expect(await catalogueVersion(db)).toBeGreaterThan(version);
    expect(await home("en")).toEqual({ title: "Lion Rock Airsoft", text: "Kit for Kowloon's fields." });
    // An empty Chinese subtitle shows the English one rather than nothing.
    expect(await home("zh")).toEqual({ title: "獅子山氣槍", text: "Kit for Kowloon's fields." });
    const shop = await loadShop(db);
    expect(shop.footerText).toEqual({ en: "Open Saturdays.", zh: "逢星期六營業。" });
    expect(heroTexts(shop, "zh").title).toBe("獅子山氣槍");
    expect(shopDetailsFormValues(shop)).toMatchObject(texts);

    // Too long: refused next to the field, the text kept.
    const long = "x".repeat(121);
    const { result } = await runRoute(
      svc,
      action,
      post("/admin/settings/shop", shopForm({ hero_title_en: long })),
      ADMIN,
    );
    const reply = result as unknown as {
      data: { result: { error: Record<string, string[]>; initialValue: Record<string, string> } };
      init: { status: number };
    };
    expect(reply.init.status).toBe(400);
    expect(reply.data.result.error.hero_title_en).toEqual(["adminShop.errors.tooLong"]);
    expect(reply.data.result.initialValue.hero_title_en).toBe(long);
  });

  it("a file that is not an image is refused at the logo field, nothing saved", async () => {
    const before = await loadShop(db);
    const form = shopForm({ name_en: "Should not save" });
    form.set("supported_by_logo", new File(["<svg onload=alert(1)>"], "logo.png", { type: "image/png" }));
    const { result } = await runRoute(svc, action, post("/admin/settings/shop", form), ADMIN);
    const reply = result as unknown as {
      data: { result: { error: Record<string, string[]> } };
      init: { status: number };
    };
    expect(reply.init.status).toBe(400);
    expect(reply.data.result.error.supported_by_logo?.[0]).toMatch(/^errors\.image\./);
    expect(await loadShop(db)).toEqual(before);
  });
});

describe("delivery in every currency", () => {
  it("is HK$10, free above HK$100 in a new shop, and the same value in GBP, EUR and USD at the exchange rates", async () => {
    const shop = await loadShop(db);
    expect(shop.shipping).toEqual({
      HKD: { feeCents: 10_00, freeAboveCents: 100_00 },
      GBP: { feeCents: 1_00, freeAboveCents: 10_00 },
      EUR: { feeCents: 1_18, freeAboveCents: 11_80 },
      USD: { feeCents: 1_28, freeAboveCents: 12_80 },
    });
    expect(shop.shippingFromHkd).toEqual({ GBP: true, EUR: true, USD: true });
    // Details saved before this choice existed: the old default (10 / 100 in every currency) was
    // never the owner's, so it follows HKD; a rule the owner changed stays theirs.
    const old = { feeCents: 10_00, freeAboveCents: 100_00 };
    const saved = parseShopDetails(
      JSON.stringify({
        shipping: {
          HKD: { feeCents: 30_00, freeAboveCents: 800_00 },
          GBP: old,
          EUR: old,
          USD: { feeCents: 12_00, freeAboveCents: null },
        },
        exchangeRates: { GBP: 100_000, EUR: 118_000, USD: 128_000 },
      }),
    );
    expect(saved.shipping.GBP).toEqual({ feeCents: 3_00, freeAboveCents: 80_00 });
    expect(saved.shipping.EUR).toEqual({ feeCents: 3_54, freeAboveCents: 94_40 });
    expect(saved.shipping.USD).toEqual({ feeCents: 12_00, freeAboveCents: null });
    expect(saved.shippingFromHkd).toEqual({ GBP: true, EUR: true, USD: false });
  });

  it("follows the HKD charge and the rate until the owner sets a currency's own, and again when they tick it", async () => {
    const save = async (changes: Record<string, string>) => {
      const form = formOf({ ...shopDetailsFormValues(await loadShop(db)), ...changes });
      const { result } = await runRoute(svc, action, post("/admin/settings/shop", form), ADMIN);
      expect((result as Response).status).toBe(302);
      return loadShop(db);
    };
    expect(shopDetailsFormValues(DEFAULT_SHOP)).toMatchObject({
      fee_gbp: "1.00",
      free_above_gbp: "10.00",
      shipping_from_hkd_gbp: "on",
    });
    // A new HKD charge and a new GBP rate: GBP, EUR and USD move with them.
    let shop = await save({ fee_hkd: "30", free_above_hkd: "800", rate_gbp: "0.095" });
    expect(shop.shipping.GBP).toEqual({ feeCents: 2_85, freeAboveCents: 76_00 });
    expect(shop.shipping.USD).toEqual({ feeCents: 3_84, freeAboveCents: 102_40 });
    // An amount typed over the one shown is the currency's own, box ticked or not (no JavaScript).
    shop = await save({ fee_eur: "4.00" });
    expect(shop.shipping.EUR).toEqual({ feeCents: 4_00, freeAboveCents: 94_40 });
    expect(shop.shippingFromHkd).toEqual({ GBP: true, EUR: false, USD: true });
    // Unticked with the amounts shown: those amounts, kept when the rate or HK$ charge moves.
    shop = await save({ shipping_from_hkd_usd: "" });
    expect(shop.shippingFromHkd.USD).toBe(false);
    shop = await save({ fee_hkd: "40", rate_usd: "0.2" });
    expect(shop.shipping.USD).toEqual({ feeCents: 3_84, freeAboveCents: 102_40 });
    expect(shop.shipping.GBP).toEqual({ feeCents: 3_80, freeAboveCents: 76_00 });
    // Ticked again: it follows HKD at the new rate.
    shop = await save({ shipping_from_hkd_usd: "on" });
    expect(shop.shipping.USD).toEqual({ feeCents: 8_00, freeAboveCents: 160_00 });
    expect(shop.shippingFromHkd).toEqual({ GBP: true, EUR: false, USD: true });
  });

  it("is what the cart and checkout show and what the order charges, in GBP", async () => {
    const product = await createProduct(db, {
      price_hkd_cents: 80_00,
      price_gbp_cents: 8_00,
      variants: [["Black", 9]],
    });
    const shopper = await createSignedIn(db);
    const cartId = await cartIdForUser(db, shopper.id);
    await addToCart(db, cartId, { productId: product.id, color: "Black", quantity: 1 });
    const inGbp = async (fn: typeof cartLoader | typeof checkoutLoader, path: string) => {
      const ctx = routeContext(svc, shopper);
      ctx.set(currencyContext, "GBP");
      const { result } = await runRoute(svc, fn as never, new Request(`http://shop.test${path}`), shopper, {}, ctx);
      return result as Awaited<ReturnType<typeof cartLoader>>;
    };
    // £8 is under the £10 threshold: £1 delivery, as the page says.
    const cart = await inGbp(cartLoader, "/cart");
    expect(cart.cart).toMatchObject({ subtotalCents: 8_00, shippingCents: 1_00, totalCents: 9_00 });
    const html = await renderPage({ url: "/cart", Component: Cart, loaderData: cart });
    expect(html).toMatch(/data-testid="shipping"[^>]*>£1\.00</);
    expect(html).toContain("Free shipping on orders above £10.00.");
    expect((await inGbp(checkoutLoader, "/checkout")).cart).toMatchObject({ shippingCents: 1_00, totalCents: 9_00 });
    const { order } = await placeTestOrder(db, {
      currency: "GBP",
      lines: [{ productId: product.id, color: "Black", quantity: 1 }],
    });
    expect(order).toMatchObject({ subtotal_cents: 8_00, shipping_cents: 1_00, total_cents: 9_00 });
    // Two of them, £16: free.
    const { order: two } = await placeTestOrder(db, {
      currency: "GBP",
      lines: [{ productId: product.id, color: "Black", quantity: 2 }],
    });
    expect(two).toMatchObject({ subtotal_cents: 16_00, shipping_cents: 0 });
  });
});

describe("policy pages", () => {
  it("fill in the shop's details, escaped as plain Markdown, amounts in the reader's currency", () => {
    const shop = { ...DEFAULT_SHOP, name: { en: "*Bold* [x](javascript:y)", zh: "獅子山" } };
    const values = placeholderValues(
      { ...shop, shipping: { ...shop.shipping, GBP: { feeCents: 4_50, freeAboveCents: null } } },
      "en",
      "GBP",
      "never",
    );
    expect(values).toMatchObject({ shipping_fee: "£4.50", free_shipping_above: "never" });
    expect(placeholderValues(DEFAULT_SHOP, "zh", "HKD", "").free_shipping_above).toBe("HK$100");
    const body = fillPlaceholders("Welcome to {{shop_name}}. {{unknown}} stays.", values, { markdown: true });
    expect(body).toBe("Welcome to \\*Bold\\* \\[x\\]\\(javascript:y\\). {{unknown}} stays.");
    expect(fillPlaceholders("{{ shop_name }}", values, { markdown: false })).toBe("*Bold* [x](javascript:y)");
  });

  it("show the default text until the owner edits one; the owner's text shows, reset brings the default back", async () => {
    // The shop's name and delivery charges, as the owner saved them.
    const details = shopForm({ name_en: "Lion Rock Airsoft", name_zh: "獅子山氣槍", free_above_hkd: "800" });
    const saving = await runRoute(svc, action, post("/admin/settings/shop", details), ADMIN);
    expect((saving.result as Response).status).toBe(302);
    const shop = await loadShop(db);
    const read = async (path: string) => {
      const { result } = await runRoute(svc, contentLoader, new Request(`http://shop.test${path}`), null);
      return result as { title: string; html: string; description: string };
    };
    const shipping = await read("/shipping");
    // The default text, with the shop's delivery charges in HKD, the default currency here.
    expect(shipping.html).toContain("<h2>Shipping fees</h2>");
    expect(shipping.html).toContain("above HK$800");
    expect(shipping.html).toContain(`flat shipping fee of HK$10`);
    expect((await read("/terms")).html).toContain(shop.name.en);

    const edit = formOf({
      intent: "save",
      title_en: "Delivery",
      description_en: "How we deliver",
      body_en: "## Couriers\n\nWe ship with **SF Express** from {{shop_name}}.<script>alert(1)</script>",
      title_zh: "送貨",
      description_zh: "",
      body_zh: "順豐送貨。",
    });
    const refused = await runRoute(svc, pageAction, post("/admin/settings/pages/shipping", edit), CUSTOMER, {
      slug: "shipping",
    });
    expect((refused.thrown as Response).status).toBe(403);
    const saved = await runRoute(svc, pageAction, post("/admin/settings/pages/shipping", edit), ADMIN, {
      slug: "shipping",
    });
    expect((saved.result as Response).headers.get("Location")).toBe("/admin/settings/pages/shipping");
    const page = await read("/shipping");
    expect(page.title).toBe("Delivery");
    expect(page.html).toContain("<h2>Couriers</h2>");
    expect(page.html).toContain("<strong>SF Express</strong> from Lion Rock Airsoft.");
    expect(page.html).not.toContain("<script");
    expect((await listContentPages(db)).find((p) => p.slug === "shipping")?.editedAt).not.toBeNull();

    // Empty required fields: 400 with the messages, nothing changed.
    const bad = await runRoute(
      svc,
      pageAction,
      post(
        "/admin/settings/pages/shipping",
        formOf({ intent: "save", title_en: "", body_en: "x", title_zh: "送貨", body_zh: "" }),
      ),
      ADMIN,
      { slug: "shipping" },
    );
    const reply = bad.result as unknown as {
      data: { result: { error: Record<string, string[]> } };
      init: { status: number };
    };
    expect(reply.init.status).toBe(400);
    expect(reply.data.result.error).toMatchObject({
      title_en: ["adminShop.errors.titleRequired"],
      body_zh: ["adminShop.errors.bodyRequired"],
    });
    expect((await findContentPage(db, "shipping")).text.en.title).toBe("Delivery");

    // Reset without the confirmation asks first; confirmed, the default is back.
    const ask = await runRoute(
      svc,
      pageAction,
      post("/admin/settings/pages/shipping", formOf({ intent: "reset" })),
      ADMIN,
      {
        slug: "shipping",
      },
    );
    expect((ask.result as Response).headers.get("Location")).toBe("/admin/settings/pages/shipping?reset#reset");
    await resetContentPage(db, "shipping", { actorUserId: ADMIN.id });
    expect((await read("/shipping")).html).toContain("<h2>Shipping fees</h2>");
    expect((await findContentPage(db, "shipping")).editedAt).toBeNull();

    // An unknown page is a 404, for the editor too.
    const missing = await runRoute(svc, pageLoader, new Request("http://shop.test/admin/settings/pages/nope"), ADMIN, {
      slug: "nope",
    });
    expect((missing.thrown as { init: { status: number } }).init.status).toBe(404);
  });

  it("keep both languages apart", async () => {
    await saveContentPage(
      db,
      "faq",
      {
        en: { title: "Questions", description: "", body: "English answers" },
        zh: { title: "問題", description: "", body: "中文答案" },
      },
      { actorUserId: null },
    );
    const zh = new Request("http://shop.test/faq?lng=zh");
    const { result } = await runRoute(svc, contentLoader, zh, null);
    expect(result).toMatchObject({ title: "問題", html: "<p>中文答案</p>" });
  });
});
