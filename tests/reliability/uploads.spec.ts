import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type APIRequestContext, expect, test } from "@playwright/test";
import sharp from "sharp";
import { derivativeKey, derivativeWidths, mainWidth } from "../../app/lib/image-sizes";
import { apiAddToCart, apiCheckout, apiPaymentKey, apiSignUp, uniqueEmail, uniquePassword } from "../e2e/fixtures";
import {
  acceptedFiles,
  cookieHeader,
  EXIF_ARTIST,
  exifHasGps,
  type HostileFile,
  jpeg,
  listFiles,
  MB,
  multipart,
  type Part,
  POLYGLOT_MARKER,
  paddedJpeg,
  postMultipart,
  rawPost,
  refusedFiles,
  residentBytes,
} from "./files";
import { adminSignIn, createAdmin, FULL, openDatabase, removeFiles, type Shop, startShop } from "./shop";

/**
 * Upload abuse against every upload of the shop: the payment receipt and the admin's product,
 * category, blog and hero images. Only real JPEG/PNG/WebP (and GIF for the hero, decision 013)
 * get in, re-encoded without metadata under generated names inside the storage folder; every
 * refusal is a 4xx with a message and leaves nothing behind (no file, no row, no order).
 */

test.describe.configure({ mode: "serial" });

/** The texts a refusal shows (English): at least one must be in the answer. */
const REFUSAL_MESSAGE =
  /Invalid file type|File too large|too large|could not be read|The file is empty|megapixels|Receipt required|Upload failed|could not be understood|Please choose an image|Failed to upload|must be less than/;

interface Target {
  name: string;
  url: string;
  /** The form's other fields (a fresh, valid set for every request). */
  fields(): Promise<Record<string, string>>;
  fileField: string;
  /** Where an accepted file must land. */
  stored: RegExp;
  gifAccepted?: boolean;
  maxBytes: number;
  /** The route's limit on the whole request body. */
  bodyLimit: number;
  /** The client that may post here. */
  client(): APIRequestContext;
}

let shop: Shop;
let admin: APIRequestContext;
let shopper: APIRequestContext;
let shopperUserId = "";
let product = { id: 0, color: "" };
let counter = 0;
const outsideProbe = path.join(os.tmpdir(), "owned.jpg");

/** Every row count and setting an upload could change, plus every stored file. */
function snapshot() {
  const db = openDatabase(shop.files);
  try {
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return {
      rows: Object.fromEntries(
        ["categories", "products", "product_images", "blog_posts", "orders", "order_lines"].map((t) => [t, count(t)]),
      ),
      settings: db.prepare("SELECT key, value FROM site_settings ORDER BY key").all(),
      files: listFiles(shop.files.uploadsDir),
    };
  } finally {
    db.close();
  }
}

/** A new checkout for the shopper: one item in the cart, details sent, the payment page's key. */
async function freshCheckout(): Promise<Record<string, string>> {
  await apiAddToCart(shopper, product.id, product.color, 1);
  await apiCheckout(shopper, shopperEmail);
  return { submissionKey: await apiPaymentKey(shopper) };
}

let shopperEmail = "";

