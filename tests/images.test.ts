import zlib from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import {
  BodyTooLargeError,
  IMAGE_PRESETS,
  ImageError,
  type ImageErrorCode,
  processImage,
  readFormData,
  sniffImageType,
  storeImage,
} from "~/lib/images.server";
import { MemoryStorage } from "~/lib/storage.server";

const MB = 1024 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** A valid PNG header declaring width x height 8-bit RGB, with only a tiny IDAT: no pixels allocated. */
function hugePngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  ihdr[10] = 0; // compression
  ihdr[11] = 0; // filter
  ihdr[12] = 0; // interlace
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", zlib.deflateSync(Buffer.from([0, 0, 0, 0]))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A copy backed by a plain ArrayBuffer, as File/Blob parts require. */
function part(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes);
}

function solid(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 180, g: 40, b: 40 } } });
}

async function realJpeg(width = 400, height = 300): Promise<Buffer> {
  return solid(width, height).jpeg({ quality: 90 }).toBuffer();
}

async function realPng(width = 400, height = 300): Promise<Buffer> {
  return solid(width, height).png().toBuffer();
}

async function codeOf(promise: Promise<unknown>): Promise<ImageErrorCode | "resolved" | "other"> {
  try {
    await promise;
    return "resolved";
  } catch (error) {
    return error instanceof ImageError ? error.code : "other";
  }
}

/** storeImage must refuse with `code` and store nothing. */
async function expectRefused(file: File, kind: keyof typeof IMAGE_PRESETS, code: ImageErrorCode) {
  const storage = new MemoryStorage();
  const error = await storeImage(storage, file, kind).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImageError);
  expect((error as ImageError).code).toBe(code);
  expect((error as ImageError).messageKey).toBe(`errors.image.${code}`);
  expect(storage.files.size).toBe(0);
}

describe("IMAGE_PRESETS", () => {
  it("caps receipts at 5 MB and product images at a 1600px box", () => {
    expect(IMAGE_PRESETS.receipt.maxBytes).toBe(5 * MB);
    expect(IMAGE_PRESETS.product.maxWidth).toBe(1600);
    expect(IMAGE_PRESETS.product.maxHeight).toBe(1600);
    for (const preset of Object.values(IMAGE_PRESETS)) {
      expect(preset.maxPixels).toBeGreaterThan(0);
      expect(preset.maxPixels).toBeLessThan(50_000 * 50_000);
      expect(preset.quality).toBeGreaterThan(0);
      expect(preset.quality).toBeLessThanOrEqual(100);
    }
  });
});

