import crypto from "node:crypto";
import { type DB, now, preparedRead } from "#db/connect.server";
import { lockRows } from "#db/dialect";
import type { Currency } from "#db/schema";
import { DEFAULT_COLOR } from "~/lib/colors";
import { parseId } from "~/lib/ids";
import { priceNow } from "~/lib/money";
import { UserError } from "~/lib/problem";
import { type ShippingRule, shippingFor } from "~/lib/shipping";
import { publicUrl } from "~/lib/storage.server";
import { shownToShoppers } from "./products/cards.server";
import { shippingQuote, zoneRate } from "./shipping/zones.server";

/**
 * The cart lives on the server: a cookie (or the signed-in user) names it; lines are product +
 * colour + quantity. Prices are never stored in the cart: they are read from the products in
 * the shopper's currency every time.
 */

export const MAX_LINE_QUANTITY = 999;

/** An id the cart reads from a form (string) or a caller (number), by the one id rule. */
function idOf(value: unknown): number | null {
  return typeof value === "number" || typeof value === "string" ? parseId(String(value)) : null;
}

/** Cart lines joined to the colour each is for (its product's variant), when that colour still exists. */
function linesWithVariant(db: DB) {
  return db
    .selectFrom("cart_lines")
    .leftJoin("product_variants", (join) =>
      join
        .onRef("product_variants.product_id", "=", "cart_lines.product_id")
        .onRef("product_variants.color", "=", "cart_lines.color")
        .onRef("product_variants.option_value", "=", "cart_lines.option_value"),
    );
}

export interface CartLine {
  id: number;
  productId: number;
  name_en: string;
  name_zh: string;
  category_slug: string | null;
  category_name_en: string | null;
  category_name_zh: string | null;
  /** The colour's English name: the line's key, with the product. */
  color: string;
  /** The colour's Chinese name, if it has one. */
  color_zh: string | null;
  /** The second option's value ('' when the product has none; with the colour, the line's key) and names (docs/decisions/054). */
  option_value: string;
  option_value_zh: string | null;
  option_name: string | null;
  option_name_zh: string | null;
  quantity: number;
  stock: number;
  /** False when the product's category is inactive: the line is shown, not counted, not sold. */
  available: boolean;
  /** The price paid now: the sale price while the product is on sale (docs/decisions/053). */
  unitPriceCents: number;
  /** The regular price: above `unitPriceCents` exactly while the product is on sale. */
  regularUnitPriceCents: number;
  lineTotalCents: number;
  imageUrl: string | null;
}

export interface Cart {
  id: string | null;
  lines: CartLine[];
  currency: Currency;
  subtotalCents: number;
  shippingCents: number;
  totalCents: number;
  /** The shop's shipping rule in the cart's currency (the page says when shipping becomes free). */
  shippingRule: ShippingRule;
  /** Lines asking for more than is in stock now (the page highlights them). */
  overStock: boolean;
  /** Lines whose product is hidden now (inactive category): checkout waits until they are removed. */
  unavailable: boolean;
  /**
   * The destination shipping was computed for (decision 047): its code, the zone that ships there
   * (null: no zone covers it, and the cart cannot be ordered there), and the cart's weight.
   */
  destination?: {
    countryCode: string;
    zone: { id: number; nameEn: string; nameZh: string } | null;
    weightGrams: number;
  };
}

export function newCartId(): string {
  return crypto.randomBytes(18).toString("base64url");
}

/** The cart of a user, or null when they have none yet. */
export async function findUserCart(db: DB, userId: string): Promise<string | null> {
  const row = await db.selectFrom("carts").select("id").where("user_id", "=", userId).executeTakeFirst();
  return row?.id ?? null;
}

/** The cart of a user (created when missing). */
export async function cartIdForUser(db: DB, userId: string): Promise<string> {
  const existing = await findUserCart(db, userId);
  if (existing) return existing;
  const id = newCartId();
  const timestamp = now();
  await db
    .insertInto("carts")
    .values({ id, user_id: userId, created_at: timestamp, updated_at: timestamp })
    .onConflict((oc) => oc.column("user_id").doNothing())
    .execute();
  const row = await db.selectFrom("carts").select("id").where("user_id", "=", userId).executeTakeFirstOrThrow();
  return row.id;
}

