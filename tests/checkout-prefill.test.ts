import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { now } from "#db/connect.server";
import { SEED_CATEGORIES } from "#db/seed/catalogue";
import en from "~/locales/en/translation";
import zh from "~/locales/zh/translation";
import { findLastOrderContact } from "~/models/orders/place.server";
import type { CurrentUser } from "~/request/auth.server";
import { sessionContext, setSessionValue } from "~/request/session.server";
import { loader as checkoutLoader } from "~/routes/store/checkout";
import { checkoutSchema } from "~/schemas/checkout";
import { createSignedIn, uniqueTag } from "./factories";
import { createTestServices } from "./setup/db";
import { routeContext, runRoute } from "./setup/route";

/**
 * A returning customer's checkout starts from their last order (name, phone, address), read on
 * the server; a signed-out shopper or a first order starts empty.
 */

const svc = await createTestServices();
const { db } = svc;

/**
 * An order written as a row: these tests need orders at given times (and a guest's), which
 * `placeOrder` (always now, always a signed-in buyer) does not make.
 */
async function placeRawOrder(userId: string | null, fields: Record<string, string | null>, createdAt: string) {
  await db
    .insertInto("orders")
    .values({
      id: crypto.randomUUID(),
      order_number: `ORD-${Date.now()}-${uniqueTag()}`,
      user_id: userId,
      status: "pending_payment",
      currency: "HKD",
      locale: "en",
      subtotal_cents: 100_00,
      shipping_cents: 0,
      total_cents: 100_00,
      first_name: "First",
      last_name: "Last",
      email: "someone@example.com",
      address: "Somewhere",
      city: "Somewhere",
      country: "Hong Kong",
      ...fields,
      created_at: createdAt,
      updated_at: createdAt,
    })
    .execute();
}

const newCustomer = (): Promise<CurrentUser> => createSignedIn(db);

const checkoutRequest = () => new Request("http://localhost/checkout");

describe("findLastOrderContact", () => {
  it("is undefined before the first order", async () => {
    const user = await newCustomer();
    expect(await findLastOrderContact(db, user.id)).toBeUndefined();
  });

  it("reads the newest order of that customer only", async () => {
    const user = await newCustomer();
    const other = await newCustomer();
    await placeRawOrder(user.id, { first_name: "Old", address: "1 Old Street" }, "2026-01-01T00:00:00.000Z");
    await placeRawOrder(
      user.id,
      {
        first_name: "Tai Man",
        last_name: "Chan",
        phone: "+852 9123 4567",
        address: "Flat A, 12/F, 1 Nathan Road",
        city: "Tsim Sha Tsui",
        postal_code: null,
        country: "Hong Kong",
      },
      "2026-03-01T00:00:00.000Z",
    );
    await placeRawOrder(other.id, { first_name: "Someone else" }, "2026-06-01T00:00:00.000Z");
    await placeRawOrder(null, { first_name: "Guest" }, "2026-07-01T00:00:00.000Z");
    expect(await findLastOrderContact(db, user.id)).toEqual({
      first_name: "Tai Man",
      last_name: "Chan",
      phone: "+852 9123 4567",
      address: "Flat A, 12/F, 1 Nathan Road",
      city: "Tsim Sha Tsui",
      postal_code: null,
      country: "Hong Kong",
    });
  });
});

describe("checkout loader", () => {
  it("fills a returning customer's form from their last order, with their account e-mail", async () => {
    const user = await newCustomer();
    await placeRawOrder(
      user.id,
      {
        first_name: "Siu Ming",
        last_name: "Wong",
        email: "old-address@example.com",
        phone: "91234567",
        address: "Room 3, 5/F, 8 Queen's Road",
        city: "Central",
        postal_code: "000",
        country: "Hong Kong",
        notes: "Leave at the door",
      },
      now(),
    );
    const { result, thrown } = await runRoute(svc, checkoutLoader, checkoutRequest(), user);
    expect(thrown).toBeUndefined();
    expect(result?.signedIn).toBe(true);
    expect(result?.defaults).toEqual({
      firstName: "Siu Ming",
      lastName: "Wong",
      email: user.email,
      phone: "91234567",
      address: "Room 3, 5/F, 8 Queen's Road",
      city: "Central",
      postalCode: "000",
      country: "HK",
    });
  });

  it("starts from the language's country for a first order and for a signed-out shopper", async () => {
    const first = await runRoute(svc, checkoutLoader, checkoutRequest(), await newCustomer());
    expect(first.result?.defaults).toEqual({ country: "HK", email: expect.stringMatching(/@example\.com$/) });
    const signedOut = await runRoute(svc, checkoutLoader, checkoutRequest(), null);
    expect(signedOut.result?.signedIn).toBe(false);
    expect(signedOut.result?.defaults).toEqual({ country: "HK", email: "" });
  });

  it("prefers what the shopper typed this time over the last order", async () => {
    const user = await newCustomer();
    await placeRawOrder(user.id, { first_name: "From the last order" }, now());
    const ctx = routeContext(svc, user);
    setSessionValue(ctx.get(sessionContext), "checkoutDraft", { firstName: "Typed just now", city: "Mong Kok" });
    const { result } = await runRoute(svc, checkoutLoader, checkoutRequest(), user, {}, ctx);
    expect(result?.defaults.firstName).toBe("Typed just now");
    expect(result?.defaults.city).toBe("Mong Kok");
    expect(result?.defaults.address).toBeUndefined();
  });
});

describe("checkout address", () => {
  it("joins the lines of a multi-line street address with commas", () => {
    const base = { firstName: "A", lastName: "B", email: "a@example.com", city: "C", country: "Hong Kong" };
    const parse = (address: string) => checkoutSchema.parse({ ...base, address }).address;
    expect(parse("Flat A, 12/F,\n1 Nathan Road")).toBe("Flat A, 12/F, 1 Nathan Road");
    expect(parse("Flat A 12/F\r\n\r\n  1 Nathan Road  ")).toBe("Flat A 12/F, 1 Nathan Road");
    expect(parse("Flat A, 12/F, 1 Nathan Road")).toBe("Flat A, 12/F, 1 Nathan Road");
  });
});

describe("one Chinese term for New Arrivals", () => {
  it("is the same on the storefront buttons, the listing title and the seeded category", () => {
    const seeded = SEED_CATEGORIES.find((category) => category.slug === "new-arrivals");
    expect(seeded?.name_en).toBe(en.catalog.newArrivals);
    expect(zh.home.newArrivals).toBe(seeded?.name_zh);
    expect(zh.catalog.newArrivals).toBe(seeded?.name_zh);
  });
});
