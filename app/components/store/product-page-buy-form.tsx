import { useState } from "react";
import { useFetcher, useLocation } from "react-router";
import { CartMessage } from "~/components/cart-message";
import { Button } from "~/components/ui/button";
import { FetcherField } from "~/components/ui/fetcher-field";
import { DEFAULT_COLOR } from "~/lib/colors";
import { defaultColour } from "~/lib/colour-images";
import { useTranslation } from "~/lib/i18n";
import { colorName, optionValueName } from "~/lib/localize";
import { coloursOf, findVariant, optionValuesOf, type StoreColour, type StoreVariant } from "~/lib/variants";
import type { Language } from "~/locales";
import type { Flash } from "~/request/flash.server";

type Variant = StoreColour;

/** The colour chosen when the page opens: the first in stock, otherwise the first (as the card's image). */
export function initialVariant<V extends Variant>(variants: V[]): V | undefined {
  return defaultColour(variants);
}

/**
 * Add to Cart on the product page: colour, the second option's value (docs/decisions/054),
 * quantity, the button. With JavaScript the cart answers with data (no reload) and the message
 * shows under the button; without, the cart redirects back here (with the choice in the address)
 * and a flash message. A sold-out colour, or a value sold out in the chosen colour, cannot be
 * chosen; the cart checks the combination again.
 */
export function ProductBuyForm({
  productId,
  variants: all,
  option,
  language,
  color,
  optionValue,
  onColorChange,
  onOptionChange,
}: {
  productId: number;
  variants: StoreVariant[];
  /** The second option's name in the reader's language; null when the product has none. */
  option: string | null;
  language: Language;
  /** The chosen colour and value (the page shows their stock too). */
  color: string;
  optionValue: string;
  onColorChange: (color: string) => void;
  onOptionChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const variants = coloursOf(all);
  const values = optionValuesOf(all);
  const initial = initialVariant(variants);
  // The quantity typed for the chosen variant: another colour or value starts again at 1.
  const choice = `${color}\u0000${optionValue}`;
  const [typed, setTyped] = useState({ choice, quantity: 1 });
  const quantity = typed.choice === choice ? typed.quantity : 1;
  const setQuantity = (next: number | ((current: number) => number)) =>
    setTyped({ choice, quantity: typeof next === "function" ? next(quantity) : next });
  const fetcher = useFetcher<{ flash?: Flash | null }>();
  const chosen = variants.find((v) => v.color === color) ?? initial;
  const stock =
    values.length > 0 ? (findVariant(all, chosen?.color ?? "", optionValue)?.stock ?? 0) : (chosen?.stock ?? 0);
  const maxStock = Math.max(0, ...all.map((v) => v.stock));
  const valueStock = (value: string) => findVariant(all, chosen?.color ?? "", value)?.stock ?? 0;
  const showColors = !(variants.length === 1 && variants[0]?.color === DEFAULT_COLOR);

  return (
    <fetcher.Form
      method="post"
      action="/cart"
      className="flex flex-col gap-4 rounded-lg border border-stone-200 bg-white p-5"
    >
      <FetcherField />
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="productId" value={productId} />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      {showColors ? (
        <fieldset>
          <legend className="mb-2 text-sm font-medium">{t("product.color")}</legend>
          <div className="flex flex-wrap gap-2">
            {variants.map((variant) => (
              <label
                key={variant.color}
                className={`rounded-md border px-3 py-1.5 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 ${variant.stock === 0 ? "cursor-not-allowed border-dashed border-stone-300 bg-stone-100 text-stone-600" : "cursor-pointer"}`}
              >
                {/* A sold-out colour cannot be chosen, with or without JavaScript (the cart refuses it too). */}
                <input
                  type="radio"
                  name="color"
                  value={variant.color}
                  disabled={variant.stock === 0}
                  checked={variant.color === chosen?.color}
                  onChange={() => onColorChange(variant.color)}
                  className="sr-only"
                />
                {colorName(variant, language)}
                {variant.stock === 0 ? ` · ${t("product.soldOut")}` : ""}
              </label>
            ))}
          </div>
        </fieldset>
      ) : (
        <input type="hidden" name="color" value={initial?.color ?? DEFAULT_COLOR} />
      )}
      {values.length > 0 ? (
        <fieldset data-option-choice>
          <legend className="mb-2 text-sm font-medium">{option}</legend>
          <div className="flex flex-wrap gap-2">
            {values.map((value) => {
              const soldOut = valueStock(value.option_value) === 0;
              return (
                <label
                  key={value.option_value}
                  className={`min-w-12 rounded-md border px-3 py-1.5 text-center text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 ${soldOut ? "cursor-not-allowed border-dashed border-stone-300 bg-stone-100 text-stone-600 line-through decoration-stone-400" : "cursor-pointer"}`}
                >
                  {/* Sold out in the chosen colour: shown, not chosen (the cart refuses it too). */}
                  <input
                    type="radio"
                    name="option"
                    value={value.option_value}
                    disabled={soldOut}
                    checked={value.option_value === optionValue && !soldOut}
                    onChange={() => onOptionChange(value.option_value)}
                    className="sr-only"
                  />
                  {optionValueName(value, language)}
                  {soldOut ? <span className="sr-only"> · {t("product.soldOut")}</span> : null}
                </label>
              );
            })}
          </div>
        </fieldset>
      ) : null}
      <div>
        <label htmlFor="quantity" className="mb-2 block text-sm font-medium">
          {t("product.quantity")}
        </label>
        <div className="flex items-center gap-2">
          <button
            type="button"
            aria-label={t("product.decrease")}
            disabled={quantity <= 1}
            onClick={() => setQuantity((q) => Math.max(1, q - 1))}
            className="h-10 w-10 rounded-md border border-stone-300 text-lg disabled:opacity-40"
          >
            −
          </button>
          <input
            id="quantity"
            name="quantity"
            type="number"
            inputMode="numeric"
            min={1}
            // Without JavaScript the colour can change without a reload: the server checks the chosen colour's stock.
            max={Math.max(1, stock || maxStock)}
            value={quantity}
            onChange={(e) => setQuantity(Math.max(1, Math.min(stock || 1, Number(e.target.value) || 1)))}
            className="h-10 w-20 rounded-md border border-stone-300 text-center"
          />
          <button
            type="button"
            aria-label={t("product.increase")}
            disabled={quantity >= stock}
            onClick={() => setQuantity((q) => Math.min(stock, q + 1))}
            className="h-10 w-10 rounded-md border border-stone-300 text-lg disabled:opacity-40"
          >
            +
          </button>
        </div>
      </div>
      <div className="flex gap-2">
        <Button
          size="lg"
          disabled={stock === 0 || fetcher.state !== "idle"}
          className="flex-1 disabled:bg-stone-300 disabled:text-stone-600"
        >
          {stock === 0 ? t("product.outOfStock") : t("product.addToCart")}
        </Button>
        <button
          type="button"
          className="rounded-md border border-stone-300 px-4 py-3"
          aria-label={t("product.wishlist")}
          title={t("product.wishlist")}
        >
          ♡
        </button>
      </div>
      <CartMessage flash={fetcher.state === "idle" ? fetcher.data?.flash : null} />
    </fetcher.Form>
  );
}
