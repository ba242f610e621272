import crypto from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import type { Currency } from "#db/schema";
import { UserError } from "~/lib/problem";
import { DEFAULT_SHIPPING_RULE } from "~/lib/shipping";
import { addToCart, createAnonymousCart, loadCart, mergeCarts } from "~/models/cart.server";
import {
  deleteDiscount,
  findDiscount,
  listDiscounts,
  setDiscountActive,
  updateDiscount,
} from "~/models/discounts/admin.server";
import { applyCartCode, priceCartDiscount, removeCartCode } from "~/models/discounts/cart.server";
import { releaseDiscountUse } from "~/models/discounts/uses.server";
import { transitionOrder } from "~/models/orders/desk.server";
import { expireOrder, sendDueReminders } from "~/models/orders/payment-deadlines.server";
import { type PlaceOrderInput, placeOrder } from "~/models/orders/place.server";
import { DEFAULT_SHOP } from "~/models/settings/shop.server";
import type { CheckoutInput } from "~/schemas/checkout";
import { discountSchema } from "~/schemas/discount";
import {
  createCategory,
  createCustomer,
  createDiscountCode,
  createProduct,
  createShopper,
  TEST_CONFIG,
} from "./factories";
import { freshTestDb } from "./setup/db";
import { queuedEmails } from "./setup/outbox";

/**
 * Discount codes (docs/decisions/048) on a real database: every rule and its message, the money
 * (eligible lines only, rounding, never below zero, shipping on the discounted subtotal), the use
 * counted in the order's transaction (N uses left → N orders, however many pay at once), and the
 * use given back once when the order is cancelled or expires.
 */

let db: DB;
beforeEach(async () => {
  ({ db } = await freshTestDb());
});

const RATES = DEFAULT_SHOP.exchangeRates;

const CUSTOMER: CheckoutInput = {
  firstName: "Chan",
  lastName: "Tai Man",
  email: "chan@example.com",
  address: "1 Nathan Road",
  city: "Kowloon",
  country: "Hong Kong",
} as CheckoutInput;

async function product(hkd: number, extra: { category_id?: number; stock?: number } = {}) {
  return createProduct(db, {
    price_hkd_cents: hkd,
    price_gbp_cents: Math.round(hkd / 10),
    price_eur_cents: Math.round(hkd / 9),
    price_usd_cents: Math.round(hkd / 8),
    category_id: extra.category_id ?? null,
    variants: [["Black", extra.stock ?? 100]],
  });
}

async function shopperWith(lines: Array<{ id: number; quantity?: number }>) {
  const shopper = await createShopper(db);
  for (const line of lines) {
    await addToCart(db, shopper.cartId, { productId: line.id, color: "Black", quantity: String(line.quantity ?? 1) });
  }
  return shopper;
}

function cartOf(cartId: string, currency: Currency = "HKD") {
  return loadCart(db, cartId, currency, DEFAULT_SHIPPING_RULE);
}

async function apply(
  shopper: { cartId: string; userId: string; user: { email: string } },
  code: string,
  options: { currency?: Currency; at?: Date } = {},
) {
  return applyCartCode(db, await cartOf(shopper.cartId, options.currency), code, {
    rates: RATES,
    shopper: { userId: shopper.userId, email: shopper.user.email },
    at: options.at,
  });
}

async function refusal(action: () => Promise<unknown>): Promise<UserError> {
  try {
    await action();
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return error as UserError;
  }
  throw new Error("expected a UserError, nothing was thrown");
}

function orderInput(
  shopper: { userId: string; cartId: string },
  overrides: Partial<PlaceOrderInput> = {},
): PlaceOrderInput {
  return {
    userId: shopper.userId,
    cartId: shopper.cartId,
    currency: "HKD",
    locale: "en",
    customer: CUSTOMER,
    receiptPath: null,
    submissionKey: crypto.randomUUID(),
    ...overrides,
  };
}

async function usesCount(id: number): Promise<number> {
  const row = await db.selectFrom("discount_codes").select("uses_count").where("id", "=", id).executeTakeFirstOrThrow();
  return row.uses_count;
}

