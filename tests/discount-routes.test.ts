import { beforeEach, describe, expect, it } from "vitest";
import { addToCart, cartIdForUser } from "~/models/cart.server";
import { action as formAction, loader as formLoader } from "~/routes/admin/discount-form";
import { action as listAction, loader as listLoader } from "~/routes/admin/discounts";
import { loader as cartLoader } from "~/routes/store/cart";
import { action as codeAction } from "~/routes/store/cart-code";
import { createDiscountCode, createProduct, createSignedIn } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { adminAccount, dataOf, formOf, routeContext, runRoute, statusOf } from "./setup/route";

/**
 * The routes of discount codes (docs/decisions/048): Admin → Discounts for the owner and staff
 * (customers refused), the form's messages next to their fields with the input kept, and the
 * shopper's code field posting to /cart/code with and without JavaScript.
 */

let svc: TestServices;
beforeEach(async () => {
  svc = await freshTestServices();
});

const BASE = "http://localhost";
const post = (path: string, fields: Record<string, string | string[]>) =>
  new Request(`${BASE}${path}`, { method: "POST", body: formOf(fields) });

const NEW_CODE = { code: "staff11", kind: "percent", percent: "11", applies_to: "all", active: "on" };

describe("Admin → Discounts: who may", () => {
  it("lets staff list, add and deactivate codes; each change is audited under their name", async () => {
    const staff = await adminAccount(svc, "staff");
    const created = await runRoute(svc, formAction, post("/admin/discounts/new", NEW_CODE), staff);
    expect(created.thrown).toBeUndefined();
    expect((created.result as Response).headers.get("Location")).toBe("/admin/discounts");
    expect(created.flash).toMatchObject({ key: "adminDiscounts.created" });
    const row = await svc.db
      .selectFrom("discount_codes")
      .selectAll()
      .where("code", "=", "STAFF11")
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ percent_bp: 1100, active: 1 });

    const list = await runRoute(svc, listLoader, new Request(`${BASE}/admin/discounts`), staff);
    expect(list.thrown).toBeUndefined();
    expect((list.result as { codes: { code: string }[] }).codes.map((code) => code.code)).toEqual(["STAFF11"]);

    const off = await runRoute(
      svc,
      listAction,
      post("/admin/discounts", { intent: "deactivate", id: String(row.id) }),
      staff,
    );
    expect(off.flash).toMatchObject({ key: "adminDiscounts.deactivated" });
    const audit = await svc.db
      .selectFrom("audit_log")
      .select(["action", "actor_user_id"])
      .where("entity_type", "=", "discount")
      .orderBy("id")
      .execute();
    expect(audit).toEqual([
      { action: "discount.created", actor_user_id: staff.id },
      { action: "discount.deactivated", actor_user_id: staff.id },
    ]);
  });

  it("refuses customers and signed-out visitors, changing nothing", async () => {
    const customer = await createSignedIn(svc.db);
    const { id } = await createDiscountCode(svc.db);
    for (const who of [customer, null]) {
      const page = await runRoute(svc, listLoader, new Request(`${BASE}/admin/discounts`), who);
      expect(page.result).toBeUndefined();
      expect([302, 403]).toContain(statusOf(page.thrown));
      const write = await runRoute(
        svc,
        listAction,
        post("/admin/discounts", { intent: "delete", id: String(id) }),
        who,
      );
      expect(statusOf(write.thrown ?? write.result)).toBe(403);
      const add = await runRoute(svc, formAction, post("/admin/discounts/new", NEW_CODE), who);
      expect(statusOf(add.thrown ?? add.result)).toBe(403);
    }
    expect(await svc.db.selectFrom("discount_codes").select("id").execute()).toHaveLength(1);
  });
});

describe("deleting a code", () => {
  it("asks first (a plain post leads to the confirmation), then deletes an unused code", async () => {
    const owner = await adminAccount(svc, "owner");
    const { id } = await createDiscountCode(svc.db, { code: "GONE1" });
    const first = await runRoute(
      svc,
      listAction,
      post("/admin/discounts", { intent: "delete", id: String(id) }),
      owner,
    );
    expect((first.result as Response).headers.get("Location")).toBe(`/admin/discounts?delete=${id}`);
    const page = await runRoute(svc, listLoader, new Request(`${BASE}/admin/discounts?delete=${id}`), owner);
    expect((page.result as { deleting: string | null }).deleting).toBe("GONE1");
    expect(await svc.db.selectFrom("discount_codes").select("id").execute()).toHaveLength(1);
    const confirmed = await runRoute(
      svc,
      listAction,
      post("/admin/discounts", { intent: "delete", id: String(id), confirmed: "1" }),
      owner,
    );
    expect(confirmed.flash).toMatchObject({ key: "adminDiscounts.deleted" });
    expect(await svc.db.selectFrom("discount_codes").select("id").execute()).toEqual([]);
  });
});

