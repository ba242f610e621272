import { data, Form, Link, redirect } from "react-router";
import { AccountNeeded } from "~/components/account-needed";
import { ProductImage } from "~/components/product-card";
import { services } from "~/context";
import { getUser } from "~/lib/auth.server";
import { currentCartId } from "~/lib/cart-session.server";
import { setFlash } from "~/lib/flash.server";
import { useTranslation } from "~/lib/i18n";
import { colorName } from "~/lib/localize";
import { formatMoney } from "~/lib/money";
import { readForm } from "~/lib/read-form";
import { safeRedirect } from "~/lib/redirect";
import type { Language } from "~/locales";
import { getCurrency } from "~/middleware/currency";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { addToCart, CartError, clearCart, loadCart, removeLine, setLineQuantity } from "~/models/cart.server";
import { getShop, titleWithShop } from "~/models/settings/shop.server";
import type { Route } from "./+types/cart";

export async function loader({ context }: Route.LoaderArgs) {
  const { db } = services(context);
  const t = getInstance(context).t;
  const currency = getCurrency(context);
  const shop = await getShop(context);
  const cart = await loadCart(db, await currentCartId(context), currency, shop.shipping[currency]);
  return {
    cart,
    language: getLanguage(context),
    signedIn: getUser(context) !== null,
    title: await titleWithShop(context, t("cart.title")),
  };
}

/**
 * One cart action, told apart by `intent`: add, update, remove, clear. A plain form post is
 * answered with a redirect and a flash message; a fetcher (JavaScript, `_fetcher=1`) gets data.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { db } = services(context);
  const form = await readForm(request);
  const intent = form.get("intent");
  const viaFetcher = form.get("_fetcher") === "1";
  const back = intent === "add" ? safeRedirect(form.get("redirectTo"), "/cart") : "/cart";
  const done = (flash: Parameters<typeof setFlash>[1]) => {
    if (viaFetcher) return data({ ok: true as const, flash });
    setFlash(context, flash);
    return redirect(back);
  };
  try {
    switch (intent) {
      case "add": {
        const cartId = (await currentCartId(context, true)) as string;
        const added = await addToCart(db, cartId, {
          productId: form.get("productId"),
          color: form.get("color"),
          quantity: form.get("quantity") ?? "1",
        });
        const name = getLanguage(context) === "zh" ? added.name_zh : added.name_en;
        return done({ type: "success", key: "cart.added", detailKey: "cart.addedDetail", params: { name } });
      }
      case "update": {
        const cartId = await currentCartId(context);
        if (!cartId) throw new CartError("cart.errors.noLine");
        // The −/+ buttons send the new quantity as setQuantity; the Update button sends the typed one.
        const quantity = form.get("setQuantity") ?? form.get("quantity");
        const changed = await setLineQuantity(db, cartId, form.get("lineId"), quantity);
        // Below 1 or unreadable ("", "abc", "1.5", "1e9"): nothing changes, and the shopper is told why.
        if (!changed) throw new CartError("cart.errors.badQuantity");
        return done({ type: "success", key: "cart.updated" });
      }
      case "remove": {
        const cartId = await currentCartId(context);
        if (!cartId) throw new CartError("cart.errors.noLine");
        const line = await removeLine(db, cartId, form.get("lineId"));
        const name = getLanguage(context) === "zh" ? line.name_zh : line.name_en;
        return done(
          line.color === "Default"
            ? { type: "success", key: "cart.removedDefault", params: { name } }
            : { type: "success", key: "cart.removed", params: { name, color: colorName(line, getLanguage(context)) } },
        );
      }
      case "clear": {
        const cartId = await currentCartId(context);
        if (cartId) await clearCart(db, cartId);
        return done({ type: "success", key: "cart.cleared" });
      }
      default:
        return data(
          { ok: false as const, flash: { type: "error" as const, key: "error.badRequest" } },
          { status: 400 },
        );
    }
  } catch (error) {
    if (!(error instanceof CartError)) throw error;
    const flash = {
      type: "error" as const,
      key: error.key,
      detailKey: error.detailKey,
      params: colourInLanguage(error.params, getLanguage(context), getInstance(context).t("colors.Default")),
    };
    if (viaFetcher) return data({ ok: false as const, flash }, { status: 400 });
    setFlash(context, flash);
    return redirect(back, { status: 303 });
  }
}

/**
 * A refusal's colour (`color`, with `color_zh` when it has a Chinese name) as one name in the
 * reader's language; a product without colour options is "Standard".
 */
function colourInLanguage(
  params: Record<string, string | number>,
  language: Language,
  standard: string,
): Record<string, string | number> {
  const { color, color_zh, ...rest } = params;
  if (typeof color !== "string") return rest;
  const name = color === "Default" ? standard : colorName({ color, color_zh: String(color_zh ?? "") }, language);
  return { ...rest, color: name };
}

