/**
 * Images per colour (docs/decisions/035): which of a product's images a colour shows, shared by
 * the product page (server and browser) and the listing card, so both agree.
 */

/** An image tagged with the colour it shows (an English colour name), or null for every colour. */
export interface TaggedImage {
  color: string | null;
}

/**
 * The images shown for `color`, in their order: that colour's own, then those for every colour;
 * other colours' images are left out. When that leaves nothing, every image (a product whose
 * images are all tagged with other colours still shows a picture).
 */
export function imagesForColour<T extends TaggedImage>(images: T[], color: string | null): T[] {
  const own = color === null ? [] : images.filter((image) => image.color === color);
  const shown = [...own, ...images.filter((image) => image.color === null)];
  return shown.length > 0 ? shown : images;
}

/** The colour a product opens with: the first in stock (in the shop's order), else the first. */
export function defaultColour<V extends { color: string; stock: number }>(variants: V[]): V | undefined {
  return variants.find((v) => v.stock > 0) ?? variants[0];
}

/** The colour a `?colour=` asks for if the product has it, else the default one (no error). */
export function chosenColour<V extends { color: string; stock: number }>(
  variants: V[],
  asked: string | null,
): V | undefined {
  return (asked === null ? undefined : variants.find((v) => v.color === asked)) ?? defaultColour(variants);
}

/** The `?image=` asked for, as an index into a gallery of `count` images (0 when out of range or not a number). */
export function imageIndex(asked: string | null, count: number): number {
  return Math.min(Math.max(0, Number(asked ?? 0) || 0), Math.max(0, count - 1));
}
