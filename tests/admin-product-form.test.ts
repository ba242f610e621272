import { parseWithZod } from "@conform-to/zod/v4";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { CurrentUser } from "~/lib/auth.server";
import { sessionContext } from "~/lib/session.server";
import { createProduct, findProductForEdit, type ProductInput, updateProduct } from "~/models/admin-product.server";
import { createUser } from "~/models/user.server";
import { action, type ProductFormActionData } from "~/routes/admin/product-form";
import { EXCHANGE_RATES, parseCents, productSchema } from "~/schemas/product";
import { createTestServices } from "./setup/db";
import { routeContext } from "./setup/route";

const svc = await createTestServices();
const { db, storage } = svc;
const adminRow = await createUser(db, { email: "admin@shop.hk", password: "secret12" });
const ADMIN: CurrentUser = { id: adminRow.id, email: adminRow.email, isAdmin: true };

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

function parse(fields: Record<string, string>) {
  return parseWithZod(form({ name_en: "Rifle", name_zh: "步槍", price_hkd: "100", ...fields }), {
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

  it("fills empty GBP/EUR/USD from HKD with the configured rates and keeps given ones", () => {
    const result = parse({ price_hkd: "1000", price_eur: "99.99" });
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    expect(result.value.price_gbp_cents).toBe(Math.round(100_000 * EXCHANGE_RATES.GBP));
    expect(result.value.price_usd_cents).toBe(Math.round(100_000 * EXCHANGE_RATES.USD));
    expect(result.value.price_eur_cents).toBe(9999);
    expect(result.value.is_featured).toBe(false);
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
      expect(ok.value.variants).toEqual([
        { color: "Black", stock: 3 },
        { color: "Tan", stock: 0 },
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
          { color: "Black", stock: 4 },
          { color: "Tan", stock: 2 },
        ],
      }),
      [await png({ r: 200, g: 0, b: 0 })],
      ADMIN.id,
    );
    const saved = await findProductForEdit(db, id);
    expect(saved?.variants).toEqual([
      { color: "Black", stock: 4 },
      { color: "Tan", stock: 2 },
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
    expect((await findProductForEdit(db, id))?.variants).toEqual([{ color: "Default", stock: 7 }]);
  });

  it("replaces variants and reorders and removes images in one update", async () => {
    const files = [await png({ r: 1, g: 0, b: 0 }), await png({ r: 0, g: 1, b: 0 }), await png({ r: 0, g: 0, b: 1 })];
    const id = await createProduct(
      db,
      storage,
      input({
        variants: [
          { color: "Black", stock: 4 },
          { color: "Tan", stock: 2 },
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
          { color: "Tan", stock: 9 },
          { color: "Olive", stock: 1 },
        ],
      }),
      { keep: [third, first, "products/not-ours.webp"], newFiles: [] },
      ADMIN.id,
    );
    expect(result?.removedImages).toEqual([second]);
    const after = await findProductForEdit(db, id);
    expect(after?.product.name_en).toBe("Renamed");
    expect(after?.variants).toEqual([
      { color: "Tan", stock: 9 },
      { color: "Olive", stock: 1 },
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
  });
});

describe("the product form action", () => {
  it("refuses a non-admin with 403 before reading the body, and changes nothing", async () => {
    const count = async () =>
      Number((await db.selectFrom("products").select(db.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
    const before = await count();
    const body = form({ intent: "save", name_en: "Hack", name_zh: "黑", price_hkd: "1" });
    for (const user of [null, { id: "c", email: "c@x.hk", isAdmin: false }]) {
      const error = await callAction(user, body).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(Response);
      expect((error as Response).status).toBe(403);
    }
    expect(await count()).toBe(before);
  });

  it("adds and removes colour rows without saving, keeping what was typed", async () => {
    const added = (await callAction(
      ADMIN,
      form({ intent: "add-variant", name_en: "Typed", "variants[0].color": "Black", "variants[0].stock": "2" }),
    )) as { data: ProductFormActionData; init: { status: number } };
    expect(added.init.status).toBe(200);
    expect(added.data.draft.name_en).toBe("Typed");
    expect(added.data.draft.variants).toEqual([
      { color: "Black", stock: "2" },
      { color: "", stock: "0" },
    ]);
    const removed = (await callAction(
      ADMIN,
      form({
        intent: "remove-variant-0",
        "variants[0].color": "Black",
        "variants[0].stock": "2",
        "variants[1].color": "Tan",
        "variants[1].stock": "5",
      }),
    )) as { data: ProductFormActionData };
    expect(removed.data.draft.variants).toEqual([{ color: "Tan", stock: "5" }]);
    expect(await db.selectFrom("products").select("id").where("name_en", "=", "Typed").execute()).toEqual([]);
  });

  it("answers 400 with field errors and the input kept, then saves and redirects", async () => {
    const invalid = (await callAction(ADMIN, form({ intent: "save", name_en: "Pistol", price_hkd: "1.234" }))) as {
      data: ProductFormActionData;
      init: { status: number };
    };
    expect(invalid.init.status).toBe(400);
    expect(invalid.data.errors.name_zh).toEqual(["adminProductForm.errors.nameZhRequired"]);
    expect(invalid.data.errors.price_hkd).toEqual(["adminProductForm.errors.priceInvalid"]);
    expect(invalid.data.draft.name_en).toBe("Pistol");

    const body = form({ intent: "save", name_en: "Pistol", name_zh: "手槍", price_hkd: "880", stock: "3" });
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
    expect(saved?.variants).toEqual([{ color: "Default", stock: 3 }]);
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
    const [a, b] = (await findProductForEdit(db, id))?.images ?? [];
    if (!a || !b) throw new Error("images missing");
    const moved = (await callAction(
      ADMIN,
      form({ intent: "image-up-1", "images[0]": a, "images[1]": b, "images[2]": "products/forged.webp" }),
      id,
    )) as { data: ProductFormActionData; init: { status: number } };
    expect(moved.init.status).toBe(200);
    expect(moved.data.draft.images.map((image) => image.key)).toEqual([b, a]);
    const removed = (await callAction(
      ADMIN,
      form({ intent: "image-remove-0", "images[0]": a, "images[1]": b }),
      id,
    )) as {
      data: ProductFormActionData;
    };
    expect(removed.data.draft.images.map((image) => image.key)).toEqual([b]);
    expect((await findProductForEdit(db, id))?.images).toEqual([a, b]);

    const body = form({
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

  it("answers 404 for a product that does not exist", async () => {
    const error = await callAction(ADMIN, form({ intent: "save" }), 999_999).catch((thrown: unknown) => thrown);
    expect((error as { init?: { status: number } }).init?.status).toBe(404);
  });
});
