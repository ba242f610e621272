import crypto from "node:crypto";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { rawCookieValue } from "~/request/cookies";
import { crcTemplate, crcWithJoint } from "../server/crc32";
import { catalogueVersion, gzipped, PageCache, splitAt } from "../server/page-cache";
import { createCategory, createProduct } from "./factories";
import { freshTestDb } from "./setup/db";

const nonce = () => crypto.randomBytes(16).toString("base64");

function entryOf(body: string, rendered: string) {
  const pieces = splitAt(Buffer.from(body), rendered);
  const deflated = pieces.map((piece) => zlib.deflateRawSync(piece, { finishFlush: zlib.constants.Z_SYNC_FLUSH }));
  return { pieces, deflated, crc: crcTemplate(pieces, Buffer.byteLength(rendered)) };
}

describe("a cached page put back together around a new nonce", () => {
  it("gunzips to the page with every old nonce replaced by the new one", () => {
    const old = nonce();
    const page = `<html><script nonce="${old}">a()</script>${"<p>中文 text</p>".repeat(500)}<script nonce="${old}">b()</script></html>`;
    const fresh = nonce();
    const zipped = gzipped(entryOf(page, old), fresh);
    expect(zlib.gunzipSync(zipped).toString()).toBe(page.replaceAll(old, fresh));
  });

  it("handles a page that starts or ends with the nonce, or has none", () => {
    const old = nonce();
    const fresh = nonce();
    for (const page of [`${old}middle${old}`, "no nonce at all", old, ""]) {
      expect(zlib.gunzipSync(gzipped(entryOf(page, old), fresh)).toString()).toBe(page.replaceAll(old, fresh));
    }
  });
});

describe("the CRC-32 of a page with a new nonce, from its stored template", () => {
  it("equals zlib's CRC-32 of the whole page, for any number and size of pieces", () => {
    for (let run = 0; run < 100; run++) {
      const pieces = Array.from({ length: 1 + (run % 40) }, (_, i) => crypto.randomBytes((run * 37 + i * 101) % 3000));
      const joint = Buffer.from(nonce());
      const whole = Buffer.concat(pieces.flatMap((piece, i) => (i > 0 ? [joint, piece] : [piece])));
      expect(crcWithJoint(crcTemplate(pieces, joint.length), joint)).toBe(zlib.crc32(whole) >>> 0);
    }
  });

  it("falls back to reading the page for a nonce of another length", () => {
    const page = "<p>a</p>OLDNONCE<p>b</p>";
    expect(zlib.gunzipSync(gzipped(entryOf(page, "OLDNONCE"), "a-longer-nonce")).toString()).toBe(
      page.replace("OLDNONCE", "a-longer-nonce"),
    );
  });
});

describe("the cache's memory and freshness", () => {
  const pending = (cache: PageCache, key: string, version = 1) => ({ cache, key, version, nonce: "n0nce" });

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
