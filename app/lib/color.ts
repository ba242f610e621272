import type { TFunction } from "i18next";

/**
 * A colour variant's name in the reader's language. Colours are stored by their English name
 * (the cart and orders key on it); common ones have a translation, others show as stored.
 */
export function colorLabel(color: string, t: TFunction): string {
  // biome-ignore lint/suspicious/noExplicitAny: colour names are data, not a fixed key set
  return t(`colors.${color}` as any, { defaultValue: color }) as string;
}
