import sharp from "sharp";
import { DERIVATIVE_WIDTHS, derivativeKey, sizedKey } from "./image-sizes";
import { UserError } from "./problem";
import { generateKey, removeFilesQuietly, type Storage, type StorageArea } from "./storage.server";

/**
 * The one image pipeline every upload goes through. A file is judged by its bytes, never by
 * its name or Content-Type: only JPEG, PNG and WebP are decoded (and GIF, first frame only, where
 * a preset allows it: the hero image); the pixel count is checked
 * from the header before decoding; the result is auto-oriented, stripped of all metadata
 * (EXIF, GPS), resized and re-encoded to WebP under a generated name.
 */

// No libvips operation cache: the shop never reads the same upload twice, and the cache kept up
// to 50 MB of decoded images per process. One thread per image: receipts are encoded
// RECEIPT_SLOTS at a time (one per core), so more threads per image only contend (decision 069).
sharp.cache(false);
sharp.concurrency(1);

export type ImageErrorCode = "empty" | "tooLarge" | "unsupportedType" | "tooManyPixels" | "corrupt";

export class ImageError extends Error {
  constructor(
    readonly code: ImageErrorCode,
    readonly params: Record<string, string | number> = {},
  ) {
    super(`image rejected: ${code}`);
    this.name = "ImageError";
  }

  /** Translation key of the message shown next to the field. */
  get messageKey(): string {
    return `errors.image.${this.code}`;
  }
}

export interface ImagePreset {
  /** Largest accepted upload in bytes (checked while the body streams in, and again here). */
  maxBytes: number;
  /** Largest accepted width x height, read from the header before any decoding. */
  maxPixels: number;
  /** The stored image fits inside this box. */
  maxWidth: number;
  maxHeight: number;
  quality: number;
  /** GIF accepted too (its first frame); every other preset takes JPEG, PNG and WebP only. */
  acceptsGif?: boolean;
  /** Stored format: WebP (the default: public images, smallest) or JPEG (5x cheaper to encode). */
  output?: "webp" | "jpeg";
  /** Smaller WebP copies stored beside the image for `srcset` (decision 031): listing images only. */
  derivatives?: readonly number[];
}

const MB = 1024 * 1024;

export const IMAGE_PRESETS = {
  product: {
    maxBytes: 10 * MB,
    maxPixels: 40_000_000,
    maxWidth: 1600,
    maxHeight: 1600,
    quality: 82,
    derivatives: DERIVATIVE_WIDTHS,
  },
  category: { maxBytes: 10 * MB, maxPixels: 40_000_000, maxWidth: 1200, maxHeight: 1200, quality: 80 },
  hero: { maxBytes: 10 * MB, maxPixels: 60_000_000, maxWidth: 2400, maxHeight: 1600, quality: 80, acceptsGif: true },
  blog: { maxBytes: 10 * MB, maxPixels: 40_000_000, maxWidth: 1600, maxHeight: 1600, quality: 80 },
  // The footer's "Supported By" logo: small, transparency kept (WebP).
  logo: { maxBytes: 2 * MB, maxPixels: 20_000_000, maxWidth: 480, maxHeight: 240, quality: 85 },
  // Receipts stay legible: bank reference numbers are small print. JPEG, not WebP: a receipt is
  // encoded once per payment while the shopper waits and viewed once by the owner; a 12 MP phone
  // photo costs ~180 ms of CPU as JPEG against ~980 ms as WebP, for about the same size.
  receipt: { maxBytes: 5 * MB, maxPixels: 40_000_000, maxWidth: 2400, maxHeight: 2400, quality: 88, output: "jpeg" },
} satisfies Record<string, ImagePreset>;

export type ImageKind = keyof typeof IMAGE_PRESETS;

type Format = "jpeg" | "png" | "webp" | "gif";

/** The file's real type from its first bytes. */
export function sniffImageType(bytes: Uint8Array): Format | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (
    bytes.length >= 8 &&
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((value, index) => bytes[index] === value)
  ) {
    return "png";
  }
  if (
    bytes.length >= 12 &&
    String.fromCharCode(...bytes.subarray(0, 4)) === "RIFF" &&
    String.fromCharCode(...bytes.subarray(8, 12)) === "WEBP"
  ) {
    return "webp";
  }
  if (bytes.length >= 6 && ["GIF87a", "GIF89a"].includes(String.fromCharCode(...bytes.subarray(0, 6)))) return "gif";
  return null;
}