describe("sniffImageType", () => {
  it("recognises JPEG, PNG and WebP by their bytes", async () => {
    expect(sniffImageType(await realJpeg())).toBe("jpeg");
    expect(sniffImageType(await realPng())).toBe("png");
    expect(sniffImageType(await solid(10, 10).webp().toBuffer())).toBe("webp");
  });

  it("returns null for anything else, including too-short prefixes", () => {
    expect(sniffImageType(new Uint8Array())).toBeNull();
    expect(sniffImageType(Buffer.from([0xff, 0xd8]))).toBeNull();
    expect(sniffImageType(PNG_SIGNATURE.subarray(0, 7))).toBeNull();
    expect(sniffImageType(Buffer.from("RIFF\0\0\0\0WAVE"))).toBeNull();
    expect(sniffImageType(Buffer.from("GIF88a..........."))).toBeNull();
    expect(sniffImageType(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'></svg>"))).toBeNull();
    expect(sniffImageType(Buffer.from("%PDF-1.7\n"))).toBeNull();
  });
});

describe("GIF", () => {
  it("is read (first frame) only where the preset allows it: the hero image", async () => {
    const gif = await solid(30, 20).gif().toBuffer();
    expect(sniffImageType(gif)).toBe("gif");
    const hero = await processImage(gif, IMAGE_PRESETS.hero);
    expect(await sharp(hero.data).metadata()).toMatchObject({ format: "webp", width: 30, height: 20 });
    expect(await codeOf(processImage(gif, IMAGE_PRESETS.product))).toBe("unsupportedType");
    expect(await codeOf(processImage(gif, IMAGE_PRESETS.receipt))).toBe("unsupportedType");
  });
});

describe("storeImage refusals (nothing is stored)", () => {
  it("a text file renamed .png is unsupportedType", async () => {
    const file = new File(["hello, this is not a picture at all\n".repeat(10)], "x.png", { type: "image/png" });
    await expectRefused(file, "product", "unsupportedType");
  });

  it("a PNG declaring 50000x50000 is tooManyPixels, read from the header without decoding", async () => {
    const bytes = hugePngHeader(50_000, 50_000);
    expect(bytes.length).toBeLessThan(200);
    // The crafted header is valid as far as the decoder's header reader is concerned.
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    expect(meta.format).toBe("png");
    expect([meta.width, meta.height]).toEqual([50_000, 50_000]);

    const file = new File([part(bytes)], "huge.png", { type: "image/png" });
    await expectRefused(file, "product", "tooManyPixels");
    await expectRefused(file, "receipt", "tooManyPixels");
    expect(await codeOf(processImage(bytes, IMAGE_PRESETS.hero))).toBe("tooManyPixels");
  });

  it("the pixel limit is the preset's: 7000x6000 (42 MP) is too many for a product, not for a hero", async () => {
    const bytes = hugePngHeader(7000, 6000);
    const error = await processImage(bytes, IMAGE_PRESETS.product).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImageError);
    expect((error as ImageError).code).toBe("tooManyPixels");
    expect((error as ImageError).params).toEqual({ maxMegapixels: 40 });
    // Within the hero's 60 MP the header passes; the missing pixel data is then corrupt.
    expect(await codeOf(processImage(bytes, IMAGE_PRESETS.hero))).toBe("corrupt");
  });

  it("a receipt over 5 MB is tooLarge, even with a JPEG signature", async () => {
    const bytes = Buffer.alloc(5 * MB + 1);
    bytes.set([0xff, 0xd8, 0xff, 0xe0]);
    await expectRefused(new File([part(bytes)], "receipt.jpg", { type: "image/jpeg" }), "receipt", "tooLarge");
    expect(await codeOf(processImage(bytes, IMAGE_PRESETS.receipt))).toBe("tooLarge");
    // Exactly at the limit is not "too large" (it is refused for being garbage instead).
    expect(await codeOf(processImage(bytes.subarray(0, 5 * MB), IMAGE_PRESETS.receipt))).toBe("corrupt");
  });

  it("tooLarge carries the limit in MB for the message", async () => {
    const bytes = Buffer.alloc(5 * MB + 1);
    bytes.set([0xff, 0xd8, 0xff]);
    const error = await processImage(bytes, IMAGE_PRESETS.receipt).catch((e: unknown) => e);
    expect((error as ImageError).params).toEqual({ maxMb: 5 });
  });

  it("zero bytes is empty", async () => {
    await expectRefused(new File([], "empty.jpg", { type: "image/jpeg" }), "product", "empty");
    expect(await codeOf(processImage(new Uint8Array(), IMAGE_PRESETS.product))).toBe("empty");
  });

  it("a truncated real JPEG is corrupt", async () => {
    const jpeg = await sharp({
      create: {
        width: 800,
        height: 600,
        channels: 3,
        background: "#808080",
        noise: { type: "gaussian", mean: 128, sigma: 60 },
      },
    })
      .jpeg({ quality: 90 })
      .toBuffer();
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length * 0.6));
    expect(sniffImageType(truncated)).toBe("jpeg");
    await expectRefused(new File([part(truncated)], "photo.jpg", { type: "image/jpeg" }), "product", "corrupt");
  });

  it("a JPEG signature in front of other bytes is refused", async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), await realPng()]);
    const code = await codeOf(processImage(bytes, IMAGE_PRESETS.product));
    expect(["corrupt", "unsupportedType"]).toContain(code);
  });

  it.each([
    [
      "SVG",
      "logo.png",
      "image/png",
      `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>`,
    ],
    [
      "SVG without prolog",
      "logo.svg",
      "image/svg+xml",
      `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`,
    ],
    ["PDF", "receipt.jpg", "image/jpeg", "%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n"],
    ["HTML", "photo.webp", "image/webp", "<!doctype html><html><body><script>alert(1)</script></body></html>"],
  ])("%s bytes are unsupportedType", async (_label, name, type, content) => {
    await expectRefused(new File([content], name, { type }), "product", "unsupportedType");
    await expectRefused(new File([content], name, { type }), "receipt", "unsupportedType");
  });
});

