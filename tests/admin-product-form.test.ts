import { parseWithZod } from "@conform-to/zod/v4";
import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import { shownImageKeys } from "~/components/admin/product-images";
import type { FormAnswer } from "~/lib/form-action.server";
import { createTranslator } from "~/lib/i18n";
import { convertFromHkd } from "~/lib/money";
import type { MemoryStorage } from "~/lib/storage.server";
import resources from "~/locales";
import {
  createProduct,
  findProductForEdit,
  imageUrls,
  type ProductInput,
  updateProduct,
} from "~/models/products/editor.server";
import { DEFAULT_SHOP, SHOP_DETAILS_KEY } from "~/models/settings/shop.server";
import type { CurrentUser } from "~/request/auth.server";
import { sessionContext } from "~/request/session.server";
import { action, loader } from "~/routes/admin/product-form";
import { parseCents, productSchema } from "~/schemas/product";
import { createSignedIn } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { formOf, routeContext, runRoute } from "./setup/route";

let svc: TestServices;
let db: DB;
let storage: MemoryStorage;
let ADMIN: CurrentUser;
beforeEach(async () => {
  svc = await freshTestServices();
  ({ db, storage } = svc);
  ADMIN = await createSignedIn(db, { email: "admin@shop.hk", admin: true });
});

function parse(fields: Record<string, string>) {
  return parseWithZod(formOf({ name_en: "Rifle", name_zh: "步槍", price_hkd: "100", ...fields }), {
    schema: productSchema,
  });
}

function errorsOf(fields: Record<string, string>): Record<string, string[] | null> {
  const result = parse(fields);
  return result.status === "error" ? (result.error ?? {}) : {};
}

async function png(color: { r: number; g: number; b: number }): Promise<File> {
  const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: color } })
    .png()
    .toBuffer();
  return new File([new Uint8Array(bytes)], "photo.png", { type: "image/png" });
}

function input(overrides: Partial<ProductInput> = {}): ProductInput {
  return {
    name_en: "Test Rifle",
    name_zh: "測試步槍",
    description_en: "",
    description_zh: "",
    price_hkd_cents: 100_000,
    price_gbp_cents: 10_000,
    price_eur_cents: 11_800,
    price_usd_cents: 12_800,
    category_id: null,
    is_featured: false,
    stock: 0,
    variants: [],
    ...overrides,
  };
}

const context = (user: CurrentUser | null) => routeContext(svc, user);

/** A form answer that is not a redirect (Conform's reply: the values sent back and the errors). */
type Answer = { data: FormAnswer; init: { status: number } };
// biome-ignore lint/suspicious/noExplicitAny: the reply's values are the form's, as sent
const shown = (answer: Answer): Record<string, any> => answer.data.result?.initialValue ?? {};
const errorsIn = (answer: Answer) => answer.data.result?.error ?? {};
/** The colour rows as the form shows them after an answer (a value Conform leaves out is an empty field). */
const rowsShown = (answer: Answer) =>
  ((shown(answer).variants ?? []) as ({ color?: string; color_zh?: string; stock?: string } | undefined)[]).map(
    (row) => ({ color: row?.color ?? "", color_zh: row?.color_zh ?? "", stock: row?.stock ?? "" }),
  );

/** The field a Conform list-intent button sends (add/remove a colour row, move/remove an image). */
function listIntent(type: "insert" | "remove" | "reorder", payload: Record<string, unknown>) {
  return { __intent__: JSON.stringify({ type, payload }) };
}

async function callAction(user: CurrentUser | null, body: FormData, id?: number, ctx = context(user)) {
  const url = id === undefined ? "/admin/products/new" : `/admin/products/edit/${id}`;
  const request = new Request(`http://localhost${url}`, { method: "POST", body });
  return action({
    request,
    context: ctx,
    params: id === undefined ? {} : { id: String(id) },
  } as never) as Promise<unknown>;
}

