import type { KyselyPlugin } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { now } from "#db/connect.server";
import { addToCart, cartIdForUser, createAnonymousCart } from "~/models/cart.server";
import { userContext } from "~/request/auth.server";
import { headerCartCount } from "~/request/cart.server";
import { currencyCookie } from "~/request/currency.server";
import { headerLanguage, languageCookie } from "~/request/language.server";
import {
  commitSession,
  emptySession,
  hashToken,
  type Session,
  sessionContext,
  sessionCookie,
} from "~/request/session.server";
import { type RequestInput, readVisitor, visitorContext } from "~/request/visitor.server";
import { createCustomer, createProduct } from "./factories";
import { createTestContext, createTestServices, type TestServices } from "./setup/db";

/*
 * The one function that turns a request into a visitor (app/request/visitor.server.ts), on a real
 * database (both SQLite and PostgreSQL): the page cache and the middleware both read it.
 */

let svc: TestServices;
let productId: number;
beforeAll(async () => {
  svc = await createTestServices({ shopOwnerEmail: "owner@shop.hk" });
  productId = (
    await createProduct(svc.db, {
      variants: [
        ["Black", 9],
        ["Tan", 9],
      ],
    })
  ).id;
});

function input(overrides: Partial<RequestInput> = {}): RequestInput {
  return {
    url: new URL("http://localhost/category/all"),
    cookie: null,
    acceptLanguage: null,
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0",
    ip: null,
    proxyCountry: null,
    ...overrides,
  };
}

/** Stores `session` the way a request does and answers the Cookie header that carries it. */
async function cookieFor(fill: (session: Session) => void): Promise<string> {
  const session = emptySession();
  fill(session);
  session.dirty = true;
  const cookie = sessionCookie(svc.config.sessionSecret, svc.config.secureCookies);
  const setCookie = await commitSession(svc.db, cookie, session, { ip: null, userAgent: null });
  return setCookie?.split(";")[0] ?? "";
}

/** The Cookie header of a session signed in as `userId`. */
function signedIn(userId: string): Promise<string> {
  return cookieFor((s) => {
    s.userId = userId;
  });
}