const targets: Target[] = [
  {
    name: "payment receipt",
    url: "/payment",
    fields: freshCheckout,
    fileField: "receipt",
    stored: /^private\/receipts\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.jpg$/,
    maxBytes: 5 * MB,
    bodyLimit: 5 * MB + 256 * 1024,
    client: () => shopper,
  },
  {
    name: "product image",
    url: "/admin/products/new",
    fields: async () => ({ name_en: `Upload Rifle ${++counter}`, name_zh: "上載步槍", price_hkd: "100", stock: "3" }),
    fileField: "newImages",
    // Named with its width: its smaller copies for srcset follow from the name (decision 031).
    stored: /^public\/products\/[0-9a-f-]{36}_\d+w\.webp$/,
    maxBytes: 10 * MB,
    bodyLimit: 51 * MB,
    client: () => admin,
  },
  {
    name: "category image",
    // The form is open on ?new=1 (that is where the browser posts it), so its errors show there.
    url: "/admin/categories?new=1",
    fields: async () => ({
      intent: "create",
      name_en: `Upload Category ${++counter}`,
      name_zh: "上載類別",
      is_active: "on",
    }),
    fileField: "image",
    stored: /^public\/categories\/[0-9a-f-]{36}\.webp$/,
    maxBytes: 10 * MB,
    bodyLimit: 10 * MB + 256 * 1024,
    client: () => admin,
  },
  {
    name: "blog image",
    url: "/admin/blog/new",
    fields: async () => ({
      title_en: `Upload Post ${++counter}`,
      title_zh: "上載文章",
      content_en: "Body",
      content_zh: "內容",
      author: "Tester",
      published: "on",
    }),
    fileField: "image",
    stored: /^public\/blog\/[0-9a-f-]{36}\.webp$/,
    maxBytes: 10 * MB,
    bodyLimit: 12 * MB,
    client: () => admin,
  },
  {
    name: "hero image",
    url: "/admin/settings",
    fields: async () => ({ intent: "hero" }),
    fileField: "hero",
    stored: /^public\/hero\/[0-9a-f-]{36}\.webp$/,
    gifAccepted: true,
    maxBytes: 10 * MB,
    bodyLimit: 10 * MB + 256 * 1024,
    client: () => admin,
  },
];

function partsOf(fields: Record<string, string>, fileField: string, file: HostileFile): Part[] {
  return [...Object.entries(fields).map(([name, value]) => ({ name, value })), { name: fileField, file }];
}

function expectRefusal(answer: { status: number | null; text: string }, what: string) {
  // Soft: one run lists every upload and file that got through, not only the first.
  expect.soft(answer.status, `${what}: a 4xx refusal`).not.toBeNull();
  expect.soft(answer.status as number, `${what}: a 4xx refusal, got ${answer.status}`).toBeGreaterThanOrEqual(400);
  expect.soft(answer.status as number, `${what}: a 4xx refusal, got ${answer.status}`).toBeLessThan(500);
  expect.soft(REFUSAL_MESSAGE.test(answer.text), `${what}: the refusal says why`).toBe(true);
}

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(120_000);
  fs.rmSync(outsideProbe, { force: true });
  shop = await startShop({ name: "uploads" });
  const adminEmail = uniqueEmail("upload-admin");
  const adminPassword = uniquePassword();
  createAdmin(shop.files, adminEmail, adminPassword);
  admin = await playwright.request.newContext({ baseURL: shop.baseURL });
  await adminSignIn(admin, adminEmail, adminPassword);

  shopper = await playwright.request.newContext({ baseURL: shop.baseURL });
  shopperEmail = uniqueEmail("upload-buyer");
  await apiSignUp(shopper, shopperEmail, uniquePassword());
  // A product of our own with plenty of stock for every checkout of the file.
  const created = await admin.post("/admin/products/new", {
    form: { name_en: "Upload Target Rifle", name_zh: "上載目標步槍", price_hkd: "10", stock: "100000" },
    maxRedirects: 0,
  });
  expect(created.status()).toBe(302);
  const db = openDatabase(shop.files);
  try {
    shopperUserId = (db.prepare("SELECT id FROM users WHERE email = ?").get(shopperEmail) as { id: string }).id;
    const variant = db
      .prepare(
        "SELECT product_id, color FROM product_variants JOIN products ON products.id = product_id WHERE name_en = ?",
      )
      .get("Upload Target Rifle") as { product_id: number; color: string };
    product = { id: variant.product_id, color: variant.color };
  } finally {
    db.close();
  }
});

test.afterAll(async () => {
  await admin?.dispose();
  await shopper?.dispose();
  await shop?.stop();
  if (shop) removeFiles(shop.files);
});