/** An anonymous cart by its cookie id; null when it does not exist (or belongs to a user). */
export async function findAnonymousCart(db: DB, cartId: string | null): Promise<string | null> {
  if (!cartId) return null;
  const row = await db
    .selectFrom("carts")
    .select("id")
    .where("id", "=", cartId)
    .where("user_id", "is", null)
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function createAnonymousCart(db: DB): Promise<string> {
  const id = newCartId();
  const timestamp = now();
  await db.insertInto("carts").values({ id, user_id: null, created_at: timestamp, updated_at: timestamp }).execute();
  return id;
}

/**
 * A user's cart, or an anonymous cart by id (not one a user has since claimed), with its number of
 * lines: one statement, for the header of every page.
 */
export async function findCartWithCount(
  db: DB,
  which: { userId: string } | { anonymousId: string },
): Promise<{ id: string; lines: number } | null> {
  const [row] = await ("userId" in which ? userCart(db, which.userId) : anonymousCart(db, which.anonymousId));
  return row ? { id: row.id, lines: Number(row.lines ?? 0) } : null;
}

/** The cart with its line count, prepared once (a read of every page: db/connect.server.ts `preparedRead`). */
function cartWithCount(db: DB) {
  return db.selectFrom("carts").select((eb) => [
    "carts.id",
    eb
      .selectFrom("cart_lines")
      .select((c) => c.fn.countAll<number>().as("n"))
      .whereRef("cart_lines.cart_id", "=", "carts.id")
      .as("lines"),
  ]);
}
const userCart = preparedRead((db: DB, userId: string) => cartWithCount(db).where("carts.user_id", "=", userId));
const anonymousCart = preparedRead((db: DB, cartId: string) =>
  cartWithCount(db).where("carts.id", "=", cartId).where("carts.user_id", "is", null),
);

export async function countCartLines(db: DB, cartId: string | null): Promise<number> {
  if (!cartId) return 0;
  const { n } = await db
    .selectFrom("cart_lines")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("cart_id", "=", cartId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * The cart's lines, oldest first, joined to what pricing and showing them needs: the product's
 * names and prices, its category (hidden from shoppers when inactive), the colour's stock and
 * Chinese name, the first image. Read by the cart and, inside its transaction, by placing the order.
 */
export function cartLineRows(db: DB, cartId: string) {
  return linesWithVariant(db)
    .innerJoin("products", "products.id", "cart_lines.product_id")
    .leftJoin("categories", "categories.id", "products.category_id")
    .leftJoin("product_images", (join) =>
      join.onRef("product_images.product_id", "=", "products.id").on("product_images.sort_order", "=", 0),
    )
    .select([
      "cart_lines.id",
      "cart_lines.product_id",
      "cart_lines.color",
      "cart_lines.option_value",
      "cart_lines.quantity",
      "products.name_en",
      "products.name_zh",
      "products.option_name",
      "products.option_name_zh",
      "products.weight_grams",
      "products.price_hkd_cents",
      "products.price_gbp_cents",
      "products.price_eur_cents",
      "products.price_usd_cents",
      "products.sale_price_hkd_cents",
      "products.sale_price_gbp_cents",
      "products.sale_price_eur_cents",
      "products.sale_price_usd_cents",
      "products.sale_ends_at",
      "categories.slug as category_slug",
      "categories.name_en as category_name_en",
      "categories.name_zh as category_name_zh",
      "categories.is_active as category_is_active",
      "product_variants.stock",
      "product_variants.color_zh",
      "product_variants.option_value_zh",
      "product_variants.sku",
      "product_images.path as image_path",
    ])
    .where("cart_lines.cart_id", "=", cartId)
    .orderBy("cart_lines.id")
    .execute();
}

/**
 * The cart in `currency`: prices from the database, shipping under the shop's rule for that
 * currency — or, given a destination (ISO code), under the rate of the zone that ships there.
 */
export async function loadCart(
  db: DB,
  cartId: string | null,
  currency: Currency,
  shippingRule: ShippingRule,
  destination?: string,
  at: Date = new Date(),
): Promise<Cart> {
  const empty: Cart = {
    id: cartId,
    lines: [],
    currency,
    subtotalCents: 0,
    shippingCents: 0,
    totalCents: 0,
    shippingRule,
    overStock: false,
    unavailable: false,
  };
  if (!cartId) return empty;
  const rows = await cartLineRows(db, cartId);
  const lines = rows.map((row): CartLine => {
    const price = priceNow(row, currency, at);
    const unit = price.cents;
    return {
      id: row.id,
      productId: row.product_id,
      name_en: row.name_en,
      name_zh: row.name_zh,
      category_slug: row.category_slug,
      category_name_en: row.category_name_en,
      category_name_zh: row.category_name_zh,
      color: row.color,
      color_zh: row.color_zh ?? null,
      option_value: row.option_value,
      option_value_zh: row.option_value_zh ?? null,
      option_name: row.option_value ? row.option_name : null,
      option_name_zh: row.option_value ? row.option_name_zh : null,
      quantity: row.quantity,
      stock: row.stock ?? 0,
      // A left join: no category (null) is shown; an inactive one (0) hides the product.
      available: row.category_is_active !== 0,
      unitPriceCents: unit,
      regularUnitPriceCents: price.regularCents,
      lineTotalCents: unit * row.quantity,
      imageUrl: publicUrl(row.image_path),
    };
  });
  const buyable = lines.filter((line) => line.available);
  const subtotal = buyable.reduce((sum, line) => sum + line.lineTotalCents, 0);
  let shipping = shippingFor(subtotal, shippingRule);
  let rule = shippingRule;
  let where: Cart["destination"];
  if (destination) {
    const weightGrams = rows
      .filter((row) => row.category_is_active !== 0)
      .reduce((sum, row) => sum + row.weight_grams * row.quantity, 0);
    const quote = await shippingQuote(db, { countryCode: destination, currency, subtotalCents: subtotal, weightGrams });
    shipping = quote.shipped ? quote.shippingCents : 0;
    if (quote.shipped) {
      const rate = await zoneRate(db, quote.zone.id, currency);
      if (rate) rule = { feeCents: rate.feeCents, freeAboveCents: rate.freeAboveCents };
    }
    const zone = quote.shipped ? { id: quote.zone.id, nameEn: quote.zone.nameEn, nameZh: quote.zone.nameZh } : null;
    where = { countryCode: destination.toUpperCase(), zone, weightGrams };
  }
  return {
    id: cartId,
    lines,
    currency,
    subtotalCents: subtotal,
    shippingCents: shipping,
    totalCents: subtotal + shipping,
    shippingRule: rule,
    destination: where,
    overStock: buyable.some((line) => line.quantity > line.stock),
    unavailable: buyable.length < lines.length,
  };
}

function parseQuantity(value: unknown): number | null {
  const text = String(value ?? "").trim();
  if (!/^\d{1,4}$/.test(text)) return null;
  return Number(text);
}

async function variantFor(db: DB, productId: number, color: string, optionValue: string) {
  return (
    db
      .selectFrom("product_variants")
      .innerJoin("products", "products.id", "product_variants.product_id")
      .select([
        "product_variants.stock",
        "product_variants.color",
        "product_variants.color_zh",
        "product_variants.option_value_zh",
        "products.name_en",
        "products.name_zh",
      ])
      // A product of an inactive category is hidden: it cannot be added (it is "not available").
      .where(shownToShoppers)
      .where("product_variants.product_id", "=", productId)
      .where("product_variants.color", "=", color)
      .where("product_variants.option_value", "=", optionValue)
      .executeTakeFirst()
  );
}

/** Whether the product has a second option (its variants have values): then a value must be chosen. */
async function hasOption(db: DB, productId: number): Promise<boolean> {
  const row = await db
    .selectFrom("product_variants")
    .select("id")
    .where("product_id", "=", productId)
    .where("option_value", "<>", "")
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Adds `quantity` of a product's variant: its colour and, when it has a second option, the value
 * chosen (docs/decisions/054). The same variant adds to its line; the total may not exceed the
 * variant's stock. A product with a second option and no value chosen is refused at the option.
 */
export async function addToCart(
  db: DB,
  cartId: string,
  input: { productId: unknown; color: unknown; option?: unknown; quantity: unknown },
): Promise<{ name_en: string; name_zh: string; color: string; option_value: string; quantity: number }> {
  const productId = idOf(input.productId);
  const color =
    typeof input.color === "string" && input.color.trim() ? input.color.trim().slice(0, 100) : DEFAULT_COLOR;
  const optionValue = typeof input.option === "string" ? input.option.trim().slice(0, 100) : "";
  const quantity = parseQuantity(input.quantity ?? "1");
  if (productId === null) throw new UserError("cart.errors.noProduct");
  if (quantity === null || quantity < 1 || quantity > MAX_LINE_QUANTITY) throw new UserError("cart.errors.badQuantity");
  const variant = await variantFor(db, productId, color, optionValue);
  if (!variant) {
    if (optionValue === "" && (await hasOption(db, productId))) {
      throw new UserError("cart.errors.chooseOption", { field: "option" });
    }
    throw new UserError("cart.errors.noProduct");
  }
  // The variant's name for messages: its colour and value, each with its Chinese name when it has one.
  const named = {
    color,
    ...(variant.color_zh ? { color_zh: variant.color_zh } : {}),
    ...(optionValue ? { option_value: optionValue } : {}),
    ...(variant.option_value_zh ? { option_value_zh: variant.option_value_zh } : {}),
  };

  return db.transaction().execute(async (trx) => {
    // Two adds to one cart at once (two tabs) run in turn on PostgreSQL: the second sees the
    // first's line and adds to it instead of inserting a duplicate.
    await lockRows(trx, "carts", "id", cartId);
    const line = await trx
      .selectFrom("cart_lines")
      .select(["id", "quantity"])
      .where("cart_id", "=", cartId)
      .where("product_id", "=", productId)
      .where("color", "=", color)
      .where("option_value", "=", optionValue)
      .executeTakeFirst();
    const inCart = line?.quantity ?? 0;
    if (quantity > variant.stock) {
      throw new UserError("cart.errors.insufficientStock", {
        // The route shows the variant in the reader's language (color_zh, option_value_zh when there are).
        params: { count: variant.stock, ...named },
        detailKey: "cart.errors.insufficientStockDetail",
      });
    }
    // Repeated adds stop at the line limit too (the cart page's quantity field allows 1-999).
    if (inCart + quantity > MAX_LINE_QUANTITY) throw new UserError("cart.errors.badQuantity");
    if (inCart + quantity > variant.stock) {
      throw new UserError("cart.errors.insufficientStock", {
        params: { count: quantity, inCart, stock: variant.stock },
        detailKey: "cart.errors.alreadyInCart",
      });
    }
    if (line) {
      await trx
        .updateTable("cart_lines")
        .set({ quantity: inCart + quantity })
        .where("id", "=", line.id)
        .execute();
    } else {
      await trx
        .insertInto("cart_lines")
        .values({
          cart_id: cartId,
          product_id: productId,
          color,
          option_value: optionValue,
          quantity,
          created_at: now(),
        })
        .execute();
    }
    await trx.updateTable("carts").set({ updated_at: now() }).where("id", "=", cartId).execute();
    return { name_en: variant.name_en, name_zh: variant.name_zh, color, option_value: optionValue, quantity };
  });
}

/**
 * Sets a line's quantity: below 1 or unreadable is ignored (false); above the line limit or the
 * colour's stock is refused.
 */
export async function setLineQuantity(db: DB, cartId: string, lineId: unknown, quantity: unknown): Promise<boolean> {
  const id = idOf(lineId);
  const wanted = parseQuantity(quantity);
  if (id === null) throw new UserError("cart.errors.noLine");
  if (wanted === null || wanted < 1) return false;
  if (wanted > MAX_LINE_QUANTITY) throw new UserError("cart.errors.badQuantity");
  const line = await linesWithVariant(db)
    .select(["cart_lines.id", "product_variants.stock"])
    .where("cart_lines.id", "=", id)
    .where("cart_lines.cart_id", "=", cartId)
    .executeTakeFirst();
  if (!line) throw new UserError("cart.errors.noLine");
  const stock = line.stock ?? 0;
  if (wanted > stock) throw new UserError("cart.errors.quantityOverStock", { params: { count: stock } });
  await db.updateTable("cart_lines").set({ quantity: wanted }).where("id", "=", id).execute();
  return true;
}

export async function removeLine(db: DB, cartId: string, lineId: unknown) {
  const id = idOf(lineId);
  if (id === null) throw new UserError("cart.errors.noLine");
  const line = await linesWithVariant(db)
    .innerJoin("products", "products.id", "cart_lines.product_id")
    .select([
      "cart_lines.id",
      "cart_lines.color",
      "cart_lines.option_value",
      "product_variants.color_zh",
      "product_variants.option_value_zh",
      "products.name_en",
      "products.name_zh",
    ])
    .where("cart_lines.id", "=", id)
    .where("cart_lines.cart_id", "=", cartId)
    .executeTakeFirst();
  if (!line) throw new UserError("cart.errors.noLine");
  await db.deleteFrom("cart_lines").where("id", "=", id).execute();
  return line;
}

export async function clearCart(db: DB, cartId: string): Promise<void> {
  await db.deleteFrom("cart_lines").where("cart_id", "=", cartId).execute();
}

/**
 * At sign-in the anonymous cart joins the user's: quantities summed and capped at stock.
 * Returns how many lines were capped.
 */
export async function mergeCarts(
  db: DB,
  anonymousCartId: string,
  userId: string,
): Promise<{ merged: number; capped: number }> {
  const target = await cartIdForUser(db, userId);
  if (target === anonymousCartId) return { merged: 0, capped: 0 };
  return db.transaction().execute(async (trx) => {
    await lockRows(trx, "carts", "id", target);
    const lines = await linesWithVariant(trx)
      .select([
        "cart_lines.product_id",
        "cart_lines.color",
        "cart_lines.option_value",
        "cart_lines.quantity",
        "product_variants.stock",
      ])
      .where("cart_lines.cart_id", "=", anonymousCartId)
      .execute();
    let capped = 0;
    for (const line of lines) {
      const existing = await trx
        .selectFrom("cart_lines")
        .select(["id", "quantity"])
        .where("cart_id", "=", target)
        .where("product_id", "=", line.product_id)
        .where("color", "=", line.color)
        .where("option_value", "=", line.option_value)
        .executeTakeFirst();
      const stock = line.stock ?? 0;
      const sum = (existing?.quantity ?? 0) + line.quantity;
      const quantity = Math.min(sum, stock);
      if (quantity < sum) capped++;
      if (quantity < 1) {
        if (existing) await trx.deleteFrom("cart_lines").where("id", "=", existing.id).execute();
        continue;
      }
      if (existing) await trx.updateTable("cart_lines").set({ quantity }).where("id", "=", existing.id).execute();
      else
        await trx
          .insertInto("cart_lines")
          .values({
            cart_id: target,
            product_id: line.product_id,
            color: line.color,
            option_value: line.option_value,
            quantity,
            created_at: now(),
          })
          .execute();
    }
    // A discount code applied before signing in comes along, unless their cart has one.
    const anonymous = await trx
      .selectFrom("carts")
      .select("discount_code")
      .where("id", "=", anonymousCartId)
      .executeTakeFirst();
    if (anonymous?.discount_code) {
      await trx
        .updateTable("carts")
        .set({ discount_code: anonymous.discount_code })
        .where("id", "=", target)
        .where("discount_code", "is", null)
        .execute();
    }
    await trx.deleteFrom("carts").where("id", "=", anonymousCartId).execute();
    return { merged: lines.length, capped };
  });
}