describe("storeImage accepts real images whatever their name", () => {
  it("a PNG's bytes sent as image/jpeg named .jpg is stored as WebP", async () => {
    const storage = new MemoryStorage();
    const png = await realPng(320, 200);
    const key = await storeImage(storage, new File([part(png)], "photo.jpg", { type: "image/jpeg" }), "product");

    // A listing image's name records its width (decision 031); 320 wide, it has no smaller copy.
    expect(key).toMatch(/^products\/[0-9a-f-]{36}_320w\.webp$/);
    expect(storage.files.size).toBe(1);
    const stored = await storage.get("public", key);
    expect(stored).not.toBeNull();
    expect(stored?.contentType).toBe("image/webp");
    expect(sniffImageType(stored?.data ?? Buffer.alloc(0))).toBe("webp");
    const meta = await sharp(stored?.data).metadata();
    expect(meta.format).toBe("webp");
    expect([meta.width, meta.height]).toEqual([320, 200]); // never enlarged
  });

  it("receipts go to the private area, other kinds to public; folder can be chosen", async () => {
    const storage = new MemoryStorage();
    const jpeg = await realJpeg();
    const receipt = await storeImage(storage, new File([part(jpeg)], "r.jpg"), "receipt");
    expect(receipt).toMatch(/^receipts\/[0-9a-f-]{36}\.jpg$/);
    expect(await storage.exists("private", receipt)).toBe(true);
    expect(await storage.exists("public", receipt)).toBe(false);

    const blog = await storeImage(storage, new File([part(jpeg)], "b.jpg"), "blog", { folder: "blog/2026" });
    expect(blog).toMatch(/^blog\/2026\/[0-9a-f-]{36}\.webp$/);
    expect(await storage.exists("public", blog)).toBe(true);

    const again = await storeImage(storage, new File([part(jpeg)], "r.jpg"), "receipt");
    expect(again).not.toBe(receipt);
    expect(storage.files.size).toBe(3);
  });

  it("strips EXIF and GPS, auto-orients, re-encodes to WebP and fits the product box", async () => {
    // 3000x2000 stored pixels, top half red and bottom half blue, with orientation 6
    // (display rotated 90° clockwise: the red top ends up on the right).
    const blueBottom = await sharp({
      create: { width: 3000, height: 1000, channels: 3, background: { r: 0, g: 0, b: 255 } },
    })
      .png()
      .toBuffer();
    const input = await sharp({
      create: { width: 3000, height: 2000, channels: 3, background: { r: 255, g: 0, b: 0 } },
    })
      .composite([{ input: blueBottom, top: 1000, left: 0 }])
      .withMetadata({ orientation: 6 })
      .withExif({
        IFD0: { Make: "SpyCam", Model: "Tracker 9000", Copyright: "secret owner" },
        IFD3: {
          GPSLatitudeRef: "N",
          GPSLatitude: "22/1 18/1 0/1",
          GPSLongitudeRef: "E",
          GPSLongitude: "114/1 10/1 0/1",
        },
      })
      .jpeg({ quality: 90 })
      .toBuffer();

    // The fixture really carries what must be removed.
    const inputMeta = await sharp(input).metadata();
    expect(inputMeta.format).toBe("jpeg");
    expect([inputMeta.width, inputMeta.height]).toEqual([3000, 2000]);
    expect(inputMeta.orientation).toBe(6);
    expect(inputMeta.exif).toBeDefined();
    const inputExif = inputMeta.exif ?? Buffer.alloc(0);
    expect(inputExif.includes("SpyCam")).toBe(true);
    // GPS IFD pointer tag 0x8825, in either byte order.
    expect(inputExif.includes(Buffer.from([0x88, 0x25])) || inputExif.includes(Buffer.from([0x25, 0x88]))).toBe(true);

    const storage = new MemoryStorage();
    const key = await storeImage(storage, new File([part(input)], "IMG_0001.JPG", { type: "image/jpeg" }), "product");
    const stored = await storage.get("public", key);
    const out = stored?.data ?? Buffer.alloc(0);

    expect(sniffImageType(out)).toBe("webp");
    expect(out.includes("SpyCam")).toBe(false);
    expect(out.includes("secret owner")).toBe(false);
    const meta = await sharp(out).metadata();
    expect(meta.format).toBe("webp");
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    // Portrait after auto-orient, scaled into 1600x1600.
    expect(meta.height).toBe(1600);
    expect(meta.width).toBeGreaterThanOrEqual(1066);
    expect(meta.width).toBeLessThanOrEqual(1067);

    // Rotated the right way: red (the stored top) is now on the right, blue on the left.
    const { data, info } = await sharp(out).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => {
      const i = (y * info.width + x) * info.channels;
      return { r: data[i] ?? 0, b: data[i + 2] ?? 0 };
    };
    const right = pixel(info.width - 50, Math.floor(info.height / 2));
    const left = pixel(50, Math.floor(info.height / 2));
    expect(right.r).toBeGreaterThan(200);
    expect(right.b).toBeLessThan(60);
    expect(left.b).toBeGreaterThan(200);
    expect(left.r).toBeLessThan(60);
  });

  it("processImage reports the output size and keeps receipts larger than products", async () => {
    const jpeg = await realJpeg(3000, 2000);
    const product = await processImage(jpeg, IMAGE_PRESETS.product);
    expect([product.width, product.height]).toEqual([1600, 1067]);
    const receipt = await processImage(jpeg, IMAGE_PRESETS.receipt);
    expect([receipt.width, receipt.height]).toEqual([2400, 1600]);
    // Receipts are JPEG (cheap to encode while the shopper waits), public images WebP.
    expect(sniffImageType(receipt.data)).toBe("jpeg");
    expect(sniffImageType(product.data)).toBe("webp");
  });
});