test("memory stays bounded with 50 receipt uploads of 4.9 MB at once", async () => {
  const fields = await freshCheckout();
  // A real photo grown to 4.9 MB with filler segments: decoded and re-encoded for real, 4.9 MB
  // on the wire (a small picture keeps the fast level fast; the full level decodes a big one).
  const file: HostileFile = {
    label: "4.9 MB receipt",
    filename: "big-receipt.jpg",
    contentType: "image/jpeg",
    data: await paddedJpeg(Math.round(4.9 * MB), FULL ? await jpeg(1200, 900) : await jpeg(320, 240)),
  };
  const { body, contentType } = multipart(partsOf(fields, "receipt", file));
  const cookie = await cookieHeader(shopper);
  const pid = shop.child.pid as number;
  const before = snapshot();
  const rssBefore = residentBytes(pid);
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentBytes(pid));
  }, 20);
  let answers: Awaited<ReturnType<typeof rawPost>>[];
  try {
    answers = await Promise.all(
      Array.from({ length: 50 }, () => rawPost(`${shop.baseURL}/payment`, { contentType, body, cookie })),
    );
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, residentBytes(pid));
  const growth = peak - rssBefore;
  console.info(
    `uploads: RSS ${(rssBefore / MB).toFixed(0)} MB before, peak ${(peak / MB).toFixed(0)} MB during 50 x 4.9 MB receipts (+${(growth / MB).toFixed(0)} MB)`,
  );
  // Every one of the 50 is the same form sent again: one order, the other 49 find it.
  for (const answer of answers) expect(answer.status, answer.text.slice(0, 300)).toBe(302);
  const after = snapshot();
  expect(after.rows.orders).toBe((before.rows.orders as number) + 1);
  expect(after.files.filter((name) => !before.files.includes(name))).toHaveLength(1);
  // 50 bodies of 4.9 MB are 245 MB on the wire. Bounded means the server does not hold several
  // copies of every one at once (that would be 500+ MB); 250 MB leaves room for one copy of each
  // plus the decoder's buffers and the allocator's slack.
  expect(growth, "RSS growth during 50 concurrent 4.9 MB uploads").toBeLessThan(250 * MB);
});

test("hostile files are refused by every upload with a 4xx and a message, leaving nothing behind", async () => {
  for (const target of targets) {
    const files = await refusedFiles({ maxBytes: target.maxBytes, gifAccepted: target.gifAccepted });
    const fields = await target.fields();
    for (const file of files) {
      const before = snapshot();
      const answer = await postMultipart(target.client(), target.url, partsOf(fields, target.fileField, file));
      expectRefusal(answer, `${target.name} / ${file.label}`);
      expect.soft(snapshot(), `${target.name} / ${file.label}: nothing stored`).toEqual(before);
    }
  }
  expect(shop.stderr()).not.toMatch(/Unexpected Server Error|TypeError|ReferenceError/);
});