/** readVisitor on a database that counts the statements it is sent. */
async function readCounting(request: RequestInput) {
  let statements = 0;
  const counter: KyselyPlugin = {
    transformQuery: (args) => {
      statements++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  const visitor = await readVisitor({ db: svc.db.withPlugin(counter), config: svc.config }, request);
  return { visitor, statements };
}

describe("readVisitor", () => {
  it("without a session cookie: anonymous, English, HKD, no cart, and no statement at all", async () => {
    const { visitor, statements } = await readCounting(input());
    expect(statements).toBe(0);
    expect(visitor).toMatchObject({
      user: null,
      language: "en",
      currency: "HKD",
      cartId: null,
      cartCount: 0,
      bot: false,
      flashPending: false,
    });
    expect(visitor.session.dirty).toBe(false);
  });

  it("a cookie with a bad signature is no session, and nothing to write", async () => {
    const good = await cookieFor((s) => {
      s.data.note = 1;
    });
    const forged = `${good.slice(0, -4)}AAAA`;
    const { visitor } = await readCounting(input({ cookie: forged }));
    expect(visitor.user).toBeNull();
    expect(visitor.session).toMatchObject({ token: null, dirty: false });
  });

  it("a customer: the user and their cart's line count, in one statement", async () => {
    const customer = await createCustomer(svc.db);
    const cartId = await cartIdForUser(svc.db, customer.id);
    await addToCart(svc.db, cartId, { productId, color: "Black", quantity: 2 });
    await addToCart(svc.db, cartId, { productId, color: "Tan", quantity: 1 });
    const cookie = await signedIn(customer.id);
    const { visitor, statements } = await readCounting(input({ cookie }));
    expect(statements).toBe(1);
    expect(visitor.user).toEqual({ id: customer.id, email: customer.email, isAdmin: false, role: null });
    expect(visitor).toMatchObject({ cartId, cartCount: 2 });
  });

  it("a customer without a cart has none, and counts nothing", async () => {
    const customer = await createCustomer(svc.db);
    const cookie = await signedIn(customer.id);
    const { visitor, statements } = await readCounting(input({ cookie }));
    expect(statements).toBe(1);
    expect(visitor).toMatchObject({ cartId: null, cartCount: 0 });
    // Another customer's cart is never theirs.
    const other = await createCustomer(svc.db);
    await addToCart(svc.db, await cartIdForUser(svc.db, other.id), { productId, color: "Black", quantity: 1 });
    expect((await readCounting(input({ cookie }))).visitor).toMatchObject({ cartId: null, cartCount: 0 });
  });

  it("staff by admin_users.user_id, an admin by admin_users.email, the owner by SHOP_OWNER_EMAIL", async () => {
    const staff = await createCustomer(svc.db);
    await svc.db
      .insertInto("admin_users")
      .values({ user_id: staff.id, email: null, role: "staff", created_at: now() })
      .execute();
    const byEmail = await createCustomer(svc.db);
    await svc.db
      .insertInto("admin_users")
      .values({ user_id: null, email: byEmail.email.toUpperCase(), role: "owner", created_at: now() })
      .execute();
    const owner = await createCustomer(svc.db, { email: "Owner@Shop.hk" });
    const roleOf = async (id: string) => (await readVisitor(svc, input({ cookie: await signedIn(id) }))).user;
    expect(await roleOf(staff.id)).toMatchObject({ isAdmin: true, role: "staff" });
    expect(await roleOf(byEmail.id)).toMatchObject({ isAdmin: true, role: "owner" });
    expect(await roleOf(owner.id)).toMatchObject({ isAdmin: true, role: "owner" });
  });

  it("a row naming the user's e-mail wins over one naming only their id", async () => {
    const user = await createCustomer(svc.db);
    await svc.db
      .insertInto("admin_users")
      .values([
        { user_id: user.id, email: null, role: "owner", created_at: now() },
        { user_id: null, email: user.email, role: "staff", created_at: now() },
      ])
      .execute();
    const cookie = await signedIn(user.id);
    expect((await readVisitor(svc, input({ cookie }))).user?.role).toBe("staff");
  });

  it("a blocked customer's session is deleted: anonymous, and the cookie is cleared", async () => {
    const customer = await createCustomer(svc.db);
    const cookie = await signedIn(customer.id);
    await svc.db.updateTable("users").set({ status: "blocked" }).where("id", "=", customer.id).execute();
    const { visitor } = await readCounting(input({ cookie }));
    expect(visitor.user).toBeNull();
    expect(visitor.session).toMatchObject({ userId: null, dirty: true, token: null });
    const left = await svc.db.selectFrom("sessions").select("id").where("user_id", "=", customer.id).execute();
    expect(left).toEqual([]);
  });

  it("an expired session is deleted and cleared the same way", async () => {
    const customer = await createCustomer(svc.db);
    const cookie = await signedIn(customer.id);
    const parsed = await sessionCookie(svc.config.sessionSecret, svc.config.secureCookies).parse(cookie);
    expect(typeof parsed).toBe("string");
    await svc.db
      .updateTable("sessions")
      .set({ expires_at: now(new Date(Date.now() - 1000)) })
      .where("id", "=", hashToken(parsed as string))
      .execute();
    const { visitor } = await readCounting(input({ cookie }));
    expect(visitor.user).toBeNull();
    expect(visitor.session.dirty).toBe(true);
  });

  it("an anonymous cart by the session's id; one a customer has since claimed counts as none", async () => {
    const cartId = await createAnonymousCart(svc.db);
    await addToCart(svc.db, cartId, { productId, color: "Black", quantity: 1 });
    const cookie = await cookieFor((s) => {
      s.data.cartId = cartId;
    });
    const { visitor, statements } = await readCounting(input({ cookie }));
    expect(statements).toBe(2);
    expect(visitor).toMatchObject({ user: null, cartId, cartCount: 1 });

    const claimer = await createCustomer(svc.db);
    await svc.db.updateTable("carts").set({ user_id: claimer.id }).where("id", "=", cartId).execute();
    expect(await readVisitor(svc, input({ cookie }))).toMatchObject({ cartId: null, cartCount: 0 });
  });

  it("a pending flash message is told", async () => {
    const cookie = await cookieFor((s) => {
      s.data.flash = { type: "success", key: "cart.added" };
    });
    expect((await readVisitor(svc, input({ cookie }))).flashPending).toBe(true);
  });

  it("language: ?lng= first, then the cookie, then Accept-Language, then English", async () => {
    const lngCookie = (await languageCookie.serialize("en")).split(";")[0] ?? "";
    const zhCookie = (await languageCookie.serialize("zh")).split(";")[0] ?? "";
    const language = async (o: Partial<RequestInput>) => (await readVisitor(svc, input(o))).language;
    expect(await language({ url: new URL("http://localhost/?lng=zh"), cookie: lngCookie })).toBe("zh");
    expect(await language({ url: new URL("http://localhost/?lng=zh-HK") })).toBe("zh");
    expect(await language({ url: new URL("http://localhost/?lng=fr"), cookie: zhCookie })).toBe("zh");
    expect(await language({ cookie: lngCookie, acceptLanguage: "zh-HK" })).toBe("en");
    expect(await language({ cookie: "lng=garbage", acceptLanguage: "zh-TW" })).toBe("zh");
    expect(await language({ acceptLanguage: "zh-HK,zh;q=0.9,en;q=0.8" })).toBe("zh");
    expect(await language({ acceptLanguage: "fr" })).toBe("en");
  });

  it("Accept-Language by quality, the header's order among equals, q=0 and * naming none", () => {
    const table: [string, string | null][] = [
      ["zh-HK", "zh"],
      ["zh-TW,zh;q=0.9", "zh"],
      ["ZH", "zh"],
      ["en-GB,en;q=0.9,zh;q=0.8", "en"],
      ["fr;q=1, zh;q=0.5, en;q=0.8", "en"],
      ["fr, de", null],
      ["zh;q=0, en", "en"],
      ["*", null],
      ["de, zh-Hant-HK", "zh"],
      ["", null],
    ];
    for (const [header, expected] of table) expect([header, headerLanguage(header)]).toEqual([header, expected]);
  });

  it("currency: the cookie first, then a trusted proxy's country, then HKD", async () => {
    const chosen = (await currencyCookie.serialize("USD")).split(";")[0] ?? "";
    const currency = async (o: Partial<RequestInput>) => (await readVisitor(svc, input(o))).currency;
    expect(await currency({ cookie: chosen, proxyCountry: "GB" })).toBe("USD");
    expect(await currency({ proxyCountry: "GB" })).toBe("GBP");
    expect(await currency({ proxyCountry: "DE" })).toBe("EUR");
    expect(await currency({ proxyCountry: "HK" })).toBe("HKD");
    expect(await currency({})).toBe("HKD");
  });

  it("a crawler is told by its User-Agent", async () => {
    const bot = await readVisitor(svc, input({ userAgent: "Mozilla/5.0 (compatible; Googlebot/2.1)" }));
    expect(bot.bot).toBe(true);
  });

  it("the header's count: the visitor's on a GET, counted again after an action changed the cart", async () => {
    const customer = await createCustomer(svc.db);
    const cartId = await cartIdForUser(svc.db, customer.id);
    await addToCart(svc.db, cartId, { productId, color: "Black", quantity: 1 });
    const visitor = await readVisitor(svc, input({ cookie: await signedIn(customer.id) }));
    expect(visitor.cartCount).toBe(1);
    const context = createTestContext(svc);
    context.set(visitorContext, visitor);
    context.set(userContext, visitor.user);
    context.set(sessionContext, visitor.session);
    // The action of this same request adds a line after the visitor was read.
    await addToCart(svc.db, cartId, { productId, color: "Tan", quantity: 1 });
    expect(await headerCartCount(context, new Request("http://localhost/category/all"))).toBe(1);
    expect(await headerCartCount(context, new Request("http://localhost/cart", { method: "POST" }))).toBe(2);
  });
});