describe("product schema", () => {
  it("parses money text into integer cents without floats", () => {
    expect(parseCents("12.3")).toBe(1230);
    expect(parseCents("12.34")).toBe(1234);
    expect(parseCents("0.1")).toBe(10);
    expect(parseCents("12.345")).toBeNull();
    expect(parseCents("-1")).toBeNull();
    const result = parse({ price_hkd: "12.3" });
    expect(result.status).toBe("success");
    if (result.status === "success") expect(result.value.price_hkd_cents).toBe(1230);
  });

  it("refuses more than two decimals, negative and missing prices", () => {
    expect(errorsOf({ price_hkd: "12.345" }).price_hkd).toEqual(["adminProductForm.errors.priceInvalid"]);
    expect(errorsOf({ price_hkd: "-5" }).price_hkd).toEqual(["adminProductForm.errors.priceInvalid"]);
    expect(errorsOf({ price_gbp: "1.999" }).price_gbp).toEqual(["adminProductForm.errors.priceInvalid"]);
    expect(errorsOf({ price_hkd: "" }).price_hkd).toEqual(["adminProductForm.errors.priceRequired"]);
    const names = errorsOf({ name_en: "", name_zh: " " });
    expect(names.name_en).toEqual(["adminProductForm.errors.nameEnRequired"]);
    expect(names.name_zh).toEqual(["adminProductForm.errors.nameZhRequired"]);
  });

  it("leaves empty GBP/EUR/USD as following HKD (null) and keeps typed ones as fixed", () => {
    const result = parse({ price_hkd: "1000", price_eur: "99.99" });
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    // No conversion in the schema: the model derives them at the shop's rate when saving.
    expect(result.value.price_gbp_cents).toBeNull();
    expect(result.value.price_usd_cents).toBeNull();
    expect(result.value.price_eur_cents).toBe(9999);
    expect(result.value.is_featured).toBe(false);
  });

  it("reads a colour's Chinese name trimmed, empty as none, and refuses one over 60 characters", () => {
    const ok = parse({
      "variants[0].color": "Black",
      "variants[0].color_zh": "  黑色 ",
      "variants[0].stock": "1",
      "variants[1].color": "Tan",
      "variants[1].color_zh": "   ",
      "variants[1].stock": "1",
      "variants[2].color": "Olive",
      "variants[2].stock": "1",
    });
    expect(ok.status).toBe("success");
    if (ok.status === "success") {
      expect(ok.value.variants.map((variant) => variant.color_zh)).toEqual(["黑色", null, null]);
    }
    const bad = errorsOf({
      "variants[0].color": "Black",
      "variants[0].color_zh": "黑".repeat(61),
      "variants[0].stock": "1",
    });
    expect(bad["variants[0].color_zh"]).toEqual(["adminProductForm.errors.colorTooLong"]);
  });

  it("reads variants as arrays with whole, non-negative stock", () => {
    const ok = parse({
      "variants[0].color": "Black",
      "variants[0].stock": "3",
      "variants[1].color": "Tan",
      "variants[1].stock": "0",
      is_featured: "on",
    });
    expect(ok.status).toBe("success");
    if (ok.status === "success") {
      expect(ok.value.variants).toMatchObject([
        { color: "Black", color_zh: null, stock: 3 },
        { color: "Tan", color_zh: null, stock: 0 },
      ]);
      expect(ok.value.is_featured).toBe(true);
    }
    const bad = errorsOf({
      "variants[0].color": "Black",
      "variants[0].stock": "-1",
      "variants[1].color": "Tan",
      "variants[1].stock": "1.5",
      "variants[2].color": "",
      "variants[2].stock": "2",
    });
    expect(bad["variants[0].stock"]).toEqual(["adminProductForm.errors.stockInvalid"]);
    expect(bad["variants[1].stock"]).toEqual(["adminProductForm.errors.stockInvalid"]);
    expect(bad["variants[2].color"]).toEqual(["adminProductForm.errors.colorRequired"]);
  });

  it("refuses the same colour twice", () => {
    const result = errorsOf({
      "variants[0].color": "Black",
      "variants[0].stock": "1",
      "variants[1].color": "black ",
      "variants[1].stock": "2",
    });
    expect(result["variants[1].color"]).toEqual(["adminProductForm.errors.colorDuplicate"]);
  });
});

