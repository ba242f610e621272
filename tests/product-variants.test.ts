import { parseWithZod } from "@conform-to/zod/v4";
import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import { UserError } from "~/lib/problem";
import { MemoryStorage } from "~/lib/storage.server";
import { addToCart, loadCart } from "~/models/cart.server";
import { placeOrder } from "~/models/orders/place.server";
import { restockOrderLines } from "~/models/orders/stock.server";
import { findProduct } from "~/models/products/catalog.server";
import { applyProductImport, planProductImport, productCsvRecords } from "~/models/products/csv.server";
import {
  createProduct,
  findProductForEdit,
  type ProductInput,
  productFormValues,
  updateProduct,
} from "~/models/products/editor.server";
import type { CurrentUser } from "~/request/auth.server";
import type { CheckoutInput } from "~/schemas/checkout";
import { productSchema } from "~/schemas/product";
import { createCustomer, createShopper, createSignedIn, placeTestOrder, TEST_CONFIG } from "./factories";
import { freshTestServices } from "./setup/db";
import { formOf } from "./setup/route";

// A second option with its own stock and SKU per colour × value (docs/decisions/054).

let db: DB;
let ADMIN: CurrentUser;
const storage = new MemoryStorage();
const RULE = { feeCents: 0, freeAboveCents: null };

beforeEach(async () => {
  ({ db } = await freshTestServices());
  ADMIN = await createSignedIn(db, { email: "admin@shop.hk", admin: true });
});

function input(overrides: Partial<ProductInput> = {}): ProductInput {
  return {
    name_en: "Plate carrier",
    name_zh: "戰術背心",
    description_en: "",
    description_zh: "",
    price_hkd_cents: 900_00,
    price_gbp_cents: 90_00,
    price_eur_cents: 100_00,
    price_usd_cents: 115_00,
    category_id: null,
    is_featured: false,
    stock: 0,
    variants: [
      { color: "Black", color_zh: "黑色", stock: 0 },
      { color: "Tan", color_zh: null, stock: 0 },
    ],
    option: {
      name: "Size",
      name_zh: "尺寸",
      values: [
        { value: "M", value_zh: "中" },
        { value: "L", value_zh: "大" },
      ],
    },
    cells: [
      { color: "Black", value: "M", stock: 3, sku: "PC-BLK-M" },
      { color: "Black", value: "L", stock: 0, sku: null },
      { color: "Tan", value: "M", stock: 1, sku: "PC-TAN-M" },
      { color: "Tan", value: "L", stock: 2, sku: null },
    ],
    ...overrides,
  };
}

const rows_ = (productId: number) => rows(productId);

async function rows(productId: number) {
  return db
    .selectFrom("product_variants")
    .select(["id", "color", "option_value", "option_value_zh", "stock", "sku"])
    .where("product_id", "=", productId)
    .orderBy("sort_order")
    .orderBy("option_order")
    .execute();
}

