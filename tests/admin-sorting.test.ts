import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import {
  ariaSort,
  CUSTOMER_SORTS,
  type ListSort,
  ORDER_SORTS,
  PRODUCT_SORTS,
  parseSort,
  sortHref,
} from "~/lib/list-sort";
import { listCustomers } from "~/models/customers.server";
import { listAdminOrders } from "~/models/orders/desk.server";
import { listAdminProducts } from "~/models/products/admin-list.server";
import type { CurrentUser } from "~/request/auth.server";
import AdminProducts, { loader as productsLoader } from "~/routes/admin/products";
import { createCustomer, createProduct, createSignedIn, placeTestOrder, uniqueTag } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { renderPage } from "./setup/render";
import { runRoute } from "./setup/route";

/**
 * Sortable admin lists (issue 29 item 6, docs/decisions/058): the sort in the query string,
 * whitelisted per list, each column's order on the database (both databases), and the headers'
 * links and aria-sort.
 */

describe("list-sort", () => {
  it("reads a whitelisted column and direction; anything else is the default order", () => {
    const read = (query: string) => parseSort(PRODUCT_SORTS, new URLSearchParams(query));
    expect(read("sort=price&dir=desc")).toEqual({ key: "price", dir: "desc" });
    expect(read("sort=price")).toEqual({ key: "price", dir: "asc" });
    expect(read("sort=name&dir=sideways")).toEqual({ key: "name", dir: "asc" });
    for (const query of ["", "sort=created_at", "sort=price_hkd_cents;drop", "sort=toString", "sort=__proto__"]) {
      expect(read(query)).toEqual({ key: null, dir: "desc" });
    }
    expect(parseSort(ORDER_SORTS, new URLSearchParams("sort=total")).dir).toBe("desc");
    expect(parseSort(CUSTOMER_SORTS, new URLSearchParams("sort=price")).key).toBeNull();
  });

  it("links a header to its sort, the other way when sorted by it, keeping filters and back to page 1", () => {
    const location = { pathname: "/admin/products", search: "?q=rifle&category=3&page=4&sort=price&dir=asc" };
    const sorted: ListSort<"name" | "price"> = { key: "price", dir: "asc" };
    const href = (key: "name" | "price", sort = sorted) =>
      new URL(sortHref(PRODUCT_SORTS, sort, key, location), "http://x");
    const flip = href("price");
    expect(Object.fromEntries(flip.searchParams)).toEqual({ q: "rifle", category: "3", sort: "price", dir: "desc" });
    expect(Object.fromEntries(href("name").searchParams)).toMatchObject({ sort: "name", dir: "asc" });
    expect(href("price", { key: "price", dir: "desc" }).searchParams.get("dir")).toBe("asc");
    expect(ariaSort(sorted, "price")).toBe("ascending");
    expect(ariaSort({ key: "price", dir: "desc" }, "price")).toBe("descending");
    expect(ariaSort(sorted, "name")).toBeUndefined();
  });
});

let svc: TestServices;
let db: DB;
let ADMIN: CurrentUser;
beforeEach(async () => {
  svc = await freshTestServices();
  ({ db } = svc);
  ADMIN = await createSignedIn(db, { email: "sorter@shop.hk", admin: true });
});

describe("the products list sorts", () => {
  async function seed() {
    const tag = uniqueTag();
    const make = (name: string, zh: string, hkd: number, gbp: number) =>
      createProduct(db, {
        name_en: `${tag} ${name}`,
        name_zh: `${tag} ${zh}`,
        price_hkd_cents: hkd,
        price_gbp_cents: gbp,
      });
    // Made in this order: newest first is Charlie, Alpha, Bravo.
    await make("Bravo", "乙", 300_00, 10_00);
    await make("Alpha", "丙", 100_00, 30_00);
    await make("Charlie", "甲", 200_00, 20_00);
    return tag;
  }
  const names = async (
    tag: string,
    sort: ListSort<"name" | "price"> | undefined,
    currency = "HKD" as const,
    language = "en" as const,
  ) =>
    (await listAdminProducts(db, { search: tag, sort, currency, language })).products.map((p) =>
      p.name_en.slice(tag.length + 1),
    );

  it("by name in the admin's language, by price in their currency, both ways", async () => {
    const tag = await seed();
    expect(await names(tag, { key: "name", dir: "asc" })).toEqual(["Alpha", "Bravo", "Charlie"]);
    expect(await names(tag, { key: "name", dir: "desc" })).toEqual(["Charlie", "Bravo", "Alpha"]);
    expect(
      (
        await listAdminProducts(db, { search: tag, sort: { key: "name", dir: "asc" }, currency: "HKD", language: "zh" })
      ).products.map((p) => p.name_zh.slice(-1)),
    ).toEqual(["丙", "乙", "甲"].sort());
    expect(await names(tag, { key: "price", dir: "asc" })).toEqual(["Alpha", "Charlie", "Bravo"]);
    expect(await names(tag, { key: "price", dir: "desc" })).toEqual(["Bravo", "Charlie", "Alpha"]);
    expect(await names(tag, { key: "price", dir: "asc" }, "GBP" as never)).toEqual(["Bravo", "Charlie", "Alpha"]);
  });

  it("the page's address carries the sort; an unknown column is the default order; headers link and mark it", async () => {
    const tag = await seed();
    const load = async (query: string) => {
      const url = `http://localhost/admin/products?q=${encodeURIComponent(tag)}&${query}`;
      const { result, thrown } = await runRoute(svc, productsLoader, new Request(url), ADMIN);
      expect(thrown).toBeUndefined();
      return result as Awaited<ReturnType<typeof productsLoader>>;
    };
    const shown = (data: Awaited<ReturnType<typeof productsLoader>>) =>
      data.products.map((p) => p.name_en.slice(tag.length + 1));
    const byPrice = await load("sort=price&dir=desc");
    expect(shown(byPrice)).toEqual(["Bravo", "Charlie", "Alpha"]);
    expect(byPrice.returnTo).toContain("sort=price&dir=desc");
    expect(shown(await load("sort=stock&dir=asc"))).toEqual(["Charlie", "Alpha", "Bravo"]);
    expect(shown(await load("sort=created_at%20desc--"))).toEqual(["Charlie", "Alpha", "Bravo"]);

    const url = `/admin/products?q=${encodeURIComponent(tag)}&sort=price&dir=desc&page=2`;
    for (const language of ["en", "zh"] as const) {
      const html = await renderPage({ url, Component: AdminProducts, loaderData: byPrice, language });
      expect(html).toMatch(/<th[^>]*aria-sort="descending"[^>]*>.*?data-sort="price"/s);
      expect(html.match(/aria-sort=/g)).toHaveLength(1);
      // The price header sorts the other way; the name header by name; the search stays, the page goes.
      expect(html).toMatch(/data-sort="price" href="\/admin\/products\?q=[^"&]*&amp;sort=price&amp;dir=asc"/);
      expect(html).toMatch(/data-sort="name" href="\/admin\/products\?q=[^"&]*&amp;sort=name&amp;dir=asc"/);
      expect(html).toContain("▼");
      // The search form keeps the sort.
      expect(html).toMatch(/<input type="hidden" name="sort" value="price"\/>/);
    }
  });
});