describe("the rules of a code, each with its message", () => {
  it("finds a code whatever its case and spacing, and refuses one that does not exist", async () => {
    const item = await product(200_00);
    const { code } = await createDiscountCode(db, { code: "SUMMER10" });
    const shopper = await shopperWith([{ id: item.id }]);
    const quote = await apply(shopper, "  summer10 ");
    expect(quote).toMatchObject({ code, discountCents: 20_00, freeShipping: false });
    const stored = await db
      .selectFrom("carts")
      .select("discount_code")
      .where("id", "=", shopper.cartId)
      .executeTakeFirst();
    expect(stored?.discount_code).toBe("SUMMER10");

    const unknown = await refusal(() => apply(shopper, "WINTER99"));
    expect(unknown.problem).toMatchObject({ key: "discounts.errors.unknown", field: "code" });
  });

  it("refuses an inactive code, one not valid yet and one that has ended", async () => {
    const item = await product(200_00);
    const shopper = await shopperWith([{ id: item.id }]);
    const off = await createDiscountCode(db, { active: false });
    expect((await refusal(() => apply(shopper, off.code))).key).toBe("discounts.errors.notActive");

    const window = await createDiscountCode(db, {
      starts_at: "2026-11-10T16:00:00.000Z", // 11 Nov 00:00 in Hong Kong
      ends_at: "2026-11-11T16:00:00.000Z", // 12 Nov 00:00 in Hong Kong
    });
    const early = await refusal(() => apply(shopper, window.code, { at: new Date("2026-11-10T15:59:59Z") }));
    expect(early.key).toBe("discounts.errors.notYetValid");
    expect(await apply(shopper, window.code, { at: new Date("2026-11-10T16:00:00Z") })).toMatchObject({
      discountCents: 20_00,
    });
    const late = await refusal(() => apply(shopper, window.code, { at: new Date("2026-11-11T16:00:00Z") }));
    expect(late.key).toBe("discounts.errors.expired");
  });

  it("says the minimum spend in the cart's currency; other currencies follow HKD unless set", async () => {
    const item = await product(300_00);
    const shopper = await shopperWith([{ id: item.id }]);
    const { code } = await createDiscountCode(db, { min_hkd: 500_00, min_eur: 40_00 });
    const hkd = await refusal(() => apply(shopper, code));
    expect(hkd.problem).toMatchObject({
      key: "discounts.errors.minimum",
      params: { amount: "HK$500.00" },
      field: "code",
    });
    // GBP follows HKD at the shop's rate; EUR is the owner's own amount.
    const gbp = await refusal(() => apply(shopper, code, { currency: "GBP" }));
    expect(gbp.params.amount).toMatch(/^£/);
    expect(gbp.params.amount).not.toBe("£0.00");
    const eur = await refusal(() => apply(shopper, code, { currency: "EUR" }));
    expect(eur.params.amount).toBe("€40.00");

    await addToCart(db, shopper.cartId, { productId: item.id, color: "Black", quantity: "1" });
    expect((await apply(shopper, code)).discountCents).toBe(60_00);
  });

  it("refuses a used-up code and a code this customer already used (by account or by e-mail)", async () => {
    const item = await product(100_00);
    const limited = await createDiscountCode(db, { max_uses: 1 });
    const first = await shopperWith([{ id: item.id }]);
    await apply(first, limited.code);
    await placeOrder(db, TEST_CONFIG, orderInput(first));
    const second = await shopperWith([{ id: item.id }]);
    expect((await refusal(() => apply(second, limited.code))).key).toBe("discounts.errors.usedUp");

    const once = await createDiscountCode(db, { max_uses_per_customer: 1 });
    const buyer = await shopperWith([{ id: item.id }]);
    await apply(buyer, once.code);
    await placeOrder(db, TEST_CONFIG, orderInput(buyer, { customer: { ...CUSTOMER, email: buyer.user.email } }));
    await addToCart(db, buyer.cartId, { productId: item.id, color: "Black", quantity: "1" });
    expect((await refusal(() => apply(buyer, once.code))).key).toBe("discounts.errors.alreadyUsed");

    // Another account whose order goes to the same e-mail: refused when the order is placed.
    const other = await shopperWith([{ id: item.id }]);
    await apply(other, once.code);
    const placed = await refusal(() =>
      placeOrder(
        db,
        TEST_CONFIG,
        orderInput(other, { customer: { ...CUSTOMER, email: buyer.user.email.toUpperCase() } }),
      ),
    );
    expect(placed.problem).toMatchObject({ key: "discounts.errors.alreadyUsed", field: "code" });
    expect(await usesCount(once.id)).toBe(1);
  });

  it("applies a scoped code to its categories' and products' lines only, and refuses a cart without them", async () => {
    const scopes = await createCategory(db);
    const pistols = await scopes;
    const other = await createCategory(db);
    const pistol = await product(100_00, { category_id: pistols.id });
    const chosen = await product(40_00, { category_id: other.id });
    const rifle = await product(500_00, { category_id: other.id });
    const { code } = await createDiscountCode(db, {
      kind: "percent",
      percent_bp: 5000,
      applies_to: "chosen",
      categories: [pistols.id],
      products: [chosen.id],
    });
    const rifleOnly = await shopperWith([{ id: rifle.id }]);
    const notFor = await refusal(() => apply(rifleOnly, code));
    expect(notFor.problem).toMatchObject({ key: "discounts.errors.notForItems", field: "code" });

    const mixed = await shopperWith([{ id: rifle.id }, { id: pistol.id }, { id: chosen.id, quantity: 2 }]);
    const quote = await apply(mixed, code);
    expect(quote.eligibleSubtotalCents).toBe(180_00);
    expect(quote.discountCents).toBe(90_00);
  });

  it("rounds a percentage half up once on the eligible subtotal, and never takes off more than it", async () => {
    const item = await product(33_33);
    const shopper = await shopperWith([{ id: item.id }]);
    const pct = await createDiscountCode(db, { percent_bp: 1250 });
    // 12.5 % of 33.33 = 4.16625 → 4.17
    expect((await apply(shopper, pct.code)).discountCents).toBe(4_17);
    const big = await createDiscountCode(db, { kind: "fixed", percent_bp: null, amount_hkd: 50_00 });
    expect((await apply(shopper, big.code)).discountCents).toBe(33_33);
    const cart = await priceCartDiscount(db, await cartOf(shopper.cartId), {
      rates: RATES,
      shopper: { userId: null, email: null },
    });
    expect(cart.subtotalCents - (cart.discount?.cents ?? 0)).toBe(0);
    // A cart discounted to nothing still pays for delivery.
    expect(cart.shippingCents).toBe(DEFAULT_SHIPPING_RULE.feeCents);
    expect(cart.totalCents).toBe(DEFAULT_SHIPPING_RULE.feeCents);
  });

  it("computes shipping on the discounted subtotal; a free-shipping code makes it nothing", async () => {
    const item = await product(105_00);
    const shopper = await shopperWith([{ id: item.id }]);
    const { code } = await createDiscountCode(db, { percent_bp: 1000 });
    expect((await cartOf(shopper.cartId)).shippingCents).toBe(0); // above HK$100: free
    await apply(shopper, code);
    const discounted = await priceCartDiscount(db, await cartOf(shopper.cartId), {
      rates: RATES,
      shopper: { userId: null, email: null },
    });
    expect(discounted.discount).toEqual({ code, cents: 10_50, freeShipping: false });
    expect(discounted.shippingCents).toBe(10_00); // 94.50 is below the threshold
    expect(discounted.totalCents).toBe(94_50 + 10_00);

    const ship = await createDiscountCode(db, { kind: "free_shipping", percent_bp: null });
    const small = await shopperWith([{ id: (await product(20_00)).id }]);
    await apply(small, ship.code);
    const { order } = await placeOrder(db, TEST_CONFIG, orderInput(small));
    expect(order).toMatchObject({ subtotal_cents: 20_00, discount_cents: 0, shipping_cents: 0, total_cents: 20_00 });
  });

  it("shows a code that stopped applying with its reason and takes nothing off; remove takes it away", async () => {
    const item = await product(200_00);
    const shopper = await shopperWith([{ id: item.id }]);
    const admin = await createCustomer(db);
    const { id, code } = await createDiscountCode(db);
    await apply(shopper, code);
    await setDiscountActive(db, admin, id, false);
    const cart = await priceCartDiscount(db, await cartOf(shopper.cartId), {
      rates: RATES,
      shopper: { userId: null, email: null },
    });
    expect(cart.discount).toBeNull();
    expect(cart.discountProblem).toMatchObject({ key: "discounts.errors.notActive", code });
    expect(cart.totalCents).toBe(200_00);
    expect(await removeCartCode(db, shopper.cartId)).toBe(code);
    expect(await removeCartCode(db, shopper.cartId)).toBeNull();
  });

  it("keeps a code applied before signing in when the carts merge", async () => {
    const item = await product(200_00);
    const anonymous = await createAnonymousCart(db);
    await addToCart(db, anonymous, { productId: item.id, color: "Black", quantity: "1" });
    const { code } = await createDiscountCode(db);
    await applyCartCode(db, await cartOf(anonymous), code, { rates: RATES, shopper: { userId: null, email: null } });
    const user = await createCustomer(db);
    await mergeCarts(db, anonymous, user.id);
    const row = await db.selectFrom("carts").select("discount_code").where("user_id", "=", user.id).executeTakeFirst();
    expect(row?.discount_code).toBe(code);
  });
});

