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

/**
 * A card image's `src` and `srcset`: the smallest copy as `src` (a card is at most 400 CSS pixels
 * wide), the larger copies and the original with their density (`_800w 2x`, `_1600w 4x`), no
 * `sizes` (decision 068). `withBase` names the `src` in the `srcset` too (`1x`), for an image
 * React preloads from its `srcset` alone. An image without copies is only a `src`.
 */
export function cardImageSources(url: string, withBase = false): { src: string; srcSet?: string } {
  const widths = derivativeWidths(url);
  const main = mainWidth(url);
  const base = widths[0];
  if (main === null || base === undefined) return { src: url };
  const src = derivativeKey(url, base);
  const candidates: [string, number][] = [
    ...(withBase ? [[src, base] as [string, number]] : []),
    ...widths.slice(1).map((w): [string, number] => [derivativeKey(url, w), w]),
    [url, main],
  ];
  return { src, srcSet: candidates.map(([u, w]) => `${u} ${w / base}x`).join(",") };
}
