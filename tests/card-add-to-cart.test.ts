import { beforeEach, describe, expect, it } from "vitest";
import { cartIdForUser } from "~/models/cart.server";
import type { CurrentUser } from "~/request/auth.server";
import { action as cartAction } from "~/routes/store/cart";
import { createProduct, createSignedIn } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { formOf, routeContext, runRoute } from "./setup/route";

/*
 * A product card's Add to Cart (docs/decisions/068): the grid has one form (intent, redirectTo)
 * and each card's button sends `add=<productId>:<colour>`; without JavaScript the cart answers
 * with a redirect back to the listing as it was.
 */

const CART = "http://shop.test/cart";

let svc: TestServices;
let shopper: CurrentUser;

beforeEach(async () => {
  svc = await freshTestServices();
  shopper = await createSignedIn(svc.db);
});

/** The shopper's cart lines: product, colour, quantity. */
async function lines(): Promise<[number, string, number][]> {
  const cartId = await cartIdForUser(svc.db, shopper.id);
  const rows = await svc.db
    .selectFrom("cart_lines")
    .select(["product_id", "color", "quantity"])
    .where("cart_id", "=", cartId)
    .orderBy("id")
    .execute();
  return rows.map((row) => [row.product_id, row.color, row.quantity]);
}

const post = (fields: Record<string, string>) => new Request(CART, { method: "POST", body: formOf(fields) });

describe("a card's Add to Cart", () => {
  it("adds the product in the colour its button names, and goes back to the listing", async () => {
    const product = await createProduct(svc.db, {
      variants: [
        ["Black", 0],
        ["Night: Shade", 4],
      ],
    });
    const ctx = routeContext(svc, shopper);
    const answer = await runRoute(
      svc,
      cartAction,
      post({ intent: "add", add: `${product.id}:Night: Shade`, redirectTo: "/category/all?page=2" }),
      shopper,
      {},
      ctx,
    );
    // The listing as it was: no product-page colour choice put on it.
    expect((answer.result as Response).headers.get("Location")).toBe("/category/all?page=2");
    expect(await lines()).toEqual([[product.id, "Night: Shade", 1]]);
  });

  it("refuses an unknown product with the cart's message, and adds nothing", async () => {
    const ctx = routeContext(svc, shopper);
    const answer = await runRoute(
      svc,
      cartAction,
      post({ intent: "add", add: "abc:Black", redirectTo: "/category/all" }),
      shopper,
      {},
      ctx,
    );
    expect((answer.result as Response).headers.get("Location")).toBe("/category/all");
    expect(await lines()).toEqual([]);
  });
});
