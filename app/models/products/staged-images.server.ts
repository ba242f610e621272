import { createHash, randomUUID } from "node:crypto";
import sharp from "sharp";
import { IMAGE_PRESETS, ImageError, type ProcessedImage, processImage } from "~/lib/images.server";
import { UserError } from "~/lib/problem";
import type { Storage } from "~/lib/storage.server";
import { type KeptImages, type KeptImageView, MAX_PRODUCT_IMAGES, type RefusedImage } from "~/schemas/product";

/*
 * Images chosen in the product form, kept on the server between answers that save nothing
 * (docs/decisions/039). A browser without JavaScript sends the whole form for "Add colour", "Move
 * up" or a save refused for a missing name, and the page it gets back cannot refill a file input:
 * the chosen files would be lost. So each chosen file goes through the image pipeline (refused
 * files say why, next to the picker) and is kept in private storage under the admin's own folder,
 * with a small preview; the page carries only its token (a time and a random id) in a hidden
 * field, and the save that finally happens stores the kept images as the product's new images,
 * in the order they were chosen, then removes them here. Kept images are never served: the page
 * shows their preview inline. Ones never saved are removed after a day by the next keep.
 */

/** A kept image older than this is gone: the admin chooses it again. */
export const STAGED_IMAGE_MAX_AGE_MS = 24 * 60 * 60 * 1000;
const TOKEN_PATTERN = /^[0-9a-z]{6,12}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FOLDER = "staged-images";
const PREVIEW_WIDTH = 128;

/** The admin's own folder: another admin's token names nothing there. */
function folderOf(adminId: string): string {
  return `${FOLDER}/${createHash("sha256").update(adminId).digest("hex").slice(0, 24)}`;
}

const imageKey = (adminId: string, token: string) => `${folderOf(adminId)}/${token}.webp`;
const previewKey = (adminId: string, token: string) => `${folderOf(adminId)}/${token}-preview.webp`;

function tokenAge(token: string): number {
  return Date.now() - Number.parseInt(token.split("-")[0] ?? "", 36);
}

/** A token of the right shape and not older than a day. */
function isLiveToken(token: string): boolean {
  return TOKEN_PATTERN.test(token) && tokenAge(token) < STAGED_IMAGE_MAX_AGE_MS;
}

/** Removes every kept image (of any admin) older than a day: the ones whose form was never saved. */
async function removeStale(storage: Storage): Promise<void> {
  const stale = (await storage.list("private")).filter((key) => {
    const match = /^staged-images\/[0-9a-f]+\/([^/]+?)(?:-preview)?\.webp$/.exec(key);
    return match?.[1] !== undefined && !isLiveToken(match[1]);
  });
  for (const key of stale) await storage.delete("private", key);
}

/** One line of a file name, as the admin's computer named it (shown, never used as a path). */
function displayName(name: string): string {
  return name.replace(/\p{Cc}/gu, "").slice(0, 120);
}

function previewOf(data: Buffer): string {
  return `data:image/webp;base64,${data.toString("base64")}`;
}

/**
 * What the form keeps after an answer that saved nothing: the images kept before (`tokens`, in
 * order; the ones ticked for removal in `removed` are deleted now, gone or stale ones are left
 * out), then the `files` chosen this time, each through the image pipeline, up to `free` places in
 * all. `files` is empty when the browser keeps its own chosen files (JavaScript).
 */
export async function keepChosenImages(
  storage: Storage,
  adminId: string,
  chosen: { tokens: { token: string; name: string }[]; removed: string[]; files: File[]; free: number },
): Promise<KeptImages> {
  const removed = new Set(chosen.removed);
  const staged: KeptImageView[] = [];
  for (const { token, name } of chosen.tokens) {
    if (!isLiveToken(token) || staged.some((image) => image.token === token)) continue;
    if (removed.has(token)) {
      await removeStagedImages(storage, adminId, [token]);
      continue;
    }
    const preview = await storage.get("private", previewKey(adminId, token));
    if (preview) staged.push({ token, name: displayName(name), preview: previewOf(preview.data) });
  }
  const refused: RefusedImage[] = [];
  let skipped = 0;
  if (chosen.files.length > 0) await removeStale(storage);
  for (const file of chosen.files) {
    if (staged.length >= Math.min(chosen.free, MAX_PRODUCT_IMAGES)) {
      skipped++;
      continue;
    }
    const name = displayName(file.name);
    let image: ProcessedImage;
    try {
      image = await processImage(new Uint8Array(await file.arrayBuffer()), IMAGE_PRESETS.product);
    } catch (error) {
      if (!(error instanceof ImageError)) throw error;
      refused.push({ name, key: error.messageKey, params: error.params });
      continue;
    }
    const token = `${Date.now().toString(36)}-${randomUUID()}`;
    const preview = await sharp(image.data).resize({ width: PREVIEW_WIDTH }).webp({ quality: 70 }).toBuffer();
    await storage.put("private", imageKey(adminId, token), image.data, "image/webp");
    await storage.put("private", previewKey(adminId, token), preview, "image/webp");
    staged.push({ token, name, preview: previewOf(preview) });
  }
  return { staged, refused, skipped };
}

/**
 * The kept images of `tokens` for the save, in order, as the pipeline made them. One that is
 * gone (a day old, or not this admin's) refuses the save with 409: the admin chooses it again.
 */
export async function takeStagedImages(storage: Storage, adminId: string, tokens: string[]): Promise<ProcessedImage[]> {
  const images: ProcessedImage[] = [];
  for (const token of tokens) {
    const stored = isLiveToken(token) ? await storage.get("private", imageKey(adminId, token)) : null;
    if (!stored) throw new UserError("adminProductForm.errors.keptImageGone", { field: "newImages", status: 409 });
    const { width = 0, height = 0 } = await sharp(stored.data).metadata();
    images.push({ data: stored.data, width, height });
  }
  return images;
}

/** Removes kept images (after the save that stored them, or when the admin takes them out). */
export async function removeStagedImages(storage: Storage, adminId: string, tokens: string[]): Promise<void> {
  for (const token of tokens) {
    if (!TOKEN_PATTERN.test(token)) continue;
    await storage.delete("private", imageKey(adminId, token));
    await storage.delete("private", previewKey(adminId, token));
  }
}
