/**
 * Smaller copies ("derivatives") of a listing image, made at upload so a card loads the size it
 * shows (decision 031). Which copies exist is read from the image's own name, so no column
 * records it: an image stored with derivatives is named `<folder>/<uuid>_<width>w.webp`, `width`
 * being its own pixel width, and each derivative is the same name with its smaller width
 * (`…_400w.webp`, `…_800w.webp`), made only below the main width (never upscaled). An image
 * stored before (`<folder>/<uuid>.webp`) has none and is shown as it is.
 *
 * Pure string functions: the card uses them in the browser, the pipeline and deletions on the server.
 */

/**
 * The widths made below an image's own width, smallest first: a card is at most 400 CSS pixels
 * wide (three columns of the 80rem page; two on tablets, one on phones), so 400 serves it at 1x
 * and 800 at 2x; a wider original stays in the `srcset` for 3x phones.
 */
export const DERIVATIVE_WIDTHS = [400, 800] as const;

const SIZED = /_(\d{1,5})w\.webp$/;

/** The main key for an image `width` pixels wide stored under `key` (`…/<uuid>.webp`). */
export function sizedKey(key: string, width: number): string {
  return key.replace(/\.webp$/, `_${width}w.webp`);
}

/** The main image's own width when its name says it has derivatives; null for an older image. */
export function mainWidth(key: string): number | null {
  const match = SIZED.exec(key);
  return match ? Number(match[1]) : null;
}

/** The derivative widths an image (key or URL) has: none for an image stored before decision 031. */
export function derivativeWidths(key: string): number[] {
  const width = mainWidth(key);
  return width === null ? [] : DERIVATIVE_WIDTHS.filter((w) => w < width);
}

/** The key (or URL) of the `width` copy of a main image. */
export function derivativeKey(key: string, width: number): string {
  return key.replace(SIZED, `_${width}w.webp`);
}

/** Every derivative key of an image (empty for an image without). */
export function derivativeKeys(key: string): string[] {
  return derivativeWidths(key).map((width) => derivativeKey(key, width));
}

/** A `srcset` for an image URL: its derivatives and itself, each with its width; null for an older image. */
export function imageSrcSet(url: string): string | null {
  const width = mainWidth(url);
  if (width === null) return null;
  return [...derivativeWidths(url).map((w) => `${derivativeKey(url, w)} ${w}w`), `${url} ${width}w`].join(",");
}