describe("readFormData", () => {
  const url = "http://shop.test/upload";

  async function multipart(fields: Record<string, string | File>): Promise<{ body: Uint8Array; contentType: string }> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    const request = new Request(url, { method: "POST", body: form });
    return {
      body: new Uint8Array(await request.arrayBuffer()),
      contentType: request.headers.get("Content-Type") ?? "",
    };
  }

  /** A lazily pulled body with no Content-Length; counts what was actually read. */
  function streamed(body: Uint8Array, contentType: string, chunkSize = 16 * 1024) {
    const state = { pulled: 0 };
    let offset = 0;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (offset >= body.length) {
            controller.close();
            return;
          }
          const chunk = body.slice(offset, offset + chunkSize);
          offset += chunk.length;
          state.pulled += chunk.length;
          controller.enqueue(chunk);
        },
      },
      { highWaterMark: 0 },
    );
    const request = new Request(url, {
      method: "POST",
      headers: { "Content-Type": contentType },
      body: stream,
      duplex: "half",
    } as RequestInit);
    return { request, state };
  }

  it("refuses a body that grows past maxBytes while streaming, without reading it all", async () => {
    const big = new File([Buffer.alloc(4 * MB, 0x61)], "big.jpg", { type: "image/jpeg" });
    const { body, contentType } = await multipart({ note: "hi", file: big });
    const { request, state } = streamed(body, contentType);
    expect(request.headers.get("Content-Length")).toBeNull();

    const error = await readFormData(request, 256 * 1024).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BodyTooLargeError);
    expect((error as BodyTooLargeError).maxBytes).toBe(256 * 1024);
    expect(state.pulled).toBeLessThan(body.length / 2);
  });

  it("refuses a too-large Content-Length before reading anything", async () => {
    let pulled = false;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled = true;
          controller.enqueue(new Uint8Array(10));
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const request = new Request(url, {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(50 * MB) },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(request.headers.get("Content-Length")).toBe(String(50 * MB));
    await expect(readFormData(request, 10 * MB)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(pulled).toBe(false);
  });

  it("returns the form with its file when within the limit", async () => {
    const png = await realPng(40, 30);
    const { body, contentType } = await multipart({
      title: "Receipt for HT-1001",
      receipt: new File([part(png)], "receipt.png", { type: "image/png" }),
    });
    const { request } = streamed(body, contentType, 1000);
    const form = await readFormData(request, body.length);

    expect(form.get("title")).toBe("Receipt for HT-1001");
    const file = form.get("receipt");
    expect(file).toBeInstanceOf(File);
    expect((file as File).name).toBe("receipt.png");
    expect((file as File).size).toBe(png.length);
    expect(Buffer.from(await (file as File).arrayBuffer()).equals(png)).toBe(true);

    // And the parsed file goes straight through the pipeline.
    const storage = new MemoryStorage();
    const key = await storeImage(storage, file as File, "receipt");
    expect(await storage.exists("private", key)).toBe(true);
  });

  it("one byte over the limit is refused even when it arrives in the last chunk", async () => {
    const { body, contentType } = await multipart({ note: "x".repeat(5000) });
    const { request } = streamed(body, contentType, 1024);
    await expect(readFormData(request, body.length - 1)).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it("parses urlencoded bodies too", async () => {
    const request = new Request(url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "redirectTo=%2Fcheckout&qty=2",
    });
    const form = await readFormData(request, 1024);
    expect(form.get("redirectTo")).toBe("/checkout");
    expect(form.get("qty")).toBe("2");
  });
});