test("real images are stored re-encoded, without EXIF/GPS, under generated names inside the storage folder", async () => {
  const outsideBefore = listFiles(shop.files.dir).filter((file) => !file.startsWith("uploads/"));
  for (const target of targets) {
    for (const file of await acceptedFiles({ gifAccepted: target.gifAccepted })) {
      if (file.label === "JPEG with GPS EXIF") {
        // The test photo really carries what must be stripped.
        const input = await sharp(file.data).metadata();
        expect(exifHasGps(input.exif)).toBe(true);
        expect(input.exif?.toString("latin1")).toContain(EXIF_ARTIST);
      }
      const before = snapshot();
      const answer = await postMultipart(
        target.client(),
        target.url,
        partsOf(await target.fields(), target.fileField, file),
      );
      expect(answer.status, `${target.name} / ${file.label}: accepted (${answer.text.slice(0, 200)})`).toBe(302);
      const after = snapshot();
      const added = after.files.filter((name) => !before.files.includes(name));
      // One new image, and for a product image its smaller copies (the widest name is the image).
      const key = [...added].sort((a, b) => (mainWidth(b) ?? 0) - (mainWidth(a) ?? 0))[0] as string;
      expect([...added].sort(), `${target.name} / ${file.label}: one new image (and its copies)`).toEqual(
        [key, ...derivativeWidths(key).map((width) => derivativeKey(key, width))].sort(),
      );
      for (const copy of added) {
        const bytes = fs.readFileSync(path.join(shop.files.uploadsDir, copy));
        expect(bytes.includes(EXIF_ARTIST), `${copy}: no EXIF`).toBe(false);
        expect((await sharp(bytes).metadata()).exif, `${copy}: no EXIF`).toBeUndefined();
      }
      expect(key, `${target.name} / ${file.label}: a generated name in its folder`).toMatch(target.stored);
      if (target.name === "payment receipt") expect(key.split("/")[2]).toBe(shopperUserId);
      const stored = fs.readFileSync(path.join(shop.files.uploadsDir, key));
      const meta = await sharp(stored).metadata();
      // Receipts are stored as JPEG, public images as WebP (app/lib/images.server.ts).
      expect(meta.format, `${target.name} / ${file.label}: re-encoded`).toBe(
        key.startsWith("private/") ? "jpeg" : "webp",
      );
      expect(meta.exif, `${target.name} / ${file.label}: no EXIF`).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(exifHasGps(meta.exif)).toBe(false);
      expect(stored.includes(EXIF_ARTIST)).toBe(false);
      expect(stored.includes(POLYGLOT_MARKER)).toBe(false);
      expect(stored.includes("<html")).toBe(false);
      if (key.startsWith("public/")) {
        const served = await admin.get(`/uploads/${key.slice("public/".length)}`);
        expect(served.status()).toBe(200);
        expect(served.headers()["content-type"]).toBe("image/webp");
        expect(served.headers()["x-content-type-options"]).toBe("nosniff");
      }
    }
  }
  // No file was written anywhere a hostile name pointed to.
  expect(fs.existsSync(outsideProbe)).toBe(false);
  const outsideAfter = listFiles(shop.files.dir).filter((file) => !file.startsWith("uploads/"));
  const newOutside = outsideAfter.filter(
    (file) => !outsideBefore.includes(file) && !/^data\/(shop\.db(-wal|-shm|-journal)?|mail\/.*\.eml)$/.test(file),
  );
  expect(newOutside, "nothing written outside the storage folder").toEqual([]);
  for (const file of listFiles(shop.files.uploadsDir)) {
    expect(file, "no user-given name in storage").not.toMatch(/owned|evil|php|gpj|\u202E|\.\.|poly|IMG_0001|shot/);
  }
});

test("over-size and malformed bodies are refused with a 4xx before they fill memory or disk", async () => {
  for (const target of targets) {
    const cookie = await cookieHeader(target.client());
    const url = `${shop.baseURL}${target.url}`;
    // Past the route's whole-body limit (the product form takes five 10 MB images: 51 MB).
    const giant = Math.max(50 * MB, target.bodyLimit * 4 + MB);
    const size = `${Math.round(giant / MB)} MB`;
    const cases: { label: string; options: Parameters<typeof rawPost>[1] }[] = [
      {
        label: `${size} multipart body (declared)`,
        options: { contentType: "multipart/form-data; boundary=x", total: giant },
      },
      {
        label: `${size} multipart body (chunked)`,
        options: { contentType: "multipart/form-data; boundary=x", total: giant, chunked: true },
      },
      { label: `${size} octet-stream body`, options: { contentType: "application/octet-stream", total: giant } },
      // The full level streams more giant bodies through each route (each is read up to its limit).
      ...(FULL
        ? [
            {
              label: `${size} urlencoded body (chunked)`,
              options: { contentType: "application/x-www-form-urlencoded", total: giant, chunked: true },
            },
            {
              label: `${size} octet-stream body (chunked)`,
              options: { contentType: "application/octet-stream", total: giant, chunked: true },
            },
          ]
        : []),
      { label: "small octet-stream body", options: { contentType: "application/octet-stream", total: 2048 } },
      {
        label: "multipart without a boundary",
        options: { contentType: "multipart/form-data", body: Buffer.from("--x\r\nnot a part\r\n--x--\r\n") },
      },
      {
        label: "broken multipart",
        options: { contentType: "multipart/form-data; boundary=abc", body: Buffer.from("--abc\r\ngarbage") },
      },
    ];
    const fields = await target.fields();
    for (const { label, options } of cases) {
      const before = snapshot();
      const answer = await rawPost(url, { ...options, cookie });
      expectRefusal(answer, `${target.name} / ${label}`);
      if (options.total === giant) {
        expect.soft(answer.written, `${target.name} / ${label}: refused before the whole body`).toBeLessThan(giant);
      }
      expect.soft(snapshot(), `${target.name} / ${label}: nothing stored`).toEqual(before);
    }
    // 10,000 parts: the form's fields, 9,998 junk fields and one hostile file.
    const junk: Part[] = Array.from({ length: 9_998 }, (_, i) => ({ name: `junk${i}`, value: `v${i}` }));
    const svg: HostileFile = {
      label: "svg",
      filename: "x.svg",
      contentType: "image/svg+xml",
      data: Buffer.from("<svg onload=alert(1)>"),
    };
    const many = [...Object.entries(fields).map(([name, value]) => ({ name, value })), ...junk];
    const before = snapshot();
    const answer = await postMultipart(target.client(), target.url, [
      ...many.slice(0, 10_000 - 1),
      { name: target.fileField, file: svg },
    ]);
    expectRefusal(answer, `${target.name} / 10,000 parts`);
    expect(snapshot(), `${target.name} / 10,000 parts: nothing stored`).toEqual(before);
    // 10,000 file parts, each hostile.
    const files: Part[] = Array.from({ length: 10_000 }, () => ({ name: target.fileField, file: svg }));
    const answerFiles = await postMultipart(target.client(), target.url, [
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
      ...files,
    ]);
    expectRefusal(answerFiles, `${target.name} / 10,000 file parts`);
    expect(snapshot(), `${target.name} / 10,000 file parts: nothing stored`).toEqual(before);
  }
});

