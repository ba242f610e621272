import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import { ProductGrid } from "~/components/product-card";
import { createTranslator, I18nProvider } from "~/lib/i18n";
import { derivativeKey, derivativeKeys } from "~/lib/image-sizes";
import { storeImage } from "~/lib/images.server";
import { MemoryStorage } from "~/lib/storage.server";
import resources from "~/locales";
import { deleteProduct } from "~/models/products/admin-list.server";
import type { CardView } from "~/models/products/cards.server";
import { findProductForEdit, type ProductInput, updateProduct } from "~/models/products/editor.server";
import { createProduct, createSignedIn } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";

/** Decision 031: listing images are stored with 400 and 800 pixel WebP copies for `srcset`. */

async function png(width: number, height: number): Promise<File> {
  const data = await sharp({ create: { width, height, channels: 3, background: { r: 90, g: 110, b: 40 } } })
    .png()
    .toBuffer();
  return new File([new Uint8Array(data)], "photo.png", { type: "image/png" });
}

async function widthOf(storage: MemoryStorage, key: string): Promise<number | undefined> {
  const file = await storage.get("public", key);
  if (!file) throw new Error(`${key} is not stored`);
  expect(file.contentType).toBe("image/webp");
  return (await sharp(file.data).metadata()).width;
}

describe("a product image upload", () => {
  it("stores 400 and 800 pixel WebP copies beside the main image, named after it", async () => {
    const storage = new MemoryStorage();
    const key = await storeImage(storage, await png(1000, 500), "product");
    expect(key).toMatch(/^products\/[0-9a-f-]{36}_1000w\.webp$/);
    expect(derivativeKeys(key)).toEqual([derivativeKey(key, 400), derivativeKey(key, 800)]);
    expect(await widthOf(storage, key)).toBe(1000);
    expect(await widthOf(storage, derivativeKey(key, 400))).toBe(400);
    expect(await widthOf(storage, derivativeKey(key, 800))).toBe(800);
    expect((await sharp((await storage.get("public", derivativeKey(key, 800)))?.data).metadata()).height).toBe(400);
    expect(storage.files.size).toBe(3);
  });

  it("never enlarges: a 600 pixel image has only its 400 copy", async () => {
    const storage = new MemoryStorage();
    const key = await storeImage(storage, await png(600, 600), "product");
    expect(key).toMatch(/_600w\.webp$/);
    expect(await widthOf(storage, derivativeKey(key, 400))).toBe(400);
    expect(await storage.exists("public", derivativeKey(key, 800))).toBe(false);
    expect(storage.files.size).toBe(2);
  });

  it("makes no copies of other kinds of image (a category tile)", async () => {
    const storage = new MemoryStorage();
    const key = await storeImage(storage, await png(1000, 600), "category");
    expect(key).toMatch(/^[a-z]+\/[0-9a-f-]{36}\.webp$/);
    expect(storage.files.size).toBe(1);
  });
});

describe("deleting a product's images", () => {
  let svc: TestServices;
  beforeEach(async () => {
    svc = await freshTestServices();
  });

  it("removes the copies with the image, on an edit and on a delete", async () => {
    const { db, storage } = svc;
    const product = await createProduct(db, {}, { storage, images: [await png(900, 900), await png(700, 700)] });
    const keys = (await findProductForEdit(db, product.id))?.images ?? [];
    expect(keys).toHaveLength(2);
    expect(storage.files.size).toBe(5); // 900: 400 and 800 copies; 700: the 400 copy

    // An edit that drops the first image drops its copies, and keeps the second's.
    const [first, second] = keys as [string, string];
    const uuidOf = (key: string) => key.slice("products/".length, "products/".length + 36);
    const input: ProductInput = {
      name_en: "Renamed",
      name_zh: "改名",
      description_en: "A test product.",
      description_zh: "測試用產品。",
      price_hkd_cents: 50_00,
      price_gbp_cents: null,
      price_eur_cents: null,
      price_usd_cents: null,
      category_id: null,
      is_featured: false,
      stock: 0,
      variants: [{ color: "Black", color_zh: null, stock: 3 }],
    };
    await updateProduct(db, storage, product.id, input, { keep: [second], newFiles: [] }, null);
    expect([...storage.files.keys()].filter((name) => name.includes(uuidOf(first)))).toEqual([]);
    expect(storage.files.size).toBe(2);

    const admin = await createSignedIn(db, { admin: true });
    await deleteProduct(db, storage, admin, product.id);
    expect(storage.files.size).toBe(0);
  });

  it("removes an image stored before copies existed (no copies to look for)", async () => {
    const { storage } = svc;
    await storage.put("public", "products/old.webp", Buffer.from("x"), "image/webp");
    expect(derivativeKeys("products/old.webp")).toEqual([]);
    const { removeFilesQuietly } = await import("~/lib/storage.server");
    await removeFilesQuietly(storage, "public", ["products/old.webp"]);
    expect(storage.files.size).toBe(0);
  });
});

describe("the product card", () => {
  const card = (image: string | null): CardView => ({
    id: 7,
    name: "Test Carbine",
    description: "A test.",
    price_cents: 100_00,
    was_cents: null,
    currency: "HKD",
    featured: false,
    category: null,
    image,
    colors: [],
    more: 0,
    cartColor: "Black",
  });

  function render(products: CardView[]): string {
    const t = createTranslator("en", resources.en.translation);
    const Stub = createRoutesStub([
      { path: "/category/all", Component: () => createElement(ProductGrid, { products, t, eager: 1 }) },
    ]);
    return renderToString(
      createElement(
        I18nProvider,
        { language: "en", messages: resources.en.translation },
        createElement(Stub, { initialEntries: ["/category/all"] }),
      ),
    );
  }

  it("offers the copies in a srcset for a new image, and only the image itself for an old one", () => {
    const fresh = "/uploads/products/0b5e8a2c-1111-4222-8333-944445555666_1600w.webp";
    const old = "/uploads/products/0b5e8a2c-1111-4222-8333-944445555666.webp";
    const html = render([card(fresh), { ...card(old), id: 8 }]);
    const images = html.match(/<img [^>]*>/g) ?? [];
    expect(images).toHaveLength(2);
    const [first, second] = images;
    // The 400-pixel copy, the 800-pixel one for 2x screens and the original for 4x (decision 068);
    // an eager image names its 1x too, as React preloads it from the srcset alone.
    const base = "/uploads/products/0b5e8a2c-1111-4222-8333-944445555666";
    expect(first).toContain(`src="${base}_400w.webp"`);
    expect(first).toContain(`srcSet="${base}_400w.webp 1x,${base}_800w.webp 2x,${fresh} 4x"`);
    expect(html).toContain(`imageSrcSet="${base}_400w.webp 1x,${base}_800w.webp 2x,${fresh} 4x"`);
    expect(first).not.toContain("sizes");
    expect(first).toContain('width="800" height="800"');
    expect(first).toContain('loading="eager"');
    expect(second).not.toContain("srcSet");
    expect(second).not.toContain("sizes");
    expect(second).toContain(`src="${old}"`);
    expect(second).toContain('loading="lazy"');
    // The plain-POST Add to Cart form (one for the grid) still comes back to this page; each
    // card's button names its product and colour, and is described by the card's title.
    expect(html.match(/name="redirectTo"/g)).toHaveLength(1);
    expect(html).toContain('name="redirectTo" value="/category/all"');
    expect(html).toMatch(/<h3 id="add-7">/);
    expect(html).toContain(
      '<button type="submit" form="add" value="7:Black" aria-describedby="add-7" name="add">Add to Cart</button>',
    );
  });
});
