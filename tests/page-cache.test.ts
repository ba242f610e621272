import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { rawCookieValue } from "~/request/cookies";
import { catalogueVersion, PageCache, type PendingStore } from "../server/page-cache";
import { createCategory, createProduct } from "./factories";
import { freshTestDb } from "./setup/db";

describe("the cache's memory and freshness", () => {
  // A `.data` answer without the root's data: no token to find, nothing of a visitor.
  const pending = (cache: PageCache, key: string, version = 1): PendingStore => ({
    cache,
    key,
    version,
    nonce: "n0nce",
    token: "t0ken",
    language: "en",
    document: false,
    withRoot: false,
    view: { email: null, admin: false, cartCount: 0 },
  });

  it("keeps at most its byte budget, dropping the least recently used first", () => {
    const cache = new PageCache({ maxBytes: 200_000, ttlMs: 60_000 });
    const body = Buffer.from(crypto.randomBytes(15_000).toString("hex")); // 30 KB, incompressible
    for (const key of ["a", "b", "c", "d"]) cache.store(pending(cache, key), [], body);
    expect(cache.find("a", 1)).toBeDefined(); // a is now the most recent
    for (const key of ["e", "f"]) cache.store(pending(cache, key), [], body);
    expect(cache.bytes).toBeLessThanOrEqual(200_000);
    expect(cache.find("b", 1)).toBeUndefined();
    expect(cache.find("a", 1)).toBeDefined();
    expect(cache.find("f", 1)).toBeDefined();
  });

  it("keeps its pages in buffers of their own, not in slabs of Node's buffer pool (decision 076)", () => {
    const cache = new PageCache({ maxBytes: 1_000_000, ttlMs: 60_000 });
    // A small body and its deflated segment are what Buffer.from and Buffer.concat take from the pool.
    const body = Buffer.from(`<p>${"a small page ".repeat(40)}</p>`);
    expect(body.buffer.byteLength, "the test's body is a pool slice").toBeGreaterThan(body.length);
    const entry = cache.store(pending(cache, "small"), [], body);
    expect(entry).not.toBeNull();
    const held = new Set([...(entry?.pieces ?? []), ...(entry?.segments ?? []).map((segment) => segment.deflated)]);
    const bytes = [...held].reduce((sum, buffer) => sum + buffer.length, 0);
    const slabs = new Set([...held].map((buffer) => buffer.buffer));
    const slabBytes = [...slabs].reduce((sum, slab) => sum + slab.byteLength, 0);
    expect(slabBytes).toBe(bytes);
    expect(Buffer.concat(entry?.pieces ?? []).toString()).toBe(body.toString());
  });

  it("never answers with an entry of another catalogue version, nor an expired one", () => {
    const cache = new PageCache({ maxBytes: 1_000_000, ttlMs: 1_000 });
    cache.store(pending(cache, "page", 7), [], Buffer.from("<html>v7</html>"), 10_000);
    expect(cache.find("page", 8, 10_001)).toBeUndefined();
    expect(cache.size).toBe(0);
    cache.store(pending(cache, "page", 8), [], Buffer.from("<html>v8</html>"), 10_000);
    expect(cache.find("page", 8, 10_500)).toBeDefined();
    expect(cache.find("page", 8, 11_001)).toBeUndefined();
  });

  it("never answers past the next sale end it was rendered before (its prices change then, docs/decisions/053)", () => {
    const cache = new PageCache({ maxBytes: 1_000_000, ttlMs: 60_000 });
    cache.store({ ...pending(cache, "page", 3), nextSaleEnd: 12_000 }, [], Buffer.from("<html>sale</html>"), 10_000);
    expect(cache.find("page", 3, 11_999)).toBeDefined();
    expect(cache.find("page", 3, 12_000)).toBeUndefined();
  });

  it("is off at zero bytes", () => {
    expect(new PageCache({ maxBytes: 0, ttlMs: 1 }).enabled).toBe(false);
  });
});

describe("the catalogue version", () => {
  it("rises with every change to what catalogue pages show, and not with a cart", async () => {
    const { db } = await freshTestDb();
    let before = await catalogueVersion(db);
    const changed = async (what: string) => {
      const now = await catalogueVersion(db);
      expect(now, what).toBeGreaterThan(before);
      before = now;
    };
    const category = await createCategory(db);
    await changed("a category");
    const product = await createProduct(db, { category_id: category.id });
    await changed("a product");
    await db.updateTable("product_variants").set({ stock: 0 }).where("product_id", "=", product.id).execute();
    await changed("stock");
    await db.updateTable("products").set({ price_hkd_cents: 12_300 }).where("id", "=", product.id).execute();
    await changed("a price");
    await db
      .insertInto("site_settings")
      .values({ key: "page.faq", value: "{}", updated_at: new Date().toISOString() })
      .execute();
    await changed("a setting");
    await db.deleteFrom("product_images").where("product_id", "=", product.id).execute();
    await db.deleteFrom("product_variants").where("product_id", "=", product.id).execute();
    await db.deleteFrom("products").where("id", "=", product.id).execute();
    await changed("a product deleted");
    await db.insertInto("carts").values({ id: "c1", user_id: null, created_at: "x", updated_at: "x" }).execute();
    expect(await catalogueVersion(db), "a cart is not the catalogue").toBe(before);
    await db.destroy();
  });
});

describe("a raw cookie value for the cache key", () => {
  it("is the first value of exactly that name", () => {
    expect(rawCookieValue("xlng=en; lng=zh; lng=en", "lng")).toBe("zh");
    expect(rawCookieValue("__Host-sid=abc.def", "__Host-sid")).toBe("abc.def");
    expect(rawCookieValue("visit=1", "lng")).toBeUndefined();
    expect(rawCookieValue(null, "lng")).toBeUndefined();
  });
});
