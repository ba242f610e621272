import { Form, Link } from "react-router";
import { ProductImage } from "~/components/product-card";
import { DEFAULT_COLOR } from "~/lib/colors";
import { useTranslation } from "~/lib/i18n";
import { colorName, localized } from "~/lib/localize";
import { formatMoney } from "~/lib/money";
import type { Language } from "~/locales";
import type { CartLine } from "~/models/cart.server";

/** One line of the cart page: the product, its colour, the quantity form and Remove (no JavaScript needed). */
export function CartLineItem({
  line,
  currency,
  language,
}: {
  line: CartLine;
  currency: Parameters<typeof formatMoney>[1];
  language: Language;
}) {
  const { t } = useTranslation();
  const name = localized(line, "name", language);
  const over = line.available && line.quantity > line.stock;
  const money = (cents: number) => formatMoney(cents, currency);
  return (
    <li
      className={`flex flex-col gap-4 p-4 sm:flex-row ${over ? "bg-amber-50" : ""} ${line.available ? "" : "bg-stone-50"}`}
      data-testid="cart-line"
    >
      {/* The same product link as the name beside it: hidden from assistive tech and the tab order. */}
      <Link to={`/product/${line.productId}`} className="shrink-0" aria-hidden="true" tabIndex={-1}>
        <ProductImage src={line.imageUrl} alt="" t={t} className="h-24 w-24 rounded-md" width={96} height={96} />
      </Link>
      <div className="min-w-0 flex-1">
        <Link to={`/product/${line.productId}`} className="font-semibold hover:underline">
          {name}
        </Link>
        <p className="text-sm text-stone-500">{localized(line, "category_name", language)}</p>
        {line.color !== DEFAULT_COLOR ? (
          <p className="text-sm" data-testid="line-colour">
            {t("cart.color")}: {colorName(line, language)}
          </p>
        ) : null}
        {line.available ? (
          <p className="text-sm text-stone-600">
            {t("cart.price")}: {money(line.unitPriceCents)}
            {line.regularUnitPriceCents > line.unitPriceCents ? (
              <>
                {" "}
                <s className="text-stone-500" data-was-price>
                  <span className="sr-only">{t("product.wasPrice", { amount: "" })}</span>
                  {money(line.regularUnitPriceCents)}
                </s>
              </>
            ) : null}
          </p>
        ) : (
          <p className="mt-1 text-sm font-semibold text-red-700" data-testid="line-unavailable">
            {t("cart.unavailable")}
          </p>
        )}
        {over ? (
          <p className="mt-1 text-sm font-semibold text-amber-800" role="alert">
            {t("cart.onlyInStock", { count: line.stock })}
          </p>
        ) : null}
      </div>
      <div className="flex flex-col items-start gap-2 sm:items-end">
        {/* Quantity: a small form of its own; works without JavaScript. A line that can no longer
            be bought can only be removed. */}
        {line.available ? <QuantityForm line={line} /> : null}
        {line.available ? (
          <p className="font-semibold" data-testid="line-total">
            {money(line.lineTotalCents)}
          </p>
        ) : null}
        <Form method="post">
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="lineId" value={line.id} />
          <button
            type="submit"
            className="text-sm text-red-700 hover:underline"
            aria-label={t("cart.removeItem", { name })}
          >
            {t("cart.remove")}
          </button>
        </Form>
      </div>
    </li>
  );
}

function QuantityForm({ line }: { line: CartLine }) {
  const { t } = useTranslation();
  return (
    <Form method="post" className="flex items-center gap-1">
      <input type="hidden" name="intent" value="update" />
      <input type="hidden" name="lineId" value={line.id} />
      <button
        type="submit"
        name="setQuantity"
        value={line.quantity - 1}
        disabled={line.quantity <= 1}
        aria-label={t("product.decrease")}
        className="h-9 w-9 rounded-md border border-stone-300 disabled:opacity-40"
      >
        −
      </button>
      <label className="sr-only" htmlFor={`qty-${line.id}`}>
        {t("cart.quantity")}
      </label>
      <input
        id={`qty-${line.id}`}
        name="quantity"
        type="number"
        min={1}
        max={Math.max(1, line.stock)}
        defaultValue={line.quantity}
        key={line.quantity}
        className="h-9 w-16 rounded-md border border-stone-300 text-center"
      />
      <button
        type="submit"
        name="setQuantity"
        value={line.quantity + 1}
        disabled={line.quantity >= line.stock}
        aria-label={t("product.increase")}
        className="h-9 w-9 rounded-md border border-stone-300 disabled:opacity-40"
      >
        +
      </button>
      <button type="submit" className="ml-1 rounded-md border border-stone-300 px-2 py-1.5 text-sm">
        {t("cart.update")}
      </button>
    </Form>
  );
}