export default function CartPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { cart, language, signedIn } = loaderData;
  if (cart.lines.length === 0) {
    return (
      <div className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-20 text-center">
        <h1 className="text-2xl font-bold">{t("cart.emptyTitle")}</h1>
        <p className="text-stone-600">{t("cart.emptyText")}</p>
        <Link
          to="/category/all"
          className="rounded-md bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700"
        >
          {t("cart.startShopping")}
        </Link>
      </div>
    );
  }
  const money = (cents: number) => formatMoney(cents, cart.currency);
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <h1 className="text-3xl font-bold">{t("cart.title")}</h1>
      <div className="mt-6 grid gap-8 lg:grid-cols-[1fr_22rem]">
        <section>
          <ul className="divide-y divide-stone-200 rounded-lg border border-stone-200 bg-white">
            {cart.lines.map((line) => {
              const name = language === "zh" ? line.name_zh : line.name_en;
              const over = line.available && line.quantity > line.stock;
              return (
                <li
                  key={line.id}
                  className={`flex flex-col gap-4 p-4 sm:flex-row ${over ? "bg-amber-50" : ""} ${line.available ? "" : "bg-stone-50"}`}
                  data-testid="cart-line"
                >
                  {/* The same product link as the name beside it: hidden from assistive tech and the tab order. */}
                  <Link to={`/product/${line.productId}`} className="shrink-0" aria-hidden="true" tabIndex={-1}>
                    <ProductImage
                      src={line.imageUrl}
                      alt=""
                      t={t}
                      className="h-24 w-24 rounded-md"
                      width={96}
                      height={96}
                    />
                  </Link>
                  <div className="min-w-0 flex-1">
                    <Link to={`/product/${line.productId}`} className="font-semibold hover:underline">
                      {name}
                    </Link>
                    <p className="text-sm text-stone-500">
                      {language === "zh" ? line.category_name_zh : line.category_name_en}
                    </p>
                    {line.color !== "Default" ? (
                      <p className="text-sm" data-testid="line-colour">
                        {t("cart.color")}: {colorName(line, language)}
                      </p>
                    ) : null}
                    {line.available ? (
                      <p className="text-sm text-stone-600">
                        {t("cart.price")}: {money(line.unitPriceCents)}
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
                    {/* Quantity: a small form of its own; works without JavaScript. A line that can
                        no longer be bought can only be removed. */}
                    {line.available ? (
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
                    ) : null}
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
            })}
          </ul>
          <div className="mt-4 flex flex-wrap justify-between gap-3">
            <Link
              to="/category/all"
              className="rounded-md border border-stone-300 px-4 py-2 font-medium hover:bg-stone-100"
            >
              {t("cart.continueShopping")}
            </Link>
            <Form method="post">
              <input type="hidden" name="intent" value="clear" />
              <button
                type="submit"
                className="rounded-md border border-red-300 px-4 py-2 font-medium text-red-700 hover:bg-red-50"
              >
                {t("cart.clearCart")}
              </button>
            </Form>
          </div>
        </section>
        <aside className="h-fit rounded-lg border border-stone-200 bg-white p-5" aria-labelledby="summary-heading">
          <h2 id="summary-heading" className="text-lg font-semibold">
            {t("cart.summary")}
          </h2>
          <dl className="mt-4 space-y-2 text-sm">
            <div className="flex justify-between">
              <dt>{t("cart.subtotal")}</dt>
              <dd data-testid="subtotal">{money(cart.subtotalCents)}</dd>
            </div>
            <div className="flex justify-between">
              <dt>{t("cart.shipping")}</dt>
              <dd data-testid="shipping">{cart.shippingCents === 0 ? t("cart.free") : money(cart.shippingCents)}</dd>
            </div>
            <div className="flex justify-between border-t border-stone-200 pt-2 text-base font-bold">
              <dt>{t("cart.orderTotal")}</dt>
              <dd data-testid="total">{money(cart.totalCents)}</dd>
            </div>
          </dl>
          {cart.shippingRule.freeAboveCents !== null ? (
            <p className="mt-2 text-xs text-stone-500">
              {t("cart.freeShippingNote", { amount: money(cart.shippingRule.freeAboveCents) })}
            </p>
          ) : null}
          {cart.unavailable ? (
            <p className="mt-4 text-sm text-red-700">{t("cart.removeUnavailable")}</p>
          ) : cart.overStock ? (
            <p className="mt-4 text-sm text-amber-800">{t("cart.fixQuantities")}</p>
          ) : (
            <Link
              to="/checkout"
              className="mt-4 block rounded-md bg-brand-600 px-4 py-3 text-center font-semibold text-white hover:bg-brand-700"
            >
              {t("cart.checkout")}
            </Link>
          )}
          {signedIn ? null : <AccountNeeded className="mt-4" />}
        </aside>
      </div>
    </div>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.title ?? "Cart" }, { name: "robots", content: "noindex" }];
}