describe("the code form", () => {
  it("answers bad input with 400, each message at its field and the input kept", async () => {
    const owner = await adminAccount(svc, "owner");
    const bad = await runRoute(
      svc,
      formAction,
      post("/admin/discounts/new", {
        code: "a",
        kind: "fixed",
        amount_hkd: "",
        min_hkd: "abc",
        starts_at: "2026-11-11T00:00",
        ends_at: "2026-11-10T00:00",
        applies_to: "all",
      }),
      owner,
    );
    expect(statusOf(bad.result)).toBe(400);
    const { result } = dataOf<{ result: { error: Record<string, string[]>; initialValue: Record<string, string> } }>(
      bad.result,
    );
    expect(Object.keys(result.error)).toEqual(expect.arrayContaining(["code", "amount_hkd", "min_hkd", "ends_at"]));
    expect(result.initialValue).toMatchObject({ code: "a", min_hkd: "abc", starts_at: "2026-11-11T00:00" });
  });

  it("refuses a code already taken (any case) next to the field, 409; edits a code and 404s a missing one", async () => {
    const owner = await adminAccount(svc, "owner");
    const existing = await createDiscountCode(svc.db, { code: "TAKEN1" });
    const taken = await runRoute(svc, formAction, post("/admin/discounts/new", { ...NEW_CODE, code: "taken1" }), owner);
    expect(statusOf(taken.result)).toBe(409);
    expect(dataOf<{ problem: { key: string; field: string } }>(taken.result).problem).toMatchObject({
      key: "adminDiscounts.errors.codeTaken",
      field: "code",
    });

    const page = await runRoute(svc, formLoader, new Request(`${BASE}/admin/discounts/${existing.id}`), owner, {
      id: String(existing.id),
    });
    expect((page.result as { defaults: { code: string; percent: string } }).defaults).toMatchObject({
      code: "TAKEN1",
      percent: "10",
    });
    const saved = await runRoute(
      svc,
      formAction,
      post(`/admin/discounts/${existing.id}`, { ...NEW_CODE, code: "TAKEN1", percent: "15", max_uses: "5" }),
      owner,
      { id: String(existing.id) },
    );
    expect(saved.flash).toMatchObject({ key: "adminDiscounts.updated" });
    const row = await svc.db
      .selectFrom("discount_codes")
      .selectAll()
      .where("id", "=", existing.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ percent_bp: 1500, max_uses: 5 });

    const missing = await runRoute(svc, formLoader, new Request(`${BASE}/admin/discounts/999999`), owner, {
      id: "999999",
    });
    expect(statusOf(missing.thrown)).toBe(404);
  });
});

describe("the shopper's code field (/cart/code)", () => {
  async function shopperWithCart() {
    const user = await createSignedIn(svc.db);
    const product = await createProduct(svc.db, { price_hkd_cents: 200_00, variants: [["Black", 5]] });
    await addToCart(svc.db, await cartIdForUser(svc.db, user.id), {
      productId: product.id,
      color: "Black",
      quantity: "1",
    });
    return user;
  }

  it("without JavaScript: a refused code comes back to the page with its reason and the input kept", async () => {
    const user = await shopperWithCart();
    const ctx = routeContext(svc, user);
    const refused = await runRoute(
      svc,
      codeAction,
      post("/cart/code", { intent: "applyCode", code: "nope-code", redirectTo: "/checkout" }),
      user,
      {},
      ctx,
    );
    expect(statusOf(refused.result)).toBe(303);
    expect((refused.result as Response).headers.get("Location")).toBe("/checkout");
    const page = await runRoute(svc, cartLoader, new Request(`${BASE}/cart`), user, {}, ctx);
    expect((page.result as { codeAttempt: unknown }).codeAttempt).toEqual({
      code: "nope-code",
      problem: { key: "discounts.errors.unknown", field: "code", params: { code: "NOPE-CODE" } },
    });
    // Shown once.
    const again = await runRoute(svc, cartLoader, new Request(`${BASE}/cart`), user, {}, ctx);
    expect((again.result as { codeAttempt: unknown }).codeAttempt).toBeNull();
  });

  it("applies a code (the cart shows the discount line), removes it, and answers a fetcher with data", async () => {
    const user = await shopperWithCart();
    const { code } = await createDiscountCode(svc.db, { percent_bp: 2500 });
    const ctx = routeContext(svc, user);
    const applied = await runRoute(
      svc,
      codeAction,
      post("/cart/code", { intent: "applyCode", code: code.toLowerCase() }),
      user,
      {},
      ctx,
    );
    expect((applied.result as Response).headers.get("Location")).toBe("/cart");
    expect(applied.flash).toMatchObject({ key: "discounts.applied" });
    const page = await runRoute(svc, cartLoader, new Request(`${BASE}/cart`), user, {}, ctx);
    const { cart } = page.result as { cart: { discount: unknown; totalCents: number } };
    expect(cart.discount).toEqual({ code, cents: 50_00, freeShipping: false });
    expect(cart.totalCents).toBe(150_00);

    const fetched = await runRoute(
      svc,
      codeAction,
      post("/cart/code", { intent: "applyCode", code: "", _fetcher: "1" }),
      user,
      {},
      ctx,
    );
    expect(statusOf(fetched.result)).toBe(400);
    expect(dataOf<{ problem: { key: string } }>(fetched.result).problem).toMatchObject({
      key: "discounts.errors.codeRequired",
    });

    const removed = await runRoute(
      svc,
      codeAction,
      post("/cart/code", { intent: "removeCode", redirectTo: "//evil.example" }),
      user,
      {},
      ctx,
    );
    expect((removed.result as Response).headers.get("Location")).toBe("/cart");
    expect(removed.flash).toMatchObject({ key: "discounts.removed" });
    const after = await runRoute(svc, cartLoader, new Request(`${BASE}/cart`), user, {}, ctx);
    expect((after.result as { cart: { discount: unknown } }).cart.discount).toBeNull();
  });
});