describe("placing an order with a code", () => {
  it("puts the discount on the order, its use and the e-mail, and clears the cart's code", async () => {
    const item = await product(80_00);
    const shopper = await shopperWith([{ id: item.id, quantity: 2 }]);
    const { id, code } = await createDiscountCode(db, { kind: "fixed", percent_bp: null, amount_hkd: 25_00 });
    await apply(shopper, code);
    const { order } = await placeOrder(db, TEST_CONFIG, orderInput(shopper));
    expect(order).toMatchObject({
      discount_code: code,
      discount_cents: 25_00,
      // After the discount (db/schema.ts): the lines' sum is 160.00.
      subtotal_cents: 135_00,
      shipping_cents: 0,
      total_cents: 135_00,
    });
    const use = await db
      .selectFrom("discount_uses")
      .selectAll()
      .where("order_id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(use).toMatchObject({
      discount_id: id,
      user_id: shopper.userId,
      email: "chan@example.com",
      amount_cents: 25_00,
    });
    expect(await usesCount(id)).toBe(1);
    const cart = await db
      .selectFrom("carts")
      .select("discount_code")
      .where("id", "=", shopper.cartId)
      .executeTakeFirst();
    expect(cart?.discount_code).toBeNull();
    const [mail] = await queuedEmails(db, { orderId: order.id, event: "order.placed", audience: "customer" });
    expect(mail?.text).toContain(code);
    expect(mail?.text).toContain("-HK$25.00");
  });

  it("writes the discount line in Chinese in a Chinese order's e-mail", async () => {
    const item = await product(80_00);
    const shopper = await shopperWith([{ id: item.id }]);
    const { code } = await createDiscountCode(db);
    await apply(shopper, code);
    const { order } = await placeOrder(db, TEST_CONFIG, orderInput(shopper, { locale: "zh" }));
    const [mail] = await queuedEmails(db, { orderId: order.id, event: "order.placed", audience: "customer" });
    expect(mail?.text).toContain(`折扣（${code}）`);
  });

  it("lists the discount in the paid, shipped, cancelled, reminder and expired e-mails, in both languages", async () => {
    const item = await product(80_00);
    const { code } = await createDiscountCode(db, { kind: "fixed", percent_bp: null, amount_hkd: 25_00 });
    const admin = await createCustomer(db);
    const placed = async (locale: "en" | "zh") => {
      const shopper = await shopperWith([{ id: item.id, quantity: 2 }]);
      await apply(shopper, code);
      return (await placeOrder(db, TEST_CONFIG, orderInput(shopper, { locale, defaultPaymentWindowHours: 1 }))).order;
    };
    const mailOf = async (orderId: string, event: string) => {
      const mails = await queuedEmails(db, { orderId, event, audience: "customer" });
      expect(mails, event).toHaveLength(1);
      return mails[0]?.text ?? "";
    };
    const english = `Subtotal: HK$160.00 · Discount (${code}): -HK$25.00 · Shipping: Free · Total: HK$135.00`;
    const chinese = `折扣（${code}）: -HK$25.00`;

    const shipped = await placed("en");
    await transitionOrder(db, TEST_CONFIG, admin, {
      orderId: shipped.id,
      transition: "markPaid",
      expected: "pending_payment",
    });
    await transitionOrder(db, TEST_CONFIG, admin, {
      orderId: shipped.id,
      transition: "markShipped",
      expected: "paid",
      trackingNumber: "SF123",
    });
    expect(await mailOf(shipped.id, "order.paid")).toContain(english);
    expect(await mailOf(shipped.id, "order.shipped")).toContain(english);

    const cancelled = await placed("zh");
    await transitionOrder(db, TEST_CONFIG, admin, {
      orderId: cancelled.id,
      transition: "cancel",
      expected: "pending_payment",
    });
    expect(await mailOf(cancelled.id, "order.cancelled")).toContain(chinese);

    const expired = await placed("zh");
    expect(await sendDueReminders(db, TEST_CONFIG, new Date(Date.now() + 40 * 60_000))).toBeGreaterThanOrEqual(1);
    await expireOrder(db, TEST_CONFIG, expired.id, new Date(Date.now() + 2 * 3_600_000));
    expect(await mailOf(expired.id, "order.reminder")).toContain(chinese);
    expect(await mailOf(expired.id, "order.expired")).toContain(chinese);
  });

  it("refuses the order with the reason when the code stopped applying, and keeps the cart", async () => {
    const item = await product(80_00);
    const shopper = await shopperWith([{ id: item.id }]);
    const { id, code } = await createDiscountCode(db);
    await apply(shopper, code);
    await updateDiscount(db, await createCustomer(db), id, {
      ...(await formValues(id)),
      ends_at: "2020-01-01T00:00:00.000Z",
    });
    const error = await refusal(() => placeOrder(db, TEST_CONFIG, orderInput(shopper)));
    expect(error.problem).toMatchObject({ key: "discounts.errors.expired", field: "code" });
    const lines = await db.selectFrom("cart_lines").select("id").where("cart_id", "=", shopper.cartId).execute();
    expect(lines).toHaveLength(1);
    expect(await usesCount(id)).toBe(0);
    expect(await db.selectFrom("orders").select("id").execute()).toEqual([]);
  });

  it("uses a code with 10 uses left exactly 10 times when 50 shoppers pay at the same moment", async () => {
    const item = await product(50_00, { stock: 1000 });
    const { id, code } = await createDiscountCode(db, { max_uses: 12 });
    // Two uses already taken: 10 left.
    for (let i = 0; i < 2; i++) {
      const early = await shopperWith([{ id: item.id }]);
      await apply(early, code);
      await placeOrder(db, TEST_CONFIG, orderInput(early));
    }
    const shoppers = [];
    for (let i = 0; i < 50; i++) {
      const shopper = await shopperWith([{ id: item.id }]);
      await apply(shopper, code);
      shoppers.push(shopper);
    }
    const results = await Promise.allSettled(shoppers.map((s) => placeOrder(db, TEST_CONFIG, orderInput(s))));
    const placed = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(placed).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const { reason } of refused) expect((reason as UserError).key).toBe("discounts.errors.usedUp");
    const carrying = await db.selectFrom("orders").select("id").where("discount_code", "=", code).execute();
    expect(carrying).toHaveLength(12);
    expect(await usesCount(id)).toBe(12);
    const uses = await db.selectFrom("discount_uses").select("id").where("discount_id", "=", id).execute();
    expect(uses).toHaveLength(12);
  });
});

