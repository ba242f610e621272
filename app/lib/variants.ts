/**
 * A product's variants as the storefront reads them (docs/decisions/054): colours and, when the
 * product has a second option ("Size"), its values; each colour × value is one variant with its
 * own stock. Shared by the server and the browser (the product page switches without a reload).
 */

export interface StoreVariant {
  color: string;
  color_zh: string | null;
  /** '' when the product has no second option. */
  option_value: string;
  option_value_zh: string | null;
  stock: number;
}

export interface StoreColour {
  color: string;
  color_zh: string | null;
  /** The colour's stock over all its values. */
  stock: number;
}

/** The colours of a product's variants in the shop's order (the variants come in colour order), each with its total stock. */
export function coloursOf(variants: Pick<StoreVariant, "color" | "color_zh" | "stock">[]): StoreColour[] {
  const colours = new Map<string, StoreColour>();
  for (const variant of variants) {
    const colour = colours.get(variant.color);
    if (colour) colour.stock += variant.stock;
    else colours.set(variant.color, { color: variant.color, color_zh: variant.color_zh, stock: variant.stock });
  }
  return [...colours.values()];
}

/** The second option's values in their order ('' values — no option — left out). */
export function optionValuesOf(
  variants: Pick<StoreVariant, "option_value" | "option_value_zh">[],
): { option_value: string; option_value_zh: string | null }[] {
  const values = new Map<string, { option_value: string; option_value_zh: string | null }>();
  for (const variant of variants) {
    if (variant.option_value === "" || values.has(variant.option_value)) continue;
    values.set(variant.option_value, { option_value: variant.option_value, option_value_zh: variant.option_value_zh });
  }
  return [...values.values()];
}

/** The variant of a colour and value, if the product has it. */
export function findVariant<V extends StoreVariant>(variants: V[], color: string, optionValue: string): V | undefined {
  return variants.find((variant) => variant.color === color && variant.option_value === optionValue);
}

/**
 * The value a `?option=` asks for, for the chosen colour: that value if the product has it, else
 * the first value in stock in that colour, else the first (no error). '' without a second option.
 */
export function chosenOptionValue(variants: StoreVariant[], color: string, asked: string | null): string {
  const values = optionValuesOf(variants);
  if (values.length === 0) return "";
  if (asked !== null && values.some((value) => value.option_value === asked)) return asked;
  const inStock = variants.find(
    (variant) => variant.color === color && variant.option_value !== "" && variant.stock > 0,
  );
  return inStock?.option_value ?? values[0]?.option_value ?? "";
}