describe("the variant grid in the model", () => {
  it("saves one variant per colour × value with its stock, typed SKUs and made ones", async () => {
    const id = await createProduct(db, storage, input(), [], ADMIN.id);
    const saved = await rows(id);
    expect(saved.map(({ color, option_value, stock }) => [color, option_value, stock])).toEqual([
      ["Black", "M", 3],
      ["Black", "L", 0],
      ["Tan", "M", 1],
      ["Tan", "L", 2],
    ]);
    expect(saved[0]?.sku).toBe("PC-BLK-M");
    expect(saved[1]?.sku).toBe(`P${id}-${saved[1]?.id}`);
    const product = await db
      .selectFrom("products")
      .select(["option_name", "option_name_zh"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(product).toEqual({ option_name: "Size", option_name_zh: "尺寸" });
    // The form shows it back: colour rows without stock, values, and the grid's cells by key.
    const values = productFormValues(await findProductForEdit(db, id));
    expect(values.option_values).toEqual([
      { key: "v0", value: "M", value_zh: "中" },
      { key: "v1", value: "L", value_zh: "大" },
    ]);
    expect(values.cells?.[0]).toEqual({ color: "c0", value: "v0", stock: "3", sku: "PC-BLK-M" });
    expect(values.variants?.[1]).toEqual({ key: "c1", color: "Tan", color_zh: "" });
  });

  it("keeps each variant's id when a value is renamed, and a colour's own variant when it is given sizes", async () => {
    const id = await createProduct(
      db,
      storage,
      input({ variants: [{ color: "Black", color_zh: null, stock: 4, sku: "GLOVE-BLK" }], option: null, cells: [] }),
      [],
      ADMIN.id,
    );
    const [colourOnly] = await rows(id);
    await updateProduct(
      db,
      storage,
      id,
      input({
        variants: [{ color: "Black", color_zh: null, stock: 0 }],
        option: {
          name: "Size",
          name_zh: null,
          values: [
            { value: "S", value_zh: null },
            { value: "M", value_zh: null },
          ],
        },
        cells: [
          { color: "Black", value: "S", stock: 4, sku: "GLOVE-BLK" },
          { color: "Black", value: "M", stock: 2, sku: null },
        ],
      }),
      { keep: [], newFiles: [] },
      ADMIN.id,
    );
    const sized = await rows(id);
    expect(sized[0]).toMatchObject({ id: colourOnly?.id, option_value: "S", stock: 4, sku: "GLOVE-BLK" });
    await updateProduct(
      db,
      storage,
      id,
      input({
        variants: [{ color: "Black", color_zh: null, stock: 0 }],
        option: {
          name: "Size",
          name_zh: null,
          values: [
            { value: "Small", value_zh: null },
            { value: "M", value_zh: null },
          ],
        },
        cells: [
          { color: "Black", value: "Small", stock: 5, sku: "GLOVE-BLK" },
          { color: "Black", value: "M", stock: 2, sku: null },
        ],
      }),
      { keep: [], newFiles: [] },
      ADMIN.id,
    );
    const renamed = await rows(id);
    expect(renamed.map((row) => row.id)).toEqual(sized.map((row) => row.id));
    expect(renamed[0]).toMatchObject({ option_value: "Small", stock: 5 });
  });

  it("refuses a SKU another product has with 409 at its field, writing nothing, and lets two variants swap theirs", async () => {
    const other = await createProduct(
      db,
      storage,
      input({
        name_en: "Other",
        option: null,
        cells: [],
        variants: [{ color: "Black", color_zh: null, stock: 1, sku: "TAKEN-1" }],
      }),
      [],
      ADMIN.id,
    );
    const id = await createProduct(db, storage, input(), [], ADMIN.id);
    const before = await rows(id);
    const taken = input({
      cells: [
        { color: "Black", value: "M", stock: 9, sku: "TAKEN-1" },
        { color: "Black", value: "L", stock: 0, sku: null },
      ],
    });
    const refusal = await updateProduct(db, storage, id, taken, { keep: [], newFiles: [] }, ADMIN.id).catch((e) => e);
    expect(refusal).toBeInstanceOf(UserError);
    expect(refusal.status).toBe(409);
    expect(refusal.problem).toMatchObject({
      key: "adminProductForm.errors.skuTaken",
      params: { sku: "TAKEN-1", product: "Other" },
    });
    expect(await rows(id)).toEqual(before);
    expect(other).toBeGreaterThan(0);

    // One of the shop's own shape that is not this variant's is refused too.
    const made = input({ cells: [{ color: "Black", value: "M", stock: 3, sku: `P${other}-999` }] });
    await expect(updateProduct(db, storage, id, made, { keep: [], newFiles: [] }, ADMIN.id)).rejects.toMatchObject({
      problem: { key: "adminProductForm.errors.skuReserved" },
    });

    const swapped = input({
      cells: [
        { color: "Black", value: "M", stock: 3, sku: "PC-TAN-M" },
        { color: "Black", value: "L", stock: 0, sku: null },
        { color: "Tan", value: "M", stock: 1, sku: "PC-BLK-M" },
        { color: "Tan", value: "L", stock: 2, sku: null },
      ],
    });
    await updateProduct(db, storage, id, swapped, { keep: [], newFiles: [] }, ADMIN.id);
    const after = await rows(id);
    expect(after.map((row) => row.sku)).toEqual(["PC-TAN-M", before[1]?.sku, "PC-BLK-M", before[3]?.sku]);
    expect(after.map((row) => row.id)).toEqual(before.map((row) => row.id));
  });
});

describe("the variant grid in the product form", () => {
  const base = {
    name_en: "Boots",
    name_zh: "靴",
    price_hkd: "800",
    "variants[0].key": "c0",
    "variants[0].color": "Black",
    "variants[1].key": "n1",
    "variants[1].color": "Coyote",
    option_name: "Size",
    "option_values[0].key": "v0",
    "option_values[0].value": "42",
    "option_values[1].key": "n1",
    "option_values[1].value": "43",
  };
  const parse = (fields: Record<string, string>) => parseWithZod(formOf(fields), { schema: productSchema });

  it("reads the cells by their colour and value keys, dropping cells of removed rows", () => {
    const result = parse({
      ...base,
      "cells[0].color": "c0",
      "cells[0].value": "v0",
      "cells[0].stock": "2",
      "cells[0].sku": "BOOT-42",
      "cells[1].color": "n1",
      "cells[1].value": "n1",
      "cells[1].stock": "5",
      // A cell of a colour the form no longer has.
      "cells[2].color": "c9",
      "cells[2].value": "v0",
      "cells[2].stock": "7",
    });
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    expect(result.value.option).toEqual({
      name: "Size",
      name_zh: null,
      values: [
        { value: "42", value_zh: null },
        { value: "43", value_zh: null },
      ],
    });
    expect(result.value.cells).toEqual([
      { color: "Black", value: "42", stock: 2, sku: "BOOT-42" },
      { color: "Coyote", value: "43", stock: 5, sku: null },
    ]);
  });

  it("puts each mistake next to its field", () => {
    const errors = (fields: Record<string, string>) => {
      const result = parse(fields);
      return result.status === "error" ? (result.error ?? {}) : {};
    };
    expect(errors({ ...base, option_name: "" }).option_name).toEqual(["adminProductForm.errors.optionNameRequired"]);
    expect(errors({ ...base, "option_values[1].value": "42" })["option_values[1].value"]).toEqual([
      "adminProductForm.errors.optionValueDuplicate",
    ]);
    const skus = errors({
      ...base,
      "cells[0].color": "c0",
      "cells[0].value": "v0",
      "cells[0].sku": "SAME",
      "cells[1].color": "c0",
      "cells[1].value": "n1",
      "cells[1].sku": "SAME",
      "cells[2].color": "n1",
      "cells[2].value": "v0",
      "cells[2].sku": "bad sku!",
    });
    expect(skus["cells[1].sku"]).toEqual(["adminProductForm.errors.skuDuplicate"]);
    expect(skus["cells[2].sku"]).toEqual(["adminProductForm.errors.skuInvalid"]);
    expect(errors({ name_en: "A", name_zh: "甲", price_hkd: "1", option_name: "Size" }).option_values).toEqual([
      "adminProductForm.errors.optionValuesRequired",
    ]);
  });
});

describe("variants in the cart and orders", () => {
  it("adds a colour × value, refuses a sold-out one or none chosen, and takes and returns stock per variant", async () => {
    const id = await createProduct(db, storage, input(), [], ADMIN.id);
    const detail = await findProduct(db, id, "HKD");
    expect(detail?.option).toEqual({ name_en: "Size", name_zh: "尺寸" });
    expect(detail?.variants.map((v) => `${v.color}/${v.option_value}:${v.stock}`)).toEqual([
      "Black/M:3",
      "Black/L:0",
      "Tan/M:1",
      "Tan/L:2",
    ]);

    const user = await createCustomer(db);
    const { order } = await placeTestOrder(db, {
      user,
      // @ts-expect-error the factory's line type predates the option (addToCart reads it)
      lines: [{ productId: id, color: "Tan", option: "L", quantity: 2 }],
    });
    const stock = async () => (await rows(id)).map((row) => row.stock);
    expect(await stock()).toEqual([3, 0, 1, 0]);
    const lines = await db.selectFrom("order_lines").selectAll().where("order_id", "=", order.id).execute();
    expect(lines[0]).toMatchObject({
      color: "Tan",
      option_name: "Size",
      option_name_zh: "尺寸",
      option_value: "L",
      option_value_zh: "大",
      sku: (await rows(id))[3]?.sku,
    });

    const cartId = (await db.selectFrom("carts").select("id").where("user_id", "=", user.id).executeTakeFirstOrThrow())
      .id;
    await expect(
      addToCart(db, cartId, { productId: id, color: "Black", option: "L", quantity: 1 }),
    ).rejects.toMatchObject({
      problem: { key: "cart.errors.insufficientStock", params: { option_value: "L", option_value_zh: "大" } },
    });
    await expect(addToCart(db, cartId, { productId: id, color: "Black", quantity: 1 })).rejects.toMatchObject({
      problem: { key: "cart.errors.chooseOption" },
    });
    await addToCart(db, cartId, { productId: id, color: "Black", option: "M", quantity: 1 });
    await addToCart(db, cartId, { productId: id, color: "Tan", option: "M", quantity: 1 });
    const cart = await loadCart(db, cartId, "HKD", RULE);
    expect(cart.lines.map((line) => [line.color, line.option_value, line.option_name, line.stock])).toEqual([
      ["Black", "M", "Size", 3],
      ["Tan", "M", "Size", 1],
    ]);

    // Cancelling puts the stock back on the variant it came from, not on another size.
    await db.transaction().execute((trx) => restockOrderLines(trx, order.id, TEST_CONFIG));
    expect(await stock()).toEqual([3, 0, 1, 2]);
  });
});

describe("the last unit of one size", () => {
  it("is sold once when 50 shoppers order it at the same moment, and the other size is untouched", async () => {
    const id = await createProduct(
      db,
      storage,
      input({
        cells: [
          { color: "Black", value: "M", stock: 1, sku: null },
          { color: "Black", value: "L", stock: 5, sku: null },
          { color: "Tan", value: "M", stock: 5, sku: null },
          { color: "Tan", value: "L", stock: 5, sku: null },
        ],
      }),
      [],
      ADMIN.id,
    );
    const shoppers = [];
    for (let i = 0; i < 50; i++) {
      const shopper = await createShopper(db);
      await addToCart(db, shopper.cartId, { productId: id, color: "Black", option: "M", quantity: "1" });
      shoppers.push(shopper);
    }
    const results = await Promise.allSettled(
      shoppers.map((shopper) =>
        placeOrder(db, TEST_CONFIG, {
          userId: shopper.userId,
          cartId: shopper.cartId,
          currency: "HKD",
          locale: "en",
          customer: {
            firstName: "Chan",
            lastName: "Tai Man",
            email: shopper.user.email,
            address: "1 Nathan Road",
            city: "Kowloon",
            country: "Hong Kong",
          } as CheckoutInput,
          receiptPath: null,
          submissionKey: crypto.randomUUID(),
        }),
      ),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const refused = results.filter((result): result is PromiseRejectedResult => result.status === "rejected");
    expect(refused).toHaveLength(49);
    for (const { reason } of refused) expect((reason as UserError).key).toBe("checkout.errors.outOfStock");
    expect((await rows(id)).map((row) => row.stock)).toEqual([0, 5, 5, 5]);
    const sold = await db
      .selectFrom("order_lines")
      .select(["option_value", "quantity"])
      .where("product_id", "=", id)
      .execute();
    expect(sold).toEqual([{ option_value: "M", quantity: 1 }]);
  });
});

describe("variants in the product CSV", () => {
  async function exported(productId: number) {
    const records = [];
    for await (const record of productCsvRecords(db, "http://shop.test")) {
      if (record.product_id === String(productId)) records.push(record);
    }
    return records;
  }
  function csvOf(rows: Record<string, string>[]): string {
    const columns = Object.keys(rows[0] ?? {});
    const quote = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
    return [columns.join(","), ...rows.map((row) => columns.map((c) => quote(row[c] ?? "")).join(","))].join("\r\n");
  }

  it("exports one row per variant with option and SKU, round-trips unchanged, and imports a grid", async () => {
    const id = await createProduct(db, storage, input(), [], ADMIN.id);
    const rows = await exported(id);
    expect(
      rows.map((row) => [row.colour, row.option_name, row.option_value, row.option_value_zh, row.stock, row.sku]),
    ).toEqual([
      ["Black", "Size", "M", "中", "3", "PC-BLK-M"],
      ["Black", "Size", "L", "大", "0", (await rows_(id))[1]?.sku],
      ["Tan", "Size", "M", "", "1", "PC-TAN-M"].map((cell, i) => (i === 3 ? "中" : cell)),
      ["Tan", "Size", "L", "大", "2", (await rows_(id))[3]?.sku],
    ]);
    expect((await planProductImport(db, csvOf(rows))).unchanged).toBe(1);

    // A stock and a SKU changed on one cell; a new product with sizes and no colours.
    const edited = rows.map((row) =>
      row.option_value === "L" && row.colour === "Black" ? { ...row, stock: "6", sku: "PC-BLK-L" } : row,
    );
    const fresh = ["S", "M"].map((value, index) => ({
      ...(rows[0] as Record<string, string>),
      product_id: "",
      name_en: "Boots",
      colour: "",
      colour_zh: "",
      option_value: value,
      option_value_zh: "",
      stock: String(index + 1),
      sku: index === 0 ? "BOOT-S" : "",
    }));
    const plan = await planProductImport(db, csvOf([...edited, ...fresh]));
    expect(plan.errors).toEqual([]);
    await applyProductImport(db, plan, ADMIN.id);
    expect((await rows_(id))[1]).toMatchObject({ stock: 6, sku: "PC-BLK-L" });
    const boots = await db.selectFrom("products").select("id").where("name_en", "=", "Boots").executeTakeFirstOrThrow();
    expect(
      (await rows_(boots.id)).map((row) => [
        row.color,
        row.option_value,
        row.stock,
        row.sku.startsWith("P") || row.sku,
      ]),
    ).toEqual([
      ["Default", "S", 1, "BOOT-S"],
      ["Default", "M", 2, true],
    ]);

    // A SKU another product holds, or typed twice, is an error of its line; nothing is written.
    const clash = await planProductImport(
      db,
      csvOf([{ ...(edited[0] as Record<string, string>), sku: "BOOT-S" }, ...edited.slice(1)]),
    );
    expect(clash.errors).toEqual([expect.objectContaining({ line: 2, key: "adminProductCsv.errors.skuTaken" })]);
    const twice = await planProductImport(
      db,
      csvOf([...edited.slice(0, 3), { ...(edited[3] as Record<string, string>), sku: "PC-BLK-M" }]),
    );
    expect(twice.errors).toEqual([
      expect.objectContaining({ line: 5, params: { column: "sku", reason: "adminProductForm.errors.skuDuplicate" } }),
    ]);

    // A file from before the option and SKU columns cannot describe sizes: refused, not flattened.
    const old = rows.map(
      ({ option_name: _a, option_name_zh: _b, option_value: _c, option_value_zh: _d, sku: _e, ...rest }) => rest,
    );
    expect((await planProductImport(db, csvOf(old))).errors.length).toBeGreaterThan(0);
  });
});