describe("the orders list sorts", () => {
  it("by total, customer, number, status and date, both ways", async () => {
    const tag = uniqueTag().toLowerCase();
    const product = await createProduct(db, { price_hkd_cents: 100_00, variants: [["Black", 50]] });
    const place = async (local: string, quantity: number) => {
      const user = await createCustomer(db, { email: `sortz-${tag}-${local}@example.com` });
      return (await placeTestOrder(db, { user, lines: [{ productId: product.id, color: "Black", quantity }] })).order;
    };
    const b = await place("b", 3);
    const c = await place("c", 1);
    const a = await place("a", 2);
    await db.updateTable("orders").set({ status: "shipped" }).where("id", "=", b.id).execute();
    await db.updateTable("orders").set({ status: "cancelled" }).where("id", "=", c.id).execute();
    const order = async (key: keyof typeof ORDER_SORTS, dir: "asc" | "desc") =>
      (await listAdminOrders(db, { status: null, q: `sortz-${tag}`, page: 1, sort: { key, dir } })).orders.map((row) =>
        row.email.split("-").at(-1)?.charAt(0),
      );
    expect(await order("total", "asc")).toEqual(["c", "a", "b"]);
    expect(await order("total", "desc")).toEqual(["b", "a", "c"]);
    expect(await order("customer", "asc")).toEqual(["a", "b", "c"]);
    expect(await order("customer", "desc")).toEqual(["c", "b", "a"]);
    expect(await order("number", "asc")).toEqual(
      [a, b, c]
        .sort((x, y) => (x.order_number < y.order_number ? -1 : 1))
        .map((o) => o.email.split("-").at(-1)?.charAt(0)),
    );
    // Status by its stored name: cancelled, pending_payment, shipped.
    expect(await order("status", "asc")).toEqual(["c", "a", "b"]);
    expect(await order("status", "desc")).toEqual(["b", "a", "c"]);
    expect(await order("date", "asc")).toEqual(["b", "c", "a"]);
    // No sort: newest first.
    expect(
      (await listAdminOrders(db, { status: null, q: `sortz-${tag}`, page: 1 })).orders.map((row) => row.email),
    ).toEqual([a.email, c.email, b.email]);
  });
});

describe("the customers list sorts", () => {
  it("by e-mail and by status (then e-mail), both ways", async () => {
    const tag = uniqueTag().toLowerCase();
    const made = [];
    for (const local of ["bob", "ann", "cat"])
      made.push(await createCustomer(db, { email: `sorty-${tag}-${local}@example.com` }));
    await db
      .updateTable("users")
      .set({ status: "inactive" })
      .where("id", "=", made[0]?.id ?? "")
      .execute();
    const order = async (key: keyof typeof CUSTOMER_SORTS, dir: "asc" | "desc") =>
      (await listCustomers(db, { search: `sorty-${tag}`, sort: { key, dir } })).customers.map((row) =>
        row.email.split("-").at(-1)?.slice(0, 3),
      );
    expect(await order("email", "asc")).toEqual(["ann", "bob", "cat"]);
    expect(await order("email", "desc")).toEqual(["cat", "bob", "ann"]);
    expect(await order("status", "asc")).toEqual(["ann", "cat", "bob"]);
    expect(await order("status", "desc")).toEqual(["bob", "cat", "ann"]);
  });
});