test("receipts are served privately as sandboxed images that cannot be sniffed or cached", async ({ playwright }) => {
  const fields = await freshCheckout();
  const answer = await postMultipart(
    shopper,
    "/payment",
    partsOf(fields, "receipt", { label: "receipt", filename: "r.jpg", contentType: "image/jpeg", data: await jpeg() }),
  );
  expect(answer.status).toBe(302);
  const db = openDatabase(shop.files);
  const order = db.prepare("SELECT id FROM orders WHERE submission_key = ?").get(fields.submissionKey as string) as {
    id: string;
  };
  db.close();
  for (const [client, url] of [
    [shopper, `/account/orders/${order.id}/receipt`],
    [admin, `/admin/orders/${order.id}/receipt`],
    [admin, `/admin/orders/${order.id}/receipt?download=1`],
  ] as const) {
    const response = await client.get(url, { maxRedirects: 0 });
    expect(response.status(), url).toBe(200);
    const headers = response.headers();
    expect(headers["content-type"], url).toBe("image/jpeg");
    expect(headers["x-content-type-options"], url).toBe("nosniff");
    expect(headers["content-disposition"], url).toMatch(
      url.endsWith("download=1") ? /^attachment; filename="receipt-ORD-[\w-]+\.jpg"$/ : /^inline; filename="/,
    );
    expect(headers["content-security-policy"], url).toMatch(/(^|;\s*)sandbox(;|$)/);
    expect(headers["content-security-policy"], url).toMatch(/default-src 'none'/);
    expect(headers["cache-control"], url).toBe("private, no-store");
    expect((await sharp(await response.body()).metadata()).format).toBe("jpeg");
  }
  // Anyone else: not found, whether signed out or another shopper.
  const stranger = await playwright.request.newContext({ baseURL: shop.baseURL });
  try {
    expect((await stranger.get(`/account/orders/${order.id}/receipt`, { maxRedirects: 0 })).status()).toBe(404);
    await apiSignUp(stranger, uniqueEmail("upload-stranger"), uniquePassword());
    expect((await stranger.get(`/account/orders/${order.id}/receipt`, { maxRedirects: 0 })).status()).toBe(404);
    expect((await stranger.get(`/admin/orders/${order.id}/receipt`, { maxRedirects: 0 })).status()).not.toBe(200);
  } finally {
    await stranger.dispose();
  }
});