export interface ProcessedImage {
  data: Buffer;
  width: number;
  height: number;
}

export async function processImage(input: Uint8Array, preset: ImagePreset): Promise<ProcessedImage> {
  if (input.byteLength === 0) throw new ImageError("empty");
  if (input.byteLength > preset.maxBytes) {
    throw new ImageError("tooLarge", { maxMb: Math.round(preset.maxBytes / MB) });
  }
  const format = sniffImageType(input);
  if (!format || (format === "gif" && !preset.acceptsGif)) throw new ImageError("unsupportedType");

  const options = { limitInputPixels: preset.maxPixels, failOn: "error" as const, animated: false };
  let metadata: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
  try {
    // Only the header is read here, so no pixel limit yet: the size check below gives the right message.
    metadata = await sharp(input, { ...options, limitInputPixels: false }).metadata();
  } catch {
    throw new ImageError("corrupt");
  }
  // The bytes and the decoder must agree (a PNG renamed and prefixed is not a JPEG).
  if (metadata.format !== format) throw new ImageError("unsupportedType");
  const { width = 0, height = 0 } = metadata;
  if (width < 1 || height < 1) throw new ImageError("corrupt");
  if (width * height > preset.maxPixels) {
    throw new ImageError("tooManyPixels", { maxMegapixels: Math.round(preset.maxPixels / 1_000_000) });
  }

  try {
    const { data, info } = await sharp(input, options)
      .rotate() // apply EXIF orientation, then the orientation tag goes with the rest
      .resize({ width: preset.maxWidth, height: preset.maxHeight, fit: "inside", withoutEnlargement: true })
      .toFormat(preset.output ?? "webp", { quality: preset.quality })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw new ImageError("tooManyPixels", { maxMegapixels: Math.round(preset.maxPixels / 1_000_000) });
    }
    throw new ImageError("corrupt");
  }
}

/** An uploaded file checked and re-encoded (processImage) under a preset: not stored yet. */
export async function encodeUpload(file: File | Blob, kind: ImageKind): Promise<ProcessedImage> {
  const preset = IMAGE_PRESETS[kind];
  if (file.size > preset.maxBytes) {
    throw new ImageError("tooLarge", { maxMb: Math.round(preset.maxBytes / MB) });
  }
  return processImage(new Uint8Array(await file.arrayBuffer()), preset);
}

/** Stores an image encodeUpload made for `kind` (no derivatives: see storeImage) under a new key. */
export async function putEncoded(
  storage: Storage,
  image: ProcessedImage,
  kind: ImageKind,
  options: { area?: StorageArea; folder?: string } = {},
): Promise<string> {
  const preset: ImagePreset = IMAGE_PRESETS[kind];
  const jpeg = preset.output === "jpeg";
  const key = generateKey(options.folder ?? `${kind}s`, jpeg ? "jpg" : "webp");
  await storage.put(
    options.area ?? (kind === "receipt" ? "private" : "public"),
    key,
    image.data,
    jpeg ? "image/jpeg" : "image/webp",
  );
  return key;
}

/**
 * Validates, re-encodes and stores an uploaded image; returns its storage key. Nothing is
 * stored when the image is refused.
 */
export async function storeImage(
  storage: Storage,
  file: File | Blob,
  kind: ImageKind,
  options: { area?: StorageArea; folder?: string } = {},
): Promise<string> {
  const image = await encodeUpload(file, kind);
  const preset: ImagePreset = IMAGE_PRESETS[kind];
  if (preset.derivatives) {
    return putWithDerivatives(storage, generateKey(options.folder ?? `${kind}s`, "webp"), image, preset.quality);
  }
  return putEncoded(storage, image, kind, options);
}

/**
 * Stores a WebP image and its smaller copies (decision 031) in the public area: the copies first,
 * under names derived from the main one, so a row never points at an image whose copies are
 * missing; on a failure the ones written are removed. `key` is a generated `…/<uuid>.webp`;
 * returns the main key, which records the image's width.
 */
