import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import type { FormAnswer } from "~/lib/form-action.server";
import { type MemoryStorage, publicUrl } from "~/lib/storage.server";
import { listFeaturedProducts } from "~/models/products/cards.server";
import { createProduct, findProductForEdit, type ProductInput } from "~/models/products/editor.server";
import type { CurrentUser } from "~/request/auth.server";
import { action } from "~/routes/admin/product-form";
import { loader } from "~/routes/store/product";
import { createSignedIn } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { formOf, runRoute } from "./setup/route";

/** Images per colour (docs/decisions/035): the form's tags, the product page's gallery, the card's image. */

let svc: TestServices;
let db: DB;
let storage: MemoryStorage;
let ADMIN: CurrentUser;
beforeEach(async () => {
  svc = await freshTestServices();
  ({ db, storage } = svc);
  ADMIN = await createSignedIn(db, { email: "admin@shop.hk", admin: true });
});

async function png(r: number): Promise<File> {
  const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r, g: 0, b: 0 } } })
    .png()
    .toBuffer();
  return new File([new Uint8Array(bytes)], "photo.png", { type: "image/png" });
}

const input = (overrides: Partial<ProductInput> = {}): ProductInput => ({
  name_en: "Colour Rifle",
  name_zh: "顏色步槍",
  description_en: "",
  description_zh: "",
  price_hkd_cents: 100_00,
  price_gbp_cents: null,
  price_eur_cents: null,
  price_usd_cents: null,
  category_id: null,
  is_featured: true,
  stock: 0,
  variants: [
    { color: "Black", color_zh: "黑色", stock: 5 },
    { color: "Tan", color_zh: "沙色", stock: 5 },
  ],
  ...overrides,
});

/** A product with the two colours and three images; returns its id and image keys. */
async function productWithImages(overrides: Partial<ProductInput> = {}) {
  const id = await createProduct(db, storage, input(overrides), [await png(10), await png(20), await png(30)], null);
  const images = (await findProductForEdit(db, id))?.images ?? [];
  return { id, images };
}

async function tag(id: number, colors: (string | null)[]) {
  for (const [index, color] of colors.entries()) {
    await db
      .updateTable("product_images")
      .set({ color })
      .where("product_id", "=", id)
      .where("sort_order", "=", index)
      .execute();
  }
}

async function save(id: number, fields: Record<string, string>) {
  const body = formOf({
    intent: "save",
    name_en: "Colour Rifle",
    name_zh: "顏色步槍",
    price_hkd: "100",
    "variants[0].color": "Black",
    "variants[0].stock": "5",
    "variants[1].color": "Tan",
    "variants[1].stock": "5",
    ...fields,
  });
  const request = new Request(`http://localhost/admin/products/edit/${id}`, { method: "POST", body });
  const { result, thrown } = await runRoute(svc, action as never, request, ADMIN, { id: String(id) });
  if (thrown) throw thrown;
  return result as Response | { data: FormAnswer; init: { status: number } };
}

const colorsOf = async (id: number) => (await findProductForEdit(db, id))?.imageColors;

describe("the product form's image colours", () => {
  it("saves each image's colour, keeps it across saves, and drops a renamed colour's tag", async () => {
    const { id, images } = await productWithImages();
    const [a, b, c] = images as [string, string, string];
    const saved = await save(id, {
      "images[0].key": a,
      "images[0].color": "Tan",
      "images[1].key": b,
      "images[1].color": "",
      "images[2].key": c,
      "images[2].color": "Black",
    });
    expect((saved as Response).status).toBe(302);
    expect(await colorsOf(id)).toEqual(["Tan", null, "Black"]);

    // Reordered by bare keys (no colour asked): every image keeps its colour.
    await save(id, { "images[0]": c, "images[1]": a, "images[2]": b });
    expect(await findProductForEdit(db, id)).toMatchObject({ images: [c, a, b], imageColors: ["Black", "Tan", null] });

    // Tan renamed to Sand in the same save, the select still saying Tan: that image is for every colour.
    await save(id, {
      "variants[1].color": "Sand",
      "images[0].key": c,
      "images[0].color": "Black",
      "images[1].key": a,
      "images[1].color": "Tan",
      "images[2].key": b,
    });
    expect(await colorsOf(id)).toEqual(["Black", null, null]);
  });

  it("refuses a colour the product does not have: 400 at that image's field, nothing stored", async () => {
    const { id, images } = await productWithImages();
    const [a, b] = images as [string, string];
    await tag(id, ["Black"]);
    const answer = (await save(id, {
      name_en: "Renamed",
      "images[0].key": a,
      "images[0].color": "",
      "images[1].key": b,
      "images[1].color": "Purple",
    })) as { data: FormAnswer; init: { status: number } };
    expect(answer.init.status).toBe(400);
    expect(answer.data.result?.error).toMatchObject({
      "images[1].color": ["adminProductForm.errors.imageColorUnknown"],
    });
    const after = await findProductForEdit(db, id);
    expect(after?.product.name_en).toBe("Colour Rifle");
    expect(after?.imageColors).toEqual(["Black", null, null]);
  });
});

describe("the product page's gallery for a colour", () => {
  it("shows the colour's images first, then the untagged ones, and the default colour without ?colour=", async () => {
    const { id } = await productWithImages();
    await tag(id, ["Tan", "Black", null]);
    const page = async (query: string) => {
      const request = new Request(`http://localhost/product/${id}${query}`);
      const { result, thrown } = await runRoute(svc, loader as never, request, null, { id: String(id) });
      if (thrown) throw thrown;
      const data = result as Awaited<ReturnType<typeof loader>>;
      return { colour: data.colour, gallery: data.gallery };
    };
    const keys = (await findProductForEdit(db, id))?.images ?? [];
    const at = (...indexes: number[]) => indexes.map((index) => publicUrl(keys[index]));

    expect(await page("")).toEqual({ colour: "Black", gallery: at(1, 2) });
    expect(await page("?colour=Tan")).toEqual({ colour: "Tan", gallery: at(0, 2) });
    expect(await page("?colour=Purple")).toEqual({ colour: "Black", gallery: at(1, 2) });
  });
});

describe("the listing card's image", () => {
  it("is the first image of the first colour in stock", async () => {
    const { id } = await productWithImages({
      variants: [
        { color: "Black", color_zh: null, stock: 0 },
        { color: "Tan", color_zh: null, stock: 3 },
      ],
    });
    await tag(id, [null, "Black", "Tan"]);
    const keys = (await findProductForEdit(db, id))?.images ?? [];
    const card = (await listFeaturedProducts(db, "HKD", 10)).find((product) => product.id === id);
    expect(card?.image_url).toBe(publicUrl(keys[2]));

    // No image of that colour: the first for every colour.
    await tag(id, [null, "Black", "Black"]);
    const untagged = (await listFeaturedProducts(db, "HKD", 10)).find((product) => product.id === id);
    expect(untagged?.image_url).toBe(publicUrl(keys[0]));
  });
});