describe("saving products", () => {
  it("creates a product with its colours and an image stored through the pipeline", async () => {
    const id = await createProduct(
      db,
      storage,
      input({
        variants: [
          { color: "Black", color_zh: "黑色", stock: 4 },
          { color: "Tan", color_zh: null, stock: 2 },
        ],
      }),
      [await png({ r: 200, g: 0, b: 0 })],
      ADMIN.id,
    );
    const saved = await findProductForEdit(db, id);
    expect(saved?.variants).toMatchObject([
      { color: "Black", color_zh: "黑色", stock: 4 },
      { color: "Tan", color_zh: null, stock: 2 },
    ]);
    expect(saved?.images).toHaveLength(1);
    const file = await storage.get("public", saved?.images[0] ?? "");
    expect(file?.contentType).toBe("image/webp");
    const audit = await db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "product.created")
      .where("entity_id", "=", String(id))
      .executeTakeFirstOrThrow();
    expect(audit.actor_user_id).toBe(ADMIN.id);
    expect(JSON.parse(audit.details ?? "{}").after.product.name_en).toBe("Test Rifle");
  });

  it("gives a product without colours one 'Default' variant holding its stock", async () => {
    const id = await createProduct(db, storage, input({ stock: 7 }), [], ADMIN.id);
    expect((await findProductForEdit(db, id))?.variants).toMatchObject([
      { color: "Default", color_zh: null, stock: 7 },
    ]);
  });

  it("replaces variants and reorders and removes images in one update", async () => {
    const files = [await png({ r: 1, g: 0, b: 0 }), await png({ r: 0, g: 1, b: 0 }), await png({ r: 0, g: 0, b: 1 })];
    const id = await createProduct(
      db,
      storage,
      input({
        variants: [
          { color: "Black", color_zh: "黑色", stock: 4 },
          { color: "Tan", color_zh: null, stock: 2 },
        ],
      }),
      files,
      ADMIN.id,
    );
    const before = await findProductForEdit(db, id);
    const [first, second, third] = before?.images ?? [];
    if (!first || !second || !third) throw new Error("images missing");
    const result = await updateProduct(
      db,
      storage,
      id,
      input({
        name_en: "Renamed",
        variants: [
          { color: "Tan", color_zh: "沙色", stock: 9 },
          { color: "Olive", color_zh: null, stock: 1 },
        ],
      }),
      { keep: [third, first, "products/not-ours.webp"], newFiles: [] },
      ADMIN.id,
    );
    expect(result?.removedImages).toEqual([second]);
    const after = await findProductForEdit(db, id);
    expect(after?.product.name_en).toBe("Renamed");
    expect(after?.variants).toMatchObject([
      { color: "Tan", color_zh: "沙色", stock: 9 },
      { color: "Olive", color_zh: null, stock: 1 },
    ]);
    expect(after?.images).toEqual([third, first]);
    expect(await storage.exists("public", second)).toBe(false);
    expect(await storage.exists("public", first)).toBe(true);
    const audit = await db
      .selectFrom("audit_log")
      .select("details")
      .where("action", "=", "product.updated")
      .where("entity_id", "=", String(id))
      .executeTakeFirstOrThrow();
    const details = JSON.parse(audit.details ?? "{}");
    expect(details.before.product.name_en).toBe("Test Rifle");
    expect(details.after.product.name_en).toBe("Renamed");
    // The colours' Chinese names are part of what the audit shows changed.
    expect(details.before.variants[1]).toMatchObject({ color: "Tan", color_zh: null, stock: 2 });
    expect(details.after.variants[0]).toMatchObject({ color: "Tan", color_zh: "沙色", stock: 9 });
  });
});

/** The shop's exchange rates (millionths per HKD), as the owner sets them under Shop details. */
async function setRates(rates: { GBP: number; EUR: number; USD: number } | null): Promise<void> {
  await db.deleteFrom("site_settings").where("key", "=", SHOP_DETAILS_KEY).execute();
  if (rates) {
    await db
      .insertInto("site_settings")
      .values({
        key: SHOP_DETAILS_KEY,
        value: JSON.stringify({ exchangeRates: rates }),
        updated_at: new Date().toISOString(),
      })
      .execute();
  }
}