export async function putWithDerivatives(
  storage: Storage,
  key: string,
  image: ProcessedImage,
  quality: number,
): Promise<string> {
  const main = sizedKey(key, image.width);
  const written: string[] = [];
  try {
    for (const width of DERIVATIVE_WIDTHS) {
      if (width >= image.width) continue;
      const data = await sharp(image.data).resize({ width }).webp({ quality }).toBuffer();
      const copy = derivativeKey(main, width);
      await storage.put("public", copy, data, "image/webp");
      written.push(copy);
    }
    await storage.put("public", main, image.data, "image/webp");
  } catch (error) {
    await removeFilesQuietly(storage, "public", written);
    throw error;
  }
  return main;
}

/** Best-effort removal of a public image no row points at any more (a file left behind is harmless). */
export async function deletePublicImage(storage: Storage, key: string | null | undefined): Promise<void> {
  if (key) await removeFilesQuietly(storage, "public", [key]);
}

/**
 * Saves a row that points at `newKey`, an image already stored through the pipeline: when the
 * save throws, the new file is deleted again and the error passes on.
 */
export async function savingImage<T>(storage: Storage, newKey: string | null, save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (error) {
    await deletePublicImage(storage, newKey);
    throw error;
  }
}

/** The image a row keeps on update: the new upload, none when removed, else the one it had. */
export function keptImage(current: string | null, newKey: string | null, remove: boolean | undefined): string | null {
  return newKey ?? (remove ? null : current);
}

/** After an update: deletes the previous image once the row no longer points at it. */
export async function dropReplacedImage(
  storage: Storage,
  previous: string | null | undefined,
  current: string | null,
): Promise<void> {
  if (previous && previous !== current) await deletePublicImage(storage, previous);
}

async function discard(body: ReadableStream<Uint8Array> | null): Promise<void> {
  if (!body) return;
  try {
    for await (const _chunk of body) {
      // drop it
    }
  } catch {
    // the client went away
  }
}

export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`request body larger than ${maxBytes} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/**
 * Parses a multipart (or urlencoded) body while counting its bytes: a body over `maxBytes`
 * is refused as it streams in, before it is buffered whole.
 */
export async function readFormData(request: Request, maxBytes: number): Promise<FormData> {
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > maxBytes) {
    // Read a moderately too-large body to its end before answering, so the client gets the
    // 413 instead of a reset connection; a huge one is cut off.
    if (declared <= maxBytes * 4) await discard(request.body);
    throw new BodyTooLargeError(maxBytes);
  }
  if (!request.body) return new FormData();
  let seen = 0;
  const reader = request.body.getReader();
  // Not pipeThrough: an error there cancels the request body, which destroys the socket before
  // the 413 is written (the client saw a reset). Over the limit, the rest is simply left unread.
  const limited = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else if (seen + value.byteLength > maxBytes) {
        seen += value.byteLength;
        controller.error(new BodyTooLargeError(maxBytes));
      } else {
        seen += value.byteLength;
        controller.enqueue(value);
      }
    },
    cancel(reason) {
      if (seen <= maxBytes) return reader.cancel(reason);
    },
  });
  const counted = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: limited,
    duplex: "half",
  } as RequestInit);
  try {
    return await counted.formData();
  } catch (error) {
    if (seen > maxBytes) throw new BodyTooLargeError(maxBytes);
    throw error;
  }
}

/**
 * Stores the image chosen in a form's file field, if one was chosen (an untouched file input
 * sends an empty, unnamed file): its storage key, else null. A refused image is a `UserError`
 * next to `field`, with the pipeline's parameters (e.g. the size limit); `keys` lets a form say
 * a refusal its own way.
 */
export async function storeChosenImage(
  storage: Storage,
  value: FormDataEntryValue | null | undefined,
  kind: ImageKind,
  options: { folder?: string; field: string; keys?: Partial<Record<ImageErrorCode, string>> },
): Promise<string | null> {
  if (!(value instanceof File) || (value.size === 0 && value.name === "")) return null;
  try {
    return await storeImage(storage, value, kind, { folder: options.folder });
  } catch (error) {
    if (!(error instanceof ImageError)) throw error;
    const key = options.keys?.[error.code] ?? error.messageKey;
    throw new UserError(key, { params: error.params, field: options.field });
  }
}