describe("a cancelled or expired order gives its use back once", () => {
  async function orderWithCode(maxUses: number | null = 1) {
    const item = await product(80_00);
    const shopper = await shopperWith([{ id: item.id }]);
    const discount = await createDiscountCode(db, { max_uses: maxUses });
    await apply(shopper, discount.code);
    const { order } = await placeOrder(db, TEST_CONFIG, orderInput(shopper, { defaultPaymentWindowHours: 1 }));
    return { order, discount };
  }

  it("on the admin's cancel: the count goes down once, the use is marked, a second release is a no-op", async () => {
    const { order, discount } = await orderWithCode();
    const admin = await createCustomer(db);
    expect(await usesCount(discount.id)).toBe(1);
    await transitionOrder(db, TEST_CONFIG, admin, {
      orderId: order.id,
      transition: "cancel",
      expected: "pending_payment",
    });
    expect(await usesCount(discount.id)).toBe(0);
    const use = await db
      .selectFrom("discount_uses")
      .select("released_at")
      .where("order_id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(use.released_at).not.toBeNull();
    expect(await db.transaction().execute((trx) => releaseDiscountUse(trx, order.id, new Date()))).toBe(false);
    expect(await usesCount(discount.id)).toBe(0);
    // The use given back can be taken by someone else.
    const item = await product(80_00);
    const next = await shopperWith([{ id: item.id }]);
    await apply(next, discount.code);
  });

  it("paid and expired at the same moment: the use comes back only if the expiry won, and once", async () => {
    for (let round = 0; round < 3; round++) {
      const { order, discount } = await orderWithCode();
      const admin = await createCustomer(db);
      const later = new Date(Date.now() + 2 * 3_600_000);
      const [, paid] = await Promise.allSettled([
        expireOrder(db, TEST_CONFIG, order.id, later),
        transitionOrder(db, TEST_CONFIG, admin, {
          orderId: order.id,
          transition: "markPaid",
          expected: "pending_payment",
        }),
        expireOrder(db, TEST_CONFIG, order.id, later),
      ]);
      const row = await db.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow();
      const use = await db
        .selectFrom("discount_uses")
        .select("released_at")
        .where("order_id", "=", order.id)
        .executeTakeFirstOrThrow();
      if (row.status === "paid") {
        expect(paid.status).toBe("fulfilled");
        expect(await usesCount(discount.id)).toBe(1);
        expect(use.released_at).toBeNull();
      } else {
        expect(row.status).toBe("cancelled");
        expect(await usesCount(discount.id)).toBe(0);
        expect(use.released_at).not.toBeNull();
      }
    }
  });
});

describe("Admin → Discounts", () => {
  it("refuses a code already taken in another case, next to the field", async () => {
    await createDiscountCode(db, { code: "TEAM2026" });
    const error = await refusal(() => createDiscountCode(db, { code: "TEAM2026" }));
    expect(error.problem).toMatchObject({ key: "adminDiscounts.errors.codeTaken", field: "code" });
    const parsed = discountSchema.safeParse({ code: "team2026", kind: "percent", percent: "10", active: "on" });
    expect(parsed.success && parsed.data.code).toBe("TEAM2026");
  });

  it("validates each field next to itself", () => {
    const result = discountSchema.safeParse({
      code: "a",
      kind: "percent",
      percent: "120",
      min_hkd: "abc",
      max_uses: "0",
      starts_at: "2026-11-11T00:00",
      ends_at: "2026-11-10T00:00",
      applies_to: "chosen",
      products: "x",
    });
    expect(result.success).toBe(false);
    const fields = new Set(result.error?.issues.map((issue) => String(issue.path[0])));
    for (const field of ["code", "min_hkd", "max_uses", "products"]) expect(fields).toContain(field);
    const refined = discountSchema.safeParse({
      code: "GOOD1",
      kind: "fixed",
      starts_at: "2026-11-11T00:00",
      ends_at: "2026-11-10T00:00",
      applies_to: "chosen",
    });
    const refinedFields = new Set(refined.error?.issues.map((issue) => String(issue.path[0])));
    for (const field of ["amount_hkd", "ends_at", "categories"]) expect(refinedFields).toContain(field);
    const ok = discountSchema.parse({ code: "hk11", kind: "percent", percent: "12.5", starts_at: "2026-11-11T00:00" });
    expect(ok).toMatchObject({ code: "HK11", percent_bp: 1250, starts_at: "2026-11-10T16:00:00.000Z" });
  });

  it("names the chosen products that do not exist", async () => {
    const error = await refusal(() => createDiscountCode(db, { applies_to: "chosen", products: [999_999] }));
    expect(error.problem).toMatchObject({
      key: "adminDiscounts.errors.productsMissing",
      field: "products",
      params: { ids: "999999" },
    });
  });

  it("lists uses and the revenue of paid orders; deletes only a code never used; audits each change", async () => {
    const admin = await createCustomer(db);
    const item = await product(80_00);
    const { id, code } = await createDiscountCode(db, { max_uses: 5 });
    const buyers = [];
    for (let i = 0; i < 2; i++) {
      const shopper = await shopperWith([{ id: item.id }]);
      await apply(shopper, code);
      buyers.push((await placeOrder(db, TEST_CONFIG, orderInput(shopper))).order);
    }
    await transitionOrder(db, TEST_CONFIG, admin, {
      orderId: buyers[0]!.id,
      transition: "markPaid",
      expected: "pending_payment",
    });
    const [listed] = (await listDiscounts(db)).filter((row) => row.id === id);
    expect(listed).toMatchObject({ code, usesCount: 2, maxUses: 5, status: "active", everUsed: true });
    expect(listed?.revenue).toEqual([{ currency: "HKD", cents: buyers[0]!.total_cents }]);

    const deleteUsed = await refusal(() => deleteDiscount(db, admin, id));
    expect(deleteUsed.key).toBe("adminDiscounts.errors.usedCannotDelete");
    await setDiscountActive(db, admin, id, false);
    expect((await listDiscounts(db)).find((row) => row.id === id)?.status).toBe("inactive");

    const unused = await createDiscountCode(db);
    await updateDiscount(db, admin, unused.id, { ...(await formValues(unused.id)), max_uses: 3 });
    expect((await findDiscount(db, unused.id))?.row.max_uses).toBe(3);
    await deleteDiscount(db, admin, unused.id);
    expect(await findDiscount(db, unused.id)).toBeNull();
    const audit = await db
      .selectFrom("audit_log")
      .select("action")
      .where("entity_type", "=", "discount")
      .orderBy("id")
      .execute();
    expect(audit.map((row) => row.action)).toEqual([
      "discount.created",
      "discount.deactivated",
      "discount.created",
      "discount.updated",
      "discount.deleted",
    ]);
  });
});

/** A stored code's form values (as the edit form would send them back). */
async function formValues(id: number) {
  const detail = await findDiscount(db, id);
  if (!detail) throw new Error("no such code");
  const { row } = detail;
  return {
    code: row.code,
    kind: row.kind,
    percent: "",
    percent_bp: row.percent_bp,
    amount_hkd: row.amount_hkd_cents,
    amount_gbp: row.amount_gbp_cents,
    amount_eur: row.amount_eur_cents,
    amount_usd: row.amount_usd_cents,
    free_shipping: row.free_shipping === 1,
    min_hkd: row.min_hkd_cents,
    min_gbp: row.min_gbp_cents,
    min_eur: row.min_eur_cents,
    min_usd: row.min_usd_cents,
    starts_at: row.starts_at,
    ends_at: row.ends_at,
    max_uses: row.max_uses,
    max_uses_per_customer: row.max_uses_per_customer,
    applies_to: row.applies_to,
    categories: detail.categoryIds,
    products: detail.productIds,
    active: row.active === 1,
  };
}