async function pricesOf(id: number) {
  return db
    .selectFrom("products")
    .select([
      "price_hkd_cents",
      "price_gbp_cents",
      "price_gbp_derived",
      "price_eur_cents",
      "price_eur_derived",
      "price_usd_cents",
      "price_usd_derived",
    ])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

describe("prices that follow HKD", () => {
  it("stores an empty price as derived, converted at the shop's current rate", async () => {
    await setRates({ GBP: 95_000, EUR: 118_000, USD: 128_005 });
    try {
      const id = await createProduct(
        db,
        storage,
        input({ price_hkd_cents: 88_800, price_gbp_cents: null, price_eur_cents: 9_999, price_usd_cents: null }),
        [],
        ADMIN.id,
      );
      expect(await pricesOf(id)).toEqual({
        price_hkd_cents: 88_800,
        price_gbp_cents: 8_436, // 888.00 × 0.095 = 84.36
        price_gbp_derived: 1,
        price_eur_cents: 9_999,
        price_eur_derived: 0,
        price_usd_cents: 11_367, // 888.00 × 0.128005 = 113.668… → 113.67, half up in cents
        price_usd_derived: 1,
      });
    } finally {
      await setRates(null);
    }
  });

  it("moves a derived price with every HKD change and leaves a typed one alone", async () => {
    const id = await createProduct(
      db,
      storage,
      input({ price_hkd_cents: 88_800, price_gbp_cents: null, price_eur_cents: 9_999, price_usd_cents: null }),
      [],
      ADMIN.id,
    );
    expect((await pricesOf(id)).price_gbp_cents).toBe(8_880);
    await updateProduct(
      db,
      storage,
      id,
      input({ price_hkd_cents: 188_800, price_gbp_cents: null, price_eur_cents: 9_999, price_usd_cents: null }),
      { keep: [], newFiles: [] },
      ADMIN.id,
    );
    const after = await pricesOf(id);
    expect(after.price_gbp_cents).toBe(18_880); // £188.80, not the £88.80 of the first save
    expect(after.price_gbp_derived).toBe(1);
    expect(after.price_usd_cents).toBe(convertFromHkd(188_800, DEFAULT_SHOP.exchangeRates.USD));
    expect(after.price_eur_cents).toBe(9_999);
    expect(after.price_eur_derived).toBe(0);
  });

  it("through the form: HKD only, then HKD raised, then a typed price cleared", async () => {
    const created = (await callAction(
      ADMIN,
      formOf({
        intent: "save",
        name_en: "Follower",
        name_zh: "跟隨",
        price_hkd: "888",
        price_eur: "99.99",
        stock: "1",
      }),
    )) as Response;
    expect(created.status).toBe(302);
    const { id } = await db
      .selectFrom("products")
      .select("id")
      .where("name_en", "=", "Follower")
      .executeTakeFirstOrThrow();
    expect(await pricesOf(id)).toMatchObject({ price_gbp_cents: 8_880, price_gbp_derived: 1, price_eur_derived: 0 });

    // The form shows a derived price empty (its amount is the hint) and a fixed one as typed.
    const loaded = await runRoute(svc, loader, new Request(`http://localhost/admin/products/edit/${id}`), ADMIN, {
      id: String(id),
    });
    const data = loaded.result as Awaited<ReturnType<typeof loader>>;
    expect(data.defaultValue).toMatchObject({ price_hkd: "888.00", price_gbp: "", price_eur: "99.99", price_usd: "" });
    expect(data.rates).toEqual(DEFAULT_SHOP.exchangeRates);

    // Saved as loaded with a higher HKD price: GBP follows, EUR stays fixed.
    const raised = (await callAction(
      ADMIN,
      formOf({
        intent: "save",
        name_en: "Follower",
        name_zh: "跟隨",
        price_hkd: "1888",
        price_eur: "99.99",
        stock: "1",
      }),
      id,
    )) as Response;
    expect(raised.status).toBe(302);
    expect(await pricesOf(id)).toMatchObject({
      price_gbp_cents: 18_880,
      price_gbp_derived: 1,
      price_eur_cents: 9_999,
      price_eur_derived: 0,
    });

    // Clearing the typed EUR price makes it follow HKD again.
    const cleared = (await callAction(
      ADMIN,
      formOf({ intent: "save", name_en: "Follower", name_zh: "跟隨", price_hkd: "1888", price_eur: "", stock: "1" }),
      id,
    )) as Response;
    expect(cleared.status).toBe(302);
    expect(await pricesOf(id)).toMatchObject({ price_eur_cents: 22_278, price_eur_derived: 1 }); // 1888 × 0.118
  });
});

describe("the product form action", () => {
  it("refuses a non-admin with 403 before reading the body, and changes nothing", async () => {
    const count = async () =>
      Number((await db.selectFrom("products").select(db.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
    const before = await count();
    const body = formOf({ intent: "save", name_en: "Hack", name_zh: "黑", price_hkd: "1" });
    for (const user of [null, { id: "c", email: "c@x.hk", isAdmin: false, role: null }]) {
      const error = await callAction(user, body).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(Response);
      expect((error as Response).status).toBe(403);
    }
    expect(await count()).toBe(before);
  });

  it("adds and removes colour rows without saving, keeping what was typed", async () => {
    const added = (await callAction(
      ADMIN,
      formOf({
        ...listIntent("insert", { name: "variants", defaultValue: { color: "", color_zh: "", stock: "0" } }),
        name_en: "Typed",
        "variants[0].color": "Black",
        "variants[0].color_zh": "",
        "variants[0].stock": "2",
      }),
    )) as Answer;
    expect(added.init.status).toBe(200);
    expect(shown(added).name_en).toBe("Typed");
    expect(rowsShown(added)).toEqual([
      { color: "Black", color_zh: "", stock: "2" },
      { color: "", color_zh: "", stock: "0" },
    ]);
    const removed = (await callAction(
      ADMIN,
      formOf({
        ...listIntent("remove", { name: "variants", index: 0 }),
        "variants[0].color": "Black",
        "variants[0].color_zh": "",
        "variants[0].stock": "2",
        "variants[1].color": "Tan",
        "variants[1].color_zh": "",
        "variants[1].stock": "5",
      }),
    )) as Answer;
    expect(rowsShown(removed)).toEqual([{ color: "Tan", color_zh: "", stock: "5" }]);
    expect(await db.selectFrom("products").select("id").where("name_en", "=", "Typed").execute()).toEqual([]);
  });

  it("answers 400 with field errors and the input kept, then saves and redirects", async () => {
    const invalid = (await callAction(
      ADMIN,
      formOf({ intent: "save", name_en: "Pistol", price_hkd: "1.234" }),
    )) as Answer;
    expect(invalid.init.status).toBe(400);
    expect(errorsIn(invalid).name_zh).toEqual(["adminProductForm.errors.nameZhRequired"]);
    expect(errorsIn(invalid).price_hkd).toEqual(["adminProductForm.errors.priceInvalid"]);
    expect(shown(invalid).name_en).toBe("Pistol");

    const body = formOf({ intent: "save", name_en: "Pistol", name_zh: "手槍", price_hkd: "880", stock: "3" });
    body.append("newImages", await png({ r: 9, g: 9, b: 9 }));
    const response = (await callAction(ADMIN, body)) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/products");
    const product = await db
      .selectFrom("products")
      .selectAll()
      .where("name_en", "=", "Pistol")
      .executeTakeFirstOrThrow();
    expect(product.price_hkd_cents).toBe(88_000);
    const saved = await findProductForEdit(db, product.id);
    expect(saved?.variants).toMatchObject([{ color: "Default", color_zh: null, stock: 3 }]);
    expect(saved?.images).toHaveLength(1);
  });

  it("moves and removes images through intents, and skips files beyond the free slots", async () => {
    const colours = [1, 2, 3].map((r) => png({ r, g: 0, b: 0 }));
    const id = await createProduct(
      db,
      storage,
      input({ name_en: "Gallery" }),
      await Promise.all(colours.slice(0, 2)),
      ADMIN.id,
    );
    const existing = await findProductForEdit(db, id);
    const [a, b] = existing?.images ?? [];
    if (!a || !b) throw new Error("images missing");
    // The images the form shows after an answer (only the product's own).
    const shownImages = (answer: Answer) => shownImageKeys(shown(answer).images, imageUrls(existing));
    const moved = (await callAction(
      ADMIN,
      formOf({
        ...listIntent("reorder", { name: "images", from: 1, to: 0 }),
        "images[0]": a,
        "images[1]": b,
        "images[2]": "products/forged.webp",
      }),
      id,
    )) as Answer;
    expect(moved.init.status).toBe(200);
    expect(shownImages(moved)).toEqual([b, a]);
    const removed = (await callAction(
      ADMIN,
      formOf({ ...listIntent("remove", { name: "images", index: 0 }), "images[0]": a, "images[1]": b }),
      id,
    )) as Answer;
    expect(shownImages(removed)).toEqual([b]);
    expect((await findProductForEdit(db, id))?.images).toEqual([a, b]);

    const body = formOf({
      intent: "save",
      name_en: "Gallery",
      name_zh: "圖庫",
      price_hkd: "10",
      "images[0]": b,
      "images[1]": a,
    });
    for (let i = 0; i < 4; i++) body.append("newImages", await png({ r: 10 + i, g: 5, b: 5 }));
    const ctx = context(ADMIN);
    const response = (await callAction(ADMIN, body, id, ctx)) as Response;
    expect(response.status).toBe(302);
    const images = (await findProductForEdit(db, id))?.images ?? [];
    expect(images).toHaveLength(5);
    expect(images.slice(0, 2)).toEqual([b, a]);
    expect(ctx.get(sessionContext).data.flash).toMatchObject({
      key: "adminProductForm.updated",
      detailKey: "adminProductForm.imagesSkipped",
      params: { count: 3 },
    });
  });

  it("saves a colour's Chinese name trimmed, and refuses one too long with 400 and the input kept", async () => {
    const fields = {
      intent: "save",
      name_en: "Colours",
      name_zh: "顏色",
      price_hkd: "100",
      "variants[0].color": "Black",
      "variants[0].color_zh": "  黑色  ",
      "variants[0].stock": "2",
      "variants[1].color": "Tan",
      "variants[1].color_zh": "",
      "variants[1].stock": "1",
    };
    const tooLong = "沙".repeat(61);
    const refused = (await callAction(ADMIN, formOf({ ...fields, "variants[1].color_zh": tooLong }))) as Answer;
    expect(refused.init.status).toBe(400);
    expect(errorsIn(refused)["variants[1].color_zh"]).toEqual(["adminProductForm.errors.colorTooLong"]);
    expect(rowsShown(refused)).toEqual([
      { color: "Black", color_zh: "  黑色  ", stock: "2" },
      { color: "Tan", color_zh: tooLong, stock: "1" },
    ]);
    expect(await db.selectFrom("products").select("id").where("name_en", "=", "Colours").execute()).toEqual([]);

    const saved = (await callAction(ADMIN, formOf(fields))) as Response;
    expect(saved.status).toBe(302);
    const { id } = await db
      .selectFrom("products")
      .select("id")
      .where("name_en", "=", "Colours")
      .executeTakeFirstOrThrow();
    expect((await findProductForEdit(db, id))?.variants).toMatchObject([
      { color: "Black", color_zh: "黑色", stock: 2 },
      { color: "Tan", color_zh: null, stock: 1 },
    ]);

    // An edit keeps, changes and clears the Chinese names of existing colours.
    const edited = (await callAction(
      ADMIN,
      formOf({ ...fields, "variants[0].color_zh": "", "variants[1].color_zh": "沙色" }),
      id,
    )) as Response;
    expect(edited.status).toBe(302);
    expect((await findProductForEdit(db, id))?.variants).toMatchObject([
      { color: "Black", color_zh: null, stock: 2 },
      { color: "Tan", color_zh: "沙色", stock: 1 },
    ]);
  });

  it("saves the weight in grams with its audit entry, empty as 0, and refuses a bad one next to the field with the input kept", async () => {
    for (const [text, error] of [
      ["1.5", true],
      ["-1", true],
      ["1000001", true],
      ["12kg", true],
      ["1000000", false],
      ["0", false],
    ] as const) {
      expect(errorsOf({ weight_grams: text }).weight_grams ?? null, text).toEqual(
        error ? ["adminProductForm.errors.weightInvalid"] : null,
      );
    }
    const fields = { intent: "save", name_en: "Heavy", name_zh: "重", price_hkd: "10" };
    const refused = (await callAction(ADMIN, formOf({ ...fields, weight_grams: "2.5" }))) as Answer;
    expect(refused.init.status).toBe(400);
    expect(errorsIn(refused).weight_grams).toEqual(["adminProductForm.errors.weightInvalid"]);
    expect(shown(refused).weight_grams).toBe("2.5");
    expect(await db.selectFrom("products").select("id").where("name_en", "=", "Heavy").executeTakeFirst()).toBe(
      undefined,
    );

    expect(((await callAction(ADMIN, formOf({ ...fields, weight_grams: " 3200 " }))) as Response).status).toBe(302);
    const { id } = await db
      .selectFrom("products")
      .select("id")
      .where("name_en", "=", "Heavy")
      .executeTakeFirstOrThrow();
    const weightOf = async () =>
      (await db.selectFrom("products").select("weight_grams").where("id", "=", id).executeTakeFirstOrThrow())
        .weight_grams;
    expect(await weightOf()).toBe(3200);
    const loaded = await runRoute(svc, loader, new Request(`http://localhost/admin/products/edit/${id}`), ADMIN, {
      id: String(id),
    });
    expect(loaded.result?.defaultValue.weight_grams).toBe("3200");

    expect(((await callAction(ADMIN, formOf({ ...fields, weight_grams: "" }), id)) as Response).status).toBe(302);
    expect(await weightOf()).toBe(0);
    const audit = await db
      .selectFrom("audit_log")
      .select(["actor_user_id", "details"])
      .where("action", "=", "product.updated")
      .where("entity_id", "=", String(id))
      .executeTakeFirstOrThrow();
    expect(audit.actor_user_id).toBe(ADMIN.id);
    const details = JSON.parse(audit.details ?? "{}");
    expect([details.before.product.weight_grams, details.after.product.weight_grams]).toEqual([3200, 0]);
  });

  it("sets a sale from the form (HKD, a fixed GBP, an end in Hong Kong time), shows it again, refuses one not below the price, and clears it", async () => {
    const fields = { intent: "save", name_en: "On Sale", name_zh: "特價品", price_hkd: "500", price_gbp: "50" };
    const refused = (await callAction(ADMIN, formOf({ ...fields, sale_price_hkd: "500" }))) as Answer;
    expect(refused.init.status).toBe(400);
    expect(errorsIn(refused).sale_price_hkd).toEqual(["adminProductForm.errors.saleNotBelow"]);
    expect(shown(refused).sale_price_hkd).toBe("500");

    const sale = { sale_price_hkd: "450", sale_price_gbp: "45.50", sale_ends: "2099-12-01T18:00" };
    expect(((await callAction(ADMIN, formOf({ ...fields, ...sale }))) as Response).status).toBe(302);
    const row = await db
      .selectFrom("products")
      .select(["id", "sale_price_hkd_cents", "sale_price_gbp_cents", "sale_price_gbp_derived", "sale_ends_at"])
      .where("name_en", "=", "On Sale")
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      sale_price_hkd_cents: 450_00,
      sale_price_gbp_cents: 45_50,
      sale_price_gbp_derived: 0,
      // 18:00 in Hong Kong is 10:00 UTC.
      sale_ends_at: "2099-12-01T10:00:00.000Z",
    });
    const loaded = await runRoute(svc, loader, new Request(`http://localhost/admin/products/edit/${row.id}`), ADMIN, {
      id: String(row.id),
    });
    expect(loaded.result?.defaultValue).toMatchObject({
      sale_price_hkd: "450.00",
      sale_price_gbp: "45.50",
      sale_ends: "2099-12-01T18:00",
    });

    // Saved again without a sale price: the sale ends now.
    expect(((await callAction(ADMIN, formOf(fields), row.id)) as Response).status).toBe(302);
    expect(
      await db
        .selectFrom("products")
        .select(["sale_price_hkd_cents", "sale_ends_at"])
        .where("id", "=", row.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ sale_price_hkd_cents: null, sale_ends_at: null });
  });

  it("answers 404 for a product that does not exist", async () => {
    const error = await callAction(ADMIN, formOf({ intent: "save" }), 999_999).catch((thrown: unknown) => thrown);
    expect((error as { init?: { status: number } }).init?.status).toBe(404);
  });
});

describe("new images kept between answers that save nothing (a page without JavaScript)", () => {
  const insertColour = listIntent("insert", {
    name: "variants",
    defaultValue: { color: "", color_zh: "", stock: "0" },
  });
  const keptKeys = () => [...storage.files.keys()].filter((key) => key.startsWith("private/staged-images/"));
  const keptOf = (answer: Answer) =>
    answer.data as unknown as {
      staged: { token: string; name: string; preview: string }[];
      refused: unknown[];
      skipped: number;
    };
  const tokensOf = (answer: Answer) => keptOf(answer).staged.map(({ token, name }) => `${token}:${name}`);

  async function named(name: string, colour: { r: number; g: number; b: number }): Promise<File> {
    return new File([await (await png(colour)).arrayBuffer()], name, { type: "image/png" });
  }

  it("keeps the files chosen before 'Add colour' and saves them, in order, with the files chosen after", async () => {
    const first = formOf({ ...insertColour, name_en: "Kept", name_zh: "保留", price_hkd: "10" });
    first.append("newImages", await named("red.png", { r: 200, g: 0, b: 0 }));
    first.append("newImages", await named("green.png", { r: 0, g: 200, b: 0 }));
    const added = (await callAction(ADMIN, first)) as Answer;
    expect(added.init.status).toBe(200);
    expect(keptOf(added).staged.map((image) => image.name)).toEqual(["red.png", "green.png"]);
    expect(keptOf(added).staged[0]?.preview).toMatch(/^data:image\/webp;base64,/);
    // Each kept image and its preview, in private storage (never served as they are).
    expect(keptKeys()).toHaveLength(4);

    // A second answer that saves nothing (the new colour left empty): the kept ones come back, plus the file chosen now.
    const second = formOf({
      intent: "save",
      name_en: "Kept",
      name_zh: "保留",
      price_hkd: "10",
      "variants[0].stock": "1",
    });
    for (const value of tokensOf(added)) second.append("keptImages", value);
    second.append("newImages", await named("blue.png", { r: 0, g: 0, b: 200 }));
    const refused = (await callAction(ADMIN, second)) as Answer;
    expect(refused.init.status).toBe(400);
    expect(errorsIn(refused)["variants[0].color"]).toEqual(["adminProductForm.errors.colorRequired"]);
    expect(keptOf(refused).staged.map((image) => image.name)).toEqual(["red.png", "green.png", "blue.png"]);

    // Saved with green left out: red, then blue, then the file chosen at the save.
    const [red, green, blue] = tokensOf(refused);
    const save = formOf({
      intent: "save",
      name_en: "Kept",
      name_zh: "保留",
      price_hkd: "10",
      "variants[0].color": "Black",
      "variants[0].stock": "1",
    });
    for (const value of [red, green, blue]) save.append("keptImages", value ?? "");
    save.append("removeKeptImages", (green ?? "").split(":")[0] ?? "");
    save.append("newImages", await named("white.png", { r: 250, g: 250, b: 250 }));
    const response = (await callAction(ADMIN, save)) as Response;
    expect(response.status).toBe(302);
    const { id } = await db.selectFrom("products").select("id").where("name_en", "=", "Kept").executeTakeFirstOrThrow();
    const images = (await findProductForEdit(db, id))?.images ?? [];
    const colours = await Promise.all(
      images.map(async (key) => {
        const { channels } = await sharp((await storage.get("public", key))?.data).stats();
        return channels.slice(0, 3).map((channel) => Math.round(channel.mean / 50));
      }),
    );
    expect(colours).toEqual([
      [4, 0, 0],
      [0, 0, 4],
      [5, 5, 5],
    ]);
    // Nothing stays kept once saved.
    expect(keptKeys()).toEqual([]);
  });

  it("keeps nothing when the page runs JavaScript (its browser keeps the files), and says why a file was not kept", async () => {
    const withJs = formOf({ ...insertColour, browserKeepsFiles: "1" });
    withJs.append("newImages", await named("red.png", { r: 200, g: 0, b: 0 }));
    const answer = (await callAction(ADMIN, withJs)) as Answer;
    expect(keptOf(answer).staged).toEqual([]);
    expect(keptKeys()).toEqual([]);

    const withoutJs = formOf({ ...insertColour });
    withoutJs.append("newImages", new File(["only text"], "notes.png", { type: "image/png" }));
    for (let i = 0; i < 6; i++) withoutJs.append("newImages", await named(`photo-${i}.png`, { r: i, g: 0, b: 0 }));
    const kept = keptOf((await callAction(ADMIN, withoutJs)) as Answer);
    expect(kept.refused).toEqual([{ name: "notes.png", key: "errors.image.unsupportedType", params: {} }]);
    // Five places: the sixth image is not kept.
    expect(kept.staged).toHaveLength(5);
    expect(kept.skipped).toBe(1);
  });

  it("refuses a token that is not the admin's own, or a day old, with 409 and nothing saved", async () => {
    const first = formOf({ ...insertColour });
    first.append("newImages", await named("red.png", { r: 200, g: 0, b: 0 }));
    const [token = ""] = tokensOf((await callAction(ADMIN, first)) as Answer);
    const other = await createSignedIn(db, { email: "other-admin@shop.hk", admin: true });
    const save = (tokens: string[]) => {
      const body = formOf({ intent: "save", name_en: "Stolen", name_zh: "盜", price_hkd: "10" });
      for (const value of tokens) body.append("keptImages", value);
      return body;
    };
    const stolen = (await callAction(other, save([token]))) as Answer;
    expect(stolen.init.status).toBe(409);
    expect(errorsIn(stolen).newImages).toEqual(["adminProductForm.errors.keptImageGone"]);
    const old = `${(Date.now() - 25 * 60 * 60 * 1000).toString(36)}-${token.split("-").slice(1).join("-")}`;
    const stale = (await callAction(ADMIN, save([old]))) as Answer;
    expect(stale.init.status).toBe(409);
    expect(await db.selectFrom("products").select("id").where("name_en", "=", "Stolen").execute()).toEqual([]);
    // The admin's own live token still saves.
    expect(((await callAction(ADMIN, save([token]))) as Response).status).toBe(302);
  });
});

describe("how many images the form says can still be added", () => {
  it("reads right in both languages, for none, one and several", () => {
    const en = createTranslator("en", resources.en.translation);
    const zh = createTranslator("zh", resources.zh.translation);
    expect(en("adminProductForm.imagesFree", { count: 0 })).toBe(
      "The product has the most images it can have: remove one to add another.",
    );
    expect(en("adminProductForm.imagesFree", { count: 1 })).toBe("You can add 1 more image.");
    expect(en("adminProductForm.imagesFree", { count: 5 })).toBe("You can add up to 5 more images.");
    expect(en("adminProductForm.imagesChosen", { count: 1, free: 5 })).toBe("1 image chosen (room for 5).");
    expect(en("adminProductForm.imagesChosen", { count: 3, free: 5 })).toBe("3 images chosen (room for 5).");
    expect(en("adminProductForm.imagesTooMany", { count: 2, chosen: 4 })).toBe(
      "4 images chosen, but there is room for 2: only the first 2 will be uploaded.",
    );
    expect(zh("adminProductForm.imagesFree", { count: 2 })).toBe("尚可加入 2 張圖片。");
    expect(zh("adminProductForm.imagesChosen", { count: 3, free: 5 })).toBe("已選擇 3 張圖片（尚可加入 5 張）。");
    for (const t of [en, zh]) expect(t("adminProductForm.imagesSkipped", { count: 2 })).not.toMatch(/\(s\)/);
  });
});
